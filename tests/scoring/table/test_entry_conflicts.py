"""Two phones at one game: what a phone sees when another phone saved first. An entry that still holds
saves with no more taps; one that no longer holds shows the step that fails and why, and keeps the rest."""

from __future__ import annotations

from django.test import Client

from scoring.log import change_log
from scoring.models import Draft, Game
from support.entry import Entry
from tests.scoring.table.test_territory_entry import enter_forest

NINE_SQUARES = {"type": "adjust", "player": "Yellow", "rewards": {"green-square": 9}, "nuggets": 0}
ALL_BLUE_CIRCLES = {"type": "adjust", "player": "Yellow", "rewards": {"blue-circle": 12}, "nuggets": 0}
LAKE = {
    "type": "territory",
    "territory": "lake",
    "rewards": {"blue-circle": 2},
    "buildings": {"Red": {"silo": 1}},
    "closed_by": "Red",
    "lone_choice": "rewards",
    "picks": {"Red": {"blue-circle": 1}},
}


def test_the_losing_phone_sees_a_whole_collection_screen(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    """Regression: the phone that saved second showed ": 0 of  taken" and a nameless " is done" button."""
    change_log(game, game.revision, lambda events: [NINE_SQUARES])  # 3 green squares left in the supply
    first, second = enter_forest(member_client, game), enter_forest(owner_client, game)
    first.tap("take:green-circle:1")  # the last choice: saved
    assert first.response.status_code == 302
    second.tap("take:green-circle:1")  # White's 3 green squares went to the first phone's White: not taken

    # White may take 3 and only a green circle and a green hexagon are left: no choice, filled in by itself.
    assert second.response.status_code == 422 and second.stage == "confirm"
    assert ": 0 of  taken" not in second.html and "> is done<" not in second.html
    assert "White took 3 × green square but the pool had 0 left" in second.html
    assert "The game changed on another phone" in second.html
    event = second.draft["event"]  # every other step is kept
    assert event["closed_by"] == "Red" and event["special_action"] == {"action": "gold_nugget"}
    assert event["order"] == ["White", "Yellow", "Red"]
    assert event["picks"]["White"] == {"green-circle": 2, "green-hexagon": 1}  # the whole pool
    assert "Yellow" not in event["picks"]  # Yellow's pick no longer holds: they take nothing now
    assert "Yellow takes nothing: the territory is empty." in second.html
    second.tap("save")  # the same board as the forest just saved: asked once
    asked = "(Forest, closed by Red), saved by another phone a moment ago, has this same board"
    assert second.response.status_code == 422 and asked in second.html
    second.tap("save", twin=second.field("twin"))
    assert second.response.status_code == 302
    assert game.events.last().data["picks"] == {"White": {"green-hexagon": 1, "green-circle": 2}}  # type: ignore[union-attr]


def test_the_same_entry_saved_twice_is_refused_with_the_reason(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    first = Entry(member_client, f"/games/{game.pk}/events/new/round_end/")
    second = Entry(owner_client, f"/games/{game.pk}/events/new/round_end/")
    first.tap("save")
    second.tap("save")
    assert second.response.status_code == 422 and second.stage == "confirm"
    assert "round 1 has already ended" in second.html
    assert [event.data["type"] for event in game.events.all()] == ["round_end"]


def test_an_entry_that_still_holds_saves_after_another_phones_save(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    forest = enter_forest(member_client, game)
    lake = Entry(owner_client, f"/games/{game.pk}/events/new/territory/")
    lake.tap("set:territory:lake").tap("count:rewards:blue-circle:2")
    lake.tap("cycle:buildings:1:silo").tap("set:closed_by:1")
    forest.tap("take:green-circle:1")  # saved
    lake.tap("set:lone_choice:rewards")  # Red takes 1 of 2 blue circles: no choice, so it saves
    # Its page saw the game before the forest: checked again, it still holds.
    assert lake.response.status_code == 302
    assert [event.data["territory"] for event in game.events.all()] == ["forest", "lake"]
    assert not Draft.objects.exists()


def test_an_entry_that_no_longer_holds_shows_the_step_and_why_and_keeps_the_rest(
    member_client: Client, game: Game
) -> None:
    forest = enter_forest(member_client, game).tap("reopen:action")
    forest.tap("action:reward_of_shape").tap("detail:reward:blue-circle")  # Red takes a blue circle
    forest.tap("take:green-square:3")
    assert forest.stage == "picks"  # White's last token is still to choose
    change_log(game, game.revision, lambda events: [ALL_BLUE_CIRCLES])  # another phone
    forest.tap("take:green-circle:1")  # not taken: the game changed under the entry

    assert forest.response.status_code == 422 and forest.stage == "action"
    assert "The game changed on another phone" in forest.html
    assert "no blue circle is left in the supply: choose another circle" in forest.html
    assert "Red takes the special action:" in forest.html and 'value="action:choose_first"' in forest.html
    event = forest.draft["event"]
    assert "special_action" not in event and "action" not in forest.draft["done"]
    assert event["buildings"]["White"] == {"farm": 1, "silo": 1} and event["order"] == ["White", "Yellow", "Red"]
    assert forest.draft["partial"] == {"green-square": 3}  # White's taps so far are kept
    forest.tap("action:gold_nugget")
    assert forest.stage == "picks"  # the collection still holds
    forest.tap("take:green-circle:1")
    assert forest.response.status_code == 302
    assert [event.data["type"] for event in game.events.all()] == ["adjust", "territory"]


def relake(entry: Entry, reward: str) -> Entry:
    """Edit the lake: ``reward`` shown in it too, and Red takes one of those."""
    entry.tap("reopen:board").tap(f"count:rewards:{reward}:1").tap("done:board")  # the later steps are kept
    return entry.tap("reopen:picks").tap(f"take:{reward}:1")


def test_an_edit_of_an_event_another_phone_changed_meanwhile_asks_once(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    change_log(game, game.revision, lambda events: [LAKE])
    mine = Entry(member_client, f"/games/{game.pk}/events/0/")
    theirs = Entry(owner_client, f"/games/{game.pk}/events/0/")
    relake(theirs, "blue-hexagon").tap("save")
    assert theirs.response.status_code == 302
    relake(mine, "blue-square").tap("save")
    assert mine.response.status_code == 422 and mine.stage == "confirm"
    assert "Event 0 was changed on another phone since you began editing it" in mine.html
    assert game.events.get().data["picks"] == {"Red": {"blue-hexagon": 1}}
    mine.tap("save")  # told once: this phone's version replaces the other's
    assert mine.response.status_code == 302
    assert game.events.get().data["picks"] == {"Red": {"blue-square": 1}}


def test_a_kept_entry_that_no_longer_holds_says_so_on_reload(member_client: Client, game: Game) -> None:
    forest = enter_forest(member_client, game)
    change_log(game, game.revision, lambda events: [{**NINE_SQUARES, "rewards": {"green-square": 12}}])
    again = member_client.get(forest.url)  # the phone was locked meanwhile
    page = again.content.decode()
    assert again.status_code == 422 and 'data-stage="confirm"' in page  # White now takes what is left
    assert "Your entry was kept." in page and "The game changed on another phone" in page
    assert "White took 3 × green square but the pool had 0 left" in page


def test_the_same_territory_entered_on_two_phones_is_not_counted_twice_without_asking(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    first, second = enter_forest(member_client, game), enter_forest(owner_client, game)
    first.tap("take:green-circle:1")
    second.tap("take:green-circle:1")  # legal again (the supply holds enough), but surely the same forest
    assert second.response.status_code == 422
    assert "Event 0 (Forest, closed by Red), saved by another phone a moment ago, has this same board." in second.html
    assert game.events.count() == 1
    second.tap("save", twin=second.field("twin"))  # asked once: a second forest closed by Red is possible
    assert second.response.status_code == 302 and game.events.count() == 2
