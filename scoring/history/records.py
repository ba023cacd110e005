"""A group's records at each game: highest score, biggest winning margin, most gold nuggets, most Explorer sets,
most territories closed in one game, longest winning streak — each naming its player, the game and its date.

Kept game after game from the results and facts stored on the seats (:class:`RecordBook`), with the group's other
sums (:mod:`scoring.history.summary`). The first to reach a record holds it: a later equal figure does not take it;
players who reach it in the same game share it, each named. The facts' records (nuggets, Explorer sets, territories)
count Okanagan games played here; an imported play counts in the scores, margins and streaks. A margin is the lowest
winner's points minus the best points placed after the winners; a play whose file ranked a winner below a higher
score placed after them (BG Stats lets a group rank as it likes) gives no margin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Final

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.history.insights import Json
from scoring.history.statistics import PlayedSeat, PlayerKey
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

_FACT_RECORDS: Final = {
    "most_nuggets": "nuggets",
    "most_explorer_sets": "explorer_sets",
    "most_territories_closed": "territories_closed",
}
"""The records of a figure of the event log's facts (:mod:`scoring.history.facts`): games played here only."""


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


@dataclass(frozen=True)
class Held:
    """A record as kept: its figure, the players holding it (by :data:`~scoring.history.statistics.PlayerKey`: the
    names are those of the page that shows it), the game and its day."""

    value: int
    holders: tuple[PlayerKey, ...]
    game_id: int
    day: date


@dataclass
class RecordBook:
    """The records of one game kind, kept game after game (:meth:`add`) in the order the games were played."""

    held: dict[str, Held] = field(default_factory=dict)

    def add(self, seats: Sequence[PlayedSeat], runs: Mapping[PlayerKey, int]) -> None:
        """One more finished game (its seats), the latest; ``runs``: each player's run of wins once it is counted."""
        self._reach_best("highest_score", [(seat, seat.total) for seat in seats])
        for record, fact in _FACT_RECORDS.items():
            self._reach_best(record, [(seat, value) for seat in seats if (value := seat.fact(fact)) is not None])
        winners = [seat for seat in seats if seat.won]
        behind = [seat.total for seat in seats if not seat.won]
        if winners and behind:  # when every player shares the victory, nobody is placed after the winners
            margin = min(seat.total for seat in winners) - max(behind)
            if margin >= 0:  # an imported play may rank a winner below a score placed after them: no margin
                self._reach("biggest_margin", margin, tuple(seat.key for seat in winners), seats[0])
        self._reach_best("longest_streak", [(seat, runs[seat.key]) for seat in seats if runs[seat.key]])

    def _reach_best(self, name: str, figures: Sequence[tuple[PlayedSeat, int]]) -> None:
        """The best of one game's ``figures`` (a seat, its figure) reaches record ``name``, held by every seat that
        has it: two players of one game with the most nuggets share the record, as the winners of a shared victory
        share a margin."""
        if figures:
            best = max(value for _seat, value in figures)
            holders = tuple(seat.key for seat, value in figures if value == best)
            self._reach(name, best, holders, figures[0][0])

    def _reach(self, name: str, value: int, holders: tuple[PlayerKey, ...], seat: PlayedSeat) -> None:
        """The first to reach a figure holds the record: a later equal figure does not take it."""
        best = self.held.get(name)
        if best is None or value > best.value:
            self.held[name] = Held(value, holders, seat.game_id, seat.day)

    def records(self, names: Mapping[PlayerKey, str]) -> list[Record]:
        """The records, in the order of :data:`RECORDS`, their holders by ``names``; a record no game gives is left
        out."""
        return [
            Record(name, held.value, tuple(names[key] for key in held.holders), held.game_id, held.day)
            for name in RECORDS
            if (held := self.held.get(name)) is not None
        ]
