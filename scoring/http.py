"""The request type of this site's views: Django's, with django-htmx's ``request.htmx``."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


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
