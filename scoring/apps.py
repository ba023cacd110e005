"""The scoring app: groups, games and their event logs (the rules live in ``rules``)."""

from __future__ import annotations

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from scoring import checks  # noqa: F401  (registers the system checks)
        from scoring.rate_limits import count_login_failure

        user_login_failed.connect(count_login_failure, dispatch_uid="scoring.count_login_failure")
