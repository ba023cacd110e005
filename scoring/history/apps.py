"""The ``history`` concern as a Django app, for its templates and URLs (its models are the ``scoring`` app's)."""

from __future__ import annotations

from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "scoring.history"
    label = "scoring_history"
