"""With DEBUG off, a server error is logged with its traceback on standard error (where gunicorn's
log goes too), in a separate process with the production logging configuration."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import site_shell

SCRIPT = """
from unittest import mock
from django.test import Client
with mock.patch("scoring.site.views.pages.health_live", side_effect=RuntimeError("the view broke")):
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


NOT_FOUND_SCRIPT = """
from django.test import Client
client = Client()
print(client.get("/watch/spectatortoken42/").status_code, client.get("/watch/spectatortoken42/result.png").status_code)
print(client.get("/invite/invitetoken77/extra/").status_code, client.get("/join/SECRETCODE9/x/").status_code)
"""


def test_no_table_code_or_token_reaches_the_log(tmp_path: Path) -> None:
    """Django's "Not Found: /watch/<token>/" warnings, and a traceback that quotes a URL, are logged masked."""
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "okanagan_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "SECRET_KEY": "logging-test-only-secret-key",
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "0",
    }
    env.pop("DEBUG", None)
    site_shell(
        "from django.core.management import call_command as c; c('migrate', verbosity=0); c('createcachetable')", env
    )
    not_found = site_shell(NOT_FOUND_SCRIPT, env)
    assert not_found.stdout.split() == ["404"] * 4, not_found.stderr
    broken = site_shell(
        SCRIPT.replace("the view broke", "the view broke on /watch/spectatortoken42/live/?view=watch"), env
    )
    log = not_found.stderr + broken.stderr
    assert not [secret for secret in ("spectatortoken42", "invitetoken77", "SECRETCODE9") if secret in log]
    for masked in ("Not Found: /watch/*/", "Not Found: /watch/*/result.png", "Not Found: /invite/*/extra/"):
        assert f"WARNING django.request: {masked}\n" in log
    assert "RuntimeError: the view broke on /watch/*/live/?\n" in log
