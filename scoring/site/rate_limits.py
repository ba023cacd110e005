"""Rate limits on guessing, and the page that asks to wait.

Logins are limited per username and client by django-axes (settings ``AXES_*``, :class:`LoginLimits`), and per
client across usernames here, as are joining a table by its code and signing up (django-ratelimit). Every limit
counts per client (:mod:`scoring.site.client`) in the shared cache.

With Redis down or stalled (:mod:`scoring.cache`) nothing can be counted: each limit then lets every attempt
through or refuses every one (:data:`WITHOUT_CACHE`), and says so in the log, once every few seconds.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from functools import wraps
from typing import Any, Literal

from axes.handlers.cache import AxesCacheHandler
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django_ratelimit.core import get_usage, is_ratelimited

from scoring.cache import CACHE_ERRORS, warn_once

logger = logging.getLogger(__name__)

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
WITHOUT_CACHE: dict[Action, Literal["open", "closed"]] = {
    "join": "open",  # a table must sit down; an outage lasts minutes, and a code is one of 31⁶ (887 million)
    "signup": "closed",  # accounts made by the thousand cost for good; a newcomer can sign up a minute later
    "restore": "closed",  # the heaviest request: a member can restore a minute later
    "login": "open",  # as django-axes' limit (LoginLimits): only the right password logs in
}
"""What each limit does while the cache does not answer: let every attempt through, or refuse every one."""

_refused_uncounted: weakref.WeakSet[HttpRequest] = weakref.WeakSet()
"""Requests refused because their attempt could not be counted: they are told to come back, not to wait."""


def over_limit(request: HttpRequest, action: Action) -> bool:
    """Count this attempt at ``action``; whether the client has gone over its limit in this window.

    The count is incremented and read in one atomic step on Redis, so parallel workers never let more
    through than the limit.
    """
    try:
        limited: bool = is_ratelimited(request, group=action, key=KEYS[action], rate=RATES[action], increment=True)
    except CACHE_ERRORS:
        return _refused_without_cache(request, action)
    return limited


def used_up(request: HttpRequest, action: Action) -> bool:
    """Whether the client has made its :data:`RATES` attempts at ``action`` in this window, counting none: for an
    action whose attempt counts only once it goes through (a restore: :func:`over_limit` after it). Without the
    cache, as :data:`WITHOUT_CACHE` says."""
    try:
        usage = get_usage(request, group=action, key=KEYS[action], rate=RATES[action])
    except CACHE_ERRORS:
        return _refused_without_cache(request, action)
    return usage is not None and usage["count"] >= usage["limit"]


def _refused_without_cache(request: HttpRequest, action: Action) -> bool:
    """Whether an attempt at ``action`` that the cache could not count is refused (:data:`WITHOUT_CACHE`)."""
    fails = WITHOUT_CACHE[action]
    warn_once(logger, f"limit:{action}", "Redis does not answer: the %s limit is %s", action, fails)
    if fails == "open":
        return False
    _refused_uncounted.add(request)
    return True


def too_many(request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None) -> HttpResponse:
    """The "too many attempts" page, with status 429, in the reader's language; or, for an attempt refused
    because the cache could not count it, the "not right now" page, with status 503.

    Also django-axes' ``AXES_LOCKOUT_CALLABLE``, which passes the refused response and the credentials.
    """
    if request in _refused_uncounted:
        response = render(request, "site/too_many.html", {"uncounted": True}, status=503)
        response["Retry-After"] = "60"
        return response
    return render(request, "site/too_many.html", status=429)


class LoginLimits(AxesCacheHandler):  # type: ignore[misc]  # (axes is untyped)
    """django-axes counting logins in the cache (settings ``AXES_HANDLER``), letting every login through while
    the cache does not answer: only the right password logs in, and the limit only slows guessing down, while
    refusing every login would lock every member out for as long as Redis is down."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        try:
            failures: int = super().get_failures(request, credentials)
        except CACHE_ERRORS:
            _login_limit_open()
            return 0
        return failures

    def user_login_failed(self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
        try:
            super().user_login_failed(sender, credentials, request, **kwargs)
        except CACHE_ERRORS:
            _login_limit_open()

    def user_logged_in(self, sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
        try:
            super().user_logged_in(sender, request, user, **kwargs)
        except CACHE_ERRORS:
            _login_limit_open()


def _login_limit_open() -> None:
    warn_once(logger, "limit:login", "Redis does not answer: the login limit is open")


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
    return used_up(request, "login")


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
