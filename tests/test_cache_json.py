"""The Redis cache stores JSON, never pickles (okanagan_site/cache_json.py): a pickle written to a shared Redis is
never unpickled, and what the site keeps there (sessions, counters) comes back as it was."""

from __future__ import annotations

import pickle

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import Client

from okanagan_site.cache_json import JSONSerializer

RAN: list[str] = []


class Payload:
    """Unpickled, it runs code (here: it appends to RAN)."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return exec, ("import tests.test_cache_json as t; t.RAN.append('code')",)


def test_a_pickle_is_never_unpickled_but_read_as_missing(caplog: pytest.LogCaptureFixture) -> None:
    payload = pickle.dumps(Payload())
    pickle.loads(payload)  # noqa: S301 (the payload is real: unpickled, it runs)
    assert RAN == ["code"]
    RAN.clear()
    assert JSONSerializer().loads(payload) is None
    assert JSONSerializer().loads(b"[" * 100_000) is None
    assert RAN == []
    assert "A value in the cache is not JSON" in caplog.text


@pytest.mark.parametrize("value", [7, True, "ok", None, {"tables": {"12": "ABCD"}, "_auth_user_id": "3"}, [1, "a"]])
def test_what_the_site_keeps_in_the_cache_comes_back_as_it_was(value: object) -> None:
    serializer = JSONSerializer()
    stored = serializer.dumps(value)
    assert stored == value if type(value) is int else isinstance(stored, bytes)  # an integer stays Redis's own
    assert serializer.loads(stored if isinstance(stored, bytes) else str(stored).encode()) == value


def test_what_json_cannot_hold_is_refused_when_stored() -> None:
    with pytest.raises(TypeError):
        JSONSerializer().dumps(Payload())


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL")
@pytest.mark.django_db
def test_with_redis_a_pickle_in_the_cache_is_not_run_counters_count_and_a_login_holds(
    client: Client, django_user_model: type
) -> None:
    cache = caches["default"]
    assert isinstance(cache, RedisCache)
    with redis.Redis.from_url(settings.REDIS_URL) as server:
        server.set(cache.make_key("planted"), pickle.dumps(Payload()))
    assert cache.get("planted", "default") is None
    assert RAN == []
    assert cache.add("count", 1) and cache.incr("count") == 2 and cache.get("count") == 2
    client.force_login(django_user_model.objects.create_user("ann"))  # type: ignore[attr-defined]
    assert client.get("/").wsgi_request.user.is_authenticated  # the session read back from Redis
