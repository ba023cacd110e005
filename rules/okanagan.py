"""Scoring a whole Okanagan record: the ``okanagan-result/1`` JSON and its explanation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .explanation import Section
from .explanation import gettext_noop as _
from .final_scoring import PARTS, FinalScore, final_score
from .game import EventOutcome, GameState
from .ranking import PlayerResult
from .record import (
    Record,
    parse_record,
)
from .replay import replay

RESULT_FORMAT: Final = "okanagan-result/1"


@dataclass(frozen=True)
class OkanaganResult:
    """A replayed record: the final state, the scores, and what every event did."""

    state: GameState
    final: FinalScore
    hidden_objectives: Mapping[str, int] | None = None
    """The record's hidden objective cards, per player (see :attr:`Record.hidden_objectives`): they
    score nothing here."""

    @property
    def standings(self) -> tuple[PlayerResult, ...]:
        """Each player's final result, in seat order: the parts of :data:`~rules.final_scoring.PARTS`."""
        return tuple(
            PlayerResult(score.name, {part: getattr(score, part) for part in PARTS}, score.total, score.rank)
            for score in self.final.players
        )

    @property
    def winners(self) -> tuple[str, ...]:
        """The winners, in seat order (several when the victory is shared)."""
        return self.final.winners

    def to_json(self) -> dict[str, object]:
        """The ``okanagan-result/1`` JSON."""
        return {
            "format": RESULT_FORMAT,
            "players": [score.to_json() for score in self.final.players],
            "winners": list(self.final.winners),
            "territories": [territory.to_json() for territory in self.state.territories],
            "supply": self.state.supply_to_json(),
        }

    @property
    def sections(self) -> tuple[Section, ...]:
        """The explanation: one section per event, then the final scoring."""
        events = tuple(event_section(outcome) for outcome in self.state.log)
        return (*events, Section(_("Final scoring"), {}, self.final.steps))


def event_section(outcome: EventOutcome) -> Section:
    """The titled explanation of one event."""
    template, params = outcome.event.title
    return Section(template, {"index": outcome.index, **params}, outcome.steps)


def score_record(record: Record) -> OkanaganResult:
    """Replay ``record`` and score the game as it stands after its last event."""
    state = replay(record)
    return OkanaganResult(state, final_score(state), record.hidden_objectives)


def score_okanagan(data: object) -> OkanaganResult:
    """Parse, replay and score an ``okanagan-record/1`` JSON value; :class:`RecordError` if invalid."""
    return score_record(parse_record(data))
