"""The engine's exceptions: one per game, all ``ValueError``, with a message a player understands."""

from __future__ import annotations

from .explanation import Message


class RulesError(ValueError):
    """Base of every rules error: a message and where it happened (event, player, field).

    The message is a :class:`~rules.explanation.Message` (a template and its params), never English
    written out, so that the site can say it in the reader's language.

    ``str(error)`` joins the place and the message, e.g.
    ``event 3 (territory): picks: Ben took 3 tokens but may take 2``.
    """

    def __init__(self, message: Message, where: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return ": ".join((*self.where, self.message))


class RecordError(RulesError):
    """An invalid Okanagan record (``okanagan-record/1``) or an illegal choice in a territory.

    ``event_index`` and ``event_type`` name the event when the error belongs to one.
    """

    def __init__(
        self,
        message: Message,
        where: tuple[str, ...] = (),
        *,
        event_index: int | None = None,
        event_type: str | None = None,
    ) -> None:
        super().__init__(message, where)
        self.event_index = event_index
        self.event_type = event_type

    def in_event(self, index: int, event_type: str) -> RecordError:
        """The same error, placed in event ``index`` of type ``event_type``."""
        place = f"event {index} ({event_type})" if event_type else f"event {index}"
        return RecordError(self.message, (place, *self.where), event_index=index, event_type=event_type)


class SmallIslandsError(RulesError):
    """An invalid Small Islands score sheet (``small-islands-sheet/1``)."""


class CooperIslandError(RulesError):
    """An invalid Cooper Island score sheet (``cooper-island-sheet/1``)."""
