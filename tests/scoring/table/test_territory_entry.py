"""Scoring a territory step by step, as plain forms: the rulebook's forest example and its errors."""

from __future__ import annotations

from django.test import Client

from rules import Reward
from rules.reference import FOREST_EXAMPLE
from scoring.log import change_log, replay_game
from scoring.models import Game
from scoring.table.entry.screen import WholeTake, mixed_takes
from scoring.table.entry.stages import MAX_WHOLE_TAKES
from support.entry import Entry


def enter_forest(client: Client, game: Game, *, htmx: bool = False) -> Entry:
    """The rulebook's forest example, tapped up to its last choice: White's fourth token."""
    entry = Entry(client, f"/games/{game.pk}/events/new/territory/")
    assert entry.stage == "territory"
    entry.tap("set:territory:forest", htmx=htmx)
    assert entry.stage == "board"
    entry.tap("count:rewards:green-square:3", htmx=htmx)
    entry.tap("count:rewards:green-circle:2", htmx=htmx)
    entry.tap("count:rewards:green-hexagon:1", htmx=htmx)
    entry.tap("cycle:buildings:0:farm", htmx=htmx)
    entry.tap("cycle:buildings:0:silo", htmx=htmx)
    entry.tap("cycle:buildings:1:warehouse", htmx=htmx)
    entry.tap("cycle:buildings:2:warehouse", htmx=htmx)
    entry.tap("set:closed_by:1", htmx=htmx)
    entry.tap("done:board", htmx=htmx)
    assert entry.stage == "order"
    assert "Tap them from first to last" in entry.html
    entry.tap("tie:2", htmx=htmx)  # Yellow first: Red, the last tied, goes by itself
    assert entry.stage == "action"
    assert "Red takes the special action" in entry.html
    entry.tap("action:gold_nugget", htmx=htmx)
    assert entry.stage == "picks"
    assert "White" in entry.html and "may take 4" in entry.html
    entry.tap("take:green-square:3", htmx=htmx)  # one more of the two kinds left: a choice
    assert entry.stage == "picks" and "3 of 4 taken" in entry.html
    return entry


def test_the_forest_example_is_entered_step_by_step_and_saves_itself(member_client: Client, game: Game) -> None:
    """White's fourth token ends their turn; Yellow may take 2 and 2 are left: no choice, filled in by itself;
    Red takes nothing. That last choice saves the territory: no Save tap. The game page shows what was saved
    first, with the rules applied, Undo and Edit."""
    entry = enter_forest(member_client, game).tap("take:green-circle:1")
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    event = game.events.get().data
    assert event["picks"]["Yellow"] == {"green-circle": 1, "green-hexagon": 1}
    assert event["order"] == ["White", "Yellow", "Red"]
    holdings = replay_game(game).state.holdings
    assert holdings["White"].tokens == 4 and holdings["Yellow"].tokens == 2 and holdings["Red"].tokens == 0
    assert holdings["Red"].nuggets == 1
    page = member_client.get(entry.saved_to).content.decode()
    saved = page[page.index('id="saved"') : page.index("</section>")]
    assert "Saved:" in saved and "Order of influence: White (4) &gt; Yellow (2) &gt; Red (2)." in saved
    assert f'action="/games/{game.pk}/events/0/delete/"' in saved and ">Undo<" in saved
    assert f'href="/games/{game.pk}/events/0/"' in saved


def test_the_saved_card_shows_only_the_last_event_just_saved(member_client: Client, game: Game) -> None:
    enter_forest(member_client, game).tap("take:green-circle:1")
    for odd in ("1", "00", "-0", "٠", "0x0", "9" * 40, ""):
        page = member_client.get(f"/games/{game.pk}/?saved={odd}")
        assert page.status_code == 200 and 'id="saved"' not in page.content.decode()
    member_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": str(game.revision + 1)})
    assert 'id="saved"' not in member_client.get(f"/games/{game.pk}/?saved=0").content.decode()  # undone


def test_the_same_flow_works_with_htmx_fragments(member_client: Client, game: Game) -> None:
    entry = enter_forest(member_client, game, htmx=True)
    assert "<html" not in entry.html and 'id="wizard"' in entry.html
    entry.tap("take:green-circle:1", htmx=True)
    assert entry.response.status_code == 200
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    assert game.events.count() == 1


