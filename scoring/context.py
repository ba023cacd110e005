"""Template context for every page."""

from __future__ import annotations

from django.http import HttpRequest

from rules import EventType

from .views.pages import THEME_COOKIE, THEMES


def theme(request: HttpRequest) -> dict[str, str]:
    """The reader's light/dark choice (``auto`` follows the phone's setting), and the next one to offer."""
    chosen = request.COOKIES.get(THEME_COOKIE, "auto")
    chosen = chosen if chosen in THEMES else "auto"
    return {"theme": chosen, "next_theme": THEMES[(THEMES.index(chosen) + 1) % len(THEMES)]}


KINDS = {kind.name: kind for kind in EventType}


def kinds(request: HttpRequest) -> dict[str, dict[str, EventType]]:
    """The record's kinds of event by name, so that templates compare with ``kinds.VOLCANO`` instead of
    spelling ``"volcano"`` again."""
    return {"kinds": KINDS}
