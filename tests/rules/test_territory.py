"""Influence, the tie-break, the special action's recipient and collection: rule by rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import Building, GameState, Reward, Territory, assess_influence, new_game, prepare_collection
from rules.actions import GoldNugget
from rules.record import TerritoryEvent
from tests.rules.builders import error_of, give, player, record, score, territory

ANN_FARM = {"Ann": {"farm": 1}}


def test_influence_is_3_per_farm_2_per_warehouse_1_per_silo() -> None:
    report = assess_influence(
        ("Ann", "Ben", "Cy"),
        Territory.LAKE,
        "Ann",
        {"Ann": {Building.FARM: 1, Building.SILO: 2}, "Ben": {Building.WAREHOUSE: 2}},
    )
    assert dict(report.influence) == {"Ann": 5, "Ben": 4}


def test_players_without_buildings_take_no_part() -> None:
    report = assess_influence(
        ("Ann", "Ben", "Cy"), Territory.LAKE, "Ann", {"Ann": {Building.SILO: 1}, "Ben": {Building.FARM: 0}}
    )
    assert dict(report.influence) == {"Ann": 1}
    assert report.lone == "Ann"


def test_ties_are_grouped_in_seat_order_and_must_be_ordered_by_the_closer() -> None:
    report = assess_influence(
        ("Ann", "Ben", "Cy"),
        Territory.FIELD,
        "Cy",
        {"Ann": {Building.SILO: 2}, "Ben": {Building.FARM: 1}, "Cy": {Building.WAREHOUSE: 1}},
    )
    assert report.levels == (("Ben",), ("Ann", "Cy"))
    assert report.ties == (("Ann", "Cy"),)
    order, _steps = report.check_order(["Ben", "Cy", "Ann"])
    assert order == ("Ben", "Cy", "Ann")


def test_a_tie_without_an_order_is_refused_naming_the_closer() -> None:
    message = error_of(record(territory({"Ann": {"silo": 2}, "Ben": {"warehouse": 1}}, closed_by="Ben")))
    assert message == (
        "event 0 (territory): order: Ann and Ben tie with 2 influence: 'order' must say how Ben, "
        "who closed the forest, ordered them"
    )


def test_an_order_may_only_permute_tied_players() -> None:
    document = record(territory({"Ann": {"farm": 1}, "Ben": {"warehouse": 1}}, order=["Ben", "Ann"]))
    assert error_of(document) == (
        "event 0 (territory): order: puts Ben (2) before Ann (3): only tied players may be ordered freely"
    )


def test_an_order_must_list_every_player_with_influence() -> None:
    document = record(territory({"Ann": {"farm": 1}, "Ben": {"warehouse": 1}}, order=["Ann"]))
    assert "must list every player with influence once (Ann and Ben), not Ann" in error_of(document)


def test_without_ties_the_order_is_optional_and_follows_influence() -> None:
    document = record(territory({"Ann": {"silo": 1}, "Ben": {"farm": 1}}, special_action={"action": "new_tiles"}))
    (entry,) = score(document).to_json()["territories"]
    assert entry["order"] == ["Ben", "Ann"]
    assert entry["special_action_to"] == "Ann"


def test_the_lowest_after_the_tie_break_takes_the_special_action() -> None:
    document = record(
        territory(
            {"Ann": {"warehouse": 1}, "Ben": {"warehouse": 1}},
            order=["Ben", "Ann"],
            special_action={"action": "gold_nugget"},
        )
    )
    result = score(document)
    assert result.to_json()["territories"][0]["special_action_to"] == "Ann"
    assert player(result, "Ann")["nuggets"] == 1


def test_a_lone_player_must_choose_between_the_special_action_and_the_rewards() -> None:
    assert "'lone_choice' must say whether Ann took the special action or the rewards" in error_of(
        record(territory(ANN_FARM))
    )


def test_lone_choice_is_refused_when_several_players_have_influence() -> None:
    document = record(territory({"Ann": {"farm": 1}, "Ben": {"silo": 1}}, lone_choice="rewards"))
    assert "lone_choice: only a player alone in the territory chooses" in error_of(document)


def test_a_lone_player_who_chose_the_rewards_collects_and_gets_no_special_action() -> None:
    document = record(
        territory(
            ANN_FARM,
            {"green-square": 2, "green-circle": 2},
            lone_choice="rewards",
            picks={"Ann": {"green-square": 2, "green-circle": 1}},
        )
    )
    entry = score(document).to_json()["territories"][0]
    assert entry["special_action_to"] is None
    assert entry["collected"] == {"Ann": 3}
    with_action = record(territory(ANN_FARM, lone_choice="rewards", special_action={"action": "gold_nugget"}))
    assert "no special action can be taken: Ann chose the rewards" in error_of(with_action)


def test_a_lone_player_who_chose_the_special_action_collects_nothing() -> None:
    document = record(
        territory(ANN_FARM, {"green-square": 2}, lone_choice="special_action", special_action={"action": "gold_nugget"})
    )
    result = score(document)
    assert result.to_json()["territories"][0]["collected"] == {"Ann": 0}
    assert player(result, "Ann")["nuggets"] == 1
    greedy = record(
        territory(ANN_FARM, {"green-square": 2}, lone_choice="special_action", picks={"Ann": {"green-square": 2}})
    )
    assert "Ann chose the special action and collects nothing" in error_of(greedy)


def test_choose_first_is_refused_to_a_lone_player_who_gave_up_the_rewards() -> None:
    document = record(territory(ANN_FARM, lone_choice="special_action", special_action={"action": "choose_first"}))
    assert "so 'choose_first' gives nothing" in error_of(document)


def test_a_territory_with_no_building_has_no_special_action_and_no_collection() -> None:
    result = score(record(territory({}, {"green-square": 2})))
    entry = result.to_json()["territories"][0]
    assert entry == {"event": 0, "influence": {}, "order": [], "special_action_to": None, "collected": {}}
    assert any(step.rule == "okanagan.territory.empty" for step in result.sections[0].steps)
    assert "nobody has influence here" in error_of(record(territory({}, special_action={"action": "gold_nugget"})))
    picks = record(territory({}, {"green-square": 2}, picks={"Ann": {"green-square": 1}}))
    assert error_of(picks) == "event 0 (territory): picks: Ann has no influence here and cannot collect"


def test_each_player_takes_exactly_their_influence_while_tokens_are_left() -> None:
    buildings = {"Ann": {"farm": 1}, "Ben": {"warehouse": 1}}
    rewards = {"blue-circle": 4}
    exact = record(
        territory(buildings, rewards, kind="lake", picks={"Ann": {"blue-circle": 3}, "Ben": {"blue-circle": 1}})
    )
    assert score(exact).to_json()["territories"][0]["collected"] == {"Ann": 3, "Ben": 1}
    too_many = record(
        territory(buildings, rewards, kind="lake", picks={"Ann": {"blue-circle": 1}, "Ben": {"blue-circle": 3}})
    )
    assert error_of(too_many) == "event 0 (territory): picks: Ann took 1 tokens but may take 3"
    too_few = record(territory(buildings, rewards, kind="lake", picks={"Ann": {"blue-circle": 3}}))
    assert error_of(too_few) == "event 0 (territory): picks: Ben took 0 tokens but may take 1"


def test_the_spec_example_message_for_a_greedy_collector() -> None:
    document = record(
        {"type": "round_end"},
        give("Cy", green_circle=1),
        territory({}),
        territory({}),
        territory(
            {"Ann": {"warehouse": 1}, "Ben": {"warehouse": 1}},
            {"green-square": 5},
            order=["Ann", "Ben"],
            picks={"Ann": {"green-square": 2}, "Ben": {"green-square": 3}},
        ),
    )
    assert error_of(document) == "event 4 (territory): picks: Ben took 3 tokens but may take 2"


def test_picks_come_from_what_is_left_in_the_pool() -> None:
    document = record(
        territory(
            {"Ann": {"farm": 1}},
            {"green-square": 1, "green-circle": 2},
            lone_choice="rewards",
            picks={"Ann": {"green-square": 2, "green-circle": 1}},
        )
    )
    assert "Ann took 2 × green-square but the pool had 1 left" in error_of(document)


def test_a_player_without_influence_cannot_collect() -> None:
    document = record(
        territory(
            ANN_FARM,
            {"green-square": 3},
            lone_choice="rewards",
            picks={"Ann": {"green-square": 3}, "Ben": {"green-square": 1}},
        )
    )
    assert "Ben has no influence here and cannot collect" in error_of(document)


def test_the_pool_is_capped_by_the_supply_after_the_special_action() -> None:
    document = record(
        territory(
            {"Ann": {"farm": 1}, "Ben": {"silo": 1}},
            {"yellow-circle": 3},
            kind="field",
            special_action={"action": "two_rewards", "reward": "yellow-circle"},
            picks={"Ann": {"yellow-circle": 1}},
        ),
        reward_supply=3,
    )
    result = score(document)
    assert player(result, "Ben")["rewards"] == {"yellow-circle": 2}
    assert player(result, "Ann")["rewards"] == {"yellow-circle": 1}
    assert result.to_json()["territories"][0]["collected"] == {"Ann": 1, "Ben": 0}


def test_an_exhausted_kind_stays_gone_even_when_a_token_is_given_back() -> None:
    document = record(
        give("Ann", green_circle=2),
        {"type": "adjust", "player": "Ann", "rewards": {"green-circle": -1}},
        territory({"Ben": {"farm": 1}}, {"green-circle": 1}, closed_by="Ben", lone_choice="rewards"),
        reward_supply=2,
    )
    result = score(document)
    assert result.to_json()["supply"]["rewards"]["green-circle"] == 1
    assert result.to_json()["territories"][0]["collected"] == {"Ben": 0}
    steps = result.sections[2].steps
    assert any(step.rule == "okanagan.supply.exhausted" for step in steps)


def test_choose_first_moves_the_special_action_player_to_the_front_with_their_own_influence() -> None:
    document = record(
        territory(
            {"Ann": {"farm": 1}, "Ben": {"silo": 1}},
            {"black-square": 2},
            kind="mountain",
            special_action={"action": "choose_first"},
            picks={"Ben": {"black-square": 1}, "Ann": {"black-square": 1}},
        )
    )
    entry = score(document).to_json()["territories"][0]
    assert entry["order"] == ["Ann", "Ben"]
    assert entry["collected"] == {"Ann": 1, "Ben": 1}


class TestTheStepApi:
    """The calls an entry screen makes while players tap."""

    def state_and_draft(self) -> tuple[GameState, TerritoryEvent]:
        state = new_game(("White", "Red", "Yellow"))
        draft = TerritoryEvent(
            Territory.FOREST,
            "Red",
            {Reward.GREEN_SQUARE: 3, Reward.GREEN_CIRCLE: 2, Reward.GREEN_HEXAGON: 1},
            {
                "White": {Building.FARM: 1, Building.SILO: 1},
                "Red": {Building.WAREHOUSE: 1},
                "Yellow": {Building.WAREHOUSE: 1},
            },
            order=("White", "Yellow", "Red"),
        )
        return state, draft

    def test_the_plan_tells_who_collects_next_and_what_they_may_still_take(self) -> None:
        state, draft = self.state_and_draft()
        prepared = prepare_collection(state, draft)
        assert prepared.recipient == "Red"
        turn = prepared.plan.next_turn({})
        assert turn is not None and (turn.player, turn.may_take) == ("White", 4)
        assert turn.still_allowed({Reward.GREEN_SQUARE: 3}) == {Reward.GREEN_CIRCLE: 1, Reward.GREEN_HEXAGON: 1}
        assert turn.still_allowed({Reward.GREEN_SQUARE: 3, Reward.GREEN_CIRCLE: 1}) == {}
        after_white = {"White": {Reward.GREEN_SQUARE: 3, Reward.GREEN_CIRCLE: 1}}
        turn = prepared.plan.next_turn(after_white)
        assert turn is not None and (turn.player, turn.may_take) == ("Yellow", 2)
        assert (
            prepared.plan.next_turn(after_white | {"Yellow": {Reward.GREEN_CIRCLE: 1, Reward.GREEN_HEXAGON: 1}}) is None
        )

    def test_preparing_on_a_copy_leaves_the_state_alone(self) -> None:
        state, draft = self.state_and_draft()
        before = state.copy()
        prepared = prepare_collection(state.copy(), replace(draft, special_action=GoldNugget()))
        assert prepared.recipient == "Red"
        assert state == before


@pytest.mark.parametrize("kind", ["forest", "lake", "field", "mountain"])
def test_every_territory_type_resolves(kind: str) -> None:
    document = record(
        territory(
            {"Ann": {"silo": 1}},
            {"black-hexagon": 1},
            kind=kind,
            lone_choice="rewards",
            picks={"Ann": {"black-hexagon": 1}},
        )
    )
    assert player(score(document), "Ann")["tokens"] == 1
