"""The quick count: a ``holdings`` event sets a player's tokens and nuggets to what they counted."""

from __future__ import annotations

import json
from pathlib import Path

from rules import CATALOGUE, Source, parse_record, replay
from rules.okanagan import score_record
from tests.rules.builders import error_of, give, player, record, score, territory


def holdings(name: str, nuggets: int = 0, **rewards: int) -> dict[str, object]:
    """A ``holdings`` event: ``name``'s count (``blue_circle=2``) and nuggets."""
    return {
        "type": "holdings",
        "player": name,
        "rewards": {kind.replace("_", "-"): count for kind, count in rewards.items()},
        "nuggets": nuggets,
    }


def test_a_game_of_counts_only_scores_as_usual() -> None:
    result = score(
        record(
            holdings("Ann", nuggets=3, green_square=1, blue_square=1, yellow_square=1, black_square=1),
            holdings("Ben", nuggets=1, blue_circle=2),
            {"type": "objectives", "player": "Ben", "cards": [{"kind": "specific", "rewards": ["blue-circle"]}]},
            players=("Ann", "Ben"),
        )
    )
    ann, ben = player(result, "Ann"), player(result, "Ben")
    assert (ann["explorer_points"], ann["nugget_points"], ann["total"]) == (4, 10, 14)
    assert (ben["objective_points"], ben["nugget_points"], ben["total"]) == (6, 5, 11)
    assert result.to_json()["supply"] == {
        "rewards": {
            "green-square": 11,
            "green-hexagon": 12,
            "green-circle": 12,
            "blue-square": 11,
            "blue-hexagon": 12,
            "blue-circle": 10,
            "yellow-square": 11,
            "yellow-hexagon": 12,
            "yellow-circle": 12,
            "black-square": 11,
            "black-hexagon": 12,
            "black-circle": 12,
        },
        "nuggets": 12,
    }


def test_a_count_replaces_what_the_earlier_events_gave() -> None:
    document = record(give("Ann", nuggets=2, blue_circle=3, green_square=1), holdings("Ann", nuggets=1, blue_circle=1))
    state = replay(parse_record(document))
    assert state.holdings["Ann"].held() == {"blue-circle": 1}
    assert state.holdings["Ann"].nuggets == 1
    assert (state.supply["blue-circle"], state.supply["green-square"], state.nuggets_left) == (11, 12, 15)


def test_a_count_of_nothing_gives_everything_back() -> None:
    state = replay(parse_record(record(give("Ann", nuggets=2, blue_circle=3), holdings("Ann"))))
    assert (state.holdings["Ann"].tokens, state.holdings["Ann"].nuggets) == (0, 0)
    assert (state.supply["blue-circle"], state.nuggets_left) == (12, 16)


def test_a_count_can_correct_a_game_scored_by_territory() -> None:
    collected = territory(
        {"Ann": {"farm": 1}}, {"green-square": 3}, lone_choice="rewards", picks={"Ann": {"green-square": 3}}
    )
    state = replay(parse_record(record(collected, holdings("Ann", green_square=2, green_circle=1))))
    assert state.holdings["Ann"].held() == {"green-square": 2, "green-circle": 1}
    assert len(state.territories) == 1


def test_the_kinds_held_by_all_players_stay_within_the_box() -> None:
    assert error_of(record(holdings("Ann", blue_circle=8), holdings("Ben", blue_circle=5))) == (
        "event 1 (holdings): rewards: Ben cannot hold 5 × blue-circle: the game has 12 and the other players hold 8"
    )
    assert error_of(record(holdings("Ann", blue_circle=3), reward_supply=2)) == (
        "event 0 (holdings): rewards: Ann cannot hold 3 × blue-circle: the game has 2 and the other players hold 0"
    )
    # A recount of one's own tokens does not count them twice.
    assert score(record(holdings("Ann", blue_circle=12), holdings("Ann", blue_circle=12)))


