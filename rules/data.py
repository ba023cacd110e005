"""The rules' objects as plain JSON data and back: what a site stores of a game's state and of what each event
did (:meth:`rules.game.GameState.to_data`, :meth:`rules.game.EventOutcome.to_data`).

The data holds only JSON's types (objects, arrays, strings, numbers, booleans, ``null``), so reading it never
runs code, whoever wrote it (unlike a pickle). Reading checks every value's type, and raises
:class:`DataError` for anything ``to_data`` would not have written. An explanation's params keep their types
(a :class:`~rules.explanation.Players` stays a list of players, a reward a :class:`~rules.components.Reward`):
a plain string or number is itself, any other param a tagged array such as ``["enum", "Reward", "blue-circle"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from .catalogue import Game, Source
from .components import Building, Colour, Confidence, ObjectiveKind, Reward, Shape, SpecialActionKind, Territory
from .event_types import EventType
from .explanation import (
    Change,
    Changes,
    Choices,
    Count,
    Figure,
    Gift,
    Message,
    Order,
    Param,
    Params,
    Part,
    Parts,
    Players,
    Plural,
    Quoted,
    Series,
    Step,
    Tokens,
)
from .record import LoneChoice, NuggetLadder

type Data = None | bool | int | str | list[Data] | dict[str, Data]
"""A JSON value, as ``json.loads`` returns it."""


class DataError(ValueError):
    """Data that ``to_data`` did not write: a value of the wrong type or an unknown tag."""


ENUMS: dict[str, type[StrEnum]] = {
    kind.__name__: kind
    for kind in (
        Building, Colour, Confidence, ObjectiveKind, Reward, Shape, SpecialActionKind, Territory,
        EventType, LoneChoice, NuggetLadder, Game, Source,
    )
}  # fmt: skip
"""Every identifier of the rules that a param may be, by its class's name."""

_SERIES: dict[type[Series] | type[Order], str] = {
    Series: "series",
    Choices: "choices",
    Players: "players",
    Tokens: "tokens",
    Changes: "changes",
    Order: "order",
}
_SERIES_OF = {tag: kind for kind, tag in _SERIES.items()}


def whole(value: object) -> int:
    """``value`` if it is a whole number (not a boolean)."""
    if type(value) is not int:
        raise DataError(f"not a whole number: {type(value).__name__}")
    return value


def text(value: object) -> str:
    """``value`` if it is a string."""
    if type(value) is not str:
        raise DataError(f"not a string: {type(value).__name__}")
    return value


def array(value: object) -> list[object]:
    """``value`` if it is an array."""
    if type(value) is not list:
        raise DataError(f"not an array: {type(value).__name__}")
    return value


def obj(value: object) -> dict[str, object]:
    """``value`` if it is an object."""
    if type(value) is not dict:
        raise DataError(f"not an object: {type(value).__name__}")
    return value


def member[E: StrEnum](kind: type[E], value: object) -> E:
    """The ``kind`` whose value is ``value``."""
    try:
        return kind(text(value))
    except ValueError:
        raise DataError(f"not a {kind.__name__}") from None


def counts_to_data[E: StrEnum](counts: Mapping[E, int]) -> dict[str, Data]:
    """Counts by identifier (a bag of rewards, buildings...) as an object, in their order."""
    return {key.value: count for key, count in counts.items()}


def counts_from_data[E: StrEnum](kind: type[E], value: object) -> dict[E, int]:
    """What :func:`counts_to_data` wrote, for identifiers of ``kind``."""
    return {member(kind, key): whole(count) for key, count in obj(value).items()}


def param_to_data(value: Param) -> Data:
    """A param of an explanation as data (:func:`param_from_data` reads it)."""
    if type(value) is str or type(value) is int or type(value) is bool:  # most params
        return value
    match value:
        case Message():
            return ["message", template_to_data(value.template), params_to_data(value.params)]
        case Quoted():
            return ["quoted", str(value)]
        case StrEnum():
            return ["enum", type(value).__name__, value.value]
        case Figure(name=name, value=figure):
            return ["figure", name, figure]
        case Count(number=number, reward=reward):
            return ["count", number, reward.value]
        case Part(number=number, building=building):
            return ["part", number, building.value]
        case Change(kind=kind, change=change):
            return ["change", None if kind is None else kind.value, change]
        case Gift(giver=giver, reward=reward):
            return ["gift", giver, reward.value]
        case Parts():
            return ["parts", [[part.number, part.building.value] for part in value]]
        case Series() | Order():
            return [_SERIES[type(value)], [param_to_data(item) for item in value]]
    raise TypeError(f"not a param: {value!r}")


def param_from_data(value: object) -> Param:
    """What :func:`param_to_data` wrote."""
    if type(value) is str or type(value) is int or type(value) is bool:
        return value
    tag, *rest = array(value) or [None]
    match tag, rest:
        case "message", [template, params]:
            return _message(template_from_data(template), params_from_data(params))
        case "quoted", [quoted]:
            return Quoted(text(quoted))
        case "enum", [str() as kind, identifier] if kind in ENUMS:
            return member(ENUMS[kind], identifier)
        case "figure", [name, bool() | int() as figure]:
            return Figure(text(name), figure)
        case "count", [number, reward]:
            return Count(whole(number), member(Reward, reward))
        case "part", [number, building]:
            return Part(whole(number), member(Building, building))
        case "change", [kind, change]:
            return Change(None if kind is None else member(Reward, kind), whole(change))
        case "gift", [giver, reward]:
            return Gift(text(giver), member(Reward, reward))
        case "parts", [parts]:
            return Parts(
                Part(whole(number), member(Building, building)) for number, building in map(_pair, array(parts))
            )
        case str(), [items] if tag in _SERIES_OF:
            return _SERIES_OF[tag](param_from_data(item) for item in array(items))
    raise DataError(f"not a param: {tag!r}")


def _message(template: str, params: dict[str, Param]) -> Message:
    try:
        return Message(template, **params)
    except (LookupError, TypeError, ValueError, AttributeError) as error:  # the template does not fit its params
        raise DataError(f"not a message: {error}") from None


def _pair(value: object) -> list[object]:
    pair = array(value)
    if len(pair) != 2:
        raise DataError("not a pair")
    return pair


def params_to_data(params: Params) -> dict[str, Data]:
    """A template's params as an object."""
    return {name: param_to_data(value) for name, value in params.items()}


def params_from_data(value: object) -> dict[str, Param]:
    """What :func:`params_to_data` wrote."""
    return {text(name): param_from_data(param) for name, param in obj(value).items()}


def template_to_data(template: str) -> Data:
    """A template as data: its text, or for a :class:`~rules.explanation.Plural` its two forms and the param
    that chooses."""
    if isinstance(template, Plural):
        return [str(template), template.plural, template.number]
    return str(template)


def template_from_data(value: object) -> str:
    """What :func:`template_to_data` wrote."""
    if type(value) is str:
        return value
    singular, plural, number = (text(part) for part in _three(value))
    return Plural(singular, plural, number)


def _three(value: object) -> list[object]:
    parts = array(value)
    if len(parts) != 3:
        raise DataError("not a plural template")
    return parts


def step_to_data(step: Step) -> Data:
    """One step of an explanation as data: ``[rule, template, params]``."""
    return [step.rule, template_to_data(step.message), params_to_data(step.params)]


def step_from_data(value: object) -> Step:
    """What :func:`step_to_data` wrote."""
    rule, template, params = _three(value)
    return Step(text(rule), template_from_data(template), params_from_data(params))
