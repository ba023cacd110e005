"""Template context for every page."""

from __future__ import annotations

from django.http import HttpRequest

from .views.pages import THEME_COOKIE, THEMES


def theme(request: HttpRequest) -> dict[str, str]:
    """The reader's light/dark choice (``auto`` follows the phone's setting), and the next one to offer."""
    chosen = request.COOKIES.get(THEME_COOKIE, "auto")
    chosen = chosen if chosen in THEMES else "auto"
    return {"theme": chosen, "next_theme": THEMES[(THEMES.index(chosen) + 1) % len(THEMES)]}
