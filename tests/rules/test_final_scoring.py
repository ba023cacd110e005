"""The Explorer card, objective cards, gold nuggets and the winner."""

from __future__ import annotations

import pytest

from rules import Decider, ObjectiveKind, Reward, explorer_sets, nugget_points, score_objective
from rules.record import NuggetLadder, ObjectiveCard
from tests.rules.builders import give, player, record, score

R = Reward


def test_explorer_sets_are_the_smallest_colour_count_whatever_the_shapes() -> None:
    rewards = {R.GREEN_SQUARE: 2, R.GREEN_CIRCLE: 1, R.BLUE_HEXAGON: 3, R.YELLOW_CIRCLE: 2, R.BLACK_SQUARE: 4}
    assert explorer_sets(rewards) == 2
    assert explorer_sets({R.GREEN_SQUARE: 5, R.BLUE_SQUARE: 5, R.YELLOW_SQUARE: 5}) == 0


@pytest.mark.parametrize(
    ("kind", "shown", "expected"),
    [
        (ObjectiveKind.SPECIFIC, (R.BLUE_CIRCLE,), (4, 12)),
        (ObjectiveKind.TERRITORY, (R.GREEN_SQUARE, R.GREEN_CIRCLE), (1, 5)),
        (ObjectiveKind.SHAPE, (R.BLUE_CIRCLE, R.GREEN_CIRCLE, R.BLACK_CIRCLE), (0, 0)),
    ],
)
def test_objective_cards_count_sets_of_the_rewards_shown(
    kind: ObjectiveKind, shown: tuple[Reward, ...], expected: tuple[int, int]
) -> None:
    rewards = {R.BLUE_CIRCLE: 4, R.GREEN_SQUARE: 1, R.GREEN_CIRCLE: 2}
    scored = score_objective(ObjectiveCard(kind, shown), rewards)
    assert (scored.sets, scored.points) == expected


def test_a_token_counts_for_every_card_it_fits_and_for_the_explorer() -> None:
    cards = [{"kind": "specific", "rewards": ["blue-circle"]}, {"kind": "specific", "rewards": ["blue-circle"]}]
    result = score(
        record(
            give("Ann", blue_circle=1, green_circle=1, yellow_circle=1, black_circle=1),
            {"type": "objectives", "player": "Ann", "cards": cards},
            players=("Ann", "Ben"),
        )
    )
    ann = player(result, "Ann")
    assert (ann["explorer_points"], ann["objective_points"]) == (4, 6)


@pytest.mark.parametrize(
    ("nuggets", "ladder", "expected"),
    [
        ({"A": 3, "B": 2, "C": 1, "D": 0}, NuggetLadder.BY_PLACE, {"A": 10, "B": 5, "C": 2, "D": 0}),
        ({"A": 3, "B": 3, "C": 1, "D": 0}, NuggetLadder.BY_PLACE, {"A": 10, "B": 10, "C": 2, "D": 0}),
        ({"A": 3, "B": 1, "C": 1, "D": 1}, NuggetLadder.BY_PLACE, {"A": 10, "B": 5, "C": 5, "D": 5}),
        ({"A": 2, "B": 2, "C": 2, "D": 2}, NuggetLadder.BY_PLACE, {"A": 10, "B": 10, "C": 10, "D": 10}),
        ({"A": 3, "B": 2, "C": 0, "D": 0}, NuggetLadder.BY_PLACE, {"A": 10, "B": 5, "C": 2, "D": 2}),
        ({"A": 3, "B": 2, "C": 0, "D": 0}, NuggetLadder.FEWEST_ZERO, {"A": 10, "B": 5, "C": 0, "D": 0}),
        ({"A": 2, "B": 1}, NuggetLadder.BY_PLACE, {"A": 10, "B": 5}),
        ({"A": 2, "B": 1}, NuggetLadder.FEWEST_ZERO, {"A": 10, "B": 0}),
        ({"A": 2, "B": 1, "C": 0}, NuggetLadder.BY_PLACE, {"A": 10, "B": 5, "C": 2}),
        ({"A": 2, "B": 1, "C": 0}, NuggetLadder.FEWEST_ZERO, {"A": 10, "B": 5, "C": 0}),
        ({"A": 1, "B": 1}, NuggetLadder.FEWEST_ZERO, {"A": 10, "B": 10}),
    ],
)
def test_gold_nuggets_score_by_place_with_the_printed_tie_rule(
    nuggets: dict[str, int], ladder: NuggetLadder, expected: dict[str, int]
) -> None:
    points, steps = nugget_points(nuggets, ladder)
    assert points == expected
    assert steps


