"""Rate limits on guessing, and the page that asks to wait.

Logins are limited per username and client by django-axes (settings ``AXES_*``), and per client across
usernames here, as are joining a table by its code and signing up (django-ratelimit). Every limit counts per
client (:mod:`scoring.client`) in the shared cache.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Literal

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django_ratelimit.core import get_usage, is_ratelimited

Action = Literal["join", "signup", "restore", "login"]

RATES: dict[Action, str] = {
    "join": "20/5m",  # table codes: a table that mistypes a few times never notices
    "signup": "10/h",  # a table of four signing up, with a few refused forms, fits
    "restore": "6/h",  # a restore is the heaviest request (seconds of work): a few tries, not a flood
    # failed logins across usernames (password spraying); a family or a club behind one address, each
    # misremembering a password a few times, stays well under it
    "login": "30/5m",
}
KEYS: dict[Action, str] = {"join": "ip", "signup": "ip", "restore": "user_or_ip", "login": "ip"}
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


def count_login_failure(
    sender: object, credentials: dict[str, Any], request: HttpRequest | None = None, **_: Any
) -> None:
    """Count a failed login against its client, whatever the username (``user_login_failed``'s receiver).

    A success never resets this count, so an attacker's own account cannot clear it.
    """
    if request is not None:
        over_limit(request, "login")


def logins_refused(request: HttpRequest) -> bool:
    """Whether this client has failed to log in :data:`RATES` ``["login"]`` times in this window, across
    usernames: then every login from it waits for the window's end, whichever account it names."""
    usage = get_usage(request, group="login", key=KEYS["login"], rate=RATES["login"])
    return usage is not None and usage["count"] >= usage["limit"]


def limit_logins(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """The login ``view``, answering the "too many attempts" page to a client whose logins are refused (the
    failure that reaches the limit gets it too, as django-axes does per username)."""

    @wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        posted = request.method == "POST"
        if posted and logins_refused(request):
            return too_many(request)
        response = view(request, *args, **kwargs)
        if posted and response.status_code == 200 and logins_refused(request):  # the form again: a failure
            return too_many(request)
        return response

    return limited
