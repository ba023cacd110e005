"""Cooper Island, scored from its end-of-game sheet (``cooper-island-sheet/1``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .errors import CooperIslandError
from .explanation import Message, Step, ngettext_lazy
from .explanation import gettext_noop as _
from .fields import Fields, describe, whole_number
from .sheets import (
    Places,
    SheetResult,
    TieBreak,
    break_ties,
    rank_scores,
    read_players,
    read_whole_list,
)

FORMAT: Final = "cooper-island-sheet/1"
PARTS: Final[tuple[str, ...]] = (
    "logbook_points",
    "sailing_points",
    "royal_order_points",
    "building_points",
    "leftover_points",
    "anchor_points",
)
"""The parts of a Cooper Island score, in the result's order."""
RESULT_FORMAT: Final = "cooper-island-result/1"
LEFTOVERS: Final = ("coins", "resources", "cartographer", "tiles")
LOGBOOK_POINTS: Final = 5
LEFTOVERS_PER_POINT: Final = 5
ROYAL_ORDER_CARDS: Final = range(1, 9)
ROYAL_ORDERS_IN_PLAY: Final[dict[int, tuple[range, int]]] = {
    1: (range(1, 9), 8),
    2: (range(1, 8), 4),
    3: (range(1, 9), 6),
    4: (range(1, 9), 8),
}
"""Player count → (the card numbers that may be in play, how many are in play). Solo is not in the
sources: every card is allowed [I]."""


@dataclass(frozen=True)
class Settler:
    """One player's line of the sheet."""

    name: str
    logbooks: int
    spaces_past_logbook: tuple[int, int]
    royal_orders: Mapping[int, int]
    buildings: int
    leftovers: Mapping[str, int]
    anchors: int
    empty_spaces: int

    def points(self) -> dict[str, int]:
        """Each component's points, in the result's order."""
        return {
            "logbook_points": LOGBOOK_POINTS * self.logbooks,
            "sailing_points": sum(self.spaces_past_logbook),
            "royal_order_points": sum(self.royal_orders.values()),
            "building_points": self.buildings,
            "leftover_points": sum(self.leftovers.values()) // LEFTOVERS_PER_POINT,
            "anchor_points": -self.anchors,
        }


def parse_cooper_island(data: object) -> tuple[Settler, ...]:
    """Parse a ``cooper-island-sheet/1`` JSON value; :class:`CooperIslandError` names player and field."""
    fields = Fields(data, CooperIslandError)
    if fields.raw("format") != FORMAT:
        raise fields.fail(
            "format", Message(_("must be '{format}', not {value}"), format=FORMAT, value=describe(fields.raw("format")))
        )
    players = read_players(fields, _settler)
    fields.done()
    _check_royal_orders(players)
    return players


_CARD_KEYS: Final = {str(card): card for card in ROYAL_ORDER_CARDS}


def _settler(fields: Fields, name: str) -> Settler:
    spaces = read_whole_list(fields, "spaces_past_logbook", 0, 999)
    if len(spaces) != 2:
        raise fields.fail("spaces_past_logbook", Message(_("one number per ship (2), not {count}"), count=len(spaces)))
    orders = {}
    for card, points in fields.mapping("royal_orders").items():
        number = _CARD_KEYS.get(card)  # exactly "1" to "8": not "03", "٣", "²" or "③"
        if number is None:
            raise fields.fail(
                "royal_orders", Message(_("{value} is not a royal order card (1 to 8)"), value=describe(card))
            )
        orders[number] = whole_number(points, 0, 999, lambda message: fields.fail("royal_orders", message))
    leftovers_fields = fields.nested("leftovers")
    leftovers = {key: leftovers_fields.whole(key) for key in LEFTOVERS}
    leftovers_fields.done()
    return Settler(
        name,
        fields.whole("logbooks"),
        (spaces[0], spaces[1]),
        orders,
        fields.whole("buildings"),
        leftovers,
        fields.whole("anchors"),
        fields.whole("empty_spaces"),
    )


