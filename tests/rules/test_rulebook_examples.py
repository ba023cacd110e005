"""The two worked examples printed in the rulebook."""

from __future__ import annotations

from tests.rules.builders import give, player, record, score, territory

FOREST = territory(
    {"White": {"farm": 1, "silo": 1}, "Red": {"warehouse": 1}, "Yellow": {"warehouse": 1}},
    {"green-square": 3, "green-circle": 2, "green-hexagon": 1},
    closed_by="Red",
    order=["White", "Yellow", "Red"],
    special_action={"action": "gold_nugget"},
    picks={"White": {"green-square": 3, "green-circle": 1}, "Yellow": {"green-circle": 1, "green-hexagon": 1}},
)


def test_the_forest_example_gives_the_special_action_to_red_and_the_tokens_as_printed() -> None:
    result = score(record(FOREST, players=("White", "Red", "Yellow")))

    (forest,) = result.to_json()["territories"]
    assert forest["influence"] == {"White": 4, "Red": 2, "Yellow": 2}
    assert forest["order"] == ["White", "Yellow", "Red"]
    assert forest["special_action_to"] == "Red"
    assert forest["collected"] == {"White": 4, "Yellow": 2, "Red": 0}
    assert player(result, "White")["rewards"] == {"green-square": 3, "green-circle": 1}
    assert player(result, "Yellow")["rewards"] == {"green-hexagon": 1, "green-circle": 1}
    assert player(result, "Red")["rewards"] == {}
    assert player(result, "Red")["nuggets"] == 1


def test_the_forest_explanation_says_red_ordered_the_tie_and_cites_the_rule() -> None:
    steps = score(record(FOREST, players=("White", "Red", "Yellow"))).sections[0].steps

    tie = next(step for step in steps if step.rule == "okanagan.influence.tie")
    assert tie.text == "Red, Yellow tie with 2; Red, who closed the forest, put them in this order: Yellow > Red."
    assert [step.text for step in steps if step.rule == "okanagan.special.lowest"] == [
        "Red, last in the order, takes the special action."
    ]
    assert "Red takes nothing: the territory is empty." in [step.text for step in steps]


def test_the_final_scoring_example_makes_59_points() -> None:
    cards = [
        {"kind": "territory", "rewards": ["green-square", "green-hexagon", "green-circle"]},
        {"kind": "specific", "rewards": ["blue-circle"]},
        {"kind": "shape", "rewards": ["green-circle", "blue-circle", "yellow-circle"]},
    ]
    result = score(
        record(
            give(
                "Ann",
                nuggets=3,
                green_square=3,
                green_hexagon=3,
                green_circle=3,
                blue_circle=4,
                yellow_circle=2,
                black_square=2,
            ),
            give("Ben", nuggets=1),
            {"type": "objectives", "player": "Ann", "cards": cards},
            players=("Ann", "Ben"),
        )
    )

    ann = player(result, "Ann")
    assert (ann["explorer_sets"], ann["explorer_points"]) == (2, 8)
    assert [(card["sets"], card["points"]) for card in ann["objectives"]] == [(3, 15), (4, 12), (2, 14)]
    assert ann["objective_points"] == 41
    assert ann["explorer_points"] + ann["objective_points"] == 49
    assert ann["nugget_points"] == 10
    assert ann["total"] == 59
    assert result.to_json()["winners"] == ["Ann"]
