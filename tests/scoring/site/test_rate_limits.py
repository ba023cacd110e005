"""Rate limits that protect people instead of locking them out: logins (django-axes), table codes and
sign-up (django-ratelimit), all counted per client (scoring/site/client.py)."""

from __future__ import annotations

import time
from datetime import timedelta
from importlib import import_module
from types import SimpleNamespace

import pytest
from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt, AccessLog
from django.apps import apps
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test import Client, RequestFactory, override_settings

from scoring.models import Game
from scoring.site.client import client_address

ATTACKER = "203.0.113.5"
ANN_AT_HOME = "198.51.100.7"
WRONG_CODE = "ZZZZZZ"


@pytest.fixture
def ann(db: None) -> User:
    return User.objects.create_user("ann", password="pw-ann-4242")


def log_in(client: Client, username: str, password: str, **extra: str) -> int:
    status: int = client.post("/accounts/login/", {"username": username, "password": password}, **extra).status_code
    return status


def guess_ten_times(client: Client, address: str) -> None:
    """An attacker's ten wrong passwords for Ann; the tenth is already answered with the wait page."""
    statuses = [log_in(client, "ann", f"guess-{n}", REMOTE_ADDR=address) for n in range(10)]
    assert statuses == [200] * 9 + [429]


# Logging in


def test_an_attacker_guessing_anns_password_does_not_lock_ann_out(ann: User) -> None:
    guess_ten_times(Client(), ATTACKER)
    ann_phone = Client()
    assert log_in(ann_phone, "ann", "pw-ann-4242", REMOTE_ADDR=ANN_AT_HOME) == 302
    assert "_auth_user_id" in ann_phone.session


def test_after_ten_failures_even_the_right_password_is_refused_from_that_client(ann: User) -> None:
    client = Client()
    guess_ten_times(client, ATTACKER)
    refused = client.post("/accounts/login/", {"username": "ann", "password": "pw-ann-4242"}, REMOTE_ADDR=ATTACKER)
    assert refused.status_code == 429 and "Too many attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_count_ignores_the_case_of_the_username(ann: User) -> None:
    client = Client()
    for n, name in enumerate(["ann", "ANN", "Ann", "aNN", "anN", "ann", "ANN", "Ann", "aNn"]):
        assert log_in(client, name, f"guess-{n}", REMOTE_ADDR=ATTACKER) == 200
    assert log_in(client, "AnN", "guess-9", REMOTE_ADDR=ATTACKER) == 429


def test_refused_attempts_do_not_extend_the_lock(ann: User) -> None:
    client = Client()
    with override_settings(AXES_COOLOFF_TIME=timedelta(seconds=3)):
        guess_ten_times(client, ATTACKER)
        locked_at = time.monotonic()
        time.sleep(1)
        assert log_in(client, "ann", "guess-11", REMOTE_ADDR=ATTACKER) == 429
        # Not counted, so the lock still ends 3 s after the tenth failure.
        request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=ATTACKER)
        assert AxesProxyHandler.get_implementation().get_failures(request, {"username": "ann"}) == 10
        time.sleep(max(0.0, locked_at + 3.3 - time.monotonic()))
        assert log_in(client, "ann", "pw-ann-4242", REMOTE_ADDR=ATTACKER) == 302


def test_the_lock_is_shared_by_a_whole_ipv6_slash_64(ann: User) -> None:
    client = Client()
    for n in range(10):
        log_in(client, "ann", f"guess-{n}", REMOTE_ADDR=f"2001:db8:1:2::{n + 1:x}")
    assert log_in(client, "ann", "pw-ann-4242", REMOTE_ADDR="2001:db8:1:2:ffff::1") == 429
    assert log_in(client, "ann", "pw-ann-4242", REMOTE_ADDR="2001:db8:1:3::1") == 302


def test_the_wait_page_speaks_the_readers_language(ann: User) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    for n in range(10):
        response = client.post("/accounts/login/", {"username": "ann", "password": f"guess-{n}"})
    assert response.status_code == 429
    assert '<html lang="fr"' in response.content.decode() and "Trop de tentatives" in response.content.decode()


