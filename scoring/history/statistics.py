"""A group's statistics: everything the site counts over its finished games — the group page's line per player,
the statistics page, a player's page, the CSV of plays — is counted here, one way.

A *player* is the group's player (its profile): their plays are the seats linked to it, whatever name the
record gave the seat, and they are shown under the player's current name, so a renamed player keeps their
record on every page. A seat whose player was removed counts under the seat's own name.

Definitions (the statistics page states them too): only finished games count. A player *wins* a game when
ranked first; tied winners each win, so a shared win counts as a win for each of them. *Win rate* = wins /
plays. *Head-to-head*: over the games two players both played, who was ranked higher; equal ranks are ties.
A *streak* is a run of consecutive wins in the order the games were played.

Totals, ranks and score parts are the engine's, stored on each seat when its game finished
(:func:`scoring.standings.store_result`, :func:`scoring.creation.create_games`): nothing is replayed here, and each
function runs the same number of queries however many games the group has.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from itertools import groupby
from operator import itemgetter

from rules import PARTS, name_key
from rules.catalogue import Game as RulesGame
from scoring.history.facts import INDEX, counts_of
from scoring.models import Game, Group, Profile, Seat

OKANAGAN_PARTS = PARTS[RulesGame.OKANAGAN]

type PlayerKey = tuple[int, str]
"""Who a play counts for: ``(profile id, "")``, or ``(0, name key)`` for a seat with no player."""


def player_key(profile_id: int | None, name: str) -> PlayerKey:
    """Who a seat's play counts for: its player, or its name if it has none."""
    return (profile_id, "") if profile_id is not None else (0, name_key(name))


@dataclass(frozen=True)
class PlayedSeat:
    """One player's result in one finished game, as stored when the game finished."""

    game_id: int
    kind: Game.Kind
    day: date
    """The day the game ended (or was entered, if it has no end)."""
    seat: int
    """1 for the first seat, and so on."""
    key: PlayerKey
    profile_id: int | None
    name: str
    """The player's current name (the seat's name if it has no player)."""
    total: int
    rank: int
    players: int
    """How many players the game had."""
    parts: Mapping[str, int]
    """The score's parts: Explorer, objectives, nuggets for Okanagan; the sheet's components otherwise."""
    counts: tuple[int, ...] | None = None
    """What the game's event log gave this player (:mod:`scoring.history.facts`, in the order of its ``FIELDS``), when
    read (``plays(group, facts=True)``) and the game has them: a finished Okanagan game played here."""

    @property
    def won(self) -> bool:
        return self.rank == 1

    def fact(self, name: str) -> int | None:
        """The count ``name`` of :data:`scoring.history.facts.FIELDS` (``None``: no facts)."""
        return None if self.counts is None else self.counts[INDEX[name]]


FIELDS = (
    "game_id",
    "game__kind",
    "game__finished",
    "game__created",
    "position",
    "name",
    "profile_id",
    "profile__name",
    "total",
    "rank",
    "parts",
)


PLAYS_CHUNK = 2000
"""How many seats :func:`plays` reads at a time: memory does not grow with the group."""


def plays(group: Group, *, facts: bool = False) -> Iterator[PlayedSeat]:
    """Every play of the group's finished games, in the order the games were played (then seat order), from one
    query read :data:`PLAYS_CHUNK` seats at a time; with ``facts``, each with what its game's event log gave it."""
    rows = (
        Seat.objects.filter(game__group=group, game__status=Game.Status.FINISHED)
        .exclude(rank=None)
        .exclude(total=None)
        .order_by("game__finished", "game__created", "game_id", "position")
        .values_list(*FIELDS, *(["facts"] if facts else []))
        .iterator(chunk_size=PLAYS_CHUNK)
    )
    for _game_id, game_rows in groupby(rows, key=itemgetter(0)):  # a game's seats come together
        seats = list(game_rows)
        for row in seats:
            game_id, kind, finished, created, position, name, profile_id, profile_name, total, rank, parts = row[:11]
            yield PlayedSeat(
                game_id=game_id,
                kind=Game.Kind(kind),
                day=(finished or created).date(),
                seat=position + 1,
                key=player_key(profile_id, name),
                profile_id=profile_id,
                name=profile_name if profile_name is not None else name,
                total=total,
                rank=rank,
                players=len(seats),
                parts=parts or {},
                counts=counts_of(row[11]) if facts and row[11] else None,
            )


