"""Request bodies are bounded before anything reads them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

from scoring.limits import body_limit
from scoring.views.pages import too_big


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


class BodyLimitMiddleware(MiddlewareMixin):
    """Answer 413 with the too-big page when a request declares a body over its URL's limit
    (``scoring.limits``), or a body of unknown length.

    It works in ``process_view``, once the URL is resolved and before ``CsrfViewMiddleware`` (listed
    after it) reads a POST body to find the CSRF token; the page then goes through every other
    middleware's response handling like any page (CSRF cookie, Content-Security-Policy).
    """

    def process_view(
        self, request: HttpRequest, view: Callable[..., HttpResponseBase], args: object, kwargs: object
    ) -> HttpResponseBase | None:
        length = declared_length(request.META)
        url_name = request.resolver_match.url_name if request.resolver_match else None
        if length is not None and length <= body_limit(url_name):
            return None
        return too_big(request)
