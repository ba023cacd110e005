"""Reading a document's JSON text into the plain values that the parsers of each format take.

Everything a document holds passes here first, from a file, an import, a restore or a phone's draft,
so that what the parsers see is always the same shape of data: valid Unicode in normal form C, whole
numbers as ``int`` (a count written ``1.0`` is the count 1, and is stored as 1), no object with a key
twice, and nothing nested deeper than any format needs. Anything else is a :class:`RulesError` that
says what and where, never a crash.

    >>> read_json('{"count": 1.0, "name": "e\\u0301"}')
    {'count': 1, 'name': 'é'}
    >>> read_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    rules.errors.RulesError: the key 'a' appears twice in one object
"""

from __future__ import annotations

import json
import unicodedata
from typing import Final

from .errors import RulesError
from .explanation import Message, Quoted
from .explanation import gettext_noop as _
from .fields import describe

MAX_DEPTH: Final = 12
"""The deepest nesting of lists and objects any format needs (a record's swaps are at depth 5, in a backup at 8)."""


def read_json(text: str | bytes) -> object:
    """``text`` parsed as JSON and made canonical (see the module); a :class:`RulesError` if it cannot be."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise RulesError(Message(_("the file is not UTF-8 text (byte {position})"), position=error.start)) from None
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except RecursionError:
        raise _too_deep() from None
    except json.JSONDecodeError as error:
        raise RulesError(
            Message(
                _("not valid JSON: {problem} at line {line}, column {column}"),
                problem=_json_problem(error.msg),
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except RulesError:
        raise
    except ValueError:  # the only other: a number of thousands of digits
        raise RulesError(Message(_("not valid JSON: a number has too many digits"))) from None
    return canonical(value)


JSON_PROBLEMS: Final = {
    problem: Message(problem)
    for problem in (
        _("Expecting value"),
        _("Expecting property name enclosed in double quotes"),
        _("Expecting ':' delimiter"),
        _("Expecting ',' delimiter"),
        _("Unterminated string starting at"),
        _("Invalid control character at"),
        _("Invalid \\escape"),
        _("Invalid \\uXXXX escape"),
        _("Extra data"),
        _("Illegal trailing comma before end of object"),
        _("Illegal trailing comma before end of array"),
    )
}
"""The problems Python's JSON parser names, as messages: in English as the parser says them, so that the
site can translate them too."""


def _json_problem(problem: str) -> Message | Quoted:
    """The parser's ``problem`` as a message; one this Python says and the list above does not know, as is."""
    return JSON_PROBLEMS.get(problem) or Quoted(problem)


def canonical(value: object, depth: int = 0) -> object:
    """``value`` (plain JSON data) in canonical form: strings in NFC, integral floats as ``int``.

    A :class:`RulesError` for a lone surrogate in any string, or nesting deeper than :data:`MAX_DEPTH`.
    """
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (list, dict)):
        if depth >= MAX_DEPTH:
            raise _too_deep()
        if isinstance(value, list):
            return [canonical(item, depth + 1) for item in value]
        out: dict[str, object] = {}
        for key, item in value.items():
            normal_key = _text(key)
            if normal_key in out:
                raise _twice(normal_key)
            out[normal_key] = canonical(item, depth + 1)
        return out
    return value


def _text(text: str) -> str:
    try:
        text.encode()
    except UnicodeEncodeError:
        raise RulesError(
            Message(_("the text {value} holds a character that is not valid Unicode"), value=describe(text))
        ) from None
    return unicodedata.normalize("NFC", text)


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out = dict(pairs)
    if len(out) < len(pairs):
        raise _twice(next(key for index, (key, _value) in enumerate(pairs) if key in dict(pairs[:index])))
    return out


def _constant(name: str) -> object:
    raise RulesError(Message(_("{value} is not a number JSON allows"), value=name))


def _twice(key: str) -> RulesError:
    return RulesError(Message(_("the key {key} appears twice in one object"), key=describe(key)))


def _too_deep() -> RulesError:
    return RulesError(Message(_("the document is nested deeper than {limit} levels"), limit=MAX_DEPTH))
