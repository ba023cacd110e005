"""A group's records at each game: highest score, biggest winning margin, most gold nuggets, most Explorer sets,
most territories closed in one game, longest winning streak — each naming its player, the game and its date.

Read from the results and facts stored on the seats, as the statistics read them
(:func:`scoring.history.statistics.plays` with its facts: one query however many games). The first to reach a
record holds it: a later equal figure does not take it. The facts' records (nuggets, Explorer sets, territories)
count Okanagan games played here; an imported play counts in the scores, margins and streaks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import groupby
from typing import Final

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.history.insights import Json
from scoring.history.statistics import PlayedSeat, PlayerKey
from scoring.models import Game
from scoring.wording import WORDS

RECORDS: Final[dict[str, tuple[Promise, Promise]]] = {
    "highest_score": (_("Highest score"), _("The most points a player scored in one game.")),
    "biggest_margin": (
        _("Biggest winning margin"),
        _("The winner's points minus those of the best player placed after them, in one game."),
    ),
    "most_nuggets": (_("Most gold nuggets"), _("The most gold nuggets a player held at the end of one game.")),
    "most_explorer_sets": (
        _("Most Explorer sets"),
        _("The most sets of 4 tokens of different colours a player held at the end of one game."),
    ),
    "most_territories_closed": (
        _("Most territories closed"),
        _("The most territories a player closed in one game."),
    ),
    "longest_streak": (
        _("Longest winning streak"),
        _("The most games of this kind a player won in a row, in the order they were played; the game is the last."),
    ),
}
"""Each record's name and one-sentence definition, in the order the pages show them."""


@dataclass(frozen=True)
class Record:
    """A record: what it is, its figure, who holds it and the game where they reached it."""

    name: str
    """Its key in :data:`RECORDS`."""
    value: int
    players: tuple[str, ...]
    """Who holds it (several winners of one game share a margin)."""
    game_id: int
    day: date

    @property
    def title(self) -> Promise:
        return RECORDS[self.name][0]

    @property
    def definition(self) -> Promise:
        return RECORDS[self.name][1]

    @property
    def names(self) -> str:
        """Who holds it, as the reader's language lists names."""
        return WORDS.listing(list(self.players))

    @property
    def url(self) -> str:
        return reverse("game", kwargs={"game_id": self.game_id})

    def to_data(self) -> dict[str, Json]:
        """The record as JSON data."""
        return {
            "record": self.name,
            "value": self.value,
            "players": list(self.players),
            "game": self.game_id,
            "date": self.day.isoformat(),
            "url": self.url,
        }


def records(kind: Game.Kind, seats: Iterable[PlayedSeat]) -> list[Record]:
    """The records of game ``kind`` among ``seats`` (in the order the games were played), in the order of
    :data:`RECORDS`; a record no game gives is left out."""
    games = [list(seats_of) for _game, seats_of in groupby((s for s in seats if s.kind == kind), lambda s: s.game_id)]
    plays = [seat for game in games for seat in game]
    found = [
        _best("highest_score", plays, lambda seat: seat.total),
        _best_margin(games),
        _best("most_nuggets", plays, _fact("nuggets")),
        _best("most_explorer_sets", plays, _fact("explorer_sets")),
        _best("most_territories_closed", plays, _fact("territories_closed")),
        _longest_streak(plays),
    ]
    return [record for record in found if record is not None]


def _fact(name: str) -> Callable[[PlayedSeat], int | None]:
    return lambda seat: seat.fact(name)


def _best(name: str, plays: Iterable[PlayedSeat], figure: Callable[[PlayedSeat], int | None]) -> Record | None:
    best: Record | None = None
    for seat in plays:
        value = figure(seat)
        if value is not None and (best is None or value > best.value):
            best = Record(name, value, (seat.name,), seat.game_id, seat.day)
    return best


def _best_margin(games: Sequence[list[PlayedSeat]]) -> Record | None:
    best: Record | None = None
    for seats in games:
        winners = [seat for seat in seats if seat.won]
        behind = [seat.total for seat in seats if not seat.won]
        if not winners or not behind:
            continue  # every player shares the victory: nobody is placed after the winners
        margin = winners[0].total - max(behind)
        if best is None or margin > best.value:
            best = Record(
                "biggest_margin", margin, tuple(seat.name for seat in winners), seats[0].game_id, seats[0].day
            )
    return best


def _longest_streak(plays: Iterable[PlayedSeat]) -> Record | None:
    runs: dict[PlayerKey, int] = {}
    best: Record | None = None
    for seat in plays:
        runs[seat.key] = runs.get(seat.key, 0) + 1 if seat.won else 0
        if runs[seat.key] and (best is None or runs[seat.key] > best.value):
            best = Record("longest_streak", runs[seat.key], (seat.name,), seat.game_id, seat.day)
    return best


def records_data(seats: Sequence[PlayedSeat]) -> dict[str, list[dict[str, Json]]]:
    """Every game's records as JSON data, by game kind (the kinds the group has finished games of)."""
    kinds = [kind for kind in Game.Kind if any(seat.kind == kind for seat in seats)]
    return {kind.value: [record.to_data() for record in records(kind, seats)] for kind in kinds}
