"""A tap of the step-by-step entry reads what it needs once and stores the draft in one statement, and a save runs
a handful of queries (issue 33): pinned on a 4-player game, so that neither can grow unnoticed. The counts include
a transaction's ``BEGIN`` and ``COMMIT``, and the session's and the user's reads (none for the session with Redis)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scoring.creation import create_game
from scoring.models import Draft, Game, Group, Seat
from scoring.phones import PHONE_KEY
from support.entry import Entry

PLAYERS = ("Ann", "Ben", "Cy", "Dee")
READS = 5
"""The session, the user, the game (with membership, its state and whether the posted entry is over), its seats,
this phone's draft (and the posted entry's)."""
TAP_QUERIES = READS + 1
"""The draft's ``UPDATE``, in autocommit."""
FIRST_TAP_QUERIES = READS + 6
"""``BEGIN``, the entry's start counted (the game's row locked first), the draft's ``INSERT``, the drafts and ended
entries left too long deleted, ``COMMIT``."""
SAVE_QUERIES = READS + 8
"""The twins' one query; ``BEGIN``, the revision claimed, the event and its state stored, the draft dropped and its
entry remembered as ended, ``COMMIT``."""

pytestmark = pytest.mark.django_db(transaction=True)  # in autocommit, as a server runs them


@pytest.fixture
def seated(member_client: Client, group: Group) -> tuple[Client, Game]:
    """A member's phone that claimed the first seat of a 4-player game."""
    game = create_game(group, PLAYERS, {}, promos=True)
    session = member_client.session
    session[PHONE_KEY] = "phone-of-ann"
    session.save()
    Seat.objects.filter(game=game, position=0).update(phone="phone-of-ann")  # "I am Ann"
    return member_client, game


def lake_entry(client: Client, game: Game) -> Entry:
    return Entry(client, f"/games/{game.pk}/events/new/territory/")


def tap(entry: Entry, op: str) -> None:
    entry.tap(op, htmx=True, entry=entry.field("entry"))
    assert entry.response.status_code == 200, entry.response.content[:300]


def test_the_first_tap_of_an_entry_runs_a_few_queries(
    seated: tuple[Client, Game], django_assert_max_num_queries: Any
) -> None:
    client, game = seated
    entry = lake_entry(client, game)
    with django_assert_max_num_queries(FIRST_TAP_QUERIES):
        tap(entry, "set:territory:lake")
    assert Draft.objects.get().data["event"]["territory"] == "lake"


def test_a_tap_reads_in_three_queries_and_stores_in_one(
    seated: tuple[Client, Game], django_assert_max_num_queries: Any
) -> None:
    client, game = seated
    entry = lake_entry(client, game)
    tap(entry, "set:territory:lake")
    with django_assert_max_num_queries(TAP_QUERIES):
        tap(entry, "count:rewards:blue-circle:1")
    assert Draft.objects.get().data["event"]["rewards"] == {"blue-circle": 1}


def test_a_save_runs_a_handful_of_queries(seated: tuple[Client, Game], django_assert_max_num_queries: Any) -> None:
    client, game = seated
    entry = lake_entry(client, game)
    for op in ("set:territory:lake", "count:rewards:blue-circle:1", "set:closed_by:0"):
        tap(entry, op)
    with django_assert_max_num_queries(SAVE_QUERIES):
        entry.tap("done:board", htmx=True, entry=entry.field("entry"))
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    assert game.events.get().data["territory"] == "lake" and not Draft.objects.exists()
