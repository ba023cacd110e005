"""How players ask about the rules: the words the rules search understands beyond the rules' own.

Data, one file per language in ``vocabulary/<language>.json``, outside gettext: these phrasings are never
shown, so they are not translations of one English text; each language's players have their own words
("pioche", "마지막", "平局"), and a list grows in one language without asking the translators for the
others. A language of the site without a file has no phrasings; a new language is one new file.

Each file holds ``players_words`` (a player's word, and the rules' words it stands for: "pile" →
"supply left"; a word ending with ``*`` is matched as the start of a word) and ``asked_as`` (per rule
id, questions and words players use about that rule, indexed with it).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "vocabulary"


@dataclass(frozen=True)
class Vocabulary:
    """The players' words of one language."""

    players_words: tuple[tuple[str, str], ...]
    """A player's word and the rules' words it stands for, in the file's order."""
    asked_as: dict[str, tuple[str, ...]]
    """Per rule id, how players ask about that rule."""


@functools.cache
def vocabulary(language: str) -> Vocabulary:
    """The players' words of ``language`` (empty when the language has no file)."""
    if language not in languages():
        return Vocabulary((), {})
    data = json.loads((FOLDER / f"{language}.json").read_text(encoding="utf-8"))
    return Vocabulary(
        tuple(data["players_words"].items()),
        {rule_id: tuple(phrasings) for rule_id, phrasings in data["asked_as"].items()},
    )


@functools.cache
def languages() -> frozenset[str]:
    """The languages that have a vocabulary file."""
    return frozenset(path.stem for path in FOLDER.glob("*.json"))


def asked_as(rule_id: str, language: str) -> str:
    """The players' phrasings of a rule in ``language`` (empty when there are none)."""
    return "; ".join(vocabulary(language).asked_as.get(rule_id, ()))
