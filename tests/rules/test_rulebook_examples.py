"""The two worked examples printed in the rulebook."""

from __future__ import annotations

from rules import CATALOGUE, score_okanagan
from rules.reference import EXAMPLES, FINAL_SCORING_EXAMPLE, FOREST_EXAMPLE, OPEN_QUESTIONS
from tests.rules.builders import player


def test_the_forest_example_gives_the_special_action_to_red_and_the_tokens_as_printed() -> None:
    result = score_okanagan(FOREST_EXAMPLE.record)

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
    steps = score_okanagan(FOREST_EXAMPLE.record).sections[0].steps

    tie = next(step for step in steps if step.rule == "okanagan.influence.tie")
    assert tie.text == "Red and Yellow tie with 2; Red, who closed the forest, put them in this order: Yellow > Red."
    assert [step.text for step in steps if step.rule == "okanagan.special.lowest"] == [
        "Red, last in the order, takes the special action."
    ]
    assert "Red takes nothing: the territory is empty." in [step.text for step in steps]


def test_the_final_scoring_example_makes_59_points() -> None:
    result = score_okanagan(FINAL_SCORING_EXAMPLE.record)

    ann = player(result, "Ann")
    assert (ann["explorer_sets"], ann["explorer_points"]) == (2, 8)
    assert [(card["sets"], card["points"]) for card in ann["objectives"]] == [(3, 15), (4, 12), (2, 14)]
    assert ann["objective_points"] == 41
    assert ann["explorer_points"] + ann["objective_points"] == 49
    assert ann["nugget_points"] == 10
    assert ann["total"] == 59
    assert result.to_json()["winners"] == ["Ann"]


def test_examples_and_open_questions_cite_rules_of_the_catalogue() -> None:
    for item in (*EXAMPLES, *OPEN_QUESTIONS):
        assert item.rules and all(rule in CATALOGUE for rule in item.rules), item.id