def test_a_collector_cannot_take_more_than_allowed(member_client: Client, game: Game) -> None:
    entry = enter_forest(member_client, game)
    entry.tap("reopen:picks")  # every pick is to do again
    assert "picks" not in entry.draft["event"] and entry.stage == "picks"
    entry.tap("take:green-square:3")
    entry.tap("take:green-circle:2")  # the fifth token: White may take 4
    assert entry.response.status_code == 422
    assert "White may not take another green circle." in entry.html
    assert entry.draft["partial"] == {"green-square": 3}


def test_a_collectors_turn_ends_by_itself_and_lone_choices_fill_in(member_client: Client, game: Game) -> None:
    """White takes 4 of 6, then Yellow may take 2 of the 2 left: no choice, so no tap."""
    entry = enter_forest(member_client, game)
    entry.tap("reopen:picks").tap("take:green-circle:2").tap("take:green-hexagon:1")
    # White's fourth can only be a green square; Yellow may take 2 and only green squares are left: saved.
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    assert game.events.get().data["picks"] == {
        "White": {"green-square": 1, "green-circle": 2, "green-hexagon": 1},
        "Yellow": {"green-square": 2},
    }


def test_changing_the_reward_icons_keeps_the_buildings(member_client: Client, game: Game) -> None:
    entry = enter_forest(member_client, game)
    entry.tap("reopen:board")  # was refused: "the field 'buildings' is missing"
    assert entry.response.status_code == 200 and entry.stage == "board"
    entry.tap("count:rewards:green-square:2").tap("done:board")
    # Every later step is kept; the one that no longer holds (a collector took a square now gone) is redone.
    assert entry.stage == "picks" and entry.draft["event"]["closed_by"] == "Red"
    assert entry.draft["event"]["buildings"] == {
        "White": {"farm": 1, "silo": 1},
        "Red": {"warehouse": 1},
        "Yellow": {"warehouse": 1},
    }


def test_a_building_cell_counts_up_to_the_supply_then_back_to_none(member_client: Client, game: Game) -> None:
    # round 1 gives a player 1 farm and 3 warehouses with 3 players: the cell goes back to none past them
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    entry.tap("cycle:buildings:0:farm")
    assert entry.draft["event"]["buildings"] == {"White": {"farm": 1}}
    entry.tap("cycle:buildings:0:farm")
    assert entry.draft["event"]["buildings"] == {}
    said = 'role="status">Round 1 gives each player 1 × farm: back to none. If round 1 is over, enter its end first.'
    assert said in entry.html[entry.html.index('class="cell-said"') :]  # under White's row
    entry.tap("cycle:buildings:0:warehouse", times=3)
    assert entry.draft["event"]["buildings"] == {"White": {"warehouse": 3}}
    # the whole game's: a player has 2 farms with 3 players
    change_log(game, game.revision, lambda events: [{"type": "round_end"}])
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")  # the entry kept
    entry.tap("cycle:buildings:0:farm", times=2)
    assert entry.draft["event"]["buildings"] == {"White": {"farm": 2, "warehouse": 3}}
    entry.tap("cycle:buildings:0:farm")
    assert entry.draft["event"]["buildings"] == {"White": {"warehouse": 3}}


def test_next_asks_who_closed_the_territory_on_a_phone_that_is_nobody(member_client: Client, game: Game) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    assert "closed_by" not in entry.draft["event"]
    entry.tap("done:board")
    assert entry.response.status_code == 422 and "Who closed the territory? Tap their name." in entry.html


def test_a_damaged_form_starts_again_with_a_message(member_client: Client, game: Game) -> None:
    response = member_client.post(
        f"/games/{game.pk}/events/new/territory/", {"draft": "{not json", "revision": "0", "op": "done:board"}
    )
    assert response.status_code in {200, 422}
    assert "The form was damaged" in response.content.decode()


def test_a_forged_op_is_refused_without_losing_the_draft(member_client: Client, game: Game) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/")
    entry.tap("set:territory:forest").tap("count:rewards:green-square:1")
    entry.tap("count:rewards:purple-star:1")
    assert entry.response.status_code == 422
    assert entry.draft["event"]["rewards"] == {"green-square": 1}


