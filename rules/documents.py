"""Any document of the specs — a record or a score sheet — scored by its ``format``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, Protocol

from . import cooper_island, final_scoring, record, small_islands
from .catalogue import Game
from .errors import RulesError
from .explanation import Choices, Message, Quoted, Section
from .explanation import gettext_noop as _
from .fields import describe
from .okanagan import score_okanagan
from .ranking import PlayerResult
from .sheets import SheetResult


class Result(Protocol):
    """What every game's result offers: each player's final result, the winners, its JSON and its explanation."""

    @property
    def standings(self) -> tuple[PlayerResult, ...]:
        """Each player's final result, in seat (or sheet) order."""
        ...

    @property
    def winners(self) -> tuple[str, ...]:
        """The winners as the engine names them (a solo game's opponent card among them, when it wins)."""
        ...

    def to_json(self) -> dict[str, object]:
        """The result JSON of the spec."""
        ...

    @property
    def sections(self) -> tuple[Section, ...]:
        """The explanation."""
        ...


FORMATS: Final[dict[Game, str]] = {
    Game.OKANAGAN: record.FORMAT,
    Game.SMALL_ISLANDS: small_islands.FORMAT,
    Game.COOPER_ISLAND: cooper_island.FORMAT,
}
"""Each game's document format: the record of Okanagan, the score sheets of the other two."""

PARTS: Final[dict[Game, tuple[str, ...]]] = {
    Game.OKANAGAN: final_scoring.PARTS,
    Game.SMALL_ISLANDS: small_islands.PARTS,
    Game.COOPER_ISLAND: cooper_island.PARTS,
}
"""Each game's parts of a player's score (the result's ``*_points`` fields), in the result's order."""

SCORERS: Final[dict[str, Callable[[object], Result]]] = {
    record.FORMAT: score_okanagan,
    small_islands.FORMAT: small_islands.score_small_islands,
    cooper_island.FORMAT: cooper_island.score_cooper_island,
}


def score_document(data: object) -> Result:
    """Score a parsed JSON document of any supported format; a :class:`RulesError` if invalid."""
    return _scorer(data, SCORERS)(data)


SHEET_SCORERS: Final[dict[str, Callable[[object], SheetResult]]] = {
    small_islands.FORMAT: small_islands.score_small_islands,
    cooper_island.FORMAT: cooper_island.score_cooper_island,
}


def score_sheet(data: object) -> SheetResult:
    """Score a Small Islands or Cooper Island sheet; a :class:`RulesError` if it is not a valid one."""
    return _scorer(data, SHEET_SCORERS)(data)


def _scorer[R](data: object, scorers: Mapping[str, Callable[[object], R]]) -> Callable[[object], R]:
    """The scorer of ``data``'s format among ``scorers``; a :class:`RulesError` naming the formats."""
    document_format = data.get("format") if isinstance(data, dict) else None
    scorer = scorers.get(document_format) if isinstance(document_format, str) else None
    if scorer is None:
        raise RulesError(
            Message(
                _("the document's 'format' must be one of {formats}, not {value}"),
                formats=Choices(Quoted(name) for name in scorers),
                value=describe(document_format),
            )
        )
    return scorer
