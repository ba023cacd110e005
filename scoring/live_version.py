"""Each game's live version in the shared cache, so that with Redis an unchanged poll touches no database.

Every phone at a table, and every spectator, polls ``/watch/<token>/live/`` with the ETag it holds; the ETag
is made of the game's pk, ``revision`` and ``activity`` (:func:`scoring.board.live_etag`). Without Redis
(the default database cache) :func:`current` reads them from the database, one indexed query. With
``REDIS_URL``, every app server reads them from Redis, under ``live:<spectator token>``, and a poll whose
ETag is still the game's is answered 304 without a query.

The scheme, and why an old version never stays in the cache once a writer has stored a newer one:

- The value is ``"<version> <pk> <revision> <activity>"``, where the version is ``revision + activity``.
  Both counters only ever grow (by ``F() + 1`` or ``revision + 1``), and every change a phone shows raises
  one of them, so the version strictly increases with each change of the game.
- It is only ever stored by one Lua script, which Redis runs atomically: *set if greater*, i.e. only if the
  key holds no version or a smaller one (:data:`SET_IF_GREATER`). The cache's version of a game only goes
  forward.
- A writer, having raised ``revision`` or ``activity``, calls :func:`changed`. Once its transaction commits
  (``transaction.on_commit``) that reads the game's token, revision and activity afresh, so at least what
  it committed, and stores them.
- A poll that finds no key reads the database and stores what it read, by the same script. If it read just
  before a writer committed and stores after the writer did, its smaller version is refused.
- That argument needs the writer's key to still be there when the late poll stores. A key lives
  :data:`KEPT_FOR` after it was last stored (2 minutes), and a request lives at most gunicorn's timeout
  (30 s) between its read and its store, so it is. Redis must not evict keys before they expire (its default
  ``maxmemory-policy``, ``noeviction``, does not).
- The expiry also bounds the harm of a writer that died between its commit and its store: its phones see
  the change at most :data:`KEPT_FOR` late. A failed store (Redis down) is logged, not raised: the save
  itself was committed. The same bound holds for a store that failed while a stalled Redis kept its keys.
- With Redis down or stalled (:mod:`scoring.cache`), a poll reads the database, as without Redis: an unchanged
  poll then costs its one indexed query, and the site says so in the log every few seconds.
- When a spectator token stops working (:meth:`Game.new_codes <scoring.models.Game.new_codes>`, a game
  deleted), :func:`forget` stores a tombstone under it for :data:`KEPT_FOR`, which no poll's store can
  replace: the old token's polls ask the database, which knows it no more, and each gets its 404.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.db.transaction import on_commit
from redis import Redis

from .cache import CACHE_ERRORS, warn_once
from .models import Game

logger = logging.getLogger(__name__)

type LiveRow = tuple[int, int, int]
"""A game's pk, revision and activity: what its live ETag is made of."""

KEPT_FOR = 120
"""Seconds a key lives after it was last stored: well over gunicorn's 30 s request timeout (see above)."""
TOKEN_LENGTH = Game._meta.get_field("spectator_token").max_length
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


def current(token: str) -> LiveRow | None:
    """The pk, revision and activity of the game whose spectator token is ``token``, or ``None`` if none is.

    With Redis, from the cache (no query) when it has them; else, and without Redis, from the database.
    """
    if TOKEN_LENGTH is not None and len(token) > TOKEN_LENGTH:
        return None  # no game has it: not worth a query, nor a key
    redis = _redis()
    if redis is None:
        return _from_database(token)
    client, key = redis.get_client(write=True), _key(token)  # the primary: it has every store
    try:
        stored = client.get(key)
    except CACHE_ERRORS:
        _without_cache()
        return _from_database(token)
    if stored is not None and stored != GONE:
        _version, pk, revision, activity = (int(part) for part in stored.split())
        return pk, revision, activity
    row = _from_database(token)
    if row is not None:
        _store(client, key, row)
    return row


def changed(game_id: int) -> None:
    """Game ``game_id``'s revision or activity was raised (in the current transaction, if any): once it is
    committed, the cache learns the game's new version. Every writer of either counter calls this."""
    if _redis() is not None:
        on_commit(lambda: _publish(game_id), robust=True)


def forget(token: str) -> None:
    """Spectator token ``token`` stops working (a new one, or the game deleted): once committed, its key
    answers no more, and no poll can store it again."""
    redis = _redis()
    if redis is not None:
        on_commit(lambda: _guarded(redis.get_client(write=True).set, _key(token), GONE, ex=KEPT_FOR), robust=True)


def _redis() -> RedisCacheClient | None:
    """The Redis cache's client, if the shared cache is Redis (``RedisCache._cache``: Django's only way to it)."""
    cache = caches["default"]
    return cache._cache if isinstance(cache, RedisCache) else None


def _key(token: str) -> str:
    return caches["default"].make_key(f"live:{token}")


def _from_database(token: str) -> LiveRow | None:
    return Game.objects.filter(spectator_token=token).values_list("pk", "revision", "activity").first()


def _store(client: Redis, key: str, row: LiveRow) -> None:
    pk, revision, activity = row
    value = f"{revision + activity} {pk} {revision} {activity}"
    _guarded(client.register_script(SET_IF_GREATER), keys=[key], args=[revision + activity, value, KEPT_FOR])


def _guarded(store: Callable[..., object], *args: object, **kwargs: object) -> None:
    """Call ``store``; if Redis does not answer, say so (the change itself is committed: see above)."""
    try:
        store(*args, **kwargs)
    except CACHE_ERRORS:
        _without_cache()


def _without_cache() -> None:
    warn_once(logger, "live versions", "Redis does not answer: polls ask the database for each game's version")


def _publish(game_id: int) -> None:
    """Store game ``game_id``'s version as the database has it now (committed: at least the writer's)."""
    row = Game.objects.filter(pk=game_id).values_list("spectator_token", "revision", "activity").first()
    if row is None:
        return  # deleted meanwhile: its token was forgotten
    redis = _redis()
    if redis is not None:
        token, revision, activity = row
        _store(redis.get_client(write=True), _key(token), (game_id, revision, activity))
