"""Small Islands, scored from its end-of-game sheet (``small-islands-sheet/1``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .errors import SmallIslandsError
from .explanation import Message, Step, ngettext_lazy
from .explanation import gettext_noop as _
from .fields import Fields, describe
from .ranking import PlayerResult
from .sheets import (
    Places,
    SheetResult,
    TieBreak,
    break_ties,
    rank_scores,
    read_players,
    read_whole_list,
)

FORMAT: Final = "small-islands-sheet/1"
RESULT_FORMAT: Final = "small-islands-result/1"
HOUSES: Final = 8
MAX_PORTS: Final = 16
DISCOVERY_TOKENS: Final = 12
ALEXIS: Final = "Alexis"
"""The solo opponent's name (the name of its card)."""
PARTS: Final[tuple[str, ...]] = ("prestige_points", "discovery_points", "port_points")
"""The parts of a Small Islands score, in the result's order."""


@dataclass(frozen=True)
class Islander:
    """One player's line of the sheet."""

    name: str
    prestige: int
    discoveries: tuple[int, ...]
    ship_placed: bool
    ports: int
    houses: int

    @property
    def port_points(self) -> int:
        """Ports around the player's own ship; none when the ship is not on the table."""
        return self.ports if self.ship_placed else 0

    @property
    def total(self) -> int:
        """Prestige + discoveries + ports around the own ship."""
        return self.prestige + sum(self.discoveries) + self.port_points

    @property
    def standing(self) -> Standing:
        """What the tie-breaks compare of this line."""
        return Standing(self.name, self.total, self.houses, self.port_points)


@dataclass(frozen=True)
class Standing:
    """What Small Islands' end compares of a player: the total, then houses, then ports around the own ship."""

    name: str
    total: int
    """With the ports."""
    houses: int
    ports: int
    """The ports that score: none when the player's ship is not on the table."""


@dataclass(frozen=True)
class Alexis:
    """The solo opponent, from its card: a base score plus points per house."""

    base: int
    per_house: int
    houses: int

    @property
    def total(self) -> int:
        """Alexis's score."""
        return self.base + self.per_house * self.houses


@dataclass(frozen=True)
class SmallIslandsSheet:
    """A whole sheet."""

    players: tuple[Islander, ...]
    last_tile_by: str | None = None
    alexis: Alexis | None = None


def parse_small_islands(data: object) -> SmallIslandsSheet:
    """Parse a ``small-islands-sheet/1`` JSON value; :class:`SmallIslandsError` names player and field."""
    fields = Fields(data, SmallIslandsError)
    if fields.raw("format") != FORMAT:
        raise fields.fail(
            "format", Message(_("must be '{format}', not {value}"), format=FORMAT, value=describe(fields.raw("format")))
        )
    players = read_players(fields, _islander)
    held = sum(len(player.discoveries) for player in players)
    if held > DISCOVERY_TOKENS:
        raise fields.fail(
            "players",
            Message(
                _("the box holds {limit} discovery tokens, but the players hold {count}"),
                limit=DISCOVERY_TOKENS,
                count=held,
            ),
        )
    last_tile_by = fields.text("last_tile_by") if fields.has("last_tile_by") else None
    if last_tile_by is not None and last_tile_by not in {player.name for player in players}:
        raise fields.fail("last_tile_by", Message(_("'{name}' is not a player of this sheet"), name=last_tile_by))
    alexis = None
    if fields.has("alexis"):
        if len(players) != 1:
            raise fields.fail("alexis", Message(_("Alexis plays only in a solo game (one player)")))
        card = fields.nested("alexis")
        alexis = Alexis(card.whole("base"), card.whole("per_house"), card.whole("houses", 0, HOUSES))
        card.done()
    elif len(players) == 1:
        raise SmallIslandsError(
            Message(_("a solo game needs the Alexis card: 'alexis' with base, per_house and houses"))
        )
    fields.done()
    return SmallIslandsSheet(players, last_tile_by, alexis)


def _islander(fields: Fields, name: str) -> Islander:
    return Islander(
        name=name,
        prestige=fields.whole("prestige"),
        discoveries=read_whole_list(fields, "discoveries", 0, 999),
        ship_placed=fields.boolean("ship_placed"),
        ports=fields.whole("ports", 0, MAX_PORTS),
        houses=fields.whole("houses", 0, HOUSES),
    )


def _keys(standings: Sequence[Standing], last_tile_by: str | None) -> list[tuple[int, ...]]:
    return [
        (standing.total, standing.houses, standing.ports, int(standing.name == last_tile_by)) for standing in standings
    ]


