"""The Redis cache's serializer: JSON, never pickle, so that whoever can write to the Redis cannot run code in
the site (Django's default, ``RedisSerializer``, unpickles every value it reads).

What the site keeps there is JSON already: sessions are dicts of JSON types (their database copy is JSON too),
the rate limits' and django-axes' counters are integers, a deleted game's note (:mod:`scoring.table.gone`) a dict,
the health check a string. Each game's live version is written and read as a raw string, not through this.
"""

from __future__ import annotations

import json
import logging

logger = logging.getLogger(__name__)


class JSONSerializer:
    """``dumps`` and ``loads`` for ``django.core.cache.backends.redis.RedisCache`` (``OPTIONS["serializer"]``)."""

    def dumps(self, value: object) -> int | bytes:
        """``value`` as stored: an integer as Redis's own (which ``INCR`` counts atomically), anything else as
        JSON (``TypeError`` for what JSON cannot hold)."""
        if type(value) is int:
            return value
        return json.dumps(value, separators=(",", ":")).encode()

    def loads(self, data: bytes) -> object:
        """The value stored as ``data``; ``None`` (as if missing) for anything that is not JSON, such as a pickle
        written by other code: it is never unpickled, and a session then reads from the database."""
        try:
            return json.loads(data)
        except (ValueError, RecursionError):
            logger.warning("A value in the cache is not JSON: read as missing (%d bytes)", len(data))
            return None
