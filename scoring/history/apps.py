"""The ``history`` concern as a Django app, for its templates and URLs (its models are the ``scoring`` app's), and
its receivers that keep what the finished games give the history as results change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.apps import AppConfig

if TYPE_CHECKING:
    from scoring.models import Game, Group


class HistoryConfig(AppConfig):
    name = "scoring.history"
    label = "scoring_history"

    def ready(self) -> None:
        """Keep the history as the finished results change (:data:`scoring.standings.results_changed`)."""
        from scoring.standings import results_changed

        results_changed.connect(on_results_changed, dispatch_uid="scoring.history")


def on_results_changed(sender: object, *, group: Group, games: Sequence[Game], **kwargs: Any) -> None:
    """The facts of the fresh games' event logs (:mod:`scoring.history.insights`), then the ratings
    (:mod:`scoring.history.ratings`), then the group's sums (:mod:`scoring.history.summary`), each reading what the
    one before stored, the group's history locked throughout."""
    from django.db import transaction

    from scoring.history.insights import store_facts  # the models are ready only now
    from scoring.history.ratings import recompute
    from scoring.history.summary import locked, refresh

    with transaction.atomic():
        row = locked(group)  # two games finishing at once: the second is rated once the first is, then summed after it
        store_facts(games)
        rerated = recompute(group, games)
        refresh(group, games, rerated=rerated, row=row)
