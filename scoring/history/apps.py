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
        """Keep the history as the finished results change (:data:`scoring.standings.results_changed`), and when a
        player is removed (their seats then count under the seats' names)."""
        from django.db.models.signals import post_delete

        from scoring.models import Profile
        from scoring.standings import results_changed

        results_changed.connect(on_results_changed, dispatch_uid="scoring.history")
        post_delete.connect(on_profile_deleted, sender=Profile, dispatch_uid="scoring.history.profile")


def on_results_changed(sender: object, *, group: Group, games: Sequence[Game], **kwargs: Any) -> None:
    """The facts of the fresh games' event logs (:mod:`scoring.history.insights`), then the ratings
    (:mod:`scoring.history.ratings`), then the group's sums (:mod:`scoring.history.summary`), each reading what the
    one before stored."""
    from scoring.history.insights import store_facts  # the models are ready only now
    from scoring.history.ratings import recompute
    from scoring.history.summary import refresh

    store_facts(games)
    rerated = recompute(group, games)
    refresh(group, games, rerated=rerated)


def on_profile_deleted(sender: object, *, instance: Any, **kwargs: Any) -> None:
    """A player removed: their seats now count under the seats' own names."""
    from scoring.history.summary import refresh
    from scoring.models import Group

    group = Group.objects.filter(pk=instance.group_id).first()
    if group is not None:  # not the group itself being deleted
        refresh(group)
