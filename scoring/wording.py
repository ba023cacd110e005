"""The site's words for the engine's: labels of the record's identifiers, rewards named by colour and
shape, explanation steps and error messages from ``rules`` in the reader's language."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from enum import StrEnum

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, ngettext, to_locale
from django.utils.translation import gettext_lazy as _

from rules import PARTS as SCORE_PARTS
from rules import (
    Building,
    Colour,
    EventType,
    Game,
    NuggetLadder,
    ObjectiveKind,
    RecordError,
    Reward,
    RulesError,
    Section,
    Shape,
    Source,
    SpecialActionKind,
    Step,
    Territory,
)
from rules.explanation import ListStyle, Message, Params, Plural, render
from scoring.kinds import KINDS

type StrPromise = Promise  # a gettext_lazy text


def reward_label(reward: Reward | str) -> str:
    """``blue circle``: the reward's colour and shape (the printed names are not all known)."""
    return _reward_labels(get_language())[Reward(reward)]


@functools.lru_cache(maxsize=16)
def _reward_labels(language: str | None) -> dict[Reward, str]:
    """Every reward's label in ``language`` (the active one): a page names rewards many times."""
    return {
        reward: gettext("{colour} {shape}").format(
            colour=LABELS[f"colour:{reward.colour.value}"], shape=LABELS[f"shape:{reward.shape.value}"]
        )
        for reward in Reward
    }


def explain(item: Step | Section) -> str:
    """A step or a section title in the reader's language; its params said in the reader's words too."""
    return _said(item.message, item.params)


def _said(template: str, params: Params) -> str:
    """``template`` in the reader's language (in the plural form its count needs), filled with ``params``."""
    if isinstance(template, Plural):
        count = params.get(template.number)
        translated = ngettext(template, template.plural, count if isinstance(count, int) else 0)
    else:
        translated = gettext(template)
    return translated.format_map({key: render(value, WORDS) for key, value in params.items()})


class _ReaderWords:
    """The words of the site for the engine's params (:class:`rules.explanation.Words`), in the active
    language: the labels of the game's identifiers, the catalogue's words, the locale's lists (Babel's)."""

    def kind(self, value: StrEnum) -> str:
        if isinstance(value, Reward):
            return reward_label(value)
        prefix = _KIND_PREFIXES.get(type(value))
        return label(value.value, prefix) if prefix else value.value

    def word(self, text: str) -> str:
        return gettext(text)

    def listing(self, items: list[str], style: ListStyle = "standard") -> str:
        return format_list(items, style, locale=_babel_locale(get_language()))

    def message(self, message: Message) -> str:
        return say(message)


WORDS = _ReaderWords()

_KIND_PREFIXES: dict[type[StrEnum], str] = {
    Territory: "territory",
    Shape: "shape",
    Colour: "colour",
    Building: "building",
    ObjectiveKind: "kind",
}


@functools.lru_cache(maxsize=16)
def _babel_locale(language: str | None) -> Locale:
    """Babel's locale for a Django language code (``zh-hant``: ``zh_Hant``); English if Babel has none."""
    try:
        return Locale.parse(to_locale(language or settings.LANGUAGE_CODE))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