def places(standings: Sequence[Standing], last_tile_by: str | None) -> Places:
    """The places at the end: most points, then most houses, then most ports around the own ship, then
    who placed the last tile; else shared."""
    names = [standing.name for standing in standings]
    breaks = (
        TieBreak("small_islands.tie.houses", Message(_("most houses")), [standing.houses for standing in standings]),
        TieBreak(
            "small_islands.tie.ports",
            Message(_("most ports around their own ship")),
            [standing.ports for standing in standings],
        ),
        TieBreak(
            "small_islands.tie.last_tile",
            Message(_("who placed the last tile")),
            [name == last_tile_by for name in names],
        ),
    )
    return break_ties(names, _keys(standings, last_tile_by), breaks, "small_islands.tie.last_tile")


def _standings(sheet: SmallIslandsSheet) -> list[Standing]:
    return [player.standing for player in sheet.players]


def last_tile_needed(sheet: SmallIslandsSheet) -> bool:
    """Whether players tie for the win on score, houses and ports, so who placed the last tile decides who wins."""
    return bool(last_tile_candidates(sheet))


def last_tile_candidates(sheet: SmallIslandsSheet) -> tuple[str, ...]:
    """The players tied for the win on score, houses and ports, in sheet order: who placed the last tile among
    them wins (empty when it decides nothing; a tie below the first place is shared unless the sheet says who
    placed the last tile)."""
    keys = [key[:3] for key in _keys(_standings(sheet), sheet.last_tile_by)]
    best = max(keys, default=None)
    tied = [index for index, key in enumerate(keys) if key == best]
    return tuple(sheet.players[index].name for index in tied) if len(tied) > 1 else ()


def score_small_islands_sheet(sheet: SmallIslandsSheet) -> SheetResult:
    """Score a parsed sheet: totals, the tie-breaks, and the solo game against Alexis."""
    steps = []
    for player in sheet.players:
        steps.append(
            Step(
                "small_islands.total",
                _("{player}: {prestige} prestige + {discoveries} from discoveries + {ports} ports = {total}."),
                {
                    "player": player.name,
                    "prestige": player.prestige,
                    "discoveries": sum(player.discoveries),
                    "ports": player.port_points,
                    "total": player.total,
                },
            )
        )
        if player.ports and not player.ship_placed:
            steps.append(
                Step(
                    "small_islands.ports",
                    _("{player}'s ship is not on the table: the ports score 0."),
                    {"player": player.name},
                )
            )
    unranked = [
        (
            player.name,
            {
                "prestige_points": player.prestige,
                "discovery_points": sum(player.discoveries),
                "port_points": player.port_points,
            },
            player.total,
        )
        for player in sheet.players
    ]
    if sheet.alexis is not None:
        return _solo(sheet.players[0], sheet.alexis, unranked[0], steps)
    ranked = places(_standings(sheet), sheet.last_tile_by)
    steps.extend(ranked.steps)
    players = rank_scores(unranked, ranked.ranks)
    winners = tuple(score.name for score in players if score.rank == 1)
    return SheetResult(RESULT_FORMAT, players, winners, tuple(steps), decider=ranked.decider)


def _solo(player: Islander, alexis: Alexis, row: tuple[str, dict[str, int], int], steps: list[Step]) -> SheetResult:
    mine, theirs = (player.total, player.houses), (alexis.total, alexis.houses)
    steps.append(
        Step(
            "small_islands.solo",
            ngettext_lazy(
                "Alexis: {base} + {per_house} × {houses} house = {total}.",
                "Alexis: {base} + {per_house} × {houses} houses = {total}.",
                "houses",
            ),
            {"base": alexis.base, "per_house": alexis.per_house, "houses": alexis.houses, "total": alexis.total},
        )
    )
    if mine > theirs:
        winners: tuple[str, ...] = (player.name,)
        steps.append(Step("small_islands.solo", _("{player} beats Alexis."), {"player": player.name}))
    elif mine < theirs:
        winners = (ALEXIS,)
        steps.append(Step("small_islands.solo", _("Alexis beats {player}."), {"player": player.name}))
    else:
        winners = (player.name, ALEXIS)
        steps.append(
            Step(
                "small_islands.solo", _("{player} and Alexis tie on score and houses: shared."), {"player": player.name}
            )
        )
    name, points, total = row
    score = PlayerResult(name, points, total, 1 if mine >= theirs else 2)
    return SheetResult(
        RESULT_FORMAT,
        (score,),
        winners,
        tuple(steps),
        {"alexis": {"total": alexis.total, "houses": alexis.houses}},
        decider=steps[-1] if player.total == alexis.total else None,  # tied on score: the houses decided
    )


def score_small_islands(data: object) -> SheetResult:
    """Parse and score a ``small-islands-sheet/1`` JSON value."""
    return score_small_islands_sheet(parse_small_islands(data))
