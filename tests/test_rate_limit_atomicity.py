"""The join limit holds under real concurrency: gunicorn with 8 workers counting in Redis, 40 wrong table
codes from one client at once, and exactly 20 are answered while 20 are refused.

The old limiter (a read then a write in the database cache) let 29 of 40 through a limit of 20.
"""

from __future__ import annotations

import http.client
import re
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django_ratelimit.core import _get_window

from deploy.serve import prepare
from support.production import free_port, production_env, serve
from tests.redis_server import REDIS_URL, redis_or_skip

ATTEMPTS = 40
LIMIT = 20
WORKERS = 8


def join_form(port: int) -> tuple[str, str]:
    """The CSRF cookie and form token a phone gets when it opens the join page (not counted as a guess)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/join/")
    response = connection.getresponse()
    page = response.read().decode()
    cookie = next(
        value.split(";")[0] for key, value in response.getheaders() if key.lower() == "set-cookie" and "csrf" in value
    )
    connection.close()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert match, "no CSRF token in the join page"
    return cookie, match.group(1)


@pytest.mark.gunicorn
def test_forty_parallel_guesses_from_one_client_get_exactly_twenty_answers(tmp_path: Path) -> None:
    server = redis_or_skip("the atomicity test")
    prefix = f"test-atomic-{uuid.uuid4().hex[:12]}"
    env = production_env(f"sqlite:///{tmp_path / 'db.sqlite3'}") | {"REDIS_URL": REDIS_URL, "CACHE_KEY_PREFIX": prefix}
    prepare(env)
    port = free_port()
    site = serve(env, port, workers=WORKERS)
    try:
        # The limit counts in fixed 5-minute windows: start well inside one, so that all 40 share it.
        window_left = _get_window("127.0.0.1", 300) - time.time()
        if window_left < 15:  # (negative when the window ended while the machine was busy between the two reads)
            time.sleep(max(0.0, window_left) + 1)
        forms = [join_form(port) for _ in range(ATTEMPTS)]
        start = threading.Barrier(ATTEMPTS)
        statuses: list[int] = []

        def guess(cookie: str, token: str) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            body = urlencode({"csrfmiddlewaretoken": token, "code": "ZZZZZZ"})
            headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
            start.wait()
            connection.request("POST", "/join/", body=body, headers=headers)
            statuses.append(connection.getresponse().status)
            connection.close()

        threads = [threading.Thread(target=guess, args=form) for form in forms]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        site.terminate()
        site.wait(timeout=30)
        keys = list(server.scan_iter(match=f"{prefix}:*"))
        if keys:
            server.delete(*keys)
        server.close()
    assert sorted(statuses) == [422] * LIMIT + [429] * (ATTEMPTS - LIMIT)
