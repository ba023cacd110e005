"""The rules catalogue: every rule the engine applies, with its text and where it comes from.

Explanations cite these ids; the rules reference and the calculators are built from them. Texts
are marked with :func:`gettext_noop` so that the site can translate them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .explanation import gettext_noop as _


class Source(StrEnum):
    """Where a rule comes from, shown to the reader beside it."""

    RULEBOOK = "rulebook"
    """The printed rulebook (the French text) or its printed promo sheet."""
    GAME_HELP = "game_help"
    """A game help or rules summary (Board Game Arena, a players' write-up)."""
    INFERRED = "inferred"
    """Not printed: the app's reading, with the reasoning in the rule's note."""
    HOUSE_RULE = "house_rule"
    """An option a table may switch on; not the default."""
    RECORD_FORMAT = "record_format"
    """A convention of the app's own record or score-sheet format, not a rule of the game."""


class Game(StrEnum):
    """The games the engine scores."""

    OKANAGAN = "okanagan"
    SMALL_ISLANDS = "small_islands"
    COOPER_ISLAND = "cooper_island"


@dataclass(frozen=True)
class Rule:
    """A rule: a stable id, a short text, its section and source."""

    id: str
    section: str
    text: str
    source: Source
    reference: str
    """Where to read it: the document and its heading."""
    note: str = ""
    """For an inferred rule or an option: the reasoning, or the alternative and how to switch."""

    @property
    def game(self) -> Game:
        """The game the rule belongs to, from its id."""
        return Game(self.id.split(".")[0])


_FR = "French rulebook"
_PROMO = "Promo tiles sheet"
_SI = "Small Islands, Board Game Arena game help"
_CI = "Cooper Island, rules write-up (Traditional Chinese)"
_SPEC = "okanagan-record/1"

RULES: Final[tuple[Rule, ...]] = (
    # Okanagan: buildings and influence.
    Rule(
        "okanagan.placement",
        _("Buildings"),
        _(
            "A silo stands in the centre of its tile and counts in every territory touching that centre; a "
            "warehouse stands between two territories of different types and counts in both; a farm counts "
            "in its own territory only."
        ),
        Source.RULEBOOK,
        f"{_FR}, Construire un bâtiment",
    ),
    Rule(
        "okanagan.buildings.counted",
        _("Buildings"),
        _(
            "A building counts once in each territory it stands in: a farm in 1, a warehouse in 2, a silo in "
            "at most 4. So over all the completed territories a player's farms are counted at most as many "
            "times as they have farms, their warehouses at most twice as many, their silos at most 4 times as "
            "many; a record beyond that has an entry mistake."
        ),
        Source.INFERRED,
        f"{_FR}, Construire un bâtiment; Matériel",
        _(
            "Not printed as a rule: it follows from where each building stands and how many each player has. "
            "The silo's 4 is the app's bound: tiles join by their sides (corner connections do not count), so "
            "they are square, and each side shows one territory, so at most 4 territories touch a tile's "
            "centre. The real tiles may show fewer; 4 is the safe bound, which refuses no game played."
        ),
    ),
    Rule(
        "okanagan.influence",
        _("Influence"),
        _(
            "In a completed territory each player has 3 influence per farm, 2 per warehouse and 1 per silo "
            "there. Players with no building there take no part."
        ),
        Source.RULEBOOK,
        f"{_FR}, Calcul de l'influence dans le territoire",
    ),
    Rule(
        "okanagan.influence.order",
        _("Influence"),
        _("Players are ordered from the most influence to the least."),
        Source.RULEBOOK,
        f"{_FR}, Calcul de l'influence dans le territoire",
    ),
    Rule(
        "okanagan.influence.tie",
        _("Influence"),
        _(
            "When players tie on influence, the player who completed the territory orders them, and may put "
            "themself below a tied opponent."
        ),
        Source.RULEBOOK,
        f"{_FR}, Calcul de l'influence (example)",
    ),
    Rule(
        "okanagan.territory.empty",
        _("Influence"),
        _("A completed territory with no building in it: nobody collects and nobody takes a special action."),
        Source.INFERRED,
        "Open question 1",
        _("The rulebook does not say; with no influence there is no order, so no one is last or first."),
    ),
    # Okanagan: the special action.
    Rule(
        "okanagan.special.lowest",
        _("Special action"),
        _(
            "The player last in the order of influence (the lowest, after the tie-break) takes one of the "
            "three special actions on offer."
        ),
        Source.RULEBOOK,
        f"{_FR}, Action spéciale",
    ),
    Rule(
        "okanagan.special.lone",
        _("Special action"),
        _("A player alone in a completed territory must choose: the special action or the rewards, not both."),
        Source.RULEBOOK,
        f"{_FR}, Calcul de l'influence dans le territoire",
    ),
    Rule(
        "okanagan.special.from_supply",
        _("Special action"),
        _(
            "The tokens a special action gives (reward of a shape, two rewards, exchanges) come from the "
            "general supply, not from the territory."
        ),
        Source.INFERRED,
        "Facts file, special actions",
        _("The territory's tokens are collected after the action by the players with influence."),
    ),
    Rule(
        "okanagan.special.reward_of_shape",
        _("Special action"),
        _("+1 reward of your choice, of the shape shown on the tile."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.two_rewards",
        _("Special action"),
        _("+2 rewards of the kind shown on the tile."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.two_rewards.shortage",
        _("Special action"),
        _("When fewer than 2 tokens of that kind are left, take what is left."),
        Source.INFERRED,
        "Open question 3",
        _("The rulebook does not say; the alternative is nothing."),
    ),
    Rule(
        "okanagan.special.choose_first",
        _("Special action"),
        _("Choose your rewards first in this territory, still up to your own influence."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.gold_nugget",
        _("Special action"),
        _("Draw 1 gold nugget card, while cards are left."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.new_objectives",
        _("Special action"),
        _("Draw 2 objective cards, then discard 2."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.gifts",
        _("Special action"),
        _("Every other player gives you one reward of their choice."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.trade",
        _("Special action"),
        _("Swap one of your rewards for one of another player's."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.new_tiles",
        _("Special action"),
        _("Discard the face-up tiles and reveal 3 new ones; no effect on the score."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.exchange_shape",
        _("Special action"),
        _("Twice: give the supply one reward and take one of the same colour and another shape."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    Rule(
        "okanagan.special.exchange_colour",
        _("Special action"),
        _("Twice: give the supply one reward and take one of the same shape and another colour."),
        Source.RULEBOOK,
        f"{_FR}, Actions spéciales",
    ),
    # Okanagan: collection and the supply.
    Rule(
        "okanagan.collect.pool",
        _("Collecting rewards"),
        _(
            "The pool is made of the reward tokens shown in the territory, after the special action; a kind "
            "with no tokens left in the supply cannot be in it."
        ),
        Source.RULEBOOK,
        f"{_FR}, Collecter",
    ),
    Rule(
        "okanagan.collect.order",
        _("Collecting rewards"),
        _(
            "In order of influence, each player takes tokens of their choice, as many as their influence, "
            "while tokens are left; later players may get fewer or none."
        ),
        Source.RULEBOOK,
        f"{_FR}, Collecter les récompenses",
    ),
    Rule(
        "okanagan.collect.all",
        _("Collecting rewards"),
        _("A player takes every token they are entitled to while tokens are left."),
        Source.INFERRED,
        "Open question 5",
        _("The rulebook says a player claims a number of rewards equal to their influence."),
    ),
    Rule(
        "okanagan.supply.exhausted",
        _("Collecting rewards"),
        _("A reward kind whose supply runs out is gone for the rest of the game, for everyone."),
        Source.RULEBOOK,
        f"{_FR}, Collecter les récompenses (note)",
    ),
    # Okanagan: promo tiles, rounds, objectives, corrections.
    Rule(
        "okanagan.promo.volcano",
        _("Promo tiles"),
        _(
            "Whoever plays the Volcano builds nothing, discards a building, and at once takes one of the three "
            "special actions on offer."
        ),
        Source.RULEBOOK,
        _PROMO,
    ),
    Rule(
        "okanagan.promo.beaver_dam",
        _("Promo tiles"),
        _(
            "Whoever plays the Beaver Dam builds nothing, discards a building, and at once takes one reward "
            "token of their choice."
        ),
        Source.RULEBOOK,
        _PROMO,
    ),
    Rule(
        "okanagan.round.end",
        _("Rounds"),
        _(
            "Round 1 ends when every player has built every building of that round; then the round-2 "
            "buildings come into play and each player draws 2 objectives and keeps 3 of their 5."
        ),
        Source.RULEBOOK,
        f"{_FR}, Fin de la manche 1",
    ),
    Rule(
        "okanagan.buildings.round_one",
        _("Rounds"),
        _(
            "Before the end of round 1 only the round-1 buildings stand on the board, so the territories "
            "completed by then count each player's buildings at most as often as their round-1 buildings can "
            "be counted. Round 1 cannot end after more: an end of round 1 recorded late is such a mistake."
        ),
        Source.INFERRED,
        f"{_FR}, Fin de la manche 1",
        _(
            "Not printed as a rule: round 1 ends when every player has built their round-1 buildings, so no "
            "round-2 building stands in a territory completed before it ends."
        ),
    ),
    Rule(
        "okanagan.objectives.keep",
        _("Objectives"),
        _("Each player is dealt 5 objective cards and keeps 3, kept secret until the end."),
        Source.RULEBOOK,
        f"{_FR}, Mise en place",
    ),
    Rule(
        "okanagan.adjust",
        _("Corrections"),
        _(
            "A correction agreed at the table moves tokens or nuggets between a player and the supply; no "
            "holding goes below 0 and the supply limits hold."
        ),
        Source.RECORD_FORMAT,
        _SPEC,
    ),
    Rule(
        "okanagan.adjust.exhausted",
        _("Corrections"),
        _(
            "A correction may take the tokens of an exhausted kind that an earlier correction gave back, and "
            "only those: moving the last token of a kind from one player to another is two corrections, the "
            "first giving it back, the second taking it. For the game the kind stays exhausted."
        ),
        Source.RECORD_FORMAT,
        _SPEC,
    ),
    Rule(
        "okanagan.quick_count",
        _("Quick count"),
        _(
            "A table that did not score territory by territory counts, at the end, what each player holds: "
            "the count sets that player's tokens of each kind and gold nuggets, whatever the earlier events "
            "gave them. The tokens of a kind held by all players stay within the game's tokens of that kind, "
            "and the nuggets within its nugget cards; the kept objective cards are entered as usual."
        ),
        Source.RECORD_FORMAT,
        _SPEC,
    ),
    # Okanagan: final scoring.
    Rule(
        "okanagan.score.explorer",
        _("Final scoring"),
        _("The Explorer card gives 4 VP for each set of 4 rewards of different colours, whatever their shapes."),
        Source.RULEBOOK,
        f"{_FR}, Fin de la partie et score final",
    ),
    Rule(
        "okanagan.score.sets",
        _("Final scoring"),
        _("The number of sets is the smallest count among the rewards a set needs."),
        Source.INFERRED,
        "Facts file, final scoring",
        _("Arithmetic: each set takes one of each."),
    ),
    Rule(
        "okanagan.score.shared_tokens",
        _("Final scoring"),
        _("A reward token counts for every objective card it fits, and for the Explorer card too."),
        Source.RULEBOOK,
        f"{_FR}, Fin de la partie (note)",
    ),
    Rule(
        "okanagan.score.specific",
        _("Final scoring"),
        _("Specific reward card: 3 VP per token of the kind shown."),
        Source.RULEBOOK,
        f"{_FR}, Les cartes objectifs",
    ),
    Rule(
        "okanagan.score.territory",
        _("Final scoring"),
        _("Territory set card: 5 VP per set of the rewards shown, all of one territory's colour."),
        Source.RULEBOOK,
        f"{_FR}, Les cartes objectifs",
    ),
    Rule(
        "okanagan.score.shape",
        _("Final scoring"),
        _("Shape set card: 7 VP per set of the rewards shown, all of one shape."),
        Source.RULEBOOK,
        f"{_FR}, Les cartes objectifs",
    ),
    Rule(
        "okanagan.nuggets.places",
        _("Gold nuggets"),
        _("Gold nuggets: the most score 10 VP, the second 5, the third 2, the fewest 0."),
        Source.RULEBOOK,
        f"{_FR}, Fin de la partie et score final",
    ),
    Rule(
        "okanagan.nuggets.ties",
        _("Gold nuggets"),
        _(
            "Tied players all score the best value of the places they share, and the next player skips "
            "those places: two tied for the most score 10 each and the next scores 2, not 5."
        ),
        Source.RULEBOOK,
        f"{_FR}, Fin de la partie (note)",
    ),
    Rule(
        "okanagan.nuggets.by_place",
        _("Gold nuggets"),
        _("With 2 or 3 players the values go by place: 10 for first, 5 for second, 2 for third."),
        Source.INFERRED,
        "Open question 2",
        _(
            "The rulebook is written for 4; the alternative reading, 'the fewest score 0', is the game "
            "option nugget_ladder = fewest_zero."
        ),
    ),
    Rule(
        "okanagan.nuggets.fewest_zero",
        _("Gold nuggets"),
        _("Option: the players with the fewest nuggets score 0, unless all are tied."),
        Source.HOUSE_RULE,
        "Open question 2",
        _("Switched on by the game option nugget_ladder = fewest_zero."),
    ),
    Rule(
        "okanagan.winner",
        _("Winner"),
        _("The player with the most VP wins."),
        Source.RULEBOOK,
        f"{_FR}, Fin de la partie et score final",
    ),
    Rule(
        "okanagan.winner.tokens",
        _("Winner"),
        _("On a tie in VP, the tied player with the most reward tokens wins; if still tied, they share the victory."),
        Source.RULEBOOK,
        f"{_FR}, Fin de la partie et score final",
    ),
    # Small Islands.
    Rule(
        "small_islands.total",
        _("Final scoring"),
        _(
            "Score = prestige points taken during the game + the values of your discovery tokens + 1 per "
            "port on the 8 tiles around your own ship."
        ),
        Source.GAME_HELP,
        f"{_SI}, Fine del gioco",
    ),
    Rule(
        "small_islands.ports",
        _("Final scoring"),
        _("Grey ships score nobody; a player whose own ship is not on the table scores no ports."),
        Source.GAME_HELP,
        f"{_SI}, Fine del gioco",
    ),
    Rule(
        "small_islands.tie.houses",
        _("Winner"),
        _("On a tie, the player who placed more houses wins."),
        Source.GAME_HELP,
        f"{_SI}, Fine del gioco",
    ),
    Rule(
        "small_islands.tie.ports",
        _("Winner"),
        _("Still tied: the player with more ports around their own ship wins."),
        Source.GAME_HELP,
        f"{_SI}, Fine del gioco",
    ),
    Rule(
        "small_islands.tie.last_tile",
        _("Winner"),
        _("Still tied: the player who placed the last tile wins; otherwise the tied players share."),
        Source.GAME_HELP,
        f"{_SI}, Fine del gioco",
    ),
    Rule(
        "small_islands.solo",
        _("Solo"),
        _(
            "Solo: Alexis scores the base of its card plus its points per house for each of its houses; "
            "you win with more, and a tie goes to more houses, then is shared."
        ),
        Source.INFERRED,
        "small-islands-sheet/1",
        _(
            "The score sheet gives the card's base, points per house and houses; the tie-breaks are "
            "the multiplayer ones that apply to Alexis."
        ),
    ),
    # Cooper Island.
    Rule(
        "cooper_island.logbooks",
        _("Final scoring"),
        _("5 VP per logbook token."),
        Source.GAME_HELP,
        f"{_CI}, 分數計算 1A",
    ),
    Rule(
        "cooper_island.sailing",
        _("Final scoring"),
        _("1 VP per space each ship sailed past the last logbook it reached."),
        Source.GAME_HELP,
        f"{_CI}, 分數計算 1B",
    ),
    Rule(
        "cooper_island.royal_orders",
        _("Final scoring"),
        _(
            "The VP of the royal order cards your workers stand on; one worker per card. In play: all 8 "
            "with 4 players, 6 of the 8 with 3, 4 of cards 1–7 with 2."
        ),
        Source.GAME_HELP,
        f"{_CI}, 遊戲設置 4 and 分數計算 2",
    ),
    Rule(
        "cooper_island.buildings",
        _("Final scoring"),
        _("VP from building cards' end-game conditions."),
        Source.GAME_HELP,
        f"{_CI}, 分數計算 3",
    ),
    Rule(
        "cooper_island.leftovers",
        _("Final scoring"),
        _("1 VP per full 5 of coins, resources, cartographer steps and double-terrain tiles left, together."),
        Source.GAME_HELP,
        f"{_CI}, 分數計算 4",
    ),
    Rule(
        "cooper_island.anchors",
        _("Final scoring"),
        _("−1 VP per anchor token left."),
        Source.GAME_HELP,
        f"{_CI}, 分數計算 5",
    ),
    Rule(
        "cooper_island.tie",
        _("Winner"),
        _("On a tie, the player with fewer empty spaces on their island wins; otherwise they share."),
        Source.GAME_HELP,
        f"{_CI}, 分數計算",
    ),
)

CATALOGUE: Final[dict[str, Rule]] = {rule.id: rule for rule in RULES}
"""Every rule by id."""