def test_attempts_are_counted_in_the_cache_not_written_to_the_database(ann: User) -> None:
    client = Client()
    log_in(client, "ann", "wrong-once")
    assert log_in(client, "ann", "pw-ann-4242") == 302
    assert not AccessAttempt.objects.exists() and not AccessLog.objects.exists()


def test_password_spraying_from_one_client_is_refused_after_thirty_failures_across_usernames(ann: User) -> None:
    """Was: only each username's failures from a client counted, so one address could try 9 passwords on every
    username every 5 minutes."""
    client = Client()
    statuses = [log_in(client, f"user-{n}", "Password1", REMOTE_ADDR=ATTACKER) for n in range(30)]
    assert statuses == [200] * 29 + [429]
    refused = client.post("/accounts/login/", {"username": "ann", "password": "pw-ann-4242"}, REMOTE_ADDR=ATTACKER)
    assert refused.status_code == 429 and "Too many attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session
    assert log_in(Client(), "ann", "pw-ann-4242", REMOTE_ADDR=ANN_AT_HOME) == 302  # elsewhere, Ann logs in


def test_a_successful_login_does_not_reset_the_clients_count_across_usernames(ann: User) -> None:
    client = Client()
    for n in range(29):
        assert log_in(client, f"user-{n}", "Password1", REMOTE_ADDR=ATTACKER) == 200
    assert log_in(Client(), "ann", "pw-ann-4242", REMOTE_ADDR=ATTACKER) == 302  # the attacker's own account
    assert log_in(client, "user-29", "Password1", REMOTE_ADDR=ATTACKER) == 429


def test_a_table_behind_one_address_misremembering_passwords_is_not_locked_out(ann: User) -> None:
    for name in ("ben", "cy"):
        User.objects.create_user(name, password=f"pw-{name}-4242")
    for name in ("ann", "ben", "cy"):
        assert [log_in(Client(), name, f"wrong-{n}", REMOTE_ADDR=ATTACKER) for n in range(9)] == [200] * 9
    for name in ("ann", "ben", "cy"):
        assert log_in(Client(), name, f"pw-{name}-4242", REMOTE_ADDR=ATTACKER) == 302


def test_the_count_across_usernames_is_shared_by_a_whole_ipv6_slash_64(ann: User) -> None:
    for n in range(30):
        log_in(Client(), f"user-{n}", "Password1", REMOTE_ADDR=f"2001:db8:1:2::{n + 1:x}")
    assert log_in(Client(), "ann", "pw-ann-4242", REMOTE_ADDR="2001:db8:1:2:ffff::1") == 429
    assert log_in(Client(), "ann", "pw-ann-4242", REMOTE_ADDR="2001:db8:1:3::1") == 302


def test_login_ignores_the_case_of_the_username(ann: User) -> None:
    client = Client()
    assert log_in(client, "ANN", "pw-ann-4242") == 302
    assert client.session["_auth_user_id"] == str(ann.pk)


# Joining a table by its code


def join_with_a_wrong_code(client: Client, **extra: str) -> int:
    status: int = client.post("/join/", {"code": WRONG_CODE}, **extra).status_code
    return status


def test_guessing_table_codes_is_limited_to_twenty_in_five_minutes(game: Game) -> None:
    assert game.table_code != WRONG_CODE
    client = Client()
    assert [join_with_a_wrong_code(client) for _ in range(20)] == [422] * 20
    assert client.post("/join/", {"code": game.table_code}).status_code == 429
    assert client.get(f"/join/{game.table_code}/").status_code == 429  # the QR code's link counts too
    assert client.get("/join/").status_code == 200  # the empty form is not a guess


