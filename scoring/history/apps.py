"""The ``history`` concern as a Django app, for its templates and URLs (its models are the ``scoring`` app's), and
its receiver that keeps the ratings when the finished results change."""

from __future__ import annotations

from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "scoring.history"
    label = "scoring_history"

    def ready(self) -> None:
        """Keep what each finished game gives the history as results change: the ratings
        (:mod:`scoring.history.ratings`) and the facts of its event log (:mod:`scoring.history.insights`)."""
        from scoring.history.insights import store_facts  # the models are ready only now
        from scoring.history.ratings import on_results_changed
        from scoring.standings import results_changed

        results_changed.connect(store_facts, dispatch_uid="scoring.history.insights.store_facts")
        results_changed.connect(on_results_changed, dispatch_uid="scoring.history.ratings")
