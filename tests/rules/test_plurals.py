"""Counts in the engine's sentences take the right form: a template with a plural is chosen by its count."""

from __future__ import annotations

from rules import score_document
from rules.explanation import Message, Plural, Step, english
from rules.explanation import ngettext_lazy as plural  # not the marker's name: these are no site texts

from .builders import record


def test_a_plural_template_takes_its_singular_for_one_and_its_plural_otherwise() -> None:
    template = plural("{player} keeps {count} card.", "{player} keeps {count} cards.")
    assert isinstance(template, Plural) and template == "{player} keeps {count} card."
    assert english(template, {"player": "Ann", "count": 1}) == "Ann keeps 1 card."
    assert english(template, {"player": "Ann", "count": 0}) == "Ann keeps 0 cards."
    assert Step("x", template, {"player": "Ann", "count": 3}).text == "Ann keeps 3 cards."
    assert Message(template, player="Ann", count=1) == "Ann keeps 1 card."


def test_a_plural_is_chosen_by_the_param_it_names() -> None:
    template = plural("{held} nugget, not {count}", "{held} nuggets, not {count}", "held")
    assert english(template, {"held": 1, "count": 2}) == "1 nugget, not 2"
    assert english(template, {"held": 2, "count": 1}) == "2 nuggets, not 1"


def test_the_final_scoring_says_one_nugget_and_one_card() -> None:
    document = record(
        {"type": "objectives", "player": "Ann", "cards": [{"kind": "specific", "rewards": ["green-square"]}]},
        {"type": "adjust", "player": "Ann", "nuggets": 1, "rewards": {"blue-circle": 1}},
    )
    text = "\n".join(step.text for section in score_document(document).sections for step in section.steps)
    assert "Ann keeps 1 objective card." in text
    assert "Ann is place 1 with 1 nugget: 10 VP." in text
    assert "1 nuggets" not in text and "1 objective cards" not in text


def test_a_correction_lists_each_kind_with_its_change_so_that_no_kind_needs_a_plural() -> None:
    document = record({"type": "adjust", "player": "Ann", "rewards": {"blue-circle": 2, "green-square": 1}})
    text = score_document(document).sections[0].steps[0].text
    assert text == "Correction for Ann: green-square +1 and blue-circle +2."
