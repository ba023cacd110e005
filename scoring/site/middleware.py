"""Request bodies are bounded before anything reads them."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase

from scoring.site.body_limits import body_limit
from scoring.site.views.pages import too_big


def declared_length(meta: dict[str, Any]) -> int | None:
    """The body's length as the client declares it: 0 without a body, ``None`` when it is unknown.

    A body sent in chunks (``Transfer-Encoding``) without a ``Content-Length``, or a length that is not
    a number, is unknown: it is refused rather than read to find out.

    >>> declared_length({"CONTENT_LENGTH": "42"}), declared_length({}), declared_length({"CONTENT_LENGTH": "-1"})
    (42, 0, None)
    >>> declared_length({"HTTP_TRANSFER_ENCODING": "chunked"}) is None
    True
    """
    value = str(meta.get("CONTENT_LENGTH") or "").strip()
    if not value:
        return None if meta.get("HTTP_TRANSFER_ENCODING") else 0
    return int(value) if value.isascii() and value.isdigit() else None


def within_limit(request: HttpRequest) -> bool:
    """Whether the request declares a body no larger than its URL's limit (``scoring.site.body_limits``)."""
    length = declared_length(request.META)
    url_name = request.resolver_match.url_name if request.resolver_match else None
    return length is not None and length <= body_limit(url_name)


class BodyLimitMiddleware:
    """Answer 413 with the too-big page when a request declares a body over its URL's limit, or a body
    of unknown length.

    It works in ``process_view``, once the URL is resolved and before ``CsrfViewMiddleware`` (listed
    after it) reads a POST body to find the CSRF token; the page then goes through every other
    middleware's response handling like any page (CSRF cookie, Content-Security-Policy).

    A body within its limit that nothing read (a failed CSRF check, a 404) is read to its end after the
    answer: gunicorn closes the connection after answering, and nginx, still sending that body, would
    take the closed connection for a failure and answer 502 instead.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if within_limit(request):
            with contextlib.suppress(OSError):  # the client went away: nothing to drain
                while request.read(65536):
                    pass
        return response

    def process_view(
        self, request: HttpRequest, view: Callable[..., HttpResponseBase], args: object, kwargs: object
    ) -> HttpResponseBase | None:
        return None if within_limit(request) else too_big(request)
