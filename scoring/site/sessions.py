"""Sessions kept in the database and in Redis, read from the database alone while Redis is down (settings
``SESSION_ENGINE``, with ``REDIS_URL``).

Django's ``cached_db`` reads a session from the cache, else from the database, and writes it to both. It
already survives a failed read and a failed write of the session; not a failed store after a read from the
database, a failed deletion, nor a failed existence check (a new session's key): each of those was a 500 with
Redis down. Here every call to the cache is guarded: without Redis, a session is the database's.

A write that failed leaves the copy Redis may still hold (a Redis stalled, or restarted from a snapshot) older
than the database's: this process remembers its key, and deletes it once Redis answers again, before it reads
any session from it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.cache.backends.base import BaseCache

from scoring.cache import CACHE_ERRORS, warn_once

logger = logging.getLogger(__name__)

_unsynced: set[str] = set()
"""The cache keys of the sessions this process failed to store or delete in Redis (see above)."""
_unsynced_lock = threading.Lock()


class SessionStore(CachedDBStore):
    """``cached_db`` whose cache is an accelerator: with Redis down, the database's sessions alone."""

    # Django's, which django-stubs does not declare.
    _cache: BaseCache
    _session: dict[str, Any]
    _get_session_from_db: Callable[[], AbstractBaseSession | None]

    def load(self) -> dict[str, Any]:
        try:
            _delete_unsynced(self._cache)
            data: dict[str, Any] | None = self._cache.get(self.cache_key)
        except CACHE_ERRORS:
            self._without_cache()
            return DBStore.load(self)
        except Exception:  # as cached_db does: a key or a value the cache cannot take is a miss (Django #17810)
            data = None
        if data is not None:
            return data
        session = self._get_session_from_db()
        if session is None:
            return {}
        data = self.decode(session.session_data)
        self._set_in_cache(data, self.get_expiry_age(expiry=session.expire_date))
        return data

    def exists(self, session_key: str) -> bool:
        try:
            if session_key and self.cache_key_prefix + session_key in self._cache:
                return True
        except CACHE_ERRORS:
            self._without_cache()
        return DBStore.exists(self, session_key)

    def save(self, must_create: bool = False) -> None:
        DBStore.save(self, must_create)
        self._set_in_cache(self._session, self.get_expiry_age())

    def delete(self, session_key: str | None = None) -> None:
        DBStore.delete(self, session_key)
        key = session_key if session_key is not None else self.session_key
        if key is None:
            return
        try:
            self._cache.delete(self.cache_key_prefix + key)
        except CACHE_ERRORS:
            self._without_cache(self.cache_key_prefix + key)

    def _set_in_cache(self, data: dict[str, Any], timeout: int) -> None:
        try:
            self._cache.set(self.cache_key, data, timeout)
        except CACHE_ERRORS:
            self._without_cache(self.cache_key)

    def _without_cache(self, unsynced: str = "") -> None:
        """Say that Redis does not answer; ``unsynced``: the key of a session it may now hold an old copy of."""
        if unsynced:
            with _unsynced_lock:
                _unsynced.add(unsynced)
        warn_once(logger, "sessions", "Redis does not answer: sessions are read from and written to the database")


def _delete_unsynced(cache: BaseCache) -> None:
    """Delete from ``cache`` the sessions this process failed to store or delete there (raises if it fails)."""
    if not _unsynced:
        return
    with _unsynced_lock:
        keys = list(_unsynced)
    cache.delete_many(keys)
    with _unsynced_lock:
        _unsynced.difference_update(keys)
