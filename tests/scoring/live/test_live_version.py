"""Each game's live version in the shared cache (scoring/live/backends/cache.py): with Redis an unchanged poll runs no
query, every change reaches the cache, an older version never replaces a newer one, and a spectator link that
stopped working stops answering. Without Redis, an unchanged poll is one query, as before."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest
import redis
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.test import Client
from pytest_django import DjangoAssertNumQueries
from pytest_django.fixtures import Settings

from scoring.live.backends import LiveRow, live_backend
from scoring.live.backends.cache import CacheBackend
from scoring.live.versions import current, new_codes
from scoring.log import change_log, finish, reopen
from scoring.models import Game, Group
from scoring.sheets.lifecycle import line_changed
from scoring.table import drafts, seats
from support.entry import Entry
from tests.redis_server import REDIS_URL, redis_or_skip
from tests.scoring.sheets.test_sheet_games import start
from tests.scoring.table.test_game_pages import FOREST, add_events


@pytest.fixture
def redis_cache(settings: Settings) -> Iterator[redis.Redis]:
    """The shared cache is Redis, under a prefix of this test's own (deleted after it), whatever REDIS_URL says."""
    server = redis_or_skip("this test")
    prefix = f"test-live-{uuid.uuid4().hex[:12]}"
    backend = "django.core.cache.backends.redis.RedisCache"
    settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": REDIS_URL, "KEY_PREFIX": prefix}}
    settings.LIVE_BACKEND = "scoring.live.backends.cache.CacheBackend"
    yield server
    keys = list(server.scan_iter(match=f"{prefix}:*"))
    if keys:
        server.delete(*keys)
    server.close()


