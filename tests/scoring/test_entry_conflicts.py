"""Two phones at one game: what a phone sees when another phone saved first. An entry that no longer holds
shows the step that fails and why, and keeps the rest."""

from __future__ import annotations

from django.test import Client

from scoring.log import change_log
from scoring.models import Game

from .test_territory_entry import enter_forest

NINE_SQUARES = {"type": "adjust", "player": "Yellow", "rewards": {"green-square": 9}, "nuggets": 0}


def test_the_losing_phone_sees_a_whole_collection_screen(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    """Regression: the phone that saved second showed ": 0 of  taken" and a nameless " is done" button."""
    change_log(game, game.revision, lambda events: [NINE_SQUARES])  # 3 green squares left in the supply
    first, second = enter_forest(member_client, game), enter_forest(owner_client, game)
    first.tap("save")
    assert first.response.status_code == 302
    second.tap("save")  # White's 3 green squares went to the first phone's White

    assert second.response.status_code == 422 and second.stage == "picks"
    assert ": 0 of  taken" not in second.html and "> is done<" not in second.html
    assert "White took 3 green square but the pool had 0 left" in second.html
    assert "<strong>White</strong>: 1 of 3 taken" in second.html  # the green circle still in the pool is kept
    assert "White: <strong>collecting, may take 3</strong>" in second.html
    assert "White is done</button>" in second.html
    event = second.draft["event"]  # every other step is kept, Yellow's pick too (checked in its turn)
    assert event["closed_by"] == "Red" and event["special_action"] == {"action": "gold_nugget"}
    assert event["order"] == ["White", "Yellow", "Red"] and "White" not in event["picks"]

    second.tap("pick:green-circle:1").tap("pick:green-hexagon:1").tap("done:picks")  # the whole pool
    assert second.stage == "confirm"  # Yellow's pick no longer holds either: they take nothing now
    assert "Yellow took 1 green" in second.html and "but the pool had 0 left" in second.html
    assert "Yellow takes nothing: the territory is empty." in second.html