def test_a_spoofed_forwarded_for_header_is_ignored_without_a_trusted_proxy(game: Game) -> None:
    client = Client()
    for n in range(20):
        join_with_a_wrong_code(client, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert join_with_a_wrong_code(client, HTTP_X_FORWARDED_FOR="192.0.2.99") == 429


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_one_trusted_proxy_the_rightmost_forwarded_address_counts(game: Game) -> None:
    client = Client()  # every request comes from the proxy, 127.0.0.1
    for n in range(20):  # the attacker writes whatever it likes on the left; the proxy appends its address
        join_with_a_wrong_code(client, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, {ATTACKER}")
    assert join_with_a_wrong_code(client, HTTP_X_FORWARDED_FOR=ATTACKER) == 429
    assert client.post("/join/", {"code": game.table_code}, HTTP_X_FORWARDED_FOR=ANN_AT_HOME).status_code == 302


def test_ipv6_addresses_share_a_bucket_per_slash_64(game: Game) -> None:
    client = Client()
    for n in range(20):
        join_with_a_wrong_code(client, REMOTE_ADDR=f"2001:db8:1:2:{n:x}::1")
    assert join_with_a_wrong_code(client, REMOTE_ADDR="2001:db8:1:2:abcd::1") == 429
    assert join_with_a_wrong_code(client, REMOTE_ADDR="2001:db8:1:3::1") == 422


# Signing up


def test_signing_up_is_limited_to_ten_tries_an_hour_per_client(db: None) -> None:
    client = Client()
    for n in range(10):
        assert client.post("/accounts/signup/", {"username": f"bot{n}", "password": "1"}).status_code == 200
    assert client.get("/accounts/signup/").status_code == 200  # reading the form is not a try
    refused = client.post("/accounts/signup/", {"username": "nina", "password": "table-games-42"})
    assert refused.status_code == 429 and "Too many attempts" in refused.content.decode()
    assert not User.objects.filter(username="nina").exists()
    other = Client(REMOTE_ADDR=ANN_AT_HOME)
    assert other.post("/accounts/signup/", {"username": "nina", "password": "table-games-42"}).status_code == 302


@pytest.mark.parametrize(("existing", "newcomer"), [("ann", "ANN"), ("Ann", "ann"), ("ann", "ann")])
def test_a_username_is_taken_in_every_case(db: None, existing: str, newcomer: str) -> None:
    User.objects.create_user(existing, password="pw-ann-4242")
    response = Client().post("/accounts/signup/", {"username": newcomer, "password": "table-games-42"})
    assert response.status_code == 200
    assert "This username is taken (capital letters do not make a new name)" in response.content.decode()
    assert User.objects.count() == 1


def test_the_database_refuses_two_usernames_that_differ_only_in_case(ann: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("ANN", password="pw-other-4242")


def test_the_migration_stops_on_usernames_that_differ_only_in_case(db: None) -> None:
    migration = import_module("scoring.migrations.0004_username_unique_lower")
    with connection.cursor() as cursor:  # as before the migration (the test's transaction restores it)
        cursor.execute("DROP INDEX auth_user_username_lower_uniq")
    User.objects.create_user("Ann", password="pw-ann-4242")
    User.objects.create_user("ann", password="pw-ann-4343")
    with pytest.raises(RuntimeError, match="differ only in case: Ann, ann"):
        migration.refuse_case_duplicates(apps, SimpleNamespace(connection=connection))


# Who is asking


@pytest.mark.parametrize(
    ("proxies", "remote", "forwarded", "expected"),
    [
        (0, "198.51.100.7", "192.0.2.1", "198.51.100.7"),  # no trusted proxy: the header is the client's word
        (1, "127.0.0.1", "192.0.2.1, 198.51.100.7", "198.51.100.7"),
        (2, "127.0.0.1", "192.0.2.1, 198.51.100.7, 10.0.0.2", "198.51.100.7"),
        (2, "127.0.0.1", "198.51.100.7", "127.0.0.1"),  # shorter than the proxies: REMOTE_ADDR
        (1, "127.0.0.1", "192.0.2.1, not-an-address", "127.0.0.1"),
        (1, "127.0.0.1", "", "127.0.0.1"),
        (0, "2001:db8:1:2:3:4:5:6", "", "2001:db8:1:2::"),  # IPv6: its /64
        (0, "::ffff:198.51.100.7", "", "198.51.100.7"),  # IPv4 over a dual stack
        (0, "", "", "0.0.0.0"),  # unknown: one shared bucket
    ],
)
def test_the_client_address(proxies: int, remote: str, forwarded: str, expected: str) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    with override_settings(TRUSTED_PROXY_COUNT=proxies):
        assert client_address(request) == expected