def _check_royal_orders(players: tuple[Settler, ...]) -> None:
    allowed, in_play = ROYAL_ORDERS_IN_PLAY[len(players)]
    holder: dict[int, str] = {}
    for player in players:
        for card in sorted(player.royal_orders):
            if card not in allowed:
                raise CooperIslandError(
                    Message(
                        ngettext_lazy(
                            "card {card} is not in play with {count} player",
                            "card {card} is not in play with {count} players",
                        ),
                        card=card,
                        count=len(players),
                    ),
                    (player.name, "royal_orders"),
                )
            if card in holder:
                raise CooperIslandError(
                    Message(_("card {card} holds one worker, already {holder}'s"), card=card, holder=holder[card]),
                    (player.name, "royal_orders"),
                )
            holder[card] = player.name
            if len(holder) > in_play:
                raise CooperIslandError(
                    Message(
                        ngettext_lazy(
                            "only {limit} royal order cards are in play with {count} player, and card {card} "
                            "would be one more",
                            "only {limit} royal order cards are in play with {count} players, and card {card} "
                            "would be one more",
                        ),
                        limit=in_play,
                        count=len(players),
                        card=card,
                    ),
                    (player.name, "royal_orders"),
                )


@dataclass(frozen=True)
class Standing:
    """What Cooper Island's end compares of a player: the total, then the empty spaces left on their island."""

    name: str
    total: int
    empty_spaces: int


def places(standings: Sequence[Standing]) -> Places:
    """The places at the end: most points, then fewer empty spaces; else shared."""
    names = [standing.name for standing in standings]
    keys = [(standing.total, -standing.empty_spaces) for standing in standings]
    breaks = (
        TieBreak(
            "cooper_island.tie",
            Message(_("fewer empty spaces")),
            [standing.empty_spaces for standing in standings],
        ),
    )
    return break_ties(names, keys, breaks, "cooper_island.tie")


def score_cooper_island_sheet(players: tuple[Settler, ...]) -> SheetResult:
    """Score a parsed sheet: each component, the total, and the empty-spaces tie-break."""
    steps: list[Step] = []
    unranked = []
    for player in players:
        points = player.points()
        total = sum(points.values())
        unranked.append((player.name, points, total))
        params = {"player": player.name}
        steps.extend(
            (
                Step(
                    "cooper_island.logbooks",
                    ngettext_lazy(
                        "{player}: {count} logbook × 5 = {points}.", "{player}: {count} logbooks × 5 = {points}."
                    ),
                    params | {"count": player.logbooks, "points": points["logbook_points"]},
                ),
                Step(
                    "cooper_island.sailing",
                    ngettext_lazy(
                        "{player}: {points} space sailed past the last logbooks.",
                        "{player}: {points} spaces sailed past the last logbooks.",
                        "points",
                    ),
                    params | {"points": points["sailing_points"]},
                ),
                Step(
                    "cooper_island.royal_orders",
                    _("{player}: {points} from royal orders."),
                    params | {"points": points["royal_order_points"]},
                ),
                Step(
                    "cooper_island.buildings",
                    _("{player}: {points} from buildings."),
                    params | {"points": points["building_points"]},
                ),
                Step(
                    "cooper_island.leftovers",
                    _("{player}: {count} left over, {points} per full 5."),
                    params | {"count": sum(player.leftovers.values()), "points": points["leftover_points"]},
                ),
                Step(
                    "cooper_island.anchors",
                    ngettext_lazy(
                        "{player}: {count} anchor, {points}.",
                        "{player}: {count} anchors, {points}.",
                    ),
                    params | {"count": player.anchors, "points": points["anchor_points"]},
                ),
            )
        )
    standings = [
        Standing(name, total, player.empty_spaces)
        for (name, _points, total), player in zip(unranked, players, strict=True)
    ]
    ranked = places(standings)
    steps.extend(ranked.steps)
    scores = rank_scores(unranked, ranked.ranks)
    winners = tuple(score.name for score in scores if score.rank == 1)
    return SheetResult(RESULT_FORMAT, scores, winners, tuple(steps), decider=ranked.decider)


def score_cooper_island(data: object) -> SheetResult:
    """Parse and score a ``cooper-island-sheet/1`` JSON value."""
    return score_cooper_island_sheet(parse_cooper_island(data))
