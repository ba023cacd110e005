"""A territory being entered, answered by the engine as far as it goes (:mod:`rules.partial`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import (
    GameState,
    LoneChoice,
    Question,
    RecordError,
    Reward,
    answer_territory,
    check_entered,
    new_game,
    parse_event,
    parse_territory_so_far,
    question_of,
)
from rules.record import TerritoryEvent, TerritorySoFar
from rules.territory import resolve_territory

PLAYERS = ("Ann", "Ben", "Cy")


def so_far(**fields: Any) -> TerritorySoFar:
    event = {"type": "territory", "territory": "forest", "rewards": {}, "buildings": {}} | fields
    return parse_territory_so_far(PLAYERS, event)


def game() -> GameState:
    return new_game(PLAYERS)


def test_without_a_closer_the_board_is_asked_with_the_first_question_of_the_resolution() -> None:
    answer = answer_territory(game(), so_far(buildings={"Ann": {"farm": 1}, "Ben": {"silo": 1}}))
    assert answer.question is Question.BOARD
    assert dict(answer.report.influence) == {"Ann": 3, "Ben": 1}
    assert answer.recipient == "Ben"
    assert answer.options is not None and answer.options.player == "Ben"
    assert answer.answered == ()


def test_a_board_still_being_entered_is_asked_with_its_closer_and_the_later_answers_left_out() -> None:
    board = {"closed_by": "Ann", "buildings": {"Ann": {"farm": 1}, "Ben": {"silo": 1}}}
    answer = answer_territory(game(), so_far(**board, lone_choice="rewards"), on_board=True)
    assert answer.question is Question.BOARD
    assert answer.recipient == "Ben" and answer.answered == ()
    assert answer_territory(game(), so_far(**board)).question is Question.ACTION


def test_a_tie_asks_the_closer_for_the_order_as_far_as_tapped() -> None:
    tied = so_far(closed_by="Cy", buildings={"Ann": {"farm": 1}, "Ben": {"farm": 1}, "Cy": {"silo": 1}})
    answer = answer_territory(game(), tied, chosen=())
    assert answer.question is Question.ORDER
    assert answer.tie is not None and answer.tie.undecided == ("Ann", "Ben")
    ordered = answer_territory(game(), tied, chosen=("Ben",)).tie
    assert ordered is not None and ordered.order == ("Ben", "Ann", "Cy")


def test_a_lone_player_is_asked_their_choice_then_nothing_is_collected_after_the_special_action() -> None:
    lone = {"closed_by": "Ann", "rewards": {"green-circle": 2}, "buildings": {"Ann": {"farm": 1}}}
    answer = answer_territory(game(), so_far(**lone))
    assert answer.question is Question.LONE
    assert answer.options is not None and answer.options.player == "Ann"
    chose = answer_territory(game(), so_far(**lone, lone_choice=LoneChoice.SPECIAL_ACTION.value))
    assert (chose.question, chose.recipient) == (Question.ACTION, "Ann")
    took = so_far(**lone, lone_choice="special_action", special_action={"action": "gold_nugget"})
    done = answer_territory(game(), took, action_answered=True)
    assert done.question is Question.NONE
    assert done.answered == (Question.LONE, Question.ACTION)


def test_a_collector_with_a_choice_is_asked_with_what_they_may_still_take() -> None:
    board = {
        "closed_by": "Ann",
        "rewards": {"green-circle": 2, "blue-circle": 2, "yellow-circle": 2},
        "buildings": {"Ann": {"farm": 1}, "Ben": {"silo": 1}},
        "special_action": {"action": "gold_nugget"},
    }
    answer = answer_territory(game(), so_far(**board), action_answered=True, picking={Reward.GREEN_CIRCLE: 2})
    assert answer.question is Question.PICKS
    assert answer.turn is not None and (answer.turn.player, answer.turn.may_take) == ("Ann", 3)
    assert answer.allowed == {Reward.BLUE_CIRCLE: 1, Reward.YELLOW_CIRCLE: 1}


def test_picks_with_nothing_to_choose_are_filled_in() -> None:
    board = {
        "closed_by": "Ann",
        "rewards": {"green-circle": 2, "blue-circle": 2},
        "buildings": {"Ann": {"farm": 1}, "Ben": {"silo": 1}},
        "special_action": {"action": "gold_nugget"},
    }
    answer = answer_territory(
        game(), so_far(**board), action_answered=True, picking={Reward.GREEN_CIRCLE: 2, Reward.BLUE_CIRCLE: 1}
    )
    assert answer.question is Question.NONE
    assert dict(answer.picks) == {
        "Ann": {Reward.GREEN_CIRCLE: 2, Reward.BLUE_CIRCLE: 1},
        "Ben": {Reward.BLUE_CIRCLE: 1},
    }


def test_a_pick_the_pool_no_longer_holds_is_picked_again_from_what_is_left() -> None:
    state = game()
    state.take("Cy", Reward.GREEN_CIRCLE, state.available(Reward.GREEN_CIRCLE) - 1)  # one green circle left
    board = {
        "closed_by": "Ann",
        "rewards": {"green-circle": 2, "blue-circle": 2, "yellow-circle": 2},
        "buildings": {"Ann": {"warehouse": 1}, "Ben": {"silo": 1}},
        "special_action": {"action": "gold_nugget"},
        "picks": {"Ann": {"green-circle": 2}},
    }
    answer = answer_territory(state, so_far(**board), action_answered=True)
    assert answer.dropped is not None and question_of(answer.dropped) is Question.PICKS
    assert answer.question is Question.PICKS and answer.turn is not None and answer.turn.player == "Ann"
    assert dict(answer.picking) == {Reward.GREEN_CIRCLE: 1}
    assert "Ann" not in answer.picks


def test_a_wrong_order_is_an_error_at_the_order_question() -> None:
    tied = so_far(
        closed_by="Cy",
        buildings={"Ann": {"farm": 1}, "Ben": {"farm": 1}, "Cy": {"silo": 1}},
        order=["Cy", "Ann", "Ben"],
    )
    with pytest.raises(RecordError) as raised:
        answer_territory(game(), tied)
    assert question_of(raised.value) is Question.ORDER


@given(
    farms=st.dictionaries(st.sampled_from(PLAYERS), st.integers(0, 1), max_size=3),  # round 1: 1 farm, 2 silos
    silos=st.dictionaries(st.sampled_from(PLAYERS), st.integers(0, 2), max_size=3),
    circles=st.integers(0, 4),
    squares=st.integers(0, 4),
)
def test_answering_every_question_gives_the_territory_the_record_resolves(
    farms: dict[str, int], silos: dict[str, int], circles: int, squares: int
) -> None:
    """Answering each question as the engine asks it (the first tied players first, the rewards for a lone
    player, no special action, the first kinds first) ends in a territory the record accepts as it is."""
    buildings: dict[str, dict[str, int]] = {}
    for player, count in farms.items():
        buildings.setdefault(player, {})["farm"] = count
    for player, count in silos.items():
        buildings.setdefault(player, {})["silo"] = count
    event: dict[str, Any] = {
        "type": "territory",
        "territory": "forest",
        "closed_by": "Ann",
        "rewards": {key: count for key, count in (("green-circle", circles), ("green-square", squares)) if count},
        "buildings": buildings,
    }
    state = game()
    for _question in range(12):
        answer = answer_territory(state, parse_territory_so_far(PLAYERS, event), action_answered=True)
        match answer.question:
            case Question.ORDER:
                assert answer.tie is not None
                event["order"] = list(answer.report.tie_order(answer.tie.undecided).order or ())
            case Question.LONE:
                event["lone_choice"] = "rewards"
            case Question.PICKS:
                turn = answer.turn
                assert turn is not None
                pick, room = {}, turn.may_take
                for reward, count in turn.left.items():
                    pick[reward.value], room = min(count, room), room - min(count, room)
                event.setdefault("picks", {})[turn.player] = {key: count for key, count in pick.items() if count}
            case Question.NONE:
                event["picks"] = {player: {r.value: c for r, c in bag.items()} for player, bag in answer.picks.items()}
                parsed = parse_event(PLAYERS, event)
                assert isinstance(parsed, TerritoryEvent)
                resolve_territory(state, parsed, 0)
                return
            case _:
                pytest.fail(f"asked {answer.question} with every answer given")
    pytest.fail("the questions never ended")


def test_an_event_entered_field_by_field_is_checked_up_to_the_first_field_not_entered() -> None:
    check_entered(PLAYERS, {"type": "beaver_dam", "player": "Ann"})
    check_entered(PLAYERS, {"type": "objectives", "player": "Ann"})
    check_entered(PLAYERS, {"type": "volcano", "player": "Ben"})
    with pytest.raises(RecordError, match="not a player"):
        check_entered(PLAYERS, {"type": "beaver_dam", "player": "Dee"})
    with pytest.raises(RecordError, match="at most 3 cards"):
        card = {"kind": "specific", "rewards": ["green-circle"]}
        check_entered(PLAYERS, {"type": "objectives", "player": "Ann", "cards": [card] * 4})
