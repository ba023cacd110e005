"""The request type of this site's views: Django's, with django-htmx's ``request.htmx``."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware`` (every request here does)."""

    htmx: HtmxDetails
