"""A draft of an event being entered: the record's event so far, the stages done, the taps in progress;
and how a draft the server wrote is read back (the page's signed copy, the copy kept on the server)."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from scoring.table.entry.stages import STAGES, BadOp

_KEYS = {"event", "done", "partial", "original", "chosen"}
"""The keys of a draft in JSON data (see :meth:`Draft.to_data`)."""


@dataclass
class Draft:
    """An event being entered: the record's event so far, the stages confirmed, the taps in progress."""

    event: dict[str, Any]
    done: list[str] = field(default_factory=list)
    partial: dict[str, int] = field(default_factory=dict)
    """The current collector's taps (territory), or the rewards of the card being built (objectives)."""
    original: dict[str, Any] | None = None
    """For an edit: the event as it was in the log when the edit began (to tell whether another phone
    changed it meanwhile); ``None`` for a new event."""
    chosen: list[str] = field(default_factory=list)
    """The tied players the closer has put in order so far, first first (territory)."""

    @property
    def kind(self) -> str:
        return str(self.event["type"])

    def to_data(self) -> dict[str, Any]:
        """The draft as JSON data (what the page carries, signed, and the server keeps)."""
        return {
            "event": self.event,
            "done": self.done,
            "partial": self.partial,
            "original": self.original,
            "chosen": self.chosen,
        }

    @classmethod
    def new(cls, kind: str) -> Draft:
        return cls({"type": kind})

    @classmethod
    def of_event(cls, event: dict[str, Any]) -> Draft:
        """A draft of a recorded event, every stage confirmed (for editing)."""
        return cls(json.loads(json.dumps(event)), done=list(STAGES[event["type"]]), original=copy.deepcopy(event))

    @classmethod
    def from_data(cls, data: object) -> Draft:
        """The draft in JSON data as :meth:`to_data` writes it; :class:`BadOp` if the data is not of that form.

        Only the server writes drafts: a page posts back its copy signed (:func:`scoring.table.drafts.posted`), and
        the server keeps its own. So the values are as the taps made them, and this checks only the form,
        which code of another version may have written otherwise. The event is the record's event so far:
        ``rules`` checks it when the draft is analysed.
        """
        if not (
            isinstance(data, dict)
            and data.keys() == _KEYS
            and isinstance(data["event"], dict)
            and data["event"].get("type") in STAGES
            and isinstance(data["done"], list)
            and all(isinstance(stage, str) for stage in data["done"])
            and isinstance(data["partial"], dict)
            and all(type(count) is int for count in data["partial"].values())
            and (data["original"] is None or isinstance(data["original"], dict))
            and isinstance(data["chosen"], list)
            and all(isinstance(player, str) for player in data["chosen"])
        ):
            raise BadOp(_("The form was damaged; start again."))
        return cls(data["event"], data["done"], data["partial"], data["original"], data["chosen"])

    def copy(self) -> Draft:
        """A deep copy, to change without changing this one."""
        return Draft(
            copy.deepcopy(self.event),
            list(self.done),
            dict(self.partial),
            copy.deepcopy(self.original),
            list(self.chosen),
        )
