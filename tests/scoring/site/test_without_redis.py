"""Redis is an accelerator, not a single point of failure (scoring/cache.py): with Redis stopped, or stalled (it
accepts connections and never answers), every page, poll, save, join and login still answers, from the
database, within a bound; sign-ups are refused with a clear message; the limits say in the log what they do;
``/health/`` says "degraded". Neither case uses a real Redis."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.http.response import HttpResponseBase
from django.test import Client, override_settings

from scoring import cache as redis_guard
from scoring.creation import create_game
from scoring.live import versions
from scoring.live.versions import new_codes
from scoring.log import change_log
from scoring.models import Game
from scoring.table import seats
from support.entry import Entry
from tests.redis_server import REDIS_URL, redis_or_skip
from tests.scoring.conftest import FOREST_PLAYERS
from tests.scoring.table.test_game_pages import FOREST

CACHE_BACKEND = "scoring.live.backends.cache.CacheBackend"
"""The live versions in Redis, as the site has them with ``REDIS_URL``."""
BOUND = 2.0
"""Seconds any request may take with Redis out (a stalled Redis costs one request its half-second timeout)."""


class SilentRedis:
    """A server on 127.0.0.1 that accepts every connection and never answers a byte: a stalled Redis."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:  # closed: the test is over
                return
            self.accepted.append(connection)

    def close(self) -> None:
        self.listener.close()
        for connection in self.accepted:
            connection.close()


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on: a stopped Redis."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture(params=["stopped", "stalled"])
def redis_out(request: pytest.FixtureRequest) -> Iterator[SilentRedis | None]:
    """The site's own Redis settings (timeouts, breaker, sessions) pointing at a Redis that is stopped or
    stalled; the stalled one is given to the test (``None`` for the stopped one)."""
    silent = SilentRedis() if request.param == "stalled" else None
    port = silent.port if silent else closed_port()
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": settings.REDIS_OPTIONS,
        }
    }
    redis_guard.reset()
    with override_settings(CACHES=caches, SESSION_ENGINE="scoring.site.sessions", LIVE_BACKEND=CACHE_BACKEND):
        AxesProxyHandler.get_implementation(force=True)  # axes keeps the cache it was made with
        yield silent
    AxesProxyHandler.get_implementation(force=True)
    redis_guard.reset()
    if silent:
        silent.close()


def timed[Response: HttpResponseBase](call: Callable[[], Response]) -> Response:
    """``call()``'s response, which must come within :data:`BOUND` and not be a server error."""
    start = time.monotonic()
    response = call()
    elapsed = time.monotonic() - start
    assert elapsed < BOUND, f"{elapsed:.2f} s"
    assert response.status_code < 500 or response.status_code == 503, response.status_code
    return response


@pytest.mark.usefixtures("redis_out")
def test_a_member_logs_in_and_plays_from_the_database(member_user: User, game: Game) -> None:
    phone = Client()
    login = timed(lambda: phone.post("/accounts/login/", {"username": "max", "password": "pw-max-123"}))
    assert login.status_code == 302 and phone.session["_auth_user_id"] == str(member_user.pk)
    page = timed(lambda: phone.get(f"/games/{game.pk}/"))
    assert page.status_code == 200 and "White" in page.content.decode()
    poll = timed(lambda: phone.get(f"/watch/{game.spectator_token}/live/?view=game", HTTP_HX_REQUEST="true"))
    assert poll.status_code == 200
    unchanged = timed(
        lambda: phone.get(
            f"/watch/{game.spectator_token}/live/?view=game", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=poll["ETag"]
        )
    )
    assert unchanged.status_code == 304
    seated = timed(lambda: phone.post(f"/games/{game.pk}/seats/", {"claim": "1"}))  # this phone is Red
    assert seated.status_code == 302
    entry = Entry(phone, f"/games/{game.pk}/events/new/volcano/")
    saved = timed(lambda: entry.tap("action:new_objectives").response)
    assert saved.status_code == 302 and game.events.count() == 1
    changed = timed(
        lambda: phone.get(
            f"/watch/{game.spectator_token}/live/?view=game", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=poll["ETag"]
        )
    )
    assert changed.status_code == 200  # the save reaches the other phones, from the database
    logout = timed(lambda: phone.post("/accounts/logout/"))
    assert logout.status_code == 302 and "_auth_user_id" not in phone.session


