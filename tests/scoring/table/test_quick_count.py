"""The quick count on the site: a player's final holdings entered on their phone (a ``holdings`` event), then
their cards; the game page says who has counted; the finish page names who has not."""

from __future__ import annotations

import re

from django.test import Client

from scoring.log import change_log, replay_game, stored_events
from scoring.models import Game
from support.entry import Entry
from tests.scoring.table.test_game_pages import FOREST
from tests.scoring.table.test_table_phones import claim

WHITE, RED, YELLOW = 0, 1, 2


def count(client: Client, game: Game) -> Entry:
    return Entry(client, f"/games/{game.pk}/events/new/holdings/")


def test_a_player_counts_on_their_phone_then_enters_their_cards(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    entry = count(guest_client, game)
    assert entry.stage == "count"  # this phone's player: no "who?" step
    assert entry.draft["event"] == {"type": "holdings", "player": "Red", "rewards": {}, "nuggets": 0}
    entry.tap("count:rewards:blue-circle:3").tap("count:rewards:green-square:1").tap("add:nuggets:1", times=2)
    entry.tap("count:rewards:green-square:1")  # the same chip again: none
    assert entry.draft["event"]["rewards"] == {"blue-circle": 3}
    entry.tap("save")
    assert entry.saved_to == f"/games/{game.pk}/events/new/objectives/"  # the rest of the count: the cards
    assert stored_events(game) == [{"type": "holdings", "player": "Red", "rewards": {"blue-circle": 3}, "nuggets": 2}]
    cards = Entry(guest_client, entry.saved_to)
    assert cards.stage == "cards" and "Your count is saved." in cards.html
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    assert 'seat-purple">Red</span>: <strong>counted</strong>' in page and "Count mine again" in page
    assert 'seat-red">White</span>: <span class="muted">not yet</span>' in page


def test_a_count_starts_from_what_the_game_gave(member_client: Client, game: Game) -> None:
    """At the end of a game scored territory by territory, a count is a correction: it starts from the
    player's holdings, and saving it unchanged changes nothing."""
    change_log(game, game.revision, lambda events: [FOREST])
    claim(member_client, game, WHITE)
    entry = count(member_client, game)
    white = replay_game(game).state.holdings["White"]
    assert entry.draft["event"]["rewards"] == {"green-square": 3, "green-circle": 1}
    assert entry.draft["event"]["nuggets"] == white.nuggets == 0
    entry.tap("count:rewards:green-circle:1").tap("save")  # the circle was given back
    assert replay_game(game).state.holdings["White"].held() == {"green-square": 3}


def test_a_phone_that_is_nobody_counts_for_a_player_and_stays_on_the_game(guest_client: Client, game: Game) -> None:
    entry = count(guest_client, game)
    assert entry.stage == "player"
    entry.tap(f"set:player:{YELLOW}").tap("add:nuggets:1").tap("save")
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"  # not this phone's cards to enter
    assert stored_events(game)[0]["player"] == "Yellow"


def test_a_count_for_another_player_starts_from_their_holdings(guest_client: Client, game: Game) -> None:
    change_log(game, game.revision, lambda events: [FOREST])
    entry = count(guest_client, game).tap(f"set:player:{YELLOW}")
    assert entry.stage == "count"
    assert entry.draft["event"] == {
        "type": "holdings",
        "player": "Yellow",
        "rewards": {"green-hexagon": 1, "green-circle": 1},
        "nuggets": 0,
    }


def test_a_count_changed_to_another_player_starts_from_their_holdings_not_the_last_one_s(
    guest_client: Client, game: Game
) -> None:
    change_log(game, game.revision, lambda events: [FOREST])
    entry = count(guest_client, game).tap(f"set:player:{YELLOW}").tap("add:nuggets:1")
    entry.tap("reopen:player").tap(f"set:player:{WHITE}")
    assert entry.stage == "count"
    assert entry.draft["event"] == {
        "type": "holdings",
        "player": "White",
        "rewards": {"green-square": 3, "green-circle": 1},
        "nuggets": 0,
    }
    entry.tap("reopen:player").tap(f"set:player:{WHITE}")  # the same player again: the counts are kept
    assert entry.draft["event"]["rewards"] == {"green-square": 3, "green-circle": 1}


def test_a_count_beyond_the_supply_is_refused_at_the_tap(member_client: Client, game: Game) -> None:
    change_log(
        game, game.revision, lambda events: [{"type": "holdings", "player": "Red", "rewards": {}, "nuggets": 15}]
    )
    claim(member_client, game, WHITE)
    entry = count(member_client, game).tap("add:nuggets:1")
    assert entry.draft["event"]["nuggets"] == 1
    entry.tap("add:nuggets:1")
    assert entry.response.status_code == 422
    assert (
        "gold nuggets of White: 2 is too many (the game&#x27;s nugget cards: 16; held by the other players: 15)"
        in entry.html
    )
    assert entry.draft["event"]["nuggets"] == 1  # the tap was not taken
    entry.tap("add:nuggets:-1").tap("add:nuggets:-1")
    assert entry.response.status_code == 422 and entry.draft["event"]["nuggets"] == 0  # never below none


def test_the_finish_page_names_who_has_not_counted(owner_client: Client, game: Game) -> None:
    assert "final count" not in owner_client.get(f"/games/{game.pk}/finish/").content.decode()
    change_log(game, game.revision, lambda events: [{"type": "holdings", "player": "Red", "rewards": {}, "nuggets": 1}])
    page = owner_client.get(f"/games/{game.pk}/finish/").content.decode()
    assert "White, Yellow have not entered a final count." in page
    assert "The end of round 1 was not entered." not in page  # a quick count has no rounds to enter


def test_the_quick_count_is_not_offered_to_spectators_or_once_the_game_is_over(
    owner_client: Client, game: Game
) -> None:
    watch = Client().get(f"/watch/{game.spectator_token}/").content.decode()
    assert 'id="quick-count"' not in watch
    owner_client.post(f"/games/{game.pk}/finish/", {"revision": str(game.revision)})
    assert owner_client.get(f"/games/{game.pk}/events/new/holdings/")["Location"] == f"/games/{game.pk}/"


def test_the_plus_chip_past_the_chips_says_the_count_it_shows(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    entry = count(guest_client, game)
    entry.tap("count:rewards:blue-circle:4").tap("add:rewards:blue-circle:1", htmx=True)
    assert entry.draft["event"]["rewards"] == {"blue-circle": 5}
    plus = re.search(r'<button class="chip"[^>]*value="add:rewards:blue-circle:1"[^>]*>([^<]*)<', entry.html)
    assert plus and plus.group(1) == "5"
    assert 'aria-pressed="true"' in plus.group(0) and 'aria-label="5 × blue circle: one more"' in plus.group(0)
    assert 'aria-label="one more green square"' in entry.html  # a + not past its chips: "+" and the chips say it
