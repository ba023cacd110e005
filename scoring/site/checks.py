"""System checks of this site's own configuration."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning

REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"


@register(Tags.caches, Tags.security, deploy=True)
def rate_limits_need_redis(app_configs: Any, **kwargs: Any) -> list[CheckMessage]:
    """In production the rate limits must count in Redis: the database cache's increment is not atomic."""
    if settings.CACHES["default"]["BACKEND"] == REDIS_CACHE:
        return []
    return [
        CheckWarning(
            "The rate limits count in the database cache, whose increment is not atomic: parallel workers "
            "let more attempts through than the limits allow.",
            hint="Set REDIS_URL, e.g. redis://127.0.0.1:6379/0.",
            id="scoring.W001",
        )
    ]
