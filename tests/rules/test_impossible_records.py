"""Records a table cannot have played: buildings counted in more territories than they can touch, and a
correction that moves the last token of a kind from one player to another."""

from __future__ import annotations

import pytest

from rules import (
    RecordError,
    apply_event,
    check_territory_buildings,
    new_game,
    parse_event,
    parse_record,
    replay,
    territory_limits,
    territory_room,
)
from rules.components import Building, Reward
from rules.record import RoundEndEvent
from tests.rules.builders import error_of, give, player, record, score, territory

ROUND_END = {"type": "round_end"}
BEAVER_DAM = {"type": "beaver_dam", "player": "Cy", "reward": "blue-circle"}


def test_a_correction_moves_the_last_token_of_a_kind_from_one_player_to_another() -> None:
    # Ann was given the last blue circle by mistake: Ben collected it. An adjust is one player's, so the
    # correction is two: Ann gives it back, then Ben takes it.
    document = record(
        give("Ann", blue_circle=2), give("Ann", blue_circle=-1), give("Ben", blue_circle=1), reward_supply=2
    )
    result = score(document)
    assert (player(result, "Ann")["rewards"], player(result, "Ben")["rewards"]) == (
        {"blue-circle": 1},
        {"blue-circle": 1},
    )
    assert [step.rule for step in result.sections[-2].steps] == ["okanagan.adjust", "okanagan.adjust.exhausted"]
    assert result.sections[-2].steps[1].text == (
        "Ben takes 1 × blue-circle that a correction gave back; the kind stays exhausted for the rest of the game."
    )
    state = replay(parse_record(document))
    assert Reward.BLUE_CIRCLE in state.exhausted
    assert (state.supply[Reward.BLUE_CIRCLE], state.available(Reward.BLUE_CIRCLE)) == (0, 0)


def test_only_what_corrections_gave_back_can_be_taken_again_and_the_kind_stays_exhausted() -> None:
    exhausted = give("Ann", blue_circle=2)
    back = give("Ann", blue_circle=-1)
    assert "the supply has 1 × blue-circle left, cannot give 2" in error_of(
        record(exhausted, back, give("Ben", blue_circle=2), reward_supply=2)
    )
    assert (
        error_of(record(exhausted, back, give("Ben", blue_circle=1), give("Cy", blue_circle=1), reward_supply=2))
        == "event 3 (adjust): rewards: the supply has 0 × blue-circle left, cannot give 1"
    )
    # the game itself never takes a token of an exhausted kind again, even one a correction gave back
    assert (
        error_of(record(exhausted, back, BEAVER_DAM, reward_supply=2))
        == "event 2 (beaver_dam): reward: no blue-circle is left in the supply"
    )
    # taking first, giving back after, is still refused: the supply is empty when Ben takes
    assert "the supply has 0 × blue-circle left, cannot give 1" in error_of(
        record(exhausted, give("Ben", blue_circle=1), back, reward_supply=2)
    )


def test_a_token_given_back_before_the_kind_ran_out_is_the_games_again() -> None:
    document = record(give("Ann", blue_circle=1), give("Ann", blue_circle=-1), BEAVER_DAM, reward_supply=2)
    assert player(score(document), "Cy")["rewards"] == {"blue-circle": 1}
    state = replay(parse_record(document))
    assert state.corrected_back == {}


def alone(player_name: str, **buildings: int) -> dict[str, object]:
    """A territory where only ``player_name`` built, who took the special action (not recorded)."""
    return territory({player_name: buildings}, lone_choice="special_action")


def test_a_players_farms_are_counted_in_no_more_territories_than_they_have_farms() -> None:
    # 3 players: 2 farms each, one territory each
    assert score(record(alone("Ann", farm=1), alone("Ann", farm=1), alone("Ben", farm=2)))
    assert error_of(record(alone("Ann", farm=1), alone("Ben", farm=1), alone("Ann", farm=1), alone("Ann", farm=1))) == (
        "event 3 (territory): buildings: Ann: Ann's farms are counted in 3 territories up to this one, but a player "
        "has 2 farms in a 3-player game and a farm stands in 1 territory"
    )


def test_warehouses_count_in_at_most_2_territories_and_silos_in_at_most_4() -> None:
    four = ("Ann", "Ben", "Cy", "Dee")  # 4 warehouses and 4 silos each
    warehouses = [alone("Dee", warehouse=4)] * 2
    assert score(record(*warehouses, players=four))
    assert error_of(record(*warehouses, alone("Dee", warehouse=1), players=four)) == (
        "event 2 (territory): buildings: Dee: Dee's warehouses are counted in 9 territories up to this one, but a "
        "player has 4 warehouses in a 4-player game and a warehouse counts in at most 2 territories"
    )
    silos = [alone("Cy", silo=4)] * 4
    assert score(record(*silos, players=four))
    assert "Cy's silos are counted in 17 territories up to this one, but a player has 4 silos in a 4-player game " in (
        error_of(record(*silos, alone("Cy", silo=1), players=four))
    )


