"""A save that may repeat an event saved a moment before: two phones that entered one territory at once.

The game allows two territories of one kind closed by one player with the same icons and buildings, so a twin
is not refused: it is asked about once before it counts (:func:`to_ask`), naming who saved the other one, and
the phone may as plainly not save its own. Two kinds of twins:

- the same board: the log's last event, or one of its last :data:`LOOKED_BACK` events saved less than
  :data:`RECENT` ago (the other phone may have saved, and a third phone another event, since), that is the same
  as the new one: for a territory, the same territory closed by the same player with the same icons and
  buildings (the picks, order and special action follow from them, or differ by a tap); for a promo tile or a
  correction, the same event;
- the same thing (:func:`scoring.table.drafts.subject`: the same territory, forest or lake…, or a promo tile or
  correction for the same player) saved by another phone while this entry was open, whatever its board: the two
  phones most likely entered one territory, one icon apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rules import EventType, RulesError, Territory, parse_event
from scoring.kinds import KINDS
from scoring.models import Event, Game
from scoring.table.drafts import subject
from scoring.wording import TERRITORY_NAMES

LOOKED_BACK = 5
RECENT = timedelta(minutes=10)
SAME_BOARD = ("type", "territory", "closed_by", "rewards", "buildings")
"""What makes two territory events the same board."""


@dataclass(frozen=True)
class Twin:
    """An event of the log that a new event may repeat."""

    index: int
    question: str
    """What the phone is asked before its save counts, in the reader's language, naming who saved the other."""


def _compared(event: dict[str, Any]) -> dict[str, Any]:
    if event.get("type") == EventType.TERRITORY:
        return {key: event.get(key) for key in SAME_BOARD}
    return event


def to_ask(
    game: Game, event: dict[str, Any], *, editing: int | None, confirmed: int, since: datetime | None, count: int
) -> Twin | None:
    """The event of ``game`` that saving ``event`` may repeat, which the phone is asked about before the save
    counts; ``None`` when there is none, for an edit of the past (it replaces an event: nothing counts twice),
    and once the phone posted back the event it repeats (``confirmed``: it was asked, and saves). ``since``: when
    this phone's entry began (``None``: it is not kept), to find the same thing saved meanwhile; ``count``: the
    number of events of the log the save adds to. One query, both kinds of twins at once."""
    if editing is not None or not KINDS[EventType(event["type"])].adds:
        return None  # objective cards or a final count saved again replace themselves: nothing counts twice
    same = subject(event["type"], event)
    wanted = Q(index__gte=count - LOOKED_BACK)
    if same is not None and since is not None:
        key, value = same
        wanted |= Q(created__gte=since, data__type=event["type"], **{f"data__{key}": value})
    rows = list(game.events.filter(wanted).order_by("-index").only("index", "data", "created", "saved_by"))
    last = [row for row in rows if row.index >= count - LOOKED_BACK]
    meanwhile = [row for row in rows if since is not None and same is not None and row.created >= since]
    twin = _same_board(event, game, last) or _saved_meanwhile(event, meanwhile)
    return None if twin is None or twin.index == confirmed else twin


def _same_board(event: dict[str, Any], game: Game, last: list[Event]) -> Twin | None:
    """The latest recent event of ``last`` (the log's last events, newest first) that ``event`` (a new event,
    complete) repeats, if any."""
    try:
        made = _compared(parse_event(game.players(), event).to_json())  # as the rules read it, as the log stores it
    except RulesError:
        return None  # not an event the log would take: the save says why
    since = timezone.now() - RECENT
    for position, row in enumerate(last):
        if (position == 0 or row.created >= since) and _compared(row.data) == made:
            return Twin(row.index, _question(row, same_board=True))
    return None


def _saved_meanwhile(event: dict[str, Any], rows: list[Event]) -> Twin | None:
    """The latest of ``rows`` (events saved since this entry began, newest first) of the same thing as ``event``
    (:func:`scoring.table.drafts.subject`), if any."""
    same = subject(event["type"], event)
    if same is None:
        return None
    key, value = same
    row = next((row for row in rows if row.data.get("type") == event["type"] and row.data.get(key) == value), None)
    return None if row is None else Twin(row.index, _question(row, same_board=False))


def _question(row: Event, *, same_board: bool) -> str:
    who = row.saved_by or _("another phone")
    event = row.data
    if event.get("type") != EventType.TERRITORY:
        if same_board:
            return _("Event %(index)d, saved by %(who)s a moment ago, is this same entry. Save yours as well?") % {
                "index": row.index,
                "who": who,
            }
        return _(
            "Event %(index)d, of the same kind, was saved by %(who)s while you were entering yours. Save yours as well?"
        ) % {"index": row.index, "who": who}
    words = {
        "index": row.index,
        "who": who,
        "territory": TERRITORY_NAMES[Territory(event["territory"])],
        "closer": event.get("closed_by", ""),
    }
    if same_board:
        return (
            _(
                "Event %(index)d (%(territory)s, closed by %(closer)s), saved by %(who)s a moment ago, has this same "
                "board. Save yours as well?"
            )
            % words
        )
    return (
        _(
            "Event %(index)d (%(territory)s, closed by %(closer)s) was saved by %(who)s while you were entering "
            "yours. Save yours as well?"
        )
        % words
    )
