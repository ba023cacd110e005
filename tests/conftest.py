"""Shared fixtures: fresh rate-limit counters for each test; Chromium for the browser tests, skipped with a
reason unless CI requires it; property tests without a deadline."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from support.chromium import CHROMIUM, CHROMIUM_FLAGS, chromium_path

# No property test is timed: Hypothesis's default 200 ms deadline per example is a timed assertion, and a busy
# 2-core CI machine can pause any example that long. A figure comes from bench/, never from a test.
hypothesis_settings.register_profile("untimed", deadline=None)
hypothesis_settings.load_profile("untimed")


class StoppedClock:
    """``time`` for django-ratelimit, stopped in the middle of a test: its windows are fixed, staggered per
    key, so a test that happened to straddle a window's end would see the count start again (a rare flake)."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def fresh_rate_limits(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts with no attempt counted (the test client always asks from 127.0.0.1), and the rate
    limits' clock does not move during the test.

    On Redis, this run's keys (its own prefix) are deleted after each test; the database cache lives in the
    test database, which each test rolls back, except a transactional test (the browser tests' live server):
    the flush after it empties the models' tables only, so the cache's table is emptied before such a test
    (else the joins of the browser tests, 20 in 5 minutes, add up across tests).
    """
    monkeypatch.setattr("django_ratelimit.core.time", StoppedClock())
    marker = request.node.get_closest_marker("django_db")
    if not settings.REDIS_URL and marker is not None and marker.kwargs.get("transaction"):
        request.getfixturevalue("transactional_db")
        caches["default"].clear()
    yield
    if settings.REDIS_URL:
        with redis.Redis.from_url(settings.REDIS_URL) as server:
            keys = list(server.scan_iter(match=f"{settings.CACHES['default']['KEY_PREFIX']}:*", count=1000))
            if keys:
                server.delete(*keys)


@pytest.fixture(autouse=True)
def the_default_language_again() -> Iterator[None]:
    """Every test starts in the site's default language: a request (LocaleMiddleware) or a test that switched
    language leaves it switched in its thread, and a later test that says a sentence outside a request would
    then say it in French (tests/scoring/history/test_ratings.py did, in some orders)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def live_versions_stored_at_once(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """With Redis, a change's live version goes to the cache once its transaction commits
    (scoring/live/versions.py); a test's own transaction is rolled back, never committed, so there it goes at
    once (the change is already visible to the test's connection). A transactional test commits for real."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        monkeypatch.setattr("scoring.live.versions.on_commit", lambda callback, robust=False: callback())


class WithoutServiceWorkers:
    """A Playwright browser whose new contexts block service workers unless asked (``service_workers="allow"``):
    the site registers one on every page (static/js/table.js), and a test not about offline use must see the
    server's answers, not the worker's kept copies, nor depend on what it cached in an earlier page."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        return self.browser.new_context(**{"service_workers": "block"} | options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Debian Chromium driven by Playwright, whose contexts block service workers unless a test
    allows them (:class:`WithoutServiceWorkers`); skipped without one, except in CI."""
    path = chromium_path()
    if path is None:
        reason = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: browser tests must run in CI")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's database teardown would then
    # refuse to run, although nothing here is really async.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        yield WithoutServiceWorkers(launched)
        launched.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page the size of a phone (390×844), touch enabled."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


def site_shell(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``script`` run by ``manage.py shell`` in a process of its own, with the environment ``env``: for
    settings that are read once, at start-up."""
    root = Path(__file__).resolve().parent.parent
    command = [sys.executable, "manage.py", "shell", "--no-imports", "-c", script]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
