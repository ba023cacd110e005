"""A group's statistics: the plays of its finished games as stored (:func:`plays`, :func:`timeline`) and a
player's record summed play by play (:class:`PlayerStats`) — what the group's sums (:mod:`scoring.history.summary`)
are made of, and the CSV of plays reads.

A *player* is the group's player (its profile): their plays are the seats linked to it, whatever name the
record gave the seat, and they are shown under the player's current name, so a renamed player keeps their
record on every page. A seat whose player was removed counts under the seat's own name.

Definitions (the statistics page states them too): only finished games count. A player *wins* a game when
ranked first; tied winners each win, so a shared win counts as a win for each of them. *Win rate* = wins /
plays. *Head-to-head*: over the games two players both played, who was ranked higher; equal ranks are ties.
A *streak* is a run of consecutive wins in the order the games were played.

Totals, ranks and score parts are the engine's, stored on each seat when its game finished
(:func:`scoring.standings.store_result`, :func:`scoring.creation.create_games`): nothing is replayed here, and each
function runs one query however many games the group has.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import groupby
from operator import itemgetter

from django.db.models import QuerySet
from django.db.models.functions import Coalesce

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
    ended: datetime
    """When the game ended (or was entered, if it has no end)."""
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
    the game has them: a finished Okanagan game played here."""
    rating: tuple[float, float] | None = None
    """Their rating (μ, σ) after this game (:mod:`scoring.history.ratings`): ``None`` for a game of one player."""

    @property
    def day(self) -> date:
        """The day the game ended."""
        return self.ended.date()

    @property
    def won(self) -> bool:
        return self.rank == 1

    def fact(self, name: str) -> int | None:
        """The count ``name`` of :data:`scoring.history.facts.FIELDS` (``None``: no facts)."""
        return None if self.counts is None else self.counts[INDEX[name]]


SCORE_FIELDS = (
    "game_id",
    "game__kind",
    "ended",
    "position",
    "name",
    "profile_id",
    "profile__name",
    "total",
    "rank",
    "parts",
)
"""A play's columns for its score."""
PLAY_FIELDS = (*SCORE_FIELDS, "facts", "rating_mu", "rating_sigma")
"""A play's columns for the history: its score, its facts and its rating."""


PLAYS_CHUNK = 2000
"""How many seats :func:`plays` reads at a time: memory does not grow with the group."""


def in_finish_order(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """``seats`` in the order their games finished (then by game id), each game's seats together in seat order: the
    order the games were played, for the statistics as for the ratings."""
    return seats.annotate(ended=Coalesce("game__finished", "game__created")).order_by("ended", "game_id", "position")


def _played(group: Group) -> QuerySet[Seat]:
    """The seats of the group's finished games that hold their result, in the order the games were played. A game
    of a kind the site does not know (a database edited by hand: ``manage.py check_data`` names it) is left out."""
    seats = Seat.objects.filter(game__group=group, game__status=Game.Status.FINISHED, game__kind__in=Game.Kind.values)
    return in_finish_order(seats.exclude(rank=None).exclude(total=None))


def _rating(mu: float | None, sigma: float | None) -> tuple[float, float] | None:
    return (mu, sigma) if mu is not None and sigma is not None else None


def plays(group: Group, games: Iterable[int] | None = None, *, scores_only: bool = False) -> Iterator[PlayedSeat]:
    """Every play of the group's finished games (of ``games`` only, when given), in the order the games were played
    (then seat order), from one query read :data:`PLAYS_CHUNK` seats at a time; ``scores_only``: without the facts
    and ratings (not read)."""
    seats = _played(group)
    if games is not None:
        seats = seats.filter(game__in=list(games))
    rows = seats.values_list(*(SCORE_FIELDS if scores_only else PLAY_FIELDS)).iterator(chunk_size=PLAYS_CHUNK)
    for _game_id, game_rows in groupby(rows, key=itemgetter(0)):  # a game's seats come together
        seats_of = list(game_rows)
        for row in seats_of:
            game_id, kind, ended, position, name, profile_id, profile_name, total, rank, parts, *history = row
            facts, mu, sigma = history or (None, None, None)
            yield PlayedSeat(
                game_id=game_id,
                kind=Game.Kind(kind),
                ended=ended,
                seat=position + 1,
                key=player_key(profile_id, name),
                profile_id=profile_id,
                name=profile_name if profile_name is not None else name,
                total=total,
                rank=rank,
                players=len(seats_of),
                parts=parts or {},
                counts=counts_of(facts) if facts else None,
                rating=_rating(mu, sigma),
            )


@dataclass(frozen=True)
class Moment:
    """One of a player's finished games, as their page charts it."""

    kind: Game.Kind
    day: date
    total: int
    rating: tuple[float, float] | None
    """Their rating (μ, σ) after it: ``None`` for a game of one player."""


MOMENT_FIELDS = ("game__kind", "ended", "total", "rating_mu", "rating_sigma")


def timeline(group: Group, profile: Profile) -> list[Moment]:
    """``profile``'s finished games in the order they were played: one query, of the few columns a chart needs."""
    rows = _played(group).filter(profile=profile).values_list(*MOMENT_FIELDS)
    return [Moment(Game.Kind(kind), ended.date(), total, _rating(mu, sigma)) for kind, ended, total, mu, sigma in rows]


@dataclass
class PlayerStats:
    """One player's record at one game, summed play by play (:meth:`add`) in the order the games were played."""

    kind: Game.Kind
    key: PlayerKey
    profile_id: int | None
    name: str
    plays: int = 0
    wins: int = 0
    score_sum: int = 0
    best: int = 0
    """Their highest total (0 before their first play)."""
    part_sums: dict[str, int] = field(default_factory=dict)
    """Each part of the score summed over the plays that have their parts (an imported play has its total only)."""
    parted: int = 0
    """How many plays have their parts."""
    by_count: dict[int, list[int]] = field(default_factory=dict)
    """Players at the table → [plays, wins]."""
    current: int = 0
    """The current run of wins."""
    longest: int = 0
    """The longest run of wins."""

    def add(self, play: PlayedSeat) -> None:
        """Count one more play, the latest."""
        self.best = play.total if not self.plays else max(self.best, play.total)
        self.plays += 1
        self.wins += play.won
        self.score_sum += play.total
        if play.parts:
            self.parted += 1
            for part, value in play.parts.items():
                self.part_sums[part] = self.part_sums.get(part, 0) + value
        counted = self.by_count.setdefault(play.players, [0, 0])
        counted[0] += 1
        counted[1] += play.won
        self.current = self.current + 1 if play.won else 0
        self.longest = max(self.longest, self.current)

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def average(self) -> float:
        return round(self.score_sum / self.plays, 1) if self.plays else 0.0

    def by_player_count(self) -> list[tuple[int, int, int, float]]:
        """(players at the table, plays, wins, win rate), fewest players first."""
        return [(count, plays, wins, wins / plays) for count, (plays, wins) in sorted(self.by_count.items())]

    def average_parts(self) -> dict[str, float]:
        """The average of each part of the score, over the plays that have their parts."""
        return {part: round(value / self.parted, 1) for part, value in self.part_sums.items()}

    def streaks(self) -> tuple[int, int]:
        """(the current run of wins, the longest run of wins), in the order the games were played."""
        return self.current, self.longest


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


@dataclass(frozen=True)
class PlayerLine:
    """One player's line on the group page: their Okanagan record (``None``: no finished play)."""

    profile: Profile
    plays: int
    wins: int
    average: float | None
    best: int | None
