"""With DEBUG off, a server error is logged with its traceback on standard error (where gunicorn's
log goes too), in a separate process with the production logging configuration."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import site_shell

SCRIPT = """
from unittest import mock
from django.test import Client
with mock.patch("scoring.views.pages.health_live", side_effect=RuntimeError("the view broke")):
    print(Client(raise_request_exception=False).get("/health/live/").status_code)
"""


def test_a_server_error_is_logged_with_its_traceback_on_stderr(tmp_path: Path) -> None:
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "okanagan_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "SECRET_KEY": "logging-test-only-secret-key",
        "ALLOWED_HOSTS": "testserver",
    }
    env.pop("DEBUG", None)
    run = site_shell(SCRIPT, env)
    assert run.stdout.strip() == "500", run.stderr
    assert "ERROR django.request: Internal Server Error: /health/live/" in run.stderr
    assert "Traceback (most recent call last)" in run.stderr
    assert "RuntimeError: the view broke" in run.stderr
