"""Reading a parsed JSON object field by field, with errors that name the field.

Shared by the three input formats; each passes its own error type.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import cache

from .errors import RulesError
from .explanation import Choices, Message, Quoted
from .explanation import gettext_noop as _

MAX_WHOLE = 999_999
"""No count in any format may exceed this: it keeps absurd numbers out with a clear message."""


def describe(value: object) -> Quoted:
    """A short, quoted rendering of a bad value for an error message (``'blue'``, ``12.5``, ``list``)."""
    text = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return Quoted(text if len(text) <= 40 else text[:37] + "...")


class Fields:
    """The fields of one JSON object; ``done()`` refuses any field nobody asked for."""

    def __init__(self, value: object, error: type[RulesError], where: tuple[str, ...] = ()) -> None:
        if not isinstance(value, dict):
            raise error(Message(_("must be an object, not {value}"), value=describe(value)), where)
        self.value: dict[str, object] = value
        self.error = error
        self.where = where
        self._read: set[str] = set()

    def fail(self, key: str, message: Message) -> RulesError:
        """An error about field ``key``."""
        return self.error(message, (*self.where, key))

    def has(self, key: str) -> bool:
        """Whether ``key`` is present and not null."""
        self._read.add(key)
        return self.value.get(key) is not None

    def raw(self, key: str) -> object:
        """The value of a required field."""
        self._read.add(key)
        if key not in self.value or self.value[key] is None:
            raise self.error(Message(_("the field '{key}' is missing"), key=key), self.where)
        return self.value[key]

    def text(self, key: str) -> str:
        """A required non-empty string."""
        value = self.raw(key)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, Message(_("must be a non-empty text, not {value}"), value=describe(value)))
        return value

    def whole(self, key: str, low: int = 0, high: int = MAX_WHOLE, default: int | None = None) -> int:
        """A whole number from ``low`` to ``high``; ``default`` when absent, if given."""
        if default is not None and not self.has(key):
            return default
        return whole_number(self.raw(key), low, high, lambda message: self.fail(key, message))

    def boolean(self, key: str) -> bool:
        """A required ``true`` or ``false``."""
        value = self.raw(key)
        if not isinstance(value, bool):
            raise self.fail(key, Message(_("must be true or false, not {value}"), value=describe(value)))
        return value

    def choice[E: StrEnum](self, key: str, kind: type[E]) -> E:
        """A required identifier among the members of ``kind``."""
        return identifier(self.raw(key), kind, lambda message: self.fail(key, message))

    def array(self, key: str) -> list[object]:
        """A required JSON array."""
        value = self.raw(key)
        if not isinstance(value, list):
            raise self.fail(key, Message(_("must be a list, not {value}"), value=describe(value)))
        return value

    def mapping(self, key: str) -> dict[str, object]:
        """A required JSON object, as a plain dict."""
        value = self.raw(key)
        if not isinstance(value, dict):
            raise self.fail(key, Message(_("must be an object, not {value}"), value=describe(value)))
        return value

    def nested(self, key: str) -> Fields:
        """A required JSON object, read field by field."""
        return Fields(self.raw(key), self.error, (*self.where, key))

    def done(self) -> None:
        """Refuse any field that was not read: a misspelt field must not be silently ignored."""
        unknown = sorted(set(self.value) - self._read)
        if unknown:
            raise self.error(Message(_("unknown field '{key}'"), key=unknown[0]), self.where)


def whole_number(value: object, low: int, high: int, fail: Callable[[Message], RulesError]) -> int:
    """``value`` as a whole number from ``low`` to ``high``, or ``fail(message)`` raised."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer() and low <= value <= high:
            return int(value)
        raise fail(Message(_("must be a whole number, not {value}"), value=describe(value)))
    if not low <= value <= high:
        raise fail(Message(_("must be from {low} to {high}, not {value}"), low=low, high=high, value=value))
    return value


@cache
def members[E: StrEnum](kind: type[E]) -> dict[str, E]:
    """Each member of ``kind`` by value: a dict lookup is much faster than calling the enum."""
    return {member.value: member for member in kind}


def identifier[E: StrEnum](value: object, kind: type[E], fail: Callable[[Message], RulesError]) -> E:
    """``value`` as a member of ``kind``, or ``fail(message)`` raised listing the allowed values."""
    member: E | None = members(kind).get(value) if isinstance(value, str) else None
    if member is not None:
        return member
    allowed = Choices(Quoted(member.value) for member in kind)
    raise fail(Message(_("{value} is not one of: {allowed}"), value=describe(value), allowed=allowed))
