"""The scoring app: groups, games and their event logs (the rules live in ``rules``)."""

from __future__ import annotations

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self) -> None:
        from scoring import checks  # noqa: F401  (registers the system checks)