@pytest.mark.usefixtures("redis_out")
def test_a_guest_joins_by_the_table_code_and_the_join_limit_says_it_is_open(
    game: Game, caplog: pytest.LogCaptureFixture
) -> None:
    phone = Client()
    with caplog.at_level(logging.WARNING, logger="scoring"):
        for _ in range(3):
            joined = timed(lambda: phone.post("/join/", {"code": game.table_code}))
            assert joined.status_code == 302 and joined["Location"] == f"/games/{game.pk}/"
    assert timed(lambda: phone.get(f"/games/{game.pk}/")).status_code == 200
    said = [record.getMessage() for record in caplog.records if "limit" in record.getMessage()]
    assert said == ["Redis does not answer: the join limit is open"]  # once, not once per join


@pytest.mark.usefixtures("redis_out")
def test_a_sign_up_is_refused_with_a_clear_message_in_the_reader_s_language(
    db: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="scoring"):
        refused = timed(lambda: Client().post("/accounts/signup/", {"username": "nina", "password": "table-games-42"}))
        again = timed(
            lambda: Client().post(
                "/accounts/signup/", {"username": "nina", "password": "table-games-42"}, HTTP_ACCEPT_LANGUAGE="fr"
            )
        )
    assert refused.status_code == 503 and refused["Retry-After"] == "60"
    assert "The site cannot take this right now: try again in a few minutes." in refused.content.decode()
    assert again.status_code == 503 and "réessayez dans quelques minutes" in again.content.decode()
    assert not User.objects.filter(username="nina").exists()
    said = [record.getMessage() for record in caplog.records if "limit" in record.getMessage()]
    assert said == ["Redis does not answer: the signup limit is closed"]


@pytest.mark.usefixtures("redis_out")
def test_a_wrong_password_is_refused_as_usual_and_the_login_limit_says_it_is_open(
    member_user: User, caplog: pytest.LogCaptureFixture
) -> None:
    phone = Client()
    with caplog.at_level(logging.WARNING, logger="scoring"):
        wrong = timed(lambda: phone.post("/accounts/login/", {"username": "max", "password": "guess"}))
    assert wrong.status_code == 200 and "_auth_user_id" not in phone.session
    assert "Redis does not answer: the login limit is open" in [record.getMessage() for record in caplog.records]


@pytest.mark.usefixtures("redis_out")
def test_the_health_check_says_degraded(db: None) -> None:
    response = timed(lambda: Client().get("/health/"))
    assert (response.status_code, response.content) == (200, b"degraded: cache")


@pytest.mark.parametrize("redis_out", ["stalled"], indirect=True)
def test_a_stalled_redis_costs_one_request_its_timeout_then_is_not_asked_for_a_while(
    redis_out: SilentRedis, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_guard, "OPEN_FOR", 60.0)  # however slow the machine, the breaker stays open
    phone = Client()
    url = f"/watch/{game.spectator_token}/live/?view=watch"  # a spectator
    assert timed(lambda: phone.get(url, HTTP_HX_REQUEST="true")).status_code == 200
    asked = len(redis_out.accepted)
    assert asked >= 1
    for _ in range(10):
        assert timed(lambda: phone.get(url, HTTP_HX_REQUEST="true")).status_code == 200
    assert len(redis_out.accepted) == asked  # the breaker is open: no connection was tried


@pytest.mark.usefixtures("redis_out")
def test_a_member_deletes_a_game_and_its_phones_get_the_usual_answer(member_user: User, game: Game) -> None:
    member, guest = Client(), Client()
    member.force_login(member_user)
    assert timed(lambda: guest.post("/join/", {"code": game.table_code})).status_code == 302
    assert timed(lambda: member.post(f"/games/{game.pk}/delete/")).status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    assert timed(lambda: guest.get(f"/games/{game.pk}/")).status_code == 404  # not remembered: Redis kept nothing


