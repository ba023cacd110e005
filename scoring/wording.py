"""The site's words for the engine's: labels of the record's identifiers, rewards named by colour and
shape, explanation steps and error messages from ``rules`` in the reader's language."""

from __future__ import annotations

import functools
from enum import StrEnum

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from django.conf import settings
from django.utils.translation import get_language, gettext, ngettext, to_locale
from django.utils.translation import gettext_lazy as _

from rules import Building, Colour, ObjectiveKind, RecordError, Reward, RulesError, Section, Shape, Step, Territory
from rules.explanation import ListStyle, Message, Params, Plural, render


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


LABELS = {
    "colour:green": _("green"),
    "colour:blue": _("blue"),
    "colour:yellow": _("yellow"),
    "colour:black": _("black"),
    "shape:square": _("square"),
    "shape:hexagon": _("hexagon"),
    "shape:circle": _("circle"),
    "territory:forest": _("forest"),
    "territory:lake": _("lake"),
    "territory:field": _("field"),
    "territory:mountain": _("mountain"),
    "building:farm": _("farm"),
    "building:warehouse": _("warehouse"),
    "building:silo": _("silo"),
    "forest": _("Forest"),
    "lake": _("Lake"),
    "field": _("Field"),
    "mountain": _("Mountain"),
    "farm": _("Farm"),
    "warehouse": _("Warehouse"),
    "silo": _("Silo"),
    "reward_of_shape": _("A reward of a shape"),
    "two_rewards": _("Two rewards"),
    "choose_first": _("Choose first"),
    "gold_nugget": _("A gold nugget"),
    "new_objectives": _("New objectives"),
    "gifts": _("Gifts"),
    "trade": _("Trade"),
    "new_tiles": _("New tiles"),
    "exchange_shape": _("Exchange a shape"),
    "exchange_colour": _("Exchange a colour"),
    "component:explorer_points": _("Explorer"),
    "component:objective_points": _("Objectives"),
    "component:nugget_points": _("Nuggets"),
    "component:prestige_points": _("Prestige"),
    "component:discovery_points": _("Discoveries"),
    "component:port_points": _("Ports"),
    "component:logbook_points": _("Logbooks"),
    "component:sailing_points": _("Sailing"),
    "component:royal_order_points": _("Royal orders"),
    "component:building_points": _("Buildings"),
    "component:leftover_points": _("Leftovers"),
    "component:anchor_points": _("Anchors"),
    "kind:specific": _("specific reward"),
    "kind:territory": _("territory series"),
    "kind:shape": _("reward series"),
    "card:specific": _("Specific reward (3 VP each)"),
    "card:shape": _("Shape set (7 VP)"),
    "card:territory": _("Territory set (5 VP)"),
    # The buttons that add a full set card in one tap (written out: the plural and the agreement vary).
    "full:colour:green": _("All 3 green: territory set"),
    "full:colour:blue": _("All 3 blue: territory set"),
    "full:colour:yellow": _("All 3 yellow: territory set"),
    "full:colour:black": _("All 3 black: territory set"),
    "full:shape:square": _("All 4 squares: shape set"),
    "full:shape:hexagon": _("All 4 hexagons: shape set"),
    "full:shape:circle": _("All 4 circles: shape set"),
    "stage:territory": _("Territory"),
    "stage:board": _("The territory"),
    "stage:order": _("Order of influence"),
    "stage:lone": _("Alone in the territory"),
    "stage:action": _("Special action"),
    "stage:picks": _("Collection"),
    "stage:player": _("Player"),
    "stage:reward": _("Token from the supply"),
    "stage:cards": _("Cards kept"),
    "stage:changes": _("Correction"),
    "stage:count": _("Tokens and nuggets"),
    "stage:confirm": _("Check and save"),
    "source:rulebook": _("Printed rulebook"),
    "source:game_help": _("Game help"),
    "source:inferred": _("The app's reading"),
    "source:house_rule": _("House-rule option"),
    "source:record_format": _("The app's record format"),
    "game:okanagan": _("Okanagan"),
    "game:small_islands": _("Small Islands"),
    "game:cooper_island": _("Cooper Island"),
    "volcano": _("Volcano"),
    "beaver_dam": _("Beaver Dam"),
    "objectives": _("Objective cards"),
    "round_end": _("End of round 1"),
    "adjust": _("Correction"),
    "holdings": _("Final count"),
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
