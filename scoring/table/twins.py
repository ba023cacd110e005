"""A save that repeats an event saved a moment before: two phones that entered one territory at once.

The game allows two territories of one kind closed by one player with the same icons and buildings, so a twin
is not refused: it is asked about once before it counts (:func:`to_ask`). A twin is the log's last
event, or one of its last :data:`LOOKED_BACK` events saved less than :data:`RECENT` ago (the other phone may
have saved, and a third phone another event, since), that is the same as the new one: for a territory, the
same territory closed by the same player with the same icons and buildings (the picks, order and special
action follow from them, or differ by a tap); for a promo tile or a correction, the same event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from rules import EventType, RulesError, Territory, parse_event
from scoring.kinds import KINDS
from scoring.models import Game
from scoring.wording import TERRITORY_NAMES

LOOKED_BACK = 5
RECENT = timedelta(minutes=10)
SAME_BOARD = ("type", "territory", "closed_by", "rewards", "buildings")
"""What makes two territory events the same board."""


@dataclass(frozen=True)
class Twin:
    """An event of the log that a new event repeats."""

    index: int
    question: str
    """What the phone is asked before its save counts, in the reader's language."""


def _compared(event: dict[str, Any]) -> dict[str, Any]:
    if event.get("type") == EventType.TERRITORY:
        return {key: event.get(key) for key in SAME_BOARD}
    return event


def to_ask(game: Game, event: dict[str, Any], *, editing: int | None, confirmed: int) -> Twin | None:
    """The event of ``game`` that saving ``event`` would repeat, which the phone is asked about before the save
    counts; ``None`` when there is none, for an edit of the past (it replaces an event: nothing counts twice),
    and once the phone posted back the event it repeats (``confirmed``: it was asked, and saves)."""
    if editing is not None:
        return None
    twin = _latest_twin(game, event)
    return None if twin is None or twin.index == confirmed else twin


def _latest_twin(game: Game, event: dict[str, Any]) -> Twin | None:
    """The latest recent event of ``game`` that ``event`` (a new event, complete) repeats, if any; only events
    that add to what the players hold are asked about (objective cards or a final count saved again replace
    themselves: nothing is counted twice)."""
    if not KINDS[EventType(event["type"])].adds:
        return None
    try:
        made = _compared(parse_event(game.players(), event).to_json())  # as the rules read it, as the log stores it
    except RulesError:
        return None  # not an event the log would take: the save says why
    since = timezone.now() - RECENT
    for position, row in enumerate(game.events.order_by("-index").only("index", "data", "created")[:LOOKED_BACK]):
        if (position == 0 or row.created >= since) and _compared(row.data) == made:
            return Twin(row.index, _question(row.index, row.data))
    return None


def _question(index: int, event: dict[str, Any]) -> str:
    if event.get("type") == EventType.TERRITORY:
        return _(
            "Event %(index)d, saved a moment ago, has this same board (%(territory)s, closed by %(closer)s). "
            "Save this one as well?"
        ) % {"index": index, "territory": TERRITORY_NAMES[Territory(event["territory"])], "closer": event["closed_by"]}
    return _("Event %(index)d, saved a moment ago, is this same entry. Save this one as well?") % {"index": index}
