"""Explanations: each result carries steps in plain words, each citing a rule of the catalogue.

A step or a message is a template and its params, as Django's ``ValidationError`` is: the params are
values (a count, a name, a list of players, a bag of tokens, a yes or no, an identifier of the game),
never English already written out, so that each edge says them in its reader's words. :func:`english`
says them for the command line; the site says them in the reader's language with the same
:func:`render`, given its own :class:`Words`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar, Literal, NamedTuple, Protocol

from babel import Locale
from babel.lists import format_list

from .components import Building, Reward


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it.

    The name is the one Django's ``makemessages`` looks for, so the site's translators find every
    rule text and step template here, while ``rules`` stays free of Django.
    """
    return message


_ = gettext_noop


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


# The params -----------------------------------------------------------------------------------------


class Quoted(str):
    """What a player sent, quoted as it was (``'blue'``, ``12.5``): shown as it is in every language."""


class Figure(NamedTuple):
    """A player's figure in a comparison: ``Ann 7`` (in an :class:`Order`: ``Ann (7)``)."""

    name: str
    value: int | bool
    """A count, or whether the player did it (``yes`` or ``no``)."""


class Count(NamedTuple):
    """A number of tokens of one kind: ``3 × green-square`` (the number before a ×, so that no kind needs a
    plural)."""

    number: int
    reward: Reward


class Part(NamedTuple):
    """A number of buildings of one type, with each one's influence: ``2 × farm (3)``."""

    number: int
    building: Building


class Change(NamedTuple):
    """A correction of one holding: ``green-square +1``, ``nuggets -2``."""

    kind: Reward | None
    """The reward changed, ``None`` for gold nuggets."""
    change: int


class Gift(NamedTuple):
    """What one player gave: ``Ben: green-square`` (the giver's name is not translated, the reward is)."""

    giver: str
    reward: Reward


class Series(tuple["Param", ...]):
    """Values said as a list in a sentence, each by its type: ``Ann, Ben, and Cy`` in English, ``Ann, Ben et Cy``
    in French (the locale's list, through Babel)."""

    empty: ClassVar[str] = _("nothing")
    """What an empty list says."""


class Choices(Series):
    """The values allowed, said as alternatives: ``a, b, or c``."""


class Players(Series):
    """Names of players; ``nobody`` when empty. A name is never translated."""

    empty = _("nobody")


class Tokens(Series):
    """A bag of tokens as :class:`Count` values, in the record's order of kinds: ``3 × green-square and
    1 × green-circle``; ``nothing`` when empty."""

    @classmethod
    def of(cls, bag: Mapping[Reward, int]) -> Tokens:
        """``bag``'s kinds in the record's order (not the bag's own: a database may store a JSON object's keys
        in another order), the kinds it holds none of left out."""
        return cls(Count(bag[reward], reward) for reward in Reward if bag.get(reward, 0))


class Changes(Series):
    """A correction as :class:`Change` values: ``green-square +1 and nuggets -2``; ``nothing`` when empty."""


class Order(tuple["Param", ...]):
    """Players from first to last: ``Ann (3) > Ben (2)``; a :class:`Players` in it is a tied group,
    ``(Ann and Ben) > Cy``."""


class Parts(tuple[Part, ...]):
    """A player's buildings in a territory with each one's influence: ``2 × farm (3) + 1 × silo (1)``."""


YES, NO, NUGGETS = _("yes"), _("no"), _("nuggets")
"""The plain words the params use, besides a list's ``nothing`` and ``nobody``."""

type Param = (
    str | int | Quoted | Figure | Count | Part | Change | Gift | Series | Order | Parts | Message
)  # an enum of the game (Reward, Territory, Building, Shape, ObjectiveKind) is a ``str``; a ``bool`` an ``int``
"""A template's param: a name or an identifier, a count, a yes or no, or one of the values above."""

Params = Mapping[str, Param]

type ListStyle = Literal["standard", "or"]
"""Babel's (CLDR's) kinds of list the params use: ``A, B, and C`` and ``A, B, or C``."""


