"""Parsing ``okanagan-record/1``: every shape error names its place, and JSON round-trips."""

from __future__ import annotations

import pytest

from rules import RecordError, hide_objectives, parse_record, score_okanagan
from tests.rules.builders import Json, error_of, give, player, record, territory

GOOD_TERRITORY = territory(
    {"Ann": {"farm": 1}}, {"green-square": 1}, lone_choice="rewards", picks={"Ann": {"green-square": 1}}
)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "must be an object, not list"),
        (
            {"format": "okanagan-record/2", "players": ["A", "B"], "events": []},
            "format: must be 'okanagan-record/1', not 'okanagan-record/2'",
        ),
        (record(players=("Ann",)), "players: there must be 2 to 4 players, not 1"),
        (record(players=("A", "B", "C", "D", "E")), "players: there must be 2 to 4 players, not 5"),
        (record(players=("Ann", "Ann")), "players: 'Ann' is named twice"),
        (
            record(players=("Ann", " ")),
            "players: the name ' ' shows nothing once blank and invisible characters are left out",
        ),
        (
            record(nugget_ladder="most_wins"),
            "options: nugget_ladder: 'most_wins' is not one of: by_place or fewest_zero",
        ),
        (record(reward_supply=0), "options: reward_supply: must be from 1 to 999, not 0"),
        (record(reward_supply=2.5), "options: reward_supply: must be a whole number, not 2.5"),
        (record(colour="red"), "options: unknown field 'colour'"),
        ({**record(), "event": []}, "unknown field 'event'"),
        (record({"type": "teritory"}), "event 0: type: 'teritory' is not one of: territory, volcano, beaver_dam"),
        (record({"territory": "forest"}), "event 0: the field 'type' is missing"),
        (record(territory({}, kind="swamp")), "event 0 (territory): territory: 'swamp' is not one of: forest, lake"),
        (record(territory({}, {"green-triangle": 1})), "event 0 (territory): rewards: 'green-triangle' is not one of"),
        (
            record(territory({}, {"green-square": 0})),
            "event 0 (territory): rewards: green-square: must be from 1 to 999999, not 0",
        ),
        (record(territory({}, {"green-square": -2})), "event 0 (territory): rewards: green-square: must be from 1"),
        (record(territory({"Dan": {"farm": 1}})), "event 0 (territory): buildings: 'Dan' is not a player of this game"),
        (record(territory({"Ann": {"castle": 1}})), "event 0 (territory): buildings: Ann: 'castle' is not one of"),
        (
            record(territory({"Ann": {"farm": 3}})),
            "event 0 (territory): buildings: Ann: farm: a player has 2 farms in a 3-player game, not 3",
        ),
        (record(territory({"Ann": {"farm": 1}}, closed_by="Dan")), "closed_by: 'Dan' is not a player of this game"),
        (record({**GOOD_TERRITORY, "lone_choice": "both"}), "lone_choice: 'both' is not one of"),
        (record({**GOOD_TERRITORY, "pick": {}}), "event 0 (territory): unknown field 'pick'"),
        (
            record({"type": "volcano", "player": "Ann", "special_action": {"action": "fly"}}),
            "event 0 (volcano): special_action: action: 'fly' is not one of",
        ),
        (
            record({"type": "volcano", "player": "Ann", "special_action": {"action": "gold_nugget", "count": 2}}),
            "event 0 (volcano): special_action: unknown field 'count'",
        ),
        (
            record({"type": "volcano", "player": "Ann", "special_action": {"action": "two_rewards"}}),
            "event 0 (volcano): special_action: the field 'reward' is missing",
        ),
        (
            record(
                {
                    "type": "volcano",
                    "player": "Ann",
                    "special_action": {"action": "exchange_shape", "swaps": [["green-square"]]},
                }
            ),
            "swaps: each swap is [given, taken], not list",
        ),
        (
            record({"type": "adjust", "player": "Ann", "rewards": {"blue-circle": 0}}),
            "blue-circle: a count must not be 0",
        ),
        (record({"type": "adjust", "player": "Ann", "note": 3}), "event 0 (adjust): note: must be a text, not 3"),
        (record({"type": "adjust", "player": "Ann", "nuggets": True}), "nuggets: must be a whole number, not True"),
        (
            record({"type": "objectives", "player": "Ann", "cards": [{"kind": "series", "rewards": []}]}),
            "event 0 (objectives): cards: 0: kind: 'series' is not one of: specific, territory, or shape",
        ),
        (
            {**record(), "hidden": {"objective_cards": {"Dan": 1}}},
            "hidden: objective_cards: 'Dan' is not a player of this game (Ann, Ben, and Cy)",
        ),
        ({**record(), "hidden": {"objective_cards": {"Ann": 4}}}, "hidden: objective_cards: Ann: must be from 0 to 3"),
        ({**record(), "hidden": {"objective_cards": {"Ann": -1}}}, "hidden: objective_cards: Ann: must be from 0 to 3"),
        ({**record(), "hidden": {"objective_cards": {"Ann": "3"}}}, "objective_cards: Ann: must be a whole number"),
        ({**record(), "hidden": {"objective_cards": []}}, "hidden: objective_cards: must be an object, not list"),
        ({**record(), "hidden": {}}, "hidden: the field 'objective_cards' is missing"),
        ({**record(), "hidden": {"objective_cards": {}, "cards": 1}}, "hidden: unknown field 'cards'"),
    ],
)
def test_a_malformed_record_is_refused_with_its_place_named(document: Json, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(document)
    assert message in str(caught.value)


def test_the_error_carries_the_event_index_and_type_for_the_site() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(record(GOOD_TERRITORY, {"type": "volcano", "player": "Zed", "special_action": {}}))
    assert (caught.value.event_index, caught.value.event_type) == (1, "volcano")


def test_a_whole_float_count_is_read_as_a_whole_number() -> None:
    assert parse_record(record(reward_supply=12.0)).options.reward_supply == 12


def test_options_and_events_round_trip_through_json() -> None:
    document = record(GOOD_TERRITORY, {"type": "round_end"}, nugget_ladder="fewest_zero", reward_supply=9)
    parsed = parse_record(document)
    assert parse_record(parsed.to_json()) == parsed
    assert parsed.to_json()["options"] == {"reward_supply": 9, "nugget_ladder": "fewest_zero"}


def test_legality_errors_come_from_replay_with_the_same_place() -> None:
    assert error_of(record(GOOD_TERRITORY, GOOD_TERRITORY, reward_supply=1)) == (
        "event 1 (territory): picks: Ann took 1 × green-square but the pool had 0 left"
    )


def cards(player: str, *rewards: str) -> Json:
    """An ``objectives`` event: ``player`` keeps a specific card for each of ``rewards``."""
    return {"type": "objectives", "player": player, "cards": [{"kind": "specific", "rewards": [r]} for r in rewards]}


def test_hidden_objective_cards_are_counted_per_player_and_round_trip() -> None:
    parsed = parse_record({**record(), "hidden": {"objective_cards": {"Ben": 2, "Ann": 3}}})
    assert parsed.hidden_objectives == {"Ann": 3, "Ben": 2, "Cy": 0}  # in seat order, absent: 0
    assert parsed.to_json()["hidden"] == {"objective_cards": {"Ann": 3, "Ben": 2, "Cy": 0}}
    assert parse_record(parsed.to_json()) == parsed
    assert "hidden" not in parse_record(record()).to_json()


def test_hiding_leaves_out_the_objectives_events_and_counts_the_cards_held_at_the_end() -> None:
    first = cards("Ann", "blue-circle", "green-square", "black-hexagon")
    later = cards("Ann", "blue-circle", "yellow-square")
    whole = parse_record(record(first, give("Ben", green_square=2), cards("Ben", "green-square"), later))
    hidden = hide_objectives(whole)
    assert hidden.hidden_objectives == {"Ann": 2, "Ben": 1, "Cy": 0}  # Ann's later cards replaced her first three
    assert hidden.events == (whole.events[1],)
    assert hidden.players == whole.players and hidden.options == whole.options


def test_hiding_a_record_already_hidden_keeps_the_counts_no_event_replaced() -> None:
    already = parse_record({**record(cards("Cy")), "hidden": {"objective_cards": {"Ann": 3, "Cy": 2}}})
    assert hide_objectives(already).hidden_objectives == {"Ann": 3, "Ben": 0, "Cy": 0}


def test_a_hidden_record_scores_as_its_events_without_the_cards() -> None:
    whole = record(give("Ben", green_square=2), cards("Ben", "green-square"))
    hidden = hide_objectives(parse_record(whole)).to_json()
    assert player(score_okanagan(whole), "Ben")["objective_points"] == 6
    result = score_okanagan(hidden)
    assert result.to_json() == score_okanagan(record(give("Ben", green_square=2))).to_json()
    assert result.hidden_objectives == {"Ann": 0, "Ben": 1, "Cy": 0}