def test_a_lone_player_chooses_and_the_choice_is_recorded(member_client: Client, game: Game) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/")
    entry.tap("set:territory:lake").tap("count:rewards:blue-circle:2")
    entry.tap("cycle:buildings:1:silo").tap("set:closed_by:1")
    assert entry.stage == "board" and "Red is alone in the territory" in entry.html  # asked on the board
    entry.tap("set:lone_choice:rewards")  # Red takes 1 of the 2 blue circles: no choice, so it saves
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    event = game.events.get().data
    assert event["lone_choice"] == "rewards" and event["picks"] == {"Red": {"blue-circle": 1}}


def test_the_resolutions_first_question_is_answered_on_the_board(member_client: Client, game: Game) -> None:
    """A tie is ordered, a lone player chooses, the last player's special action is tapped, straight from the
    board: that tap ends the board (no Next)."""
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    assert 'id="closer-question"' in entry.html and "Nobody built here" not in entry.html  # a phone with no seat
    entry.tap("set:closed_by:1")
    assert "Nobody built here: save" in entry.html  # no building yet
    entry.tap("cycle:buildings:1:warehouse").tap("cycle:buildings:2:warehouse")
    assert entry.stage == "board" and 'id="tie-question"' in entry.html and "Next" not in entry.html
    entry.tap("tie:2")  # Yellow first, Red last: the tie is decided; on to Red's special action
    assert entry.stage == "action" and entry.draft["event"]["order"] == ["Yellow", "Red"]
    assert "board" in entry.draft["done"]
    entry.tap("reopen:board").tap("cycle:buildings:2:farm")  # Yellow 5, Red 2: no tie any more
    assert 'id="tie-question"' not in entry.html and ">Next<" not in entry.html
    assert "Red takes the special action: choose it below." in entry.html  # Red, last, takes it: asked here
    entry.tap("tie:1")  # a tie answer once nobody ties is refused in place, the board kept
    assert entry.response.status_code == 422 and entry.stage == "board"
    entry.tap("action:gold_nugget")  # the action, tapped on the board, ends it; no icon: nothing to collect
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    assert game.events.get().data["special_action"] == {"action": "gold_nugget"}


def test_a_territory_nobody_built_in_saves_from_the_board(member_client: Client, game: Game) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    entry.tap("set:closed_by:0").tap("done:board")
    assert entry.saved_to == f"/games/{game.pk}/?saved=0" and game.events.get().data["buildings"] == {}


def test_errors_and_explanations_speak_the_readers_language(member_client: Client, game: Game) -> None:
    entry = enter_forest(member_client, game).tap("reopen:picks").tap("take:green-square:3")
    member_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ko"
    entry.tap("take:green-circle:2")
    assert "White은(는) 초록 원을(를) 더 가져갈 수 없습니다." in entry.html
    member_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    entry.tap("take:green-circle:1")
    member_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Red et Yellow sont à égalité avec 2 ; Red, qui a complété le territoire (forêt), les a placés" in page
    assert "White (influence 4) prend 3 × carré vert et 1 × cercle vert." in page


def test_correcting_a_past_tie_break_keeps_every_later_step_that_still_holds(member_client: Client, game: Game) -> None:
    """Was 16 taps: "Change" threw away every later step. Now the special action and the collection stay
    while they hold, and only what the new order changed is to do again."""
    forest = FOREST_EXAMPLE.record["events"][0]  # type: ignore[index]
    change_log(game, game.revision, lambda events: [forest])  # Red ordered the tie Yellow > Red
    entry = Entry(member_client, f"/games/{game.pk}/events/0/")
    assert entry.stage == "confirm"
    entry.tap("reopen:order").tap("tie:1")  # two taps: Red > Yellow instead
    assert entry.draft["event"]["order"] == ["White", "Red", "Yellow"]
    assert entry.stage in {"picks", "confirm"}  # straight on to what is left to do
    assert entry.draft["event"]["special_action"] == forest["special_action"]  # kept: still legal
    assert entry.draft["event"]["picks"]["White"] == forest["picks"]["White"]  # White collects first either way


def test_icons_of_other_colours_are_one_tap_each_and_clear_at_once(member_client: Client, game: Game) -> None:
    """No disclosure to open: each icon of another colour is a button, a tap is one more; "Clear them" sets
    them all back to none and keeps the territory's own colour."""
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    assert 'aria-label="blue circle: 0"' in entry.html and "<details" not in entry.html
    entry.tap("count:rewards:green-square:2").tap("add:rewards:blue-circle:1", times=2)
    entry.tap("add:rewards:yellow-square:1")
    assert entry.draft["event"]["rewards"] == {"green-square": 2, "blue-circle": 2, "yellow-square": 1}
    assert 'aria-label="blue circle: 2"' in entry.html and "Clear them" in entry.html
    entry.tap("clear:other-rewards")
    assert entry.draft["event"]["rewards"] == {"green-square": 2} and "Clear them" not in entry.html


