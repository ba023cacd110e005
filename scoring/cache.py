"""Redis is an accelerator, never a single point of failure: short timeouts, and a circuit breaker.

With ``REDIS_URL`` the shared cache is Redis (settings ``CACHES``), whose ``OPTIONS`` give the connections
timeouts well under a second and :class:`BreakerConnectionPool` as their pool. A Redis that is down answers
at once (connection refused); one that is stalled (it accepts connections, never answers) costs a timeout.
Either way, after a failure the breaker stays open for :data:`OPEN_FOR` seconds, during which no connection
to that server is tried: each call fails at once with :class:`CacheUnavailable`, so that a stalled Redis
costs one request of this process its timeout every few seconds, not every request.

Each user of the cache says what it does without it, catching :data:`CACHE_ERRORS`: the sessions are read
from the database (:mod:`scoring.site.sessions`), a poll asks the database for the game's version
(:mod:`scoring.live_version`), the rate limits fail open or closed (:mod:`scoring.site.rate_limits`), and
``/health/`` says "degraded".
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import redis
from redis.connection import AbstractConnection

OPEN_FOR = 5.0
"""Seconds a server that failed is not asked again."""

_open_until: dict[str, float] = {}
"""Per server (its host, port and database), when its breaker closes again (``time.monotonic()``)."""
_warned_at: dict[str, float] = {}
_warned_lock = threading.Lock()


class CacheUnavailable(redis.ConnectionError):
    """Not asked: this Redis failed less than :data:`OPEN_FOR` seconds ago."""


CACHE_ERRORS = (redis.RedisError,)
"""What a call to the shared cache raises when Redis is down, stalled or not asked (the database cache, which
goes down only with the database, never raises them)."""


class _BreakerConnection(AbstractConnection):
    """Mixed into the pool's connection class: refuses to connect while its server's breaker is open, and opens
    it when connecting, sending or reading fails or times out."""

    def _breaker_key(self) -> str:
        pieces = self.repr_pieces()  # type: ignore[no-untyped-call]  # (redis-py leaves it untyped)
        return " ".join(f"{name}={value}" for name, value in pieces)

    def connect(self) -> None:
        key = self._breaker_key()
        if time.monotonic() < _open_until.get(key, 0.0):
            raise CacheUnavailable(f"Redis ({key}) failed less than {OPEN_FOR:g} s ago: not asked")
        with self._tripping():
            super().connect()  # type: ignore[no-untyped-call]

    def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        with self._tripping():
            super().send_packed_command(command, check_health)  # type: ignore[no-untyped-call]

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        with self._tripping():
            return super().read_response(*args, **kwargs)

    @contextlib.contextmanager
    def _tripping(self) -> Iterator[None]:
        """Opens this server's breaker if the block fails to reach it or times out."""
        try:
            yield
        except (redis.ConnectionError, redis.TimeoutError):
            _open_until[self._breaker_key()] = time.monotonic() + OPEN_FOR
            raise


_classes: dict[type[AbstractConnection], type[AbstractConnection]] = {}


def _with_breaker(connection_class: type[AbstractConnection]) -> type[AbstractConnection]:
    """``connection_class`` with a breaker (one class for each, made once)."""
    if connection_class not in _classes:
        name = f"Breaker{connection_class.__name__}"
        _classes[connection_class] = type(name, (_BreakerConnection, connection_class), {})
    return _classes[connection_class]


class BreakerConnectionPool(redis.ConnectionPool):
    """A connection pool whose connections, of whatever kind the URL asks for (TCP, TLS, a Unix socket), have
    a circuit breaker (settings ``CACHES["default"]["OPTIONS"]["pool_class"]``)."""

    def __init__(self, connection_class: type[AbstractConnection] = redis.Connection, **kwargs: Any) -> None:
        super().__init__(connection_class=_with_breaker(connection_class), **kwargs)


def warn_once(logger: logging.Logger, name: str, message: str, *args: object) -> None:
    """Log ``message`` as a warning, at most once every :data:`OPEN_FOR` seconds for ``name``: a site whose
    Redis is down says so for each limit or feature doing without it, without a line per request."""
    now = time.monotonic()
    with _warned_lock:
        if now < _warned_at.get(name, float("-inf")) + OPEN_FOR:
            return
        _warned_at[name] = now
    logger.warning(message, *args)


def reset() -> None:
    """Close every breaker and forget the warnings given (for the tests)."""
    _open_until.clear()
    _warned_at.clear()
