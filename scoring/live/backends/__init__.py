"""Where a poll finds a game's live version: the class named by the setting ``LIVE_BACKEND`` (as Django's
``SESSION_ENGINE`` names the sessions'), one instance per process.

- ``scoring.live.backends.database.DatabaseBackend``: the database, one indexed query per poll (without
  ``REDIS_URL``).
- ``scoring.live.backends.cache.CacheBackend``: Redis, the cache every app server shares; an unchanged poll
  runs no query.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.module_loading import import_string

from scoring.models import Game

type LiveRow = tuple[int, int, int]
"""A game's pk, revision and activity: what its live ETag is made of."""


class LiveBackend(ABC):
    """What polls read and writers tell, once their change is committed (:mod:`scoring.live.versions`)."""

    @abstractmethod
    def current(self, token: str) -> LiveRow | None:
        """The pk, revision and activity of the game whose spectator token is ``token``, or ``None``."""

    @abstractmethod
    def published(self, game_id: int) -> None:
        """Game ``game_id``'s revision or activity was raised, and committed."""

    @abstractmethod
    def retired(self, token: str) -> None:
        """Spectator token ``token`` stopped working (committed): no poll may find its version any more."""


def from_database(token: str) -> LiveRow | None:
    """The pk, revision and activity of the game whose spectator token is ``token``, as the database has them."""
    return Game.objects.filter(spectator_token=token).values_list("pk", "revision", "activity").first()


@cache
def live_backend() -> LiveBackend:
    """This process's live backend (settings ``LIVE_BACKEND``)."""
    backend: LiveBackend = import_string(settings.LIVE_BACKEND)()
    return backend


@receiver(setting_changed)
def _settings_changed(*, setting: str, **_kwargs: Any) -> None:
    """A test that changes the backend or the cache it uses gets a new one (as Django does for its caches)."""
    if setting in {"LIVE_BACKEND", "CACHES"}:
        live_backend.cache_clear()
