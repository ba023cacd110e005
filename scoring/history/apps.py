"""The ``history`` concern as a Django app, for its templates and URLs (its models are the ``scoring`` app's)."""

from __future__ import annotations

from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "scoring.history"
    label = "scoring_history"

    def ready(self) -> None:
        """Keep what each finished game gives the history (:mod:`scoring.history.insights`) as results change."""
        from scoring.history.insights import store_facts  # the models are ready only now
        from scoring.standings import results_changed

        results_changed.connect(store_facts, dispatch_uid="scoring.history.insights.store_facts")
