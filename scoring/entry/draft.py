"""A draft of an event being entered: the record's event so far, the stages done, the taps in progress;
and how a draft sent back by a page is checked, field by field, before anything is done with it."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from rules import (
    RulesError,
)
from rules.reading import read_json

from .stages import (
    ACTIONS,
    BUILDINGS,
    EVENT_KINDS,
    LONE_CHOICES,
    MAX_COUNT,
    OBJECTIVE_KINDS,
    REWARDS,
    SHAPES,
    STAGES,
    TERRITORIES,
    BadOp,
)


@dataclass
class Draft:
    """An event being entered: the record's event so far, the stages confirmed, the taps in progress."""

    event: dict[str, Any]
    done: list[str] = field(default_factory=list)
    partial: dict[str, int] = field(default_factory=dict)
    """The current collector's taps (territory), or the rewards of the card being built (objectives)."""
    card: str = ""
    """The kind of the objective card being built."""
    original: dict[str, Any] | None = None
    """For an edit: the event as it was in the log when the edit began (to tell whether another phone
    changed it meanwhile); ``None`` for a new event."""
    chosen: list[str] = field(default_factory=list)
    """The tied players the closer has put in order so far, first first (territory)."""

    @property
    def kind(self) -> str:
        return str(self.event["type"])

    def to_json(self) -> str:
        return json.dumps(self.to_data())

    def to_data(self) -> dict[str, Any]:
        """The draft as JSON data (what the page posts back and the server keeps)."""
        return {
            "event": self.event,
            "done": self.done,
            "partial": self.partial,
            "card": self.card,
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
    def from_json(cls, text: str, players: tuple[str, ...]) -> Draft:
        """The draft sent back by the page in a game of ``players``; :class:`BadOp` if it is not one."""
        try:
            data = read_json(text)
        except RulesError as error:
            raise BadOp(_("The form was damaged; start again.")) from error
        return cls.from_data(data, players)

    @classmethod
    def from_data(cls, data: object, players: tuple[str, ...]) -> Draft:
        """The draft in JSON data (as :meth:`to_data` writes it) in a game of ``players``; :class:`BadOp` if it
        is not one."""
        try:
            if not isinstance(data, dict):
                raise TypeError
            # A page rendered before edits carried their original has none: it is then not checked.
            draft = cls(
                data["event"], data["done"], data["partial"], data["card"], data.get("original"), data.get("chosen", [])
            )
        except (KeyError, TypeError) as error:
            raise BadOp(_("The form was damaged; start again.")) from error
        shapes = _field_shapes(frozenset(players))
        if not (
            _is_event(draft.event, shapes)
            and isinstance(draft.done, list)
            and all(stage in STAGES[draft.kind] for stage in draft.done)
            and _is_bag(draft.partial)
            and (draft.card == "" or _is_one_of(draft.card, OBJECTIVE_KINDS))
            and (draft.original is None or _is_event(draft.original, shapes))
            and _is_list_of(draft.chosen, frozenset(players))
        ):
            raise BadOp(_("The form was damaged; start again."))
        return draft

    def copy(self) -> Draft:
        """A deep copy, to change without changing this one."""
        return Draft(
            copy.deepcopy(self.event),
            list(self.done),
            dict(self.partial),
            self.card,
            copy.deepcopy(self.original),
            list(self.chosen),
        )


def _is_event(value: object, shapes: dict[str, Callable[[object], bool]]) -> bool:
    """An event as a draft holds it: a known type, each field of its shape."""
    return (
        isinstance(value, dict)
        and value.get("type") in EVENT_KINDS
        and all(key in shapes and shapes[key](item) for key, item in value.items())
    )


def _is_one_of(value: object, kinds: frozenset[str]) -> bool:
    return isinstance(value, str) and value in kinds


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_COUNT


def _is_counts(value: object, kinds: frozenset[str]) -> bool:
    return isinstance(value, dict) and all(key in kinds and _is_count(count) for key, count in value.items())


def _is_bag(value: object) -> bool:
    return _is_counts(value, REWARDS)


def _is_by_player(value: object, players: frozenset[str], each: Callable[[object], bool]) -> bool:
    return isinstance(value, dict) and all(player in players and each(item) for player, item in value.items())


def _is_list_of(value: object, kinds: frozenset[str]) -> bool:
    return isinstance(value, list) and all(_is_one_of(item, kinds) for item in value)


def _is_action(value: object, players: frozenset[str]) -> bool:
    """A special action as the entry builds it: a known action, each detail of the right kind."""
    if not isinstance(value, dict) or not _is_one_of(value.get("action"), ACTIONS):
        return False
    details: dict[str, Callable[[object], bool]] = {
        "action": lambda item: True,
        "shape": lambda item: _is_one_of(item, SHAPES),
        "reward": lambda item: _is_one_of(item, REWARDS),
        "give": lambda item: _is_one_of(item, REWARDS),
        "get": lambda item: _is_one_of(item, REWARDS),
        "with": lambda item: _is_one_of(item, players),
        "from": lambda item: _is_by_player(item, players, lambda reward: _is_one_of(reward, REWARDS)),
        "swaps": lambda item: (
            isinstance(item, list)
            and len(item) <= 2
            and all(_is_list_of(swap, REWARDS) and len(swap) == 2 for swap in item)
        ),
    }
    return all(key in details and details[key](item) for key, item in value.items())


def _is_cards(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(card, dict)
        and set(card) == {"kind", "rewards"}
        and _is_one_of(card["kind"], OBJECTIVE_KINDS)
        and _is_list_of(card["rewards"], REWARDS)
        for card in value
    )


def _field_shapes(players: frozenset[str]) -> dict[str, Callable[[object], bool]]:
    """What each field of a draft in a game of ``players`` may hold: identifiers of the record, players of
    the game, bounded counts. The record checks the rest; this keeps a damaged or forged form from
    reaching code that expects these types."""
    return {
        "type": lambda value: _is_one_of(value, frozenset(EVENT_KINDS)),
        "territory": lambda value: _is_one_of(value, TERRITORIES),
        "closed_by": lambda value: _is_one_of(value, players),
        "player": lambda value: _is_one_of(value, players),
        "reward": lambda value: _is_one_of(value, REWARDS),
        "lone_choice": lambda value: _is_one_of(value, LONE_CHOICES),
        "note": lambda value: isinstance(value, str),
        "rewards": _is_bag,
        "nuggets": _is_count,
        "buildings": lambda value: _is_by_player(value, players, lambda counts: _is_counts(counts, BUILDINGS)),
        "picks": lambda value: _is_by_player(value, players, _is_bag),
        "order": lambda value: _is_list_of(value, players),
        "special_action": lambda value: _is_action(value, players),
        "cards": _is_cards,
    }
