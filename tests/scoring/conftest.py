"""Personas for the site's tests: the owner of a group, a member, a guest at the table, a stranger."""

from __future__ import annotations

import json
import threading
import zlib
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.db import connection
from django.test import Client

from scoring.creation import create_game
from scoring.models import Game, Group

FOREST_PLAYERS = ("White", "Red", "Yellow")


@pytest.fixture
def owner(db: None) -> User:
    return User.objects.create_user("olive", password="pw-olive-123")


@pytest.fixture
def member_user(db: None) -> User:
    return User.objects.create_user("max", password="pw-max-123")


@pytest.fixture
def group(owner: User, member_user: User) -> Group:
    group = Group.objects.create(name="Friday table", owner=owner)
    group.members.add(owner, member_user)
    return group


@pytest.fixture
def game(group: Group) -> Game:
    return create_game(group, FOREST_PLAYERS, {}, promos=True)


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner: User) -> Client:
    return logged_in(owner)


@pytest.fixture
def member_client(member_user: User) -> Client:
    return logged_in(member_user)


@pytest.fixture
def stranger_client(db: None) -> Client:
    return logged_in(User.objects.create_user("sam", password="pw-sam-123"))


@pytest.fixture
def guest_client(game: Game) -> Client:
    """A phone without an account that joined the game with its table code."""
    client = Client()
    response = client.post("/join/", {"code": game.table_code})
    assert response.status_code == 302
    return client


def changed_signed(token: str, data: object) -> str:
    """``token`` holding ``data`` instead, with its timestamp and signature kept: what a phone that edits
    the draft in its page posts back."""
    _value, timestamp, signature = token.rsplit(":", 2)
    text = json.dumps(data, separators=(",", ":")).encode()  # as signing.JSONSerializer writes it
    return f".{signing.b64_encode(zlib.compress(text)).decode()}:{timestamp}:{signature}"


def at_once(count: int, act: Callable[[int], object]) -> list[object]:
    """``act(number)`` in ``count`` threads released together, each on its own database connection; what each
    returned or raised (the test client raises what a view let escape: a 500)."""
    start = threading.Barrier(count)
    outcomes: list[object] = [None] * count

    def run(number: int) -> None:
        try:
            start.wait()
            outcomes[number] = act(number)
        except BaseException as error:  # noqa: BLE001 - returned to the test's thread
            outcomes[number] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes
