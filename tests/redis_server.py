"""The machine's Redis for the tests that need a real one (CI always has it: there such a test fails without it;
elsewhere it is skipped)."""

from __future__ import annotations

import os

import pytest
import redis

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def redis_or_skip(what: str) -> redis.Redis:
    """The Redis server at :data:`REDIS_URL`; ``what`` fails in CI without one, and is skipped elsewhere."""
    server = redis.Redis.from_url(REDIS_URL)
    try:
        server.ping()
    except redis.RedisError as error:
        reason = f"Redis is not reachable at {REDIS_URL}: {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: {what} must run in CI")
        pytest.skip(reason)
    return server
