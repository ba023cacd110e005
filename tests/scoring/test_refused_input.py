"""Issue 23: every refused input says why, where the player looks, and the table refuses what a record could
not hold (an event past the cap, more buildings around a territory than a player has then)."""

from __future__ import annotations

import pytest
from django.test import Client

from rules import RecordError
from rules.record import MAX_EVENTS
from scoring.log import change_log
from scoring.models import Game

from .conftest import Entry

NOTHING = {"type": "adjust", "player": "Red", "rewards": {}, "nuggets": 0}


def full(game: Game) -> None:
    """The game's log holds as many events as a record may."""
    change_log(game, game.revision, lambda events: [NOTHING] * MAX_EVENTS)


def test_a_correction_past_the_event_cap_is_refused_at_the_table_with_the_reason(
    member_client: Client, game: Game
) -> None:
    """Was: three corrections on a 500-event game made 503, and the group's backup then failed to restore."""
    full(game)
    entry = Entry(member_client, f"/games/{game.pk}/events/new/adjust/").tap("set:player:1")
    entry.tap("add:nuggets:1").tap("save")
    assert entry.response.status_code == 422 and "a game has at most 500 events, not 501" in entry.html
    assert "would make a later event invalid" not in entry.html
    assert game.events.count() == MAX_EVENTS


def test_the_end_of_round_1_past_the_event_cap_is_refused_on_the_game_page(member_client: Client, game: Game) -> None:
    full(game)
    response = member_client.post(f"/games/{game.pk}/round-end/", {"revision": str(game.revision)}, follow=True)
    assert response.status_code == 200 and "a game has at most 500 events, not 501" in response.content.decode()
    assert game.events.count() == MAX_EVENTS


def test_a_change_of_the_log_that_adds_past_the_cap_is_refused_and_one_that_does_not_add_is_kept(
    game: Game,
) -> None:
    full(game)
    with pytest.raises(RecordError, match="a game has at most 500 events, not 501"):
        change_log(game, game.revision, lambda events: [NOTHING, *events])
    game.refresh_from_db()
    change_log(game, game.revision, lambda events: [{**NOTHING, "player": "White"}, *events[1:]])  # an edit
    change_log(game, game.revision, lambda events: events[:-1])  # an undo
    assert game.events.count() == MAX_EVENTS - 1
