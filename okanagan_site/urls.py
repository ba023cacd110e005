"""The site's URLs: each concern's own, with the converters they share (a database id, a word without a NUL)."""

from __future__ import annotations

from django.urls import include, path, register_converter

from scoring.http import IdConverter, TextConverter

register_converter(IdConverter, "id")
register_converter(TextConverter, "text")

urlpatterns = [
    path("", include("scoring.site.urls")),
    path("", include("scoring.help.urls")),
    path("", include("scoring.history.urls")),
    path("", include("scoring.sheets.urls")),
    path("", include("scoring.results.urls")),
    path("", include("scoring.table.urls")),
]
