"""The home page, and settings that must hold for a safe deployment."""

from __future__ import annotations

import os
import subprocess
import sys

from django.test import Client


def test_the_home_page_says_what_the_app_does(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Score Okanagan at the table" in response.content
    assert b"/static/django_htmx/htmx-2.min.js" in response.content


def test_the_home_page_refuses_a_post(client: Client) -> None:
    assert client.post("/").status_code == 405


def test_the_site_refuses_to_start_without_a_secret_key_when_debug_is_off() -> None:
    env = {key: value for key, value in os.environ.items() if key not in {"SECRET_KEY", "DEBUG"}}
    env["DJANGO_SETTINGS_MODULE"] = "okanagan_site.settings"
    run = subprocess.run([sys.executable, "manage.py", "check"], env=env, capture_output=True, text=True, check=False)
    assert run.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in run.stderr


def check_deploy(redis_url: str) -> subprocess.CompletedProcess[str]:
    """``manage.py check --deploy`` with production-like settings, failing on warnings."""
    # The test settings' relaxations, and the browser tests' async switch, are not production's.
    test_only = {"DEBUG", "SECURE_SSL_REDIRECT", "SECURE_COOKIES", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {key: value for key, value in os.environ.items() if key not in test_only}
    env |= {
        "DJANGO_SETTINGS_MODULE": "okanagan_site.settings",
        "SECRET_KEY": "k" * 20 + "-production-like-secret-key-with-enough-variety-0123456789",
        "ALLOWED_HOSTS": "okanagan.example.org",
        "REDIS_URL": redis_url,  # the rate limits' counters (the check does not connect)
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_settings_pass_the_deployment_checks() -> None:
    run = check_deploy("redis://127.0.0.1:6379/0")
    assert run.returncode == 0, run.stderr


def test_production_without_redis_is_warned_that_the_limits_are_not_atomic() -> None:
    run = check_deploy("")
    assert run.returncode != 0 and "scoring.W001" in run.stderr and "Set REDIS_URL" in run.stderr


def test_every_page_forbids_inline_script_and_style(client: Client, db: None) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