def test_a_collector_s_take_of_several_kinds_is_one_chip(member_client: Client, game: Game) -> None:
    """White may take 4 of 3 squares, 2 circles and a hexagon: 5 takes mix kinds, each offered as one chip of its
    icons (■■■●); one tap ends White's turn, Yellow's 2 of the 2 left fill in, and the territory saves."""
    entry = enter_forest(member_client, game).tap("reopen:picks")
    assert entry.html.count('value="take:all:') == 5
    assert 'aria-label="3 × green square + 1 × green circle"' in entry.html
    entry.tap("take:all:green-square=3+green-circle=1")
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    assert game.events.get().data["picks"] == {
        "White": {"green-square": 3, "green-circle": 1},
        "Yellow": {"green-circle": 1, "green-hexagon": 1},
    }


def test_a_take_among_ten_mixes_of_kinds_is_still_one_chip() -> None:
    """Issue 32: 3 of 2 squares, a hexagon, 2 circles and a blue circle mix kinds in 10 ways (the full game's
    event 4): each is a chip, so the take is one tap rather than one a kind."""
    left = [(Reward.GREEN_SQUARE, 2), (Reward.GREEN_HEXAGON, 1), (Reward.GREEN_CIRCLE, 2), (Reward.BLUE_CIRCLE, 1)]
    takes = mixed_takes(left, 3, MAX_WHOLE_TAKES)
    assert takes is not None and len(takes) == 10
    assert WholeTake(((Reward.GREEN_SQUARE, 2), (Reward.BLUE_CIRCLE, 1))) in takes


def test_a_whole_take_not_offered_is_out_of_date(member_client: Client, game: Game) -> None:
    entry = enter_forest(member_client, game)  # 3 squares tapped: no whole take is offered any more
    assert 'value="take:all:' not in entry.html
    for take in ("green-square=3+green-circle=1", "green-square=4", "green-square=2+green-circle=1", "x=1+y", ""):
        entry.tap(f"take:all:{take}")
        assert entry.response.status_code == 422 and "That button is out of date" in entry.html
        assert entry.draft["partial"] == {"green-square": 3}
    entry.tap("reopen:picks").tap("take:all:green-square=1+green-circle=1")  # 2 of the 4 White may take
    assert entry.response.status_code == 422 and entry.draft["partial"] == {}


def test_change_on_the_board_keeps_the_tie_and_the_action_with_one_done(member_client: Client, game: Game) -> None:
    """The board opened again after the tie and the special action: it ends with "Done", not with the tie
    question and the action again (the tie question could not even be answered: the order was kept)."""
    entry = enter_forest(member_client, game).tap("reopen:board")
    assert entry.stage == "board" and 'value="done:board"' in entry.html
    assert 'id="tie-question"' not in entry.html and 'value="action:gold_nugget"' not in entry.html
    entry.tap("count:rewards:green-hexagon:2").tap("done:board")
    assert entry.stage == "picks" and entry.draft["event"]["order"] == ["White", "Yellow", "Red"]
    assert entry.draft["event"]["special_action"] == {"action": "gold_nugget"}
    assert entry.draft["event"]["rewards"]["green-hexagon"] == 2


def test_a_tie_of_three_is_ordered_in_one_tap(member_client: Client, game: Game) -> None:
    """White, Red and Yellow tie with a warehouse each: 6 orders, each one button; one tap orders all three."""
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    entry.tap("set:closed_by:1").tap("count:rewards:green-square:3")
    for seat in range(3):
        entry.tap(f"cycle:buildings:{seat}:warehouse")
    assert entry.html.count('value="tie:all:') == 6 and ">Red > White > Yellow<" in entry.html
    entry.tap("tie:all:1.0.2")
    assert entry.stage == "action" and entry.draft["event"]["order"] == ["Red", "White", "Yellow"]
    for forged in ("tie:all:1.0", "tie:all:0.0.2", "tie:all:x"):
        assert Entry(member_client, f"/games/{game.pk}/events/new/territory/").tap(forged).response.status_code == 422


