"""The request type of this site's views (Django's, with django-htmx's ``request.htmx``) and the id in their URLs."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails


class IdConverter:
    """A database id in a URL: at most 18 digits, so that no URL asks the database for a number it cannot hold."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class TextConverter:
    """A word of a URL (a token, a code, a kind): what Django's ``str`` takes, but a NUL, which PostgreSQL cannot
    compare with any text; a URL with one is found nowhere (404) instead of failing in the database."""

    regex = "[^/\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware`` (every request here does)."""

    htmx: HtmxDetails


def posted_whole(value: str, default: int = -1) -> int:
    """A whole number a form sent: 1 to 9 ASCII digits, else ``default``.

    Not ``str.isdigit()``, which is true for ``²`` and ``٣`` that ``int()`` refuses or reads otherwise.
    """
    if 0 < len(value) <= 9 and value.isascii() and value.isdigit():
        return int(value)
    return default


def go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Send the phone to ``url``: a redirect, or htmx's (a whole new page either way)."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def to_saved(request: HtmxHttpRequest, game_id: int, index: int) -> HttpResponse:
    """To the game page, whose first card shows event ``index``, just saved by this phone."""
    return go(request, f"{reverse('game', args=[game_id])}?saved={index}")


def game_over(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """To the game page, saying why: a control left on a phone (Undo, Edit, an entry, a save) of a game that
    has ended since."""
    messages.info(request, _("The game has ended: its events can no longer be changed."))
    return go(request, reverse("game", args=[game_id]))


def entry_closed(taken: bool) -> HttpResponse:
    """The answer to a tap (or a check) of an entry that is no longer this phone's (``taken``: continued on another
    phone; else saved, cancelled or replaced): 409, saying why, in the reader's language, for the phone to show."""
    reason = _("This entry was continued on another phone.") if taken else _("This entry is no longer in progress.")
    return HttpResponse(reason, status=409, content_type="text/plain; charset=utf-8")
