"""Statistics of a group's finished games, per game and per player.

Definitions (the page states them too): a player *wins* a game when ranked first; tied winners each
win, so a shared win counts as a win for each of them. *Win rate* = wins / plays. *Head-to-head*: over
the games two players both played, who was ranked higher; equal ranks are ties. A *streak* is a run of
consecutive wins in the order the games were played. Scores and ranks are the engine's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from rules import score_okanagan, score_sheet

from .models import Game, Group

OKANAGAN_PARTS = ("explorer_points", "objective_points", "nugget_points")


@dataclass(frozen=True)
class PlayScore:
    """One player's result in one finished game."""

    game: Game
    name: str
    total: int
    rank: int
    players: int
    parts: dict[str, int]
    """The score's parts: Explorer, objectives, nuggets for Okanagan; the sheet's components otherwise."""

    @property
    def won(self) -> bool:
        return self.rank == 1

    @property
    def day(self) -> date:
        return (self.game.finished or self.game.created).date()


def game_scores(game: Game) -> list[PlayScore]:
    """Each player's result in a finished game, in seat order, as the engine scores it."""
    if game.is_okanagan:
        final = score_okanagan(game.record()).final.players
        count = len(final)
        return [
            PlayScore(game, s.name, s.total, s.rank, count, {part: getattr(s, part) for part in OKANAGAN_PARTS})
            for s in final
        ]
    rows = [score.to_json() for score in score_sheet(game.sheet).players]
    return [
        PlayScore(
            game,
            str(row["name"]),
            int(str(row["total"])),
            int(str(row["rank"])),
            len(rows),
            {key: int(str(value)) for key, value in row.items() if key.endswith("_points")},
        )
        for row in rows
    ]


@dataclass
class PlayerStats:
    """One player's record at one game."""

    name: str
    scores: list[PlayScore] = field(default_factory=list)

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
        groups: dict[int, list[PlayScore]] = defaultdict(list)
        for score in self.scores:
            groups[score.players].append(score)
        return [
            (count, len(scores), sum(s.won for s in scores), sum(s.won for s in scores) / len(scores))
            for count, scores in sorted(groups.items())
        ]

    def average_parts(self) -> dict[str, float]:
        """The average of each part of the score."""
        totals: dict[str, int] = defaultdict(int)
        for score in self.scores:
            for part, value in score.parts.items():
                totals[part] += value
        return {part: round(value / self.plays, 1) for part, value in totals.items()} if self.plays else {}

    def streaks(self) -> tuple[int, int]:
        """(the current run of wins, the longest run of wins), in the order the games were played."""
        current = longest = 0
        for score in self.scores:
            current = current + 1 if score.won else 0
            longest = max(longest, current)
        return current, longest


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the games they both played."""

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
    head_to_head: list[HeadToHead]


def group_stats(group: Group) -> list[GameStats]:
    """For each game the group has finished plays of, each player's record and the head-to-heads."""
    finished = group.games.filter(status=Game.Status.FINISHED).order_by("finished", "created", "pk")
    by_kind: dict[Game.Kind, list[list[PlayScore]]] = defaultdict(list)
    for game in finished.prefetch_related("seats", "events"):
        by_kind[Game.Kind(game.kind)].append(game_scores(game))
    return [_game_stats(kind, by_kind[kind]) for kind in Game.Kind if kind in by_kind]


def _game_stats(kind: Game.Kind, games: list[list[PlayScore]]) -> GameStats:
    players: dict[str, PlayerStats] = {}
    for scores in games:
        for score in scores:
            players.setdefault(score.name, PlayerStats(score.name)).scores.append(score)
    ordered = sorted(players.values(), key=lambda line: (-line.wins, -line.win_rate, line.name))
    return GameStats(kind, len(games), ordered, _head_to_head(games))


def _head_to_head(games: Iterable[list[PlayScore]]) -> list[HeadToHead]:
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for scores in games:
        for a in scores:
            for b in scores:
                if a.name < b.name:
                    counts = tally[(a.name, b.name)]
                    counts[0] += 1
                    counts[1 if a.rank < b.rank else 2 if b.rank < a.rank else 3] += 1
    return [HeadToHead(first, second, *counts) for (first, second), counts in sorted(tally.items())]
