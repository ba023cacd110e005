"""The calculators' rulings, on the rulebook's examples and on ties."""

from __future__ import annotations

from pathlib import Path

from rules import Building, ObjectiveCard, ObjectiveKind, Reward, disputes
from rules.cooper_island import Standing as Cooper
from rules.disputes import (
    collection_ruling,
    cooper_island_tie_break,
    influence_ruling,
    nugget_ruling,
    okanagan_tie_break,
    sets_ruling,
    small_islands_tie_break,
)
from rules.final_scoring import Standing
from rules.record import NuggetLadder
from rules.small_islands import Standing as Islands

FARM, WAREHOUSE, SILO = Building.FARM, Building.WAREHOUSE, Building.SILO


def texts(steps: object) -> list[str]:
    return [step.text for step in steps]  # type: ignore[attr-defined]


def test_the_forest_tie_is_ordered_by_the_closer_and_the_last_of_them_takes_the_action() -> None:
    steps = influence_ruling(
        ("White", "Red", "Yellow"),
        "Red",
        {"White": {FARM: 1, SILO: 1}, "Red": {WAREHOUSE: 1}, "Yellow": {WAREHOUSE: 1}},
    )
    assert "Order of influence: White > (Red and Yellow)." in texts(steps)
    assert "Red and Yellow tie with 2: Red, who completed the territory, decides their order." in texts(steps)
    assert "The special action goes to whichever of Red and Yellow Red puts last." in texts(steps)


def test_without_a_tie_at_the_bottom_the_last_player_takes_the_action() -> None:
    steps = influence_ruling(("Ann", "Ben"), "Ann", {"Ann": {FARM: 1}, "Ben": {SILO: 1}})
    assert texts(steps)[-1] == "Ben, last in the order, takes the special action."
    assert steps[-1].rule == "okanagan.special.lowest"


def test_a_lone_player_chooses_and_nobody_means_nobody() -> None:
    lone = influence_ruling(("Ann", "Ben"), "Ben", {"Ann": {WAREHOUSE: 2}})
    assert texts(lone)[-1] == (
        "Ann is alone: either the special action (and no tokens) or the rewards (up to 4 tokens), not both."
    )
    assert [step.rule for step in influence_ruling(("Ann", "Ben"), "Ben", {})] == ["okanagan.territory.empty"]


def test_collection_gives_each_their_influence_while_tokens_last() -> None:
    steps = collection_ruling(6, [("White", 4), ("Yellow", 2), ("Red", 2)])
    assert texts(steps)[1:4] == [
        "White (influence 4) takes 4; 2 left.",
        "Yellow (influence 2) takes 2; 0 left.",
        "Red takes nothing: the territory is empty.",
    ]


def test_nuggets_are_scored_under_both_readings() -> None:
    rulings = nugget_ruling({"Ann": 3, "Ben": 1})
    assert rulings[NuggetLadder.BY_PLACE][0] == {"Ann": 10, "Ben": 5}
    assert rulings[NuggetLadder.FEWEST_ZERO][0] == {"Ann": 10, "Ben": 0}
    tied = nugget_ruling({"Ann": 2, "Ben": 2, "Cy": 1, "Di": 0})[NuggetLadder.BY_PLACE][0]
    assert tied == {"Ann": 10, "Ben": 10, "Cy": 2, "Di": 0}


def test_sets_of_the_final_scoring_example() -> None:
    tokens = {
        Reward.GREEN_SQUARE: 3,
        Reward.GREEN_HEXAGON: 3,
        Reward.GREEN_CIRCLE: 3,
        Reward.BLUE_CIRCLE: 4,
        Reward.YELLOW_CIRCLE: 2,
        Reward.BLACK_SQUARE: 2,
    }
    card = ObjectiveCard(ObjectiveKind.SHAPE, (Reward.GREEN_CIRCLE, Reward.BLUE_CIRCLE, Reward.YELLOW_CIRCLE))
    steps = sets_ruling(tokens, card)
    assert texts(steps)[:2] == [
        "These tokens: 2 Explorer sets × 4 = 8 VP.",
        "These tokens: shape card (green-circle, blue-circle, and yellow-circle): 2 × 7 = 14 VP.",
    ]


def test_end_of_game_ties_go_to_tokens_then_are_shared() -> None:
    ranking = okanagan_tie_break([Standing("Ann", 40, 9), Standing("Ben", 40, 11), Standing("Cy", 38, 20)])
    assert ranking.places == (("Ben", 1), ("Ann", 2), ("Cy", 3))
    assert ranking.steps[0].rule == "okanagan.winner.tokens"
    shared = okanagan_tie_break([Standing("Ann", 40, 9), Standing("Ben", 40, 9)])
    assert shared.places == (("Ann", 1), ("Ben", 1)) and "share the victory" in shared.steps[0].text


def test_small_islands_ties_go_to_houses_ports_then_the_last_tile() -> None:
    ranking = small_islands_tie_break(
        [Islands("Ann", 40, 7, 3), Islands("Ben", 40, 7, 3), Islands("Cy", 40, 8, 0)], "Ben"
    )
    assert ranking.places == (("Cy", 1), ("Ben", 2), ("Ann", 3))
    assert [step.rule for step in ranking.steps] == [
        "small_islands.tie.houses",
        "small_islands.tie.ports",
        "small_islands.tie.last_tile",
    ]


def test_cooper_island_ties_go_to_fewer_empty_spaces() -> None:
    ranking = cooper_island_tie_break([Cooper("Ann", 50, 3), Cooper("Ben", 50, 1)])
    assert ranking.places == (("Ben", 1), ("Ann", 2))
    assert texts(ranking.steps) == ["Ann and Ben are tied; next, fewer empty spaces: Ann 3 and Ben 1."]


def test_the_tie_breaks_take_what_the_end_compares_and_build_no_stand_in_scores() -> None:
    source = Path(disputes.__file__).read_text(encoding="utf-8")
    for stand_in in ("PlayerScore(", "Islander(", "Settler(", "score_small_islands_sheet", "score_cooper_island_sheet"):
        assert stand_in not in source
