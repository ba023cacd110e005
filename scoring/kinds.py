"""The kinds of event a game's log holds, as the site enters and names them: one entry per kind, so that a
kind (a new promo tile) is spelled once on the site's side.

Each kind says the steps of its entry (:mod:`scoring.table.entry`; a stage is a step the entry knows how to ask),
its words, whether a new entry starts with the phone's own player, and whether saving it twice would count it
twice (:mod:`scoring.table.twins`). What an event means is for ``rules``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rules import EventType


@dataclass(frozen=True)
class EventKind:
    """How the site enters and names the events of one kind."""

    stages: tuple[str, ...]
    """The steps of its entry, in order (``confirm`` last)."""
    name: Promise
    """Its name ("Volcano")."""
    entering: Promise
    """What a phone entering one is doing ("entering the Volcano")."""
    for_me: bool = False
    """A new entry starts with the phone's own player (most often one's own; "Change" otherwise)."""
    adds: bool = False
    """Saved twice, it would count twice (objective cards or a final count saved again replace themselves)."""


KINDS: dict[EventType, EventKind] = {
    EventType.TERRITORY: EventKind(
        ("territory", "board", "order", "lone", "action", "picks", "confirm"),
        _("Territory"),
        _("scoring a territory"),
        adds=True,
    ),
    EventType.VOLCANO: EventKind(
        ("player", "action", "confirm"), _("Volcano"), _("entering the Volcano"), for_me=True, adds=True
    ),
    EventType.BEAVER_DAM: EventKind(
        ("player", "reward", "confirm"), _("Beaver Dam"), _("entering the Beaver Dam"), for_me=True, adds=True
    ),
    EventType.OBJECTIVES: EventKind(
        ("player", "cards", "confirm"), _("Objective cards"), _("entering objective cards")
    ),
    EventType.ROUND_END: EventKind(("confirm",), _("End of round 1"), _("entering the end of round 1")),
    EventType.ADJUST: EventKind(
        ("player", "changes", "confirm"), _("Correction"), _("entering a correction"), for_me=True, adds=True
    ),
    EventType.HOLDINGS: EventKind(("player", "count", "confirm"), _("Final count"), _("entering a final count")),
}
"""Every kind of event, in the record's order."""
