"""Rate limits on guessing, and the page that asks to wait.

Logins are limited by django-axes (settings ``AXES_*``); joining a table by its code and signing up by
django-ratelimit, here. Every limit counts per client (:mod:`scoring.client`) in the shared cache.
"""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import is_ratelimited

Action = Literal["join", "signup", "restore"]

RATES: dict[Action, str] = {
    "join": "20/5m",  # table codes: a table that mistypes a few times never notices
    "signup": "10/h",  # a table of four signing up, with a few refused forms, fits
    "restore": "6/h",  # a restore is the heaviest request (seconds of work): a few tries, not a flood
}
KEYS: dict[Action, str] = {"join": "ip", "signup": "ip", "restore": "user_or_ip"}
"""Whom each limit counts: the client, or for a restore (members only) the account."""


def over_limit(request: HttpRequest, action: Action) -> bool:
    """Count this attempt at ``action``; whether the client has gone over its limit in this window.

    The count is incremented and read in one atomic step on Redis, so parallel workers never let more
    through than the limit.
    """
    limited: bool = is_ratelimited(request, group=action, key=KEYS[action], rate=RATES[action], increment=True)
    return limited


def too_many(request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None) -> HttpResponse:
    """The "too many attempts" page, with status 429, in the reader's language.

    Also django-axes' ``AXES_LOCKOUT_CALLABLE``, which passes the refused response and the credentials.
    """
    return render(request, "scoring/too_many.html", status=429)
