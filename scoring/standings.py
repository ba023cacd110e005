"""A finished play's one stored source: the engine's standings, stored with the game when it finishes.

Each seat keeps its player's final result as the engine gives it (:class:`rules.PlayerResult`: the total, the
place and the score part by part) and the game keeps the winners as the engine names them (a solo game's
opponent card among them, when it wins): :func:`store_result` writes both, from any game's result. The final
pages, the result image, the BG Stats link and file, and the statistics read that store, never a result
recomputed for them; the winners are said in one sentence, :func:`winner_sentence`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.dispatch import Signal
from django.utils.translation import ngettext

from rules import PARTS, PlayerResult, Result
from rules.catalogue import Game as RulesGame
from scoring.models import Game, Seat
from scoring.wording import WORDS

results_changed = Signal()
"""Sent, inside the transaction, whenever the finished results of a group's games change — a game finished,
reopened, deleted, imported or restored — with ``group`` (the :class:`~scoring.models.Group`) and ``games``
(the games whose result was just stored: empty for a reopened or deleted one). The history's one receiver
(:func:`scoring.history.apps.on_results_changed`) keeps the facts, the ratings and the group's sums, so that no
page recounts them."""


@dataclass(frozen=True)
class StoredResult:
    """A finished game as stored: each player's result in seat (or sheet) order, and the winners."""

    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...]

    @property
    def by_rank(self) -> tuple[PlayerResult, ...]:
        """The players from first place to last; players who share a place stay in seat order."""
        return tuple(sorted(self.players, key=lambda player: player.rank))


def store_result(game: Game, result: Result) -> None:
    """Store the finished ``game``'s ``result`` (an Okanagan result or a score sheet's): each seat's result, whose
    players are the seats in seat order, and the winners; the game's status and end are saved with them."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    game.winners = list(result.winners)
    game.save(update_fields=["winners", "status", "finished"])
    for seat, standing in zip(seats, result.standings, strict=True):
        seat.total, seat.rank, seat.parts = standing.total, standing.rank, dict(standing.points)
    Seat.objects.bulk_update(seats, ["total", "rank", "parts"])
    results_changed.send(Game, group=game.group, games=[game])


def clear_result(game: Game) -> None:
    """Take back the reopened ``game``'s result (it counts again once it finishes again)."""
    game.seats.update(total=None, rank=None, parts={}, facts={})  # a game in progress again shows no facts
    results_changed.send(Game, group=game.group, games=[])


def player_result(kind: str, name: str, total: int, rank: int, parts: dict[str, int] | None) -> PlayerResult:
    """A seat's stored result (its parts in the engine's order: a database may keep a JSON object's keys in
    another)."""
    stored = parts or {}
    return PlayerResult(name, {part: stored[part] for part in PARTS[RulesGame(kind)] if part in stored}, total, rank)


def stored_result(game: Game) -> StoredResult | None:
    """The finished ``game`` as stored, from its seats (prefetched, or one query); ``None`` when a seat has no
    result (a game in progress, or one finished before results were stored and that the rules refuse)."""
    players = []
    for seat in sorted(game.seats.all(), key=lambda seat: seat.position):
        if seat.total is None or seat.rank is None:
            return None
        players.append(player_result(game.kind, seat.name, seat.total, seat.rank, seat.parts))
    return StoredResult(tuple(players), tuple(game.winners)) if players else None


def winner_sentence(winners: Sequence[str]) -> str:
    """The winners in the reader's language, their names joined as the language joins a list: "Winner: Ann",
    "Shared win: Ann, Ben, and Cy" ("Victoire partagée : Ann, Ben et Cy"); empty when there are none."""
    if not winners:
        return ""
    names = WORDS.listing(list(winners))
    return ngettext("Winner: %(names)s", "Shared win: %(names)s", len(winners)) % {"names": names}