@dataclass
class PlayerStats:
    """One player's record at one game."""

    kind: Game.Kind
    key: PlayerKey
    profile_id: int | None
    name: str
    scores: list[PlayedSeat] = field(default_factory=list)
    """Their plays, in the order the games were played."""

    @property
    def plays(self) -> int:
        return len(self.scores)

    @property
    def wins(self) -> int:
        return sum(score.won for score in self.scores)

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def average(self) -> float:
        return round(sum(score.total for score in self.scores) / self.plays, 1) if self.plays else 0.0

    @property
    def best(self) -> int:
        return max((score.total for score in self.scores), default=0)

    def by_player_count(self) -> list[tuple[int, int, int, float]]:
        """(players at the table, plays, wins, win rate), fewest players first."""
        groups: dict[int, list[PlayedSeat]] = defaultdict(list)
        for score in self.scores:
            groups[score.players].append(score)
        return [
            (count, len(scores), sum(s.won for s in scores), sum(s.won for s in scores) / len(scores))
            for count, scores in sorted(groups.items())
        ]

    def average_parts(self) -> dict[str, float]:
        """The average of each part of the score, over the plays that have their parts (an imported play has its
        total only)."""
        totals: dict[str, int] = defaultdict(int)
        parted = [score for score in self.scores if score.parts]
        for score in parted:
            for part, value in score.parts.items():
                totals[part] += value
        return {part: round(value / len(parted), 1) for part, value in totals.items()}

    def streaks(self) -> tuple[int, int]:
        """(the current run of wins, the longest run of wins), in the order the games were played."""
        current = longest = 0
        for score in self.scores:
            current = current + 1 if score.won else 0
            longest = max(longest, current)
        return current, longest


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the games they both played (``first`` before ``second`` by name)."""

    first: str
    second: str
    games: int
    first_ahead: int
    second_ahead: int
    ties: int


@dataclass(frozen=True)
class GameStats:
    """A group's statistics at one game."""

    kind: Game.Kind
    games: int
    players: list[PlayerStats]
    """Most wins first, then the best win rate, then by name."""
    head_to_head: list[HeadToHead]


def group_stats(group: Group, played: Iterable[PlayedSeat] | None = None) -> list[GameStats]:
    """For each game the group has finished plays of, each player's record and the head-to-heads (from
    ``played``, if the caller has read the plays already)."""
    by_kind: dict[Game.Kind, dict[int, list[PlayedSeat]]] = defaultdict(dict)
    for play in plays(group) if played is None else played:
        by_kind[play.kind].setdefault(play.game_id, []).append(play)
    return [_game_stats(kind, list(by_kind[kind].values())) for kind in Game.Kind if kind in by_kind]


def _game_stats(kind: Game.Kind, games: list[list[PlayedSeat]]) -> GameStats:
    players: dict[PlayerKey, PlayerStats] = {}
    for scores in games:
        for score in scores:
            line = players.setdefault(score.key, PlayerStats(kind, score.key, score.profile_id, score.name))
            line.scores.append(score)
    ordered = sorted(players.values(), key=lambda line: (-line.wins, -line.win_rate, line.name))
    return GameStats(kind, len(games), ordered, _head_to_head(games))


def _head_to_head(games: Iterable[list[PlayedSeat]]) -> list[HeadToHead]:
    tally: dict[tuple[PlayerKey, PlayerKey], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    names: dict[PlayerKey, str] = {}
    for scores in games:
        for a in scores:
            names[a.key] = a.name
            for b in scores:
                if (a.name, a.key) < (b.name, b.key):
                    counts = tally[(a.key, b.key)]
                    counts[0] += 1
                    counts[1 if a.rank < b.rank else 2 if b.rank < a.rank else 3] += 1
    pairs = sorted(tally.items(), key=lambda item: (names[item[0][0]], names[item[0][1]], item[0]))
    return [HeadToHead(names[first], names[second], *counts) for (first, second), counts in pairs]


def player_stats(group: Group, profile: Profile, played: Iterable[PlayedSeat] | None = None) -> list[PlayerStats]:
    """``profile``'s record at each game they have finished plays of, whatever names they played under (from
    ``played``, if the caller has read the plays already)."""
    return [line for stats in group_stats(group, played) for line in stats.players if line.profile_id == profile.pk]


@dataclass(frozen=True)
class PlayerLine:
    """One player's line on the group page: their Okanagan record (``None``: no finished play)."""

    profile: Profile
    plays: int
    wins: int
    average: float | None
    best: int | None


def group_summary(group: Group, profiles: Iterable[Profile]) -> list[PlayerLine]:
    """A line per player of the group (``profiles``) over the finished games of Okanagan, as the statistics
    page counts them: most wins first, then most plays, then by name."""
    okanagan = next((stats for stats in group_stats(group) if stats.kind == Game.Kind.OKANAGAN), None)
    records = {line.profile_id: line for line in okanagan.players} if okanagan is not None else {}
    lines = [
        PlayerLine(profile, record.plays, record.wins, record.average, record.best)
        if (record := records.get(profile.pk)) is not None
        else PlayerLine(profile, 0, 0, None, None)
        for profile in profiles
    ]
    lines.sort(key=lambda line: (-line.wins, -line.plays, line.profile.name))
    return lines