def test_an_exhausted_kind_can_still_be_counted() -> None:
    """Exhaustion is about taking from the supply; a count says what the table holds."""
    state = replay(parse_record(record(give("Ben", blue_circle=2), holdings("Ann", blue_circle=1), reward_supply=3)))
    assert "blue-circle" in state.exhausted
    state = replay(
        parse_record(
            record(
                give("Ben", blue_circle=3),
                holdings("Ben", blue_circle=1),
                holdings("Ann", blue_circle=2),
                reward_supply=3,
            )
        )
    )
    assert state.holdings["Ann"].held() == {"blue-circle": 2}


def test_the_nuggets_held_by_all_players_stay_within_the_cards() -> None:
    assert error_of(record(holdings("Ann", nuggets=10), holdings("Ben", nuggets=7))) == (
        "event 1 (holdings): nuggets: gold nuggets of Ben: 7 is too many (the game's nugget cards: 16; held by the "
        "other players: 10)"
    )


def test_the_event_is_checked_field_by_field() -> None:
    assert error_of(record({"type": "holdings", "player": "Zoe", "rewards": {}, "nuggets": 0})) == (
        "event 0 (holdings): player: 'Zoe' is not a player of this game (Ann, Ben, and Cy)"
    )
    assert error_of(record({"type": "holdings", "player": "Ann", "nuggets": 0})) == (
        "event 0 (holdings): the field 'rewards' is missing"
    )
    assert error_of(record({"type": "holdings", "player": "Ann", "rewards": {}})) == (
        "event 0 (holdings): the field 'nuggets' is missing"
    )
    assert "nuggets: must be from 0" in error_of(record(holdings("Ann", nuggets=-1)))
    assert "blue-circle: must be from 1" in error_of(record(holdings("Ann", blue_circle=0)))
    assert "must be from 1" in error_of(record(holdings("Ann", blue_circle=-2)))
    assert "'purple-circle'" in error_of(record(holdings("Ann", purple_circle=1)))
    assert "cards" in error_of(record({**holdings("Ann"), "cards": []}))


def test_the_event_round_trips_as_json() -> None:
    event = holdings("Ann", nuggets=2, black_circle=1, green_square=3)
    parsed = parse_record(record(event))
    assert parsed.to_json()["events"] == [
        {"type": "holdings", "player": "Ann", "rewards": {"green-square": 3, "black-circle": 1}, "nuggets": 2}
    ]


def test_the_explanation_cites_the_quick_count_rule() -> None:
    result = score_record(parse_record(record(give("Ann", nuggets=1), holdings("Ann", nuggets=2, blue_circle=1))))
    section = result.sections[1]
    assert section.title == "Event 1: final count of Ann"
    assert [step.text for step in section.steps] == [
        "Ann counted their holdings: 1 × blue-circle (tokens: 1); gold nuggets: 2.",
        "This count replaces what the earlier events gave Ann (tokens: 0; gold nuggets: 1).",
    ]
    assert {step.rule for step in section.steps} == {"okanagan.quick_count"}
    assert CATALOGUE["okanagan.quick_count"].source is Source.RECORD_FORMAT
    first = score_record(parse_record(record(holdings("Ann")))).sections[0]
    assert [step.text for step in first.steps] == ["Ann counted their holdings: nothing (tokens: 0); gold nuggets: 0."]


def test_counting_what_everyone_holds_after_a_whole_game_changes_no_score() -> None:
    document = json.loads((Path(__file__).parent.parent / "data" / "okanagan-full-game.json").read_text())
    before = score(document)
    counts = [
        {"type": "holdings", "player": line["name"], "rewards": line["rewards"], "nuggets": line["nuggets"]}
        for line in before.to_json()["players"]
    ]
    after = score(document | {"events": [*document["events"], *counts]})
    assert after.to_json()["players"] == before.to_json()["players"]
    assert after.to_json()["supply"] == before.to_json()["supply"]