# The site's words for the identifiers of ``rules``: each table is keyed by the rules' own enum or
# constant, so no identifier is spelled again here (tests/scoring/test_identifiers.py checks that every one
# has its word). ``LABELS`` gathers them under "<what>:<id>" for the templates' ``label`` filter.
COLOURS: dict[Colour, StrPromise] = {
    Colour.GREEN: _("green"),
    Colour.BLUE: _("blue"),
    Colour.YELLOW: _("yellow"),
    Colour.BLACK: _("black"),
}
SHAPES: dict[Shape, StrPromise] = {Shape.SQUARE: _("square"), Shape.HEXAGON: _("hexagon"), Shape.CIRCLE: _("circle")}
TERRITORIES: dict[Territory, StrPromise] = {
    Territory.FOREST: _("forest"),
    Territory.LAKE: _("lake"),
    Territory.FIELD: _("field"),
    Territory.MOUNTAIN: _("mountain"),
}
"""A territory in a sentence ("who closed the forest")."""
TERRITORY_NAMES: dict[Territory, StrPromise] = {
    Territory.FOREST: _("Forest"),
    Territory.LAKE: _("Lake"),
    Territory.FIELD: _("Field"),
    Territory.MOUNTAIN: _("Mountain"),
}
"""A territory on its own (a button, a heading)."""
BUILDINGS: dict[Building, StrPromise] = {
    Building.FARM: _("farm"),
    Building.WAREHOUSE: _("warehouse"),
    Building.SILO: _("silo"),
}
BUILDING_NAMES: dict[Building, StrPromise] = {
    Building.FARM: _("Farm"),
    Building.WAREHOUSE: _("Warehouse"),
    Building.SILO: _("Silo"),
}
ACTIONS: dict[SpecialActionKind, StrPromise] = {
    SpecialActionKind.REWARD_OF_SHAPE: _("A reward of a shape"),
    SpecialActionKind.TWO_REWARDS: _("Two rewards"),
    SpecialActionKind.CHOOSE_FIRST: _("Choose first"),
    SpecialActionKind.GOLD_NUGGET: _("A gold nugget"),
    SpecialActionKind.NEW_OBJECTIVES: _("New objectives"),
    SpecialActionKind.GIFTS: _("Gifts"),
    SpecialActionKind.TRADE: _("Trade"),
    SpecialActionKind.NEW_TILES: _("New tiles"),
    SpecialActionKind.EXCHANGE_SHAPE: _("Exchange a shape"),
    SpecialActionKind.EXCHANGE_COLOUR: _("Exchange a colour"),
}
EVENTS: dict[EventType, StrPromise] = {kind: entry.name for kind, entry in KINDS.items()}
ENTERING: dict[EventType, StrPromise] = {kind: entry.entering for kind, entry in KINDS.items()}
"""What a phone is doing while it enters an event ("Maya is entering the Volcano…")."""
SCORING: dict[Territory, StrPromise] = {
    Territory.FOREST: _("scoring a forest"),
    Territory.LAKE: _("scoring a lake"),
    Territory.FIELD: _("scoring a field"),
    Territory.MOUNTAIN: _("scoring a mountain"),
}
"""What a phone is doing while it scores a territory whose type is chosen."""
PARTS: dict[str, StrPromise] = {
    **dict(zip(SCORE_PARTS[Game.OKANAGAN], (_("Explorer"), _("Objectives"), _("Nuggets")), strict=True)),
    **dict(zip(SCORE_PARTS[Game.SMALL_ISLANDS], (_("Prestige"), _("Discoveries"), _("Ports")), strict=True)),
    **dict(
        zip(
            SCORE_PARTS[Game.COOPER_ISLAND],
            (_("Logbooks"), _("Sailing"), _("Royal orders"), _("Buildings"), _("Leftovers"), _("Anchors")),
            strict=True,
        )
    ),
}
"""The parts of a score, keyed by the result's fields (``rules.PARTS``, in its order)."""
OBJECTIVE_KINDS: dict[ObjectiveKind, StrPromise] = {
    ObjectiveKind.SPECIFIC: _("specific reward"),
    ObjectiveKind.TERRITORY: _("territory set"),
    ObjectiveKind.SHAPE: _("shape set"),
}
CARDS: dict[ObjectiveKind, StrPromise] = {
    ObjectiveKind.SPECIFIC: _("Specific reward (3 VP each)"),
    ObjectiveKind.TERRITORY: _("Territory set (5 VP)"),
    ObjectiveKind.SHAPE: _("Shape set (7 VP)"),
}
FULL_SETS: dict[Colour | Shape, StrPromise] = {
    # The buttons that add a full set card in one tap (written out: the plural and the agreement vary).
    Colour.GREEN: _("All 3 green: territory set"),
    Colour.BLUE: _("All 3 blue: territory set"),
    Colour.YELLOW: _("All 3 yellow: territory set"),
    Colour.BLACK: _("All 3 black: territory set"),
    Shape.SQUARE: _("All 4 squares: shape set"),
    Shape.HEXAGON: _("All 4 hexagons: shape set"),
    Shape.CIRCLE: _("All 4 circles: shape set"),
}
NUGGET_LADDERS: dict[NuggetLadder, StrPromise] = {
    NuggetLadder.BY_PLACE: _("10/5/2/0 by place (as printed)"),
    NuggetLadder.FEWEST_ZERO: _("Fewest nuggets score 0"),
}
SOURCES: dict[Source, StrPromise] = {
    Source.RULEBOOK: _("Printed rulebook"),
    Source.GAME_HELP: _("Game help"),
    Source.INFERRED: _("The app's reading"),
    Source.HOUSE_RULE: _("House-rule option"),
    Source.RECORD_FORMAT: _("The app's record format"),
}
GAMES: dict[Game, StrPromise] = {
    Game.OKANAGAN: _("Okanagan"),
    Game.SMALL_ISLANDS: _("Small Islands"),
    Game.COOPER_ISLAND: _("Cooper Island"),
}
# The stages of an entry are the site's own (scoring.table.entry.STAGES), not identifiers of ``rules``.
STAGES: dict[str, StrPromise] = {
    "territory": _("Territory"),
    "board": _("The territory"),
    "order": _("Order of influence"),
    "lone": _("Alone in the territory"),
    "action": _("Special action"),
    "picks": _("Collection"),
    "player": _("Player"),
    "reward": _("Token from the supply"),
    "cards": _("Cards kept"),
    "changes": _("Correction"),
    "count": _("Tokens and nuggets"),
    "confirm": _("Check and save"),
}


def _keyed[K: str](prefix: str, table: Mapping[K, StrPromise]) -> dict[str, StrPromise]:
    return {f"{prefix}:{key}" if prefix else str(key): word for key, word in table.items()}


LABELS: dict[str, StrPromise] = {
    **_keyed("colour", COLOURS),
    **_keyed("shape", SHAPES),
    **_keyed("territory", TERRITORIES),
    **_keyed("building", BUILDINGS),
    **_keyed("", TERRITORY_NAMES),
    **_keyed("", BUILDING_NAMES),
    **_keyed("", ACTIONS),
    **_keyed("component", PARTS),
    **_keyed("kind", OBJECTIVE_KINDS),
    **_keyed("card", CARDS),
    **{f"full:{type(of).__name__.lower()}:{of}": word for of, word in FULL_SETS.items()},
    **_keyed("stage", STAGES),
    **_keyed("ladder", NUGGET_LADDERS),
    **_keyed("source", SOURCES),
    **_keyed("game", GAMES),
    **_keyed("", EVENTS),
}


def label(value: object, prefix: str = "") -> str:
    """The reader's word for an identifier of the record (a territory, a building, an action...)."""
    key = f"{prefix}:{value}" if prefix else str(value)
    return str(LABELS.get(key, value))


def say(message: str) -> str:
    """A :class:`rules.explanation.Message` in the reader's language; any other text as it is."""
    if isinstance(message, Message):
        return _said(message.template, message.params)
    return message


def error_text(error: RulesError) -> str:
    """An error of ``rules`` for a player: where (the event), then what is wrong, in the reader's language."""
    if isinstance(error, RecordError) and error.event_index is not None:
        place = gettext("Event {index}").format(index=error.event_index)
        return f"{place}: {say(error.message)}"
    return say(error.message)