class Words(Protocol):
    """What differs between the edges: the words for the game's identifiers, for a few plain words, for a
    list, and for a nested message."""

    def kind(self, value: StrEnum) -> str:
        """The word for an identifier of the game (a reward, a territory, a building...)."""
        ...

    def word(self, text: str) -> str:
        """``text``, one of the few words the params use (``nobody``, ``nothing``, ``yes``, ``no``,
        ``nuggets``), in the reader's language."""
        ...

    def listing(self, items: list[str], style: ListStyle = "standard") -> str:
        """Items as a list in a sentence: ``A, B, and C``; with the style ``or``, ``A, B, or C``."""
        ...

    def message(self, message: Message) -> str:
        """A message given as a param."""
        ...


def render(value: Param, words: Words) -> str | int:
    """``value`` as the words of a sentence, with ``words``; a count stays a number."""
    if type(value) is str or type(value) is int:  # most params: a name or a count (a fast path for replays)
        return value
    match value:
        case Message():
            return words.message(value)
        case Quoted():
            return str(value)
        case StrEnum():
            return words.kind(value)
        case bool():
            return words.word(YES if value else NO)
        case str() | int():
            return value
        case Figure(name=name, value=figure):
            return f"{name} {render(figure, words)}"
        case Count(number=number, reward=reward):
            return f"{number} × {words.kind(reward)}"
        case Gift(giver=giver, reward=reward):
            return f"{giver}: {words.kind(reward)}"
        case Change(kind=kind, change=change):
            return f"{words.word(NUGGETS) if kind is None else words.kind(kind)} {change:+d}"
        case Series():
            if not value:
                return words.word(value.empty)
            items = [str(render(item, words)) for item in value]
            return words.listing(items, "or") if isinstance(value, Choices) else words.listing(items)
        case Order():
            return " > ".join(_in_order(item, words) for item in value)
        case Parts():
            return " + ".join(
                f"{part.number} × {words.kind(part.building)} ({part.building.influence})" for part in value
            )
    raise TypeError(f"not a param: {value!r}")


def _in_order(item: Param, words: Words) -> str:
    if isinstance(item, Figure):
        return f"{item.name} ({render(item.value, words)})"
    if isinstance(item, Players) and len(item) > 1:
        return f"({render(item, words)})"
    return str(render(item, words))


class English:
    """The words of the command line (and of ``str()``): the identifiers as the record writes them."""

    def kind(self, value: StrEnum) -> str:
        return value.value

    def word(self, text: str) -> str:
        return text

    def listing(self, items: list[str], style: ListStyle = "standard") -> str:
        return items[0] if len(items) == 1 else format_list(items, style, locale=_ENGLISH_LOCALE)

    def message(self, message: Message) -> str:
        return str(message)


ENGLISH = English()
_ENGLISH_LOCALE = Locale.parse("en")  # parsed once: a replay lists many times


def english(template: str, params: Params) -> str:
    """``template`` filled with ``params`` in English, in its singular or plural form."""
    if isinstance(template, Plural) and params.get(template.number) != 1:
        template = template.plural
    return template.format_map({key: render(value, ENGLISH) for key, value in params.items()})


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
    params: Params = MappingProxyType({})
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
    params: Params

    def __new__(cls, template: str, **params: Param) -> Message:
        params = {key: _encodable(value) for key, value in params.items()}
        message = super().__new__(cls, english(template, params))
        message.template = template
        message.params = params
        return message


def _encodable(value: Param) -> Param:
    """``value`` with any lone surrogate replaced, so that a message about bad text can always be shown."""
    if isinstance(value, str) and not isinstance(value, (Message, StrEnum)):
        try:
            value.encode()
        except UnicodeEncodeError:
            return type(value)(value.encode(errors="replace").decode())
    return value


@dataclass(frozen=True)
class Section:
    """A titled group of steps: one event, or the final scoring."""

    message: str
    """The untranslated title template."""
    params: Params
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
