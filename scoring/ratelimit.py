"""Rate limits on guessing: logging in, and joining a table by its code.

A fixed window per client address and action, counted in the cache (the database cache by default,
so every worker process counts together).
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 300
LIMITS = {"login": 10, "join": 20}
"""Attempts allowed per client address in each window."""


def too_many(request: HttpRequest, action: str) -> bool:
    """Count this attempt at ``action``; whether the client went over its limit in this window."""
    key = f"rate:{action}:{request.META.get('REMOTE_ADDR', '')}"
    cache.add(key, 0, WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.set(key, 1, WINDOW_SECONDS)
        count = 1
    return count > LIMITS[action]