@pytest.mark.usefixtures("redis_out")
def test_a_restore_is_refused_until_the_limit_can_count_again(member_user: User) -> None:
    member = Client()
    member.force_login(member_user)
    refused = timed(lambda: member.post("/groups/restore/", {"backup": ""}))
    assert refused.status_code == 503 and "Not right now" in refused.content.decode()


def out(connection: object, *args: object, **kwargs: object) -> None:
    """A connection to a Redis whose breaker is open: Redis is out, and keeps what it held."""
    raise redis_guard.CacheUnavailable("Redis is out")


@pytest.fixture
def real_redis() -> Iterator[None]:
    """The site's own Redis settings (timeouts, breaker, sessions, live versions) with a real Redis, under a prefix
    of this test's own (deleted after it)."""
    server = redis_or_skip("this test")
    prefix = f"test-out-{uuid.uuid4().hex[:12]}"
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": prefix,
            "OPTIONS": settings.REDIS_OPTIONS,
        }
    }
    redis_guard.reset()
    try:
        with override_settings(CACHES=caches, SESSION_ENGINE="scoring.site.sessions", LIVE_BACKEND=CACHE_BACKEND):
            yield
    finally:
        redis_guard.reset()
        keys = list(server.scan_iter(match=f"{prefix}:*"))
        if keys:
            server.delete(*keys)
        server.close()


@contextlib.contextmanager
def redis_out_meanwhile(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Within the block, no call reaches Redis, which keeps what it held (stalled, or this process's breaker
    open); after it, Redis answers again."""
    with monkeypatch.context() as outage:
        outage.setattr(redis_guard._BreakerConnection, "connect", out)
        outage.setattr(redis_guard._BreakerConnection, "send_packed_command", out)
        yield


@pytest.mark.usefixtures("real_redis")
def test_a_session_changed_while_redis_was_out_is_not_read_back_from_it_afterwards(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = create_game(game.group, FOREST_PLAYERS, {}, promos=True)
    phone = Client()
    assert phone.post("/join/", {"code": game.table_code}).status_code == 302  # kept in Redis too
    with redis_out_meanwhile(monkeypatch):
        assert phone.post("/join/", {"code": other.table_code}).status_code == 302  # the database only
    assert phone.get(f"/games/{other.pk}/").status_code == 200  # not Redis's older copy
    assert phone.get(f"/games/{game.pk}/").status_code == 200


WRITERS: dict[str, Callable[[Game], object]] = {
    "an event saved": lambda game: change_log(game, game.revision, lambda log: [*log, FOREST]),
    "a seat claimed": lambda game: seats.claim(game, 0, "a-phone", AnonymousUser()),
}


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
@pytest.mark.usefixtures("real_redis")
def test_a_change_made_while_redis_was_out_shows_at_the_first_poll_once_it_is_back(
    member_client: Client, game: Game, writer: Callable[[Game], object], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"/watch/{game.spectator_token}/live/?view=game"
    before = member_client.get(url, HTTP_HX_REQUEST="true")  # its version is now in Redis
    assert member_client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    with redis_out_meanwhile(monkeypatch):
        writer(game)  # committed; its version could not be stored
        during = member_client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=before["ETag"])
        assert during.status_code == 200  # from the database
    after = member_client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] == during["ETag"]  # not Redis's older version
    game.refresh_from_db()
    assert versions.current(game.spectator_token) == (game.pk, game.revision, game.activity)


@pytest.mark.usefixtures("real_redis")
def test_a_link_replaced_while_redis_was_out_stops_answering_once_it_is_back(
    member_client: Client, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"/watch/{game.spectator_token}/live/?view=watch"
    before = member_client.get(url)
    assert member_client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    with redis_out_meanwhile(monkeypatch):
        new_codes(game)
    assert member_client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 404
