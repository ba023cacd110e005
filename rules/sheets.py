"""What the two end-of-game score sheets share: reading the players, and the ranked result."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from .components import MAX_PLAYERS
from .explanation import Figure, Message, Players, Section, Series, Step
from .explanation import gettext_noop as _
from .fields import Fields, describe
from .ranking import PlayerResult, competition_ranks
from .text import names_problem


def read_players[T](fields: Fields, read_one: Callable[[Fields, str], T]) -> tuple[T, ...]:
    """The sheet's 1 to 4 players, each read by ``read_one(fields, name)``; names distinct."""
    values = fields.array("players")
    if not 1 <= len(values) <= MAX_PLAYERS:
        raise fields.fail("players", Message(_("there must be 1 to 4 players, not {count}"), count=len(values)))
    readers = [Fields(value, fields.error, (f"player {number}",)) for number, value in enumerate(values, start=1)]
    names = [player_name(player, "name") for player in readers]
    problem = names_problem(names)
    if problem is not None:
        raise fields.fail("players", problem)
    players = []
    for player, name in zip(readers, names, strict=True):
        player.where = (name,)
        players.append(read_one(player, name))
        player.done()
    return tuple(players)


def player_name(fields: Fields, key: str) -> str:
    """A player's name as text; whether it may be a name is :func:`rules.text.names_problem`'s to say."""
    name = fields.raw(key)
    if not isinstance(name, str):
        raise fields.fail(key, Message(_("a player's name must be a text, not {value}"), value=describe(name)))
    return name


def read_whole_list(fields: Fields, key: str, low: int, high: int) -> tuple[int, ...]:
    """A list of whole numbers from ``low`` to ``high``."""
    numbers = []
    for item in fields.array(key):
        if isinstance(item, bool) or not isinstance(item, int) or not low <= item <= high:
            raise fields.fail(
                key,
                Message(
                    _("each value must be a whole number from {low} to {high}, not {value}"),
                    low=low,
                    high=high,
                    value=describe(item),
                ),
            )
        numbers.append(item)
    return tuple(numbers)


@dataclass(frozen=True)
class SheetResult:
    """A scored sheet: players in sheet order with ranks, winners and the explanation."""

    format: str
    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...]
    steps: tuple[Step, ...]
    extra: Mapping[str, object] = field(default_factory=dict)
    """Fields beyond the common ones (a solo opponent's score)."""
    decider: Step | None = None
    """The step that decided the first place when players tied on the most points (the last tie-break
    applied, or the place shared); ``None`` when the most points decided."""

    @property
    def standings(self) -> tuple[PlayerResult, ...]:
        """Each player's final result, in sheet order (the solo opponent is not a player: see ``winners``)."""
        return self.players

    def to_json(self) -> dict[str, object]:
        """The ``<game>-result/1`` JSON."""
        return {
            "format": self.format,
            "players": [player.to_json() for player in self.players],
            "winners": list(self.winners),
            **self.extra,
        }

    @property
    def sections(self) -> tuple[Section, ...]:
        """The explanation, one section."""
        return (Section(_("Final scoring"), {}, self.steps),)


def rank_scores(
    unranked: Sequence[tuple[str, Mapping[str, int], int]], ranks: Sequence[int]
) -> tuple[PlayerResult, ...]:
    """Each (name, points, total) with its place."""
    return tuple(
        PlayerResult(name, points, total, rank) for (name, points, total), rank in zip(unranked, ranks, strict=True)
    )


@dataclass(frozen=True)
class Places:
    """The places a sheet's tie-breaks give: each player's (competition ranking, in sheet order), the steps
    that explain the ties, and the step that decided the first place (``None`` when the most points did)."""

    ranks: tuple[int, ...]
    steps: tuple[Step, ...]
    decider: Step | None


def break_ties(
    names: Sequence[str], keys: Sequence[tuple[int, ...]], breaks: Sequence[TieBreak], shared_rule: str
) -> Places:
    """The places from ``keys[i]`` (total, then one figure per tie-break) of ``names[i]``."""
    return Places(
        tuple(competition_ranks(keys)),
        tuple(tie_break_steps(names, keys, breaks, shared_rule)),
        first_place_decider(names, keys, breaks, shared_rule),
    )


def tied_groups(keys: Sequence[tuple[int, ...]], depth: int) -> list[list[int]]:
    """Indices of entries equal on the first ``depth`` figures of their keys, two or more at a time."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for index, key in enumerate(keys):
        groups.setdefault(key[:depth], []).append(index)
    return [group for group in groups.values() if len(group) > 1]


@dataclass(frozen=True)
class TieBreak:
    """One tie-break of a sheet: the rule it applies, what it compares, and each player's figure."""

    rule: str
    label: Message
    """What it compares, e.g. ``most houses``."""
    shown: Sequence[int | bool]
    """Each player's figure: a count, or whether they did it (placed the last tile)."""


def tie_break_steps(
    names: Sequence[str], keys: Sequence[tuple[int, ...]], breaks: Sequence[TieBreak], shared_rule: str
) -> list[Step]:
    """Explain the tie-breaks: ``keys[i]`` is (total, then one figure per tie-break) for ``names[i]``."""
    steps = []
    for depth, tie_break in enumerate(breaks, start=1):
        for group in tied_groups(keys, depth):
            steps.append(
                Step(
                    tie_break.rule,
                    _("{players} are tied; next, {label}: {values}."),
                    {
                        "players": Players(names[index] for index in group),
                        "label": tie_break.label,
                        "values": Series(Figure(names[index], tie_break.shown[index]) for index in group),
                    },
                )
            )
    for group in tied_groups(keys, len(breaks) + 1):
        steps.append(
            Step(
                shared_rule,
                _("{players} are still tied and share the place."),
                {"players": Players(names[index] for index in group)},
            )
        )
    return steps


def first_place_decider(
    names: Sequence[str], keys: Sequence[tuple[int, ...]], breaks: Sequence[TieBreak], shared_rule: str
) -> Step | None:
    """The step of :func:`tie_break_steps` that settled the first place: the deepest tie-break the winner(s)
    reached still tied with someone (or the place shared); ``None`` when one player has the most points."""
    if not keys:
        return None
    best = max(keys)
    for depth in range(len(best), 0, -1):
        top = [index for index, key in enumerate(keys) if key[:depth] == best[:depth]]
        if len(top) > 1:
            # Among ``top``, every figure up to ``depth`` is level: one step per depth, this one the last.
            steps = tie_break_steps(
                [names[index] for index in top],
                [keys[index] for index in top],
                [TieBreak(tie.rule, tie.label, [tie.shown[index] for index in top]) for tie in breaks],
                shared_rule,
            )
            return steps[depth - 1]
    return None