def test_a_tie_of_two_is_one_tap_already_and_offers_no_whole_orders(member_client: Client, game: Game) -> None:
    entry = enter_forest(member_client, game).tap("reopen:order")
    assert entry.stage == "order" and 'value="tie:all:' not in entry.html
    entry.tap("tie:all:2.1")
    assert entry.response.status_code == 422 and "order" not in entry.draft["event"]


def test_a_lone_player_s_special_action_is_tapped_on_the_board(member_client: Client, game: Game) -> None:
    """The action itself is the lone player's choice too: one tap instead of "The special action" then it."""
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    entry.tap("set:closed_by:1").tap("count:rewards:blue-circle:2").tap("cycle:buildings:1:silo")
    assert entry.stage == "board" and "Or Red takes a special action instead of the rewards:" in entry.html
    entry.tap("action:gold_nugget")
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    event = game.events.get().data
    assert event["lone_choice"] == "special_action" and event["special_action"] == {"action": "gold_nugget"}


def test_a_territory_showing_each_kind_once_or_twice_is_one_tap_of_icons(member_client: Client, game: Game) -> None:
    """Issue 32: a forest showing 2 squares, a hexagon and a circle is one chip of its whole pool (8 chips: each
    kind once or twice), not a tap a kind; icons of other colours stay; a wrong chip is put right in one tap, by
    another chip or a kind's own."""
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    assert entry.html.count('value="count:pool:') == 8
    assert 'aria-label="2 × green square + 1 × green hexagon + 1 × green circle"' in entry.html
    entry.tap("add:rewards:blue-circle:1").tap("count:pool:green-square=2+green-hexagon=2+green-circle=1")
    assert entry.draft["event"]["rewards"] == {
        "green-square": 2,
        "green-hexagon": 2,
        "green-circle": 1,
        "blue-circle": 1,
    }
    entry.tap("count:pool:green-square=2+green-hexagon=1+green-circle=1")
    assert entry.draft["event"]["rewards"]["green-hexagon"] == 1
    assert 'value="count:pool:green-square=2+green-hexagon=1+green-circle=1" aria-pressed="true"' in entry.html
    entry.tap("count:rewards:green-circle:3")
    assert 'aria-pressed="true"' not in entry.html.split('class="chips takes pools"')[1].split("</div>")[0]


def test_a_pool_chip_not_offered_is_out_of_date(member_client: Client, game: Game) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    for pool in ("green-square=2+green-hexagon=1+green-circle=1", "blue-square=3+blue-hexagon=1+blue-circle=1", "x"):
        entry.tap(f"count:pool:{pool}")
        assert entry.response.status_code == 422 and "That button is out of date" in entry.html
    assert entry.draft["event"]["rewards"] == {}


def test_a_player_s_warehouse_and_silo_are_one_tap(member_client: Client, game: Game) -> None:
    """Issue 32: a player who shows a warehouse and a silo around the territory is one tap of their name under
    the buildings grid (one more of each), not a tap a cell."""
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    assert 'aria-label="Red: Warehouse + Silo"' in entry.html
    entry.tap("cycle:buildings:1:warehouse+silo")
    assert entry.draft["event"]["buildings"] == {"Red": {"warehouse": 1, "silo": 1}}
    assert 'aria-label="Red, Warehouse: 1"' in entry.html and 'aria-label="Red, Silo: 1"' in entry.html


def test_a_pair_past_what_a_player_can_show_is_refused_by_their_row(member_client: Client, game: Game) -> None:
    """Round 1 gives each player 2 silos: a third pair is refused, said under Red's row, and changes nothing."""
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    entry.tap("cycle:buildings:1:warehouse+silo").tap("cycle:buildings:1:warehouse+silo")
    entry.tap("cycle:buildings:1:warehouse+silo")
    assert entry.response.status_code == 422 and "Not added: Red can show 2 × silo at most here." in entry.html
    assert entry.draft["event"]["buildings"] == {"Red": {"warehouse": 2, "silo": 2}}
    row = entry.html.split('class="cell-said"')
    assert len(row) == 2 and "Not added: Red can show 2 × silo at most here." in row[1].split("</tr>")[0]
    for forged in ("cycle:buildings:1:silo+warehouse", "cycle:buildings:9:warehouse+silo"):
        assert entry.tap(forged).response.status_code == 422 and "That button is out of date" in entry.html
