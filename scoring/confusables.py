"""Names that look alike: ``Annе`` with a Cyrillic ``е`` is not ``Anne`` to the database, but it is to the
people reading a list of players or a login form.

Two names that are not the same player (:func:`rules.same_name`) look alike when their skeletons are the same
(Unicode TR39, "Security Mechanisms": each character replaced by the prototype it may be mistaken for, from
Unicode's ``confusables.txt``, which the ``confusable-homoglyphs`` package carries), width-normalised, as
written or in lower case. Comparing a new username with 10,000 others takes about 0.13 s here; a stored
skeleton with an index would make it one query, should the accounts grow far beyond.

A name *mixes scripts confusably* when a letter of one script in it may be mistaken for a letter of another
script it also holds (Latin ``A`` with a Cyrillic ``е``); Han, kana, Hangul and Bopomofo count as one script,
as Japanese, Korean and Chinese names mix them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable, Sequence
from functools import cache

from confusable_homoglyphs import categories, confusables
from django.utils.translation import gettext as _

from rules import same_name

NEUTRAL = frozenset({"COMMON", "INHERITED", "Unknown"})
"""Characters of no script (digits, punctuation, combining marks): they mix with any."""
EAST_ASIAN = frozenset({"HAN", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO"})
"""The scripts that Japanese, Korean and Chinese names write together (TR39's augmented script sets)."""


def _plain(text: str) -> str:
    """The package's text without the left-to-right marks it wraps right-to-left characters in."""
    return text.replace("\u200e", "")


@cache
def _prototypes() -> tuple[dict[str, str], dict[str, str]]:
    """Each character's prototype (one character standing for all those that may be mistaken for each other),
    and the characters whose prototype is a sequence (``m`` for ``rn``)."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    sequences: dict[str, str] = {}
    for key, homoglyphs in confusables.confusables_data.items():
        char = _plain(key)
        if len(char) != 1:
            continue  # a sequence: its characters are listed under each of them
        for homoglyph in homoglyphs:
            other = _plain(homoglyph["c"])
            if len(other) == 1:
                first, second = sorted((root(char), root(other)))
                parent[second] = first
            else:
                sequences[char] = other
    return {char: root(char) for char in parent}, sequences


def skeleton(text: str) -> str:
    """What ``text`` looks like (TR39's skeleton): equal for two texts a reader may take for each other.

    >>> skeleton("Annе") == skeleton("Anne"), skeleton("Ann") == skeleton("Anne")
    (True, False)
    """
    prototypes, sequences = _prototypes()
    looks = "".join(sequences.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in looks))


def _looks(name: str) -> set[str]:
    """The skeletons of ``name`` as written and in lower case: ``PauI`` (a capital i) looks like ``Paul``
    as written, ``Annе`` (a Cyrillic е) like ``ANNE`` in lower case. (Names hold no invisible character:
    :func:`rules.name_problem` and the username's characters refuse them.)"""
    written = unicodedata.normalize("NFKC", name)
    return {skeleton(written), skeleton(written.casefold())}


def look_alike(first: str, second: str) -> bool:
    """Whether two names that are not the same player (:func:`rules.same_name`) look alike.

    >>> look_alike("Annе", "ANNE"), look_alike("PauI", "Paul"), look_alike("Ann", "ANN"), look_alike("Lea", "Léa")
    (True, True, False, False)
    """
    return first_look_alike(first, (second,)) is not None


def _script(char: str) -> str:
    script: str = categories.alias(char)
    return "EAST_ASIAN" if script in EAST_ASIAN else script


def mixes_scripts(name: str) -> bool:
    """Whether ``name`` holds a letter that may be mistaken for a letter of another script it also holds.

    >>> mixes_scripts("Annе"), mixes_scripts("Zoé"), mixes_scripts("Ann 김"), mixes_scripts("田中エリ")
    (True, False, False, False)
    """
    scripts = {_script(char) for char in name} - NEUTRAL
    if len(scripts) < 2:
        return False
    for char in set(name):
        own = _script(char)
        if own in NEUTRAL:
            continue
        for homoglyph in confusables.confusables_data.get(char, ()):
            if any(_script(other) in scripts - {own} for other in _plain(homoglyph["c"])):
                return True
    return False


def first_look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` looks like without being the same player, if any."""
    looks = _looks(name)
    return next((other for other in others if not looks.isdisjoint(_looks(other)) and not same_name(name, other)), None)


def look_alike_pair(names: Sequence[str]) -> tuple[str, str] | None:
    """Two of ``names`` that look alike without being the same player, if any."""
    for position, name in enumerate(names):
        other = first_look_alike(name, names[position + 1 :])
        if other is not None:
            return name, other
    return None


def mixed_name_text() -> str:
    """Why a name that :func:`mixes_scripts` is refused, in the reader's language."""
    return _(
        "This name mixes letters of alphabets that look alike (such as Latin and Cyrillic): write it in one alphabet."
    )


def looks_like_player_text(name: str, other: str) -> str:
    """Why ``name``, which looks like the group's player ``other``, is refused, in the reader's language."""
    return _(
        "%(name)s looks like %(other)s, a player of this group: choose that player or a name that looks different."
    ) % {
        "name": name,
        "other": other,
    }


def new_players_problem(names: Sequence[str], known: Collection[str]) -> str | None:
    """Why the players of a new game cannot be named so, in the reader's language, or ``None``: a name that is
    none of the group's ``known`` players mixes scripts or looks like one of them, or two of the names look
    alike. A known player keeps their name as it is."""
    for name in names:
        if name in known:
            continue
        if mixes_scripts(name):
            return mixed_name_text()
        other = first_look_alike(name, known)
        if other is not None:
            return looks_like_player_text(name, other)
    pair = look_alike_pair(names)
    if pair is not None:
        return _("%(name)s and %(other)s look alike: give the players names that look different.") % {
            "name": pair[0],
            "other": pair[1],
        }
    return None
