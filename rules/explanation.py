"""Explanations: each result carries steps in plain words, each citing a rule of the catalogue."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it.

    The name is the one Django's ``makemessages`` looks for, so the site's translators find every
    rule text and step template here, while ``rules`` stays free of Django.
    """
    return message


class Plural(str):
    """A template with a singular and a plural form, the form chosen by the count in one of its params.

    It is its singular form (a ``str``), so it goes wherever a template goes; :func:`english` picks
    the form for the CLI, and the site asks its catalogue with ``ngettext`` (whose languages may
    have more forms than two).
    """

    plural: str
    """The plural form of the template."""
    number: str
    """The name of the param whose value chooses the form."""

    def __new__(cls, singular: str, plural: str, number: str) -> Plural:
        text = super().__new__(cls, singular)
        text.plural, text.number = plural, number
        return text


def ngettext_lazy(singular: str, plural: str, number: str = "count") -> Plural:
    """Mark a template with a plural form for translation, chosen by the param ``number``.

    As with :func:`gettext_noop`, the name is the one Django's ``makemessages`` looks for (with the
    singular and plural as its first two arguments), and nothing is translated here.
    """
    return Plural(singular, plural, number)


def english(template: str, params: Mapping[str, object]) -> str:
    """``template`` filled with ``params`` in English, in its singular or plural form."""
    if isinstance(template, Plural) and params.get(template.number) != 1:
        return template.plural.format_map(params)
    return template.format_map(params)


class Step(NamedTuple):
    """One sentence of an explanation, citing the rule it applies.

    ``message`` is an English template with ``{name}`` placeholders and ``params`` fills them, so a
    translator translates the template once and the site formats it with the same params. (A named
    tuple rather than a dataclass: replay makes many of them, and tuples are made fastest.)
    """

    rule: str
    """The id of a rule in :data:`rules.catalogue.CATALOGUE`, e.g. ``okanagan.influence.tie``."""
    message: str
    """The untranslated template."""
    params: Mapping[str, str | int] = MappingProxyType({})
    """The values of the template's placeholders."""

    @property
    def text(self) -> str:
        """The sentence in English."""
        return english(self.message, self.params)

    def to_json(self) -> dict[str, object]:
        """The step as JSON: rule id and English text."""
        return {"rule": self.rule, "text": self.text}


class Message(str):
    """A sentence for a player, such as an error: the English text, which it is, plus the template it
    was made from (marked for translation) and the template's params, so that the site can say it in
    the reader's language."""

    template: str
    params: Mapping[str, str | int]

    def __new__(cls, template: str, **params: str | int) -> Message:
        params = {key: _encodable(value) for key, value in params.items()}
        message = super().__new__(cls, english(template, params))
        message.template = template
        message.params = params
        return message


def _encodable(value: str | int) -> str | int:
    """``value`` with any lone surrogate replaced, so that a message about bad text can always be shown."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return value.encode(errors="replace").decode()
    return value


def names(players: Iterable[str]) -> str:
    """Player names joined for a sentence: ``Ann, Ben``."""
    return ", ".join(players)


@dataclass(frozen=True)
class Section:
    """A titled group of steps: one event, or the final scoring."""

    message: str
    """The untranslated title template."""
    params: Mapping[str, str | int]
    steps: tuple[Step, ...]

    @property
    def title(self) -> str:
        """The title in English."""
        return english(self.message, self.params)

    def to_json(self) -> dict[str, object]:
        """The section as JSON."""
        return {"title": self.title, "steps": [step.to_json() for step in self.steps]}


def explanation_text(sections: Iterable[Section]) -> str:
    """An explanation as plain text: each title, then its steps with their rule ids."""
    lines = []
    for section in sections:
        lines.append(section.title)
        lines.extend(f"  - {step.text} [{step.rule}]" for step in section.steps)
    return "\n".join(lines) + "\n"