@pytest.fixture
def database_cache(settings: Settings) -> None:
    """The shared cache is the database's (a fresh clone's default), whatever REDIS_URL says."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "okanagan_cache"}
    }
    settings.LIVE_BACKEND = "scoring.live.backends.database.DatabaseBackend"


def cache_backend() -> CacheBackend:
    backend = live_backend()
    assert isinstance(backend, CacheBackend)
    return backend


def database_row(game: Game) -> LiveRow:
    game.refresh_from_db()
    return game.pk, game.revision, game.activity


@pytest.mark.parametrize("view", ["watch", "game"])
@pytest.mark.usefixtures("redis_cache")
def test_with_redis_an_unchanged_poll_runs_no_query(
    member_client: Client, game: Game, view: str, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    url = f"/watch/{game.spectator_token}/live/?view={view}"
    first = member_client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = member_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_HX_REQUEST="true")
    assert again.status_code == 304
    add_events(game, FOREST)
    changed = member_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


@pytest.mark.usefixtures("redis_cache")
def test_with_redis_an_unchanged_poll_of_a_score_sheet_being_filled_in_runs_no_query(
    member_client: Client, group: Group, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben")
    url = f"/watch/{game.spectator_token}/live/?view=game"
    first = member_client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and 'id="part-lines"' in first.content.decode()
    with django_assert_num_queries(0):
        again = member_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_HX_REQUEST="true")
    assert again.status_code == 304
    line_changed(game)
    changed = member_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_the_cache_backend_needs_a_redis_cache(settings: Settings) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.LIVE_BACKEND = "scoring.live.backends.cache.CacheBackend"
    with pytest.raises(ImproperlyConfigured, match="needs a Redis cache"):
        live_backend()


@pytest.mark.usefixtures("database_cache")
def test_without_redis_an_unchanged_poll_answers_304_after_one_query(
    client: Client, game: Game, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    url = f"/watch/{game.spectator_token}/live/?view=watch"
    first = client.get(url)
    assert first.status_code == 200 and 'id="scoreboard"' in first.content.decode()
    with django_assert_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    add_events(game, FOREST)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def claim_a_seat(game: Game, _client: Client) -> None:
    seats.claim(game, 0, "a-phone", AnonymousUser())


def start_an_entry(game: Game, client: Client) -> None:
    Entry(client, f"/games/{game.pk}/events/new/territory/").tap("set:territory:lake")


def cancel_every_entry(game: Game, client: Client) -> None:
    start_an_entry(game, client)
    drafts.discard_all(game)


def make_the_result_private(game: Game, client: Client) -> None:
    finish(game, game.revision)
    assert client.post(f"/games/{game.pk}/public/", {"public": "0"}).status_code == 302


def reopen_the_game(game: Game, _client: Client) -> None:
    finish(game, game.revision)
    game.refresh_from_db()
    reopen(game, game.revision)


WRITERS: dict[str, Callable[[Game, Client], None]] = {
    "an event saved": lambda game, _client: add_events(game, FOREST),
    "a seat claimed": claim_a_seat,
    "an entry started": start_an_entry,
    "every entry cancelled": cancel_every_entry,
    "a score sheet's line saved": lambda game, _client: line_changed(game),
    "the game finished": lambda game, _client: finish(game, game.revision),
    "the game reopened": reopen_the_game,
    "the result made private": make_the_result_private,
}


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
@pytest.mark.usefixtures("redis_cache")
def test_every_change_reaches_the_cache(
    member_client: Client,
    game: Game,
    writer: Callable[[Game, Client], None],
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    before = current(game.spectator_token)
    assert before == database_row(game)
    writer(game, member_client)
    after = database_row(game)
    assert sum(after[1:]) > sum(before[1:])
    with django_assert_num_queries(0):
        assert current(game.spectator_token) == after


@pytest.mark.usefixtures("redis_cache")
def test_a_poll_that_read_before_a_change_cannot_store_the_older_version_after_it(
    game: Game, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    read_before = database_row(game)  # a poll reads the database, then is slow to store what it read
    add_events(game, FOREST)  # meanwhile a save commits and stores its version
    cache_backend().store(game.spectator_token, read_before)  # the poll stores at last: refused
    now = database_row(game)
    with django_assert_num_queries(0):
        assert current(game.spectator_token) == now != read_before


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("redis_cache")
def test_a_change_reaches_the_cache_once_committed_and_a_rolled_back_one_never(game: Game) -> None:
    before = current(game.spectator_token)
    with pytest.raises(RuntimeError), transaction.atomic():
        change_log(game, game.revision, lambda log: [*log, FOREST])
        raise RuntimeError("the save fails after the log changed: rolled back")
    assert current(game.spectator_token) == before == database_row(game)
    with transaction.atomic():
        change_log(game, game.revision, lambda log: [*log, FOREST])
        assert current(game.spectator_token) == before  # not yet committed: not yet in the cache
    assert current(game.spectator_token) == database_row(game) != before


@pytest.mark.usefixtures("redis_cache")
def test_a_new_spectator_link_makes_the_old_ones_key_stop_answering(game: Game) -> None:
    old = game.spectator_token
    read_before = current(old)
    assert read_before is not None
    new_codes(game)
    assert current(old) is None
    cache_backend().store(old, read_before)
    assert current(old) is None  # a poll that read before the new link cannot bring it back
    assert current(game.spectator_token) == database_row(game)


@pytest.mark.usefixtures("redis_cache")
def test_a_deleted_games_link_stops_answering(member_client: Client, client: Client, game: Game) -> None:
    url = f"/watch/{game.spectator_token}/live/?view=watch"
    first = member_client.get(url)
    assert member_client.post(f"/games/{game.pk}/delete/").status_code == 302
    gone = member_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])  # not the old version: told, sent away
    assert gone.status_code == 302 and gone["Location"] == f"/groups/{game.group_id}/"
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])["Location"] == "/"  # a spectator: home


def test_a_token_longer_than_any_is_refused_and_stores_nothing(
    client: Client, db: None, redis_cache: redis.Redis
) -> None:
    assert client.get(f"/watch/{'x' * 2000}/live/?view=watch").status_code == 404
    assert list(redis_cache.scan_iter(match=f"{caches['default'].key_prefix}:*")) == []
