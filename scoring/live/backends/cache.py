"""Each game's live version in Redis, the cache every app server shares (settings ``LIVE_BACKEND`` with
``REDIS_URL``): a poll whose ETag is still the game's is answered 304 without a query.

The version of the game whose spectator token is ``T`` is kept under ``live:T``. Why an old version never stays
there once a writer has stored a newer one:

- The value is ``"<version> <pk> <revision> <activity>"``, where the version is ``revision + activity``, which
  grows with every change (:mod:`scoring.live.versions`).
- It is only ever stored by one Lua script, which Redis runs atomically: *set if greater*, i.e. only if the
  key holds no version or a smaller one (:data:`SET_IF_GREATER`). The cache's version of a game only goes
  forward.
- Once a writer's transaction commits, :meth:`CacheBackend.published` reads the game's token, revision and
  activity afresh, so at least what it committed, and stores them.
- A poll that finds no key reads the database and stores what it read, by the same script. If it read just
  before a writer committed and stores after the writer did, its smaller version is refused.
- That argument needs the writer's key to still be there when the late poll stores. A key lives
  :data:`KEPT_FOR` after it was last stored (2 minutes), and a request lives at most gunicorn's timeout
  (30 s) between its read and its store, so it is. Redis must not evict keys before they expire (its default
  ``maxmemory-policy``, ``noeviction``, does not).
- With Redis down or stalled (:mod:`scoring.cache`), a poll reads the database: an unchanged poll then costs
  its one indexed query, and the site says so in the log every few seconds.
- A writer whose store fails (Redis down or stalled, or this process's breaker still open) leaves in Redis,
  if Redis kept its keys, a version older than the database's. So the process remembers the game, and before
  its next call to Redis that answers, stores the game's version read afresh from the database: a poll sees
  a change made during or just after an outage at once, never the older version for :data:`KEPT_FOR`. Only a
  process that dies before Redis answers again leaves its change :data:`KEPT_FOR` late.
- When a spectator token stops working (a new link, a game deleted), :meth:`CacheBackend.retired` stores a
  tombstone under it for :data:`KEPT_FOR`, which no poll's store can replace: the old token's polls ask the
  database, which knows it no more, and each gets its 404. A tombstone that could not be stored is stored
  once Redis answers again, as above.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCacheClient
from django.core.exceptions import ImproperlyConfigured

from scoring.cache import CACHE_ERRORS, warn_once
from scoring.live.backends import LiveBackend, LiveRow, from_database
from scoring.models import Game

logger = logging.getLogger(__name__)

CACHE = "default"
"""The Django cache whose Redis holds the versions, under its key prefix."""
KEPT_FOR = 120
"""Seconds a key lives after it was last stored: well over gunicorn's 30 s request timeout (see above)."""
GONE = b"gone"
"""The tombstone of a token that stopped working: not a version, so never replaced by a poll's store."""

SET_IF_GREATER = """
local stored = redis.call('GET', KEYS[1])
if stored then
    local version = tonumber(string.match(stored, '^%d+'))
    if version == nil or version >= tonumber(ARGV[1]) then
        return 0
    end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""
"""KEYS[1]: the token's key; ARGV: the version, the value to store, its expiry in seconds."""


class CacheBackend(LiveBackend):
    """The versions in the Redis of the ``default`` cache, whose connections have its timeouts and breaker."""

    def __init__(self) -> None:
        config: dict[str, Any] = settings.CACHES[CACHE]
        if config["BACKEND"] != "django.core.cache.backends.redis.RedisCache":
            raise ImproperlyConfigured(f"LIVE_BACKEND {__name__}.CacheBackend needs a Redis cache as {CACHE!r}")
        location = config["LOCATION"]
        servers = re.split("[;,]", location) if isinstance(location, str) else list(location)  # as RedisCache reads it
        self._client = RedisCacheClient(servers, **config.get("OPTIONS", {})).get_client(write=True)  # the primary
        self._store_script = self._client.register_script(SET_IF_GREATER)
        self._unsynced_games: set[int] = set()
        self._unsynced_tokens: set[str] = set()
        """The games whose version, and the tokens whose tombstone, this process failed to store (see above)."""
        self._lock = threading.Lock()

    def current(self, token: str) -> LiveRow | None:
        try:
            self._resync()
            stored = self._client.get(self.key(token))
        except CACHE_ERRORS:
            _without_cache()
            return from_database(token)
        if isinstance(stored, bytes) and stored != GONE:
            _version, pk, revision, activity = (int(part) for part in stored.split())
            return pk, revision, activity
        row = from_database(token)
        if row is not None:
            try:
                self.store(token, row)
            except CACHE_ERRORS:
                _without_cache()
        return row

    def published(self, game_id: int) -> None:
        try:
            self._resync()
            self._publish(game_id)
        except CACHE_ERRORS:
            with self._lock:
                self._unsynced_games.add(game_id)
            _without_cache()

    def retired(self, token: str) -> None:
        try:
            self._resync()
            self._client.set(self.key(token), GONE, ex=KEPT_FOR)
        except CACHE_ERRORS:
            with self._lock:
                self._unsynced_tokens.add(token)
            _without_cache()

    def key(self, token: str) -> str:
        """The key of ``token``'s version, under the cache's prefix."""
        return caches[CACHE].make_key(f"live:{token}")

    def store(self, token: str, row: LiveRow) -> None:
        """Store ``row`` as ``token``'s version, unless the key holds a newer one or a tombstone."""
        pk, revision, activity = row
        value = f"{revision + activity} {pk} {revision} {activity}"
        self._store_script(keys=[self.key(token)], args=[revision + activity, value, KEPT_FOR])

    def _publish(self, game_id: int) -> None:
        """Store game ``game_id``'s version as the database has it now (committed: at least the writer's)."""
        row = Game.objects.filter(pk=game_id).values_list("spectator_token", "revision", "activity").first()
        if row is not None:  # else deleted meanwhile: its token was retired
            token, revision, activity = row
            self.store(token, (game_id, revision, activity))

    def _resync(self) -> None:
        """Store what this process failed to store, now that Redis may answer (raises if it still does not)."""
        if not (self._unsynced_games or self._unsynced_tokens):
            return
        with self._lock:
            games, self._unsynced_games = self._unsynced_games, set()
            tokens, self._unsynced_tokens = self._unsynced_tokens, set()
        try:
            for token in list(tokens):
                self._client.set(self.key(token), GONE, ex=KEPT_FOR)
                tokens.discard(token)
            for game_id in list(games):
                self._publish(game_id)
                games.discard(game_id)
        finally:
            with self._lock:
                self._unsynced_games |= games
                self._unsynced_tokens |= tokens


def _without_cache() -> None:
    warn_once(logger, "live versions", "Redis does not answer: polls ask the database for each game's version")