def test_the_tie_rule_is_cited_when_two_share_the_most() -> None:
    _points, steps = nugget_points({"A": 3, "B": 3, "C": 1, "D": 0}, NuggetLadder.BY_PLACE)
    assert steps[0].rule == "okanagan.nuggets.ties"
    assert steps[0].text == "A and B tie with 3 nuggets and each score 10 VP, the best of the places they share."


def test_the_most_vp_wins() -> None:
    result = score(record(give("Ann", nuggets=1), players=("Ann", "Ben")))
    assert result.to_json()["winners"] == ["Ann"]
    assert [entry["rank"] for entry in result.to_json()["players"]] == [1, 2]


def test_a_tie_on_vp_goes_to_the_most_tokens() -> None:
    result = score(record(give("Ann", blue_circle=2), give("Ben", green_circle=1), players=("Ann", "Ben")))
    assert [entry["total"] for entry in result.to_json()["players"]] == [10, 10]
    assert result.to_json()["winners"] == ["Ann"]
    assert result.sections[-1].steps[-1].rule == "okanagan.winner.tokens"


def test_a_tie_on_vp_and_tokens_is_a_shared_victory_with_competition_ranks() -> None:
    result = score(
        record(
            give("Ann", blue_circle=1),
            give("Ben", green_circle=1),
            give("Cy", nuggets=-0),
            players=("Ann", "Ben", "Cy"),
        )
    )
    assert result.to_json()["winners"] == ["Ann", "Ben"]
    assert [entry["rank"] for entry in result.to_json()["players"]] == [1, 1, 3]
    assert "share the victory" in result.sections[-1].steps[-1].text


def test_every_total_is_the_sum_of_its_parts() -> None:
    result = score(record(give("Ann", nuggets=2, blue_circle=1, green_circle=1, yellow_circle=1, black_circle=1)))
    for entry in result.to_json()["players"]:
        assert entry["total"] == entry["explorer_points"] + entry["objective_points"] + entry["nugget_points"]


def test_the_result_says_what_decided_as_data() -> None:
    assert score(record(give("Ann", nuggets=1), players=("Ann", "Ben"))).final.decided_by is Decider.POINTS
    by_tokens = score(record(give("Ann", blue_circle=2), give("Ben", green_circle=1), players=("Ann", "Ben"))).final
    assert (by_tokens.decided_by, by_tokens.tied) == (Decider.TOKENS, ("Ann", "Ben"))
    shared = score(record(give("Ann", blue_circle=1), give("Ben", green_circle=1), players=("Ann", "Ben", "Cy"))).final
    assert (shared.decided_by, shared.tied) == (Decider.SHARED, ("Ann", "Ben", "Cy"))  # Cy, with fewer tokens, is 3rd


def test_the_players_by_rank_and_their_places_on_the_nugget_ladder() -> None:
    final = score(record(give("Cy", nuggets=2), give("Ben", nuggets=1), players=("Ann", "Ben", "Cy"))).final
    assert [(entry.name, entry.rank) for entry in final.by_rank] == [("Cy", 1), ("Ben", 2), ("Ann", 3)]
    assert [entry.nugget_place for entry in final.players] == [3, 2, 1]
    assert [entry.name for entry in final.players] == ["Ann", "Ben", "Cy"]  # the seat order stays