def test_before_the_end_of_round_1_only_the_round_1_buildings_count() -> None:
    two = ("Ann", "Ben")  # round 1: 1 farm, 3 warehouses, 2 silos each
    farms = [alone("Ben", farm=1), alone("Ann", silo=1), alone("Ben", farm=1)]
    assert score(record(*farms, players=two))  # without an end of round 1, the second farm may be a round-2 one
    assert score(record(*farms[:2], ROUND_END, farms[2], players=two))
    assert error_of(record(*farms, ROUND_END, players=two)) == (
        "event 3 (round_end): round 1 cannot end here: Ben's farms are counted in 2 territories before it (too "
        "many from event 2 on), but round 1 gives a player 1 farm and a farm stands in 1 territory"
    )
    silos = [alone("Ann", silo=2)] * 4 + [alone("Ann", silo=1)]  # 9 > 2 silos × 4 territories
    assert "Ann's silos are counted in 9 territories before it (too many from event 4 on), but round 1 gives a " in (
        error_of(record(*silos, ROUND_END, players=two))
    )


FOUR = ("Ann", "Ben", "Cy", "Dee")  # round 1: 1 farm, 2 warehouses, 2 silos each; the whole game: 2, 4, 4


def test_more_buildings_around_one_territory_than_round_1_gives_cannot_be_before_its_end() -> None:
    """Issue 23: 3 warehouses around one territory were accepted before the end of round 1 (only the sums over
    the territories were checked, and 3 is within the 4 that 2 warehouses can be counted in)."""
    three = alone("Ben", warehouse=3)
    assert score(record(three, players=FOUR))  # without an end of round 1, it may be a round-2 territory
    assert score(record(ROUND_END, three, players=FOUR))
    assert error_of(record(alone("Ann", silo=1), three, ROUND_END, players=FOUR)) == (
        "event 2 (round_end): round 1 cannot end here: Ben has 3 warehouses around the territory of event 1, but "
        "round 1 gives a player 2 warehouses in a 4-player game"
    )
    assert error_of(record(alone("Cy", silo=3), ROUND_END, players=FOUR)) == (
        "event 1 (round_end): round 1 cannot end here: Cy has 3 silos around the territory of event 0, but round 1 "
        "gives a player 2 silos"
    )
    # the first territory with too many is named, not a later one
    assert "Dee has 2 farms around the territory of event 0" in error_of(
        record(alone("Dee", farm=2), alone("Ann", silo=1), alone("Dee", silo=1), ROUND_END, players=FOUR)
    )


def test_the_whole_game_s_buildings_bound_one_territory_in_round_2() -> None:
    assert score(record(ROUND_END, alone("Ben", warehouse=4), players=FOUR))
    assert error_of(record(ROUND_END, alone("Ben", warehouse=5), players=FOUR)) == (
        "event 1 (territory): buildings: Ben: warehouse: a player has 4 warehouses in a 4-player game, not 5"
    )


def test_at_the_table_a_territory_holds_what_a_player_has_at_that_point_of_the_game() -> None:
    state = new_game(FOUR)
    assert territory_limits(state) == {Building.FARM: 1, Building.WAREHOUSE: 2, Building.SILO: 2}
    check_territory_buildings(state, {"Ben": {Building.WAREHOUSE: 2}})
    with pytest.raises(RecordError) as refused:
        check_territory_buildings(state, {"Ben": {Building.WAREHOUSE: 3}})
    assert refused.value.where == ("buildings", "Ben")
    assert str(refused.value.message) == (
        "Ben has 3 warehouses around this territory, but round 1 gives a player 2 warehouses in a 4-player game: "
        "if round 1 is over, record its end first"
    )
    apply_event(state, RoundEndEvent())
    check_territory_buildings(state, {"Ben": {Building.WAREHOUSE: 3}})
    assert territory_limits(state) == {Building.FARM: 2, Building.WAREHOUSE: 4, Building.SILO: 4}


def test_the_room_around_a_territory_is_the_lesser_of_the_round_s_buildings_and_what_is_left_to_count() -> None:
    state = replay(parse_record(record(alone("Ann", warehouse=2), alone("Ann", warehouse=1), players=FOUR)))
    # Ann's 2 round-1 warehouses are counted in 3 territories of the 8 that her 4 can be counted in
    assert territory_room(state, "Ann") == {Building.FARM: 1, Building.WAREHOUSE: 2, Building.SILO: 2}
    apply_event(state, RoundEndEvent())
    assert territory_room(state, "Ann") == {Building.FARM: 2, Building.WAREHOUSE: 4, Building.SILO: 4}
    apply_event(state, parse_event(FOUR, alone("Ann", warehouse=4)))
    assert territory_room(state, "Ann")[Building.WAREHOUSE] == 1
