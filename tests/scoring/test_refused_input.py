"""Issue 23: every refused input says why, where the player looks, and the table refuses what a record could
not hold (an event past the cap, more buildings around a territory than a player has then)."""

from __future__ import annotations

import pytest
from django.test import Client

from rules import RecordError
from rules.record import MAX_EVENTS
from scoring.log import change_log
from scoring.models import Game
from support.entry import Entry
from tests.scoring.table.test_territory_entry import enter_forest

ALL_HEXAGONS = {"type": "adjust", "player": "Yellow", "rewards": {"green-hexagon": 12}, "nuggets": 0}
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


def test_a_take_after_another_phones_save_ended_the_turn_names_the_player_and_the_token(
    member_client: Client, game: Game
) -> None:
    """Was: "may not take another of these." (nobody named, no token)."""
    forest = enter_forest(member_client, game)
    assert forest.stage == "picks" and forest.field("collector") == "White"
    assert forest.draft["partial"] == {"green-square": 3}
    change_log(game, game.revision, lambda events: [ALL_HEXAGONS])  # another phone: White's last has no choice
    forest.tap("take:green-hexagon:1", collector="White")
    assert forest.response.status_code == 422 and forest.stage == "confirm"  # White's last token: the circle
    assert "Not taken: green hexagon. White collects no more here (the game changed on another phone)." in forest.html


def test_a_take_for_a_collector_whose_turn_it_no_longer_is_names_both_and_the_token(
    member_client: Client, game: Game
) -> None:
    forest = enter_forest(member_client, game)
    forest.tap("take:green-circle:1", collector="Yellow")  # a page that showed Yellow's turn
    assert forest.response.status_code == 422 and forest.draft["partial"] == {"green-square": 3}
    assert "Not taken for Yellow: green circle. It is White&#x27;s turn to collect now." in forest.html
    forest.tap("take:green-circle:2", collector="White")
    assert "White may not take another green circle." in forest.html


def test_an_entry_of_round_2_whose_round_1_end_was_undone_on_another_phone_says_why_at_its_cell(
    member_client: Client, game: Game
) -> None:
    """The table asks for the end of round 1 first: 4 warehouses around one territory are more than round 1
    gives a player with 3 players (3), and the record would refuse that end after them."""
    change_log(game, game.revision, lambda events: [{"type": "round_end"}])
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    entry.tap("cycle:buildings:1:warehouse", times=4)
    assert entry.draft["event"]["buildings"] == {"Red": {"warehouse": 4}}
    change_log(game, game.revision, lambda events: [])  # another phone undid the end of round 1
    entry.tap("cycle:buildings:1:silo")
    said = entry.html[entry.html.index('class="cell-said"') :]
    assert entry.response.status_code == 422 and said.startswith(
        'class="cell-said"><td colspan="5"><p class="error" role="alert">Red has 4 warehouses around this '
        "territory, but round 1 gives a player 3 warehouses in a 3-player game: if round 1 is over, record its "
        "end first</p>"
    )
