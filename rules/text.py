"""What text a record or a score sheet may hold, and when two player names are the same player.

Every text that a player types ends up stored, exported and shown on other phones, so it must be
valid Unicode with nothing that hides or disguises it: no lone surrogate (it cannot be encoded, and
every page showing it would fail), no control character (NUL cannot be stored by PostgreSQL), no
bidirectional override (it turns the rest of a line around), and something visible once trimmed.

Player names are stricter: no invisible character at all, except the joiners and variation selectors
that emoji and some scripts need inside a name; and two names are *the same player* when they differ
only by Unicode normal form, case, width or invisible characters (``é`` written as one or two code
points, ``Ann`` and ``ANN``, ``Ann`` and ``Ann`` followed by a zero-width space).

    >>> name_problem("Ann\\u200b") is not None
    True
    >>> same_name("Ann", "ANN"), same_name("é", "e\\u0301"), same_name("Ann", "Anne")
    (True, True, False)
    >>> normal_text("  Zoe   Lee ")
    'Zoe Lee'
"""

from __future__ import annotations

import unicodedata
from typing import Final

from .explanation import Message
from .explanation import gettext_noop as _
from .fields import describe

MAX_NAME_LENGTH: Final = 40
"""The longest player name, in characters."""
MAX_NOTE_LENGTH: Final = 200
"""The longest note of a correction, in characters."""

BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: they change the direction of the text that follows them."""

# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, Unicode 15): characters
# that show nothing. Python's unicodedata does not expose the property, so the ranges are listed here.
_IGNORABLE_RANGES: Final = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
BLANKS: Final = frozenset("\u2800\u3000")
"""Characters that are not ignorable but show as an empty space (braille blank, ideographic space)."""
JOINERS: Final = frozenset("\u200c\u200d")
"""Zero-width (non-)joiners: emoji sequences and some scripts need them between two visible characters."""
VARIATION_SELECTORS: Final = frozenset(chr(code) for code in range(0xFE00, 0xFE10))
"""They choose how the character before them looks (an emoji in colour): allowed after a visible one."""
TAGS: Final = frozenset(chr(code) for code in range(0xE0020, 0xE0080))
"""The tag characters that spell a flag such as England's after 🏴: allowed after it."""


def is_ignorable(char: str) -> bool:
    """Whether ``char`` is a default-ignorable code point: it shows nothing."""
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def _is_noncharacter(char: str) -> bool:
    code = ord(char)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def text_problem(text: str) -> Message | None:
    """Why ``text`` may not be stored, or ``None`` when it may: the rules for every stored text.

    >>> print(text_problem("\\x00"))
    contains a control character (U+0000)
    >>> text_problem("Ben 🦫") is None
    True
    """
    for char in text:
        if "\ud800" <= char <= "\udfff" or _is_noncharacter(char):
            return Message(_("contains a character that is not valid Unicode ({code})"), code=_code(char))
        if unicodedata.category(char) == "Cc":
            return Message(_("contains a control character ({code})"), code=_code(char))
        if char in BIDI_CONTROLS:
            return Message(_("contains a character that reverses the direction of text ({code})"), code=_code(char))
    if not any(_visible(char) for char in text):
        return Message(_("shows nothing once blank and invisible characters are left out"))
    return None


def _invisible(char: str) -> bool:
    """Whether ``char`` shows nothing by itself: ignorable, a format control (``Cf``, such as U+FFF9), or a
    blank that is not a space."""
    return is_ignorable(char) or char in BLANKS or unicodedata.category(char) == "Cf"


def _visible(char: str) -> bool:
    return not (char.isspace() or _invisible(char) or unicodedata.category(char) in {"Mn", "Me"})


def normal_text(text: str) -> str:
    """``text`` in Unicode normal form C, trimmed, each run of blanks made one space.

    Run this on what a person typed before checking and storing it, so that the same text is always
    stored the same way.
    """
    return " ".join(unicodedata.normalize("NFC", text).split())


def name_problem(name: str) -> Message | None:
    """Why ``name`` cannot be a player's name (see :func:`text_problem`, plus the rules for names), or ``None``.

    A name is checked as stored: run :func:`normal_text` on typed names first.

    >>> print(name_problem("Ann\\u200b"))
    contains an invisible character (U+200B)
    >>> name_problem("👩\\u200d🚀 Ann") is None
    True
    """
    problem = text_problem(name)
    if problem is not None:
        return problem
    if len(name) > MAX_NAME_LENGTH:
        return Message(_("is longer than {limit} characters"), limit=MAX_NAME_LENGTH)
    for position, char in enumerate(name):
        before = name[position - 1] if position else ""
        allowed = (
            (char in JOINERS and position < len(name) - 1 and _visible(before))
            or (char in VARIATION_SELECTORS and _visible(before))
            or (char in TAGS and (_visible(before) or before in TAGS))
        )
        if _invisible(char) and not allowed:
            return Message(_("contains an invisible character ({code})"), code=_code(char))
        if unicodedata.category(char) in {"Co", "Cn"}:
            return Message(_("contains a character with no agreed look ({code})"), code=_code(char))
    if name != normal_text(name):
        return Message(_("must be trimmed, in Unicode normal form C, with single spaces"))
    return None


def note_problem(note: str) -> Message | None:
    """Why ``note`` cannot be the note of a correction (``""``: no note), or ``None``.

    >>> print(note_problem("x" * 201))
    is longer than 200 characters
    """
    if not note:
        return None
    if len(note) > MAX_NOTE_LENGTH:
        return Message(_("is longer than {limit} characters"), limit=MAX_NOTE_LENGTH)
    return text_problem(note)


def name_key(name: str) -> str:
    """What makes a name the player it is: without invisible characters, compatibility-normalised
    (full-width letters as letters), case-folded, blanks as one space."""
    visible = "".join(char for char in name if not _invisible(char))
    return " ".join(unicodedata.normalize("NFKC", visible).casefold().split())


def same_name(first: str, second: str) -> bool:
    """Whether two names are the same player (:func:`name_key`)."""
    return name_key(first) == name_key(second)


def names_problem(names: list[str]) -> Message | None:
    """Why these players' names cannot stand together (each checked by :func:`name_problem`), or ``None``."""
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            return Message(_("the name {name} {problem}"), name=describe(name), problem=problem)
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(name_key(name), name)
        if other == name and names.count(name) > 1:
            return Message(_("'{name}' is named twice"), name=name)
        if other != name:
            return Message(
                _(
                    "'{name}' and '{other}' would be the same player: names must differ by more than case, "
                    "accents written another way or invisible characters"
                ),
                name=other,
                other=name,
            )
    return None
