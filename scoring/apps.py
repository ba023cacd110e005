"""The scoring app: the models (groups, games and their event logs) and what every concern shares; the
concerns are apps of their own inside it (the rules live in ``rules``)."""

from __future__ import annotations

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
