"""The ``sheets`` concern as a Django app, for its templates and URLs (its models are the ``scoring`` app's)."""

from __future__ import annotations

from django.apps import AppConfig


class SheetsConfig(AppConfig):
    name = "scoring.sheets"
    label = "scoring_sheets"
