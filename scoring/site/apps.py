"""The ``site`` concern as a Django app, for its templates and URLs (its models are the ``scoring`` app's)."""

from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "scoring.site"
    label = "scoring_site"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from scoring.site import checks  # noqa: F401  (registers the system checks)
        from scoring.site.rate_limits import count_login_failure

        user_login_failed.connect(count_login_failure, dispatch_uid="scoring.count_login_failure")
