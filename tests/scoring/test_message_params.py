"""The engine's messages carry typed params (players, tokens, yes or no...) that the site says in the
reader's language: no English the engine wrote out reaches a French or Korean reader."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from rules import RecordError, RulesError, score_document
from rules.components import Building, Reward
from rules.explanation import (
    Change,
    Changes,
    Count,
    Figure,
    Gift,
    Message,
    Order,
    Part,
    Parts,
    Players,
    Quoted,
    Series,
    Tokens,
    english,
)
from rules.explanation import gettext_noop as _
from rules.reading import read_json
from scoring.wording import error_text, explain, say
from tests.rules.builders import give, record, territory
from tests.rules.test_sheets import islander, islands


def error_in(language: str, document: dict[str, object]) -> str:
    with pytest.raises(RulesError) as caught:
        score_document(document)
    with translation.override(language):
        return error_text(caught.value)


def steps_in(language: str, document: dict[str, object]) -> list[str]:
    with translation.override(language):
        return [explain(step) for section in score_document(document).sections for step in section.steps]


def test_an_empty_order_of_influence_reads_personne_in_french_not_nobody() -> None:
    document = record(territory({"Ann": {"farm": 1}, "Ben": {"farm": 1}}, order=[]))
    french = error_in("fr", document)
    assert "personne" in french and "nobody" not in french
    assert french.endswith("pas personne")
    assert "Ann et Ben" in french  # the players listed by the locale, not ", ".join


def test_a_small_islands_tie_break_in_french_has_no_english_words() -> None:
    sheet = islands(islander("Ann"), islander("Ben"), last_tile_by="Ben")
    text = "\n".join(steps_in("fr", sheet))
    assert "le plus de maisons" in text and "most houses" not in text
    for english_words in ("most houses", "most ports", "who placed", r"\byes\b", r"\bno\b"):
        assert not re.search(english_words, text), english_words
    assert "Ann non et Ben oui" in text


def test_a_player_named_farm_keeps_their_name_in_the_gifts_line_in_french() -> None:
    document = record(
        give("farm", green_square=1),
        give("Cy", blue_circle=1),
        {
            "type": "volcano",
            "player": "Ann",
            "special_action": {"action": "gifts", "from": {"farm": "green-square", "Cy": "blue-circle"}},
        },
        players=("Ann", "farm", "Cy"),
    )
    gifts = next(step for step in steps_in("fr", document) if "farm" in step and "Ann" in step)
    assert "ferme" not in gifts
    assert "farm : carré vert" in gifts or "farm: " in gifts


def test_the_influence_parts_and_the_lone_choice_error_are_korean_for_a_korean_reader() -> None:
    parts = steps_in("ko", record(territory({"Ann": {"farm": 2}, "Ben": {"silo": 1}}, order=["Ann", "Ben"])))
    line = next(step for step in parts if step.startswith("Ann"))
    assert "farm" not in line and "2 × 농장 (3)" in line
    error = error_in(
        "ko", record(territory({"Ann": {"farm": 1}, "Ben": {"farm": 1}}, order=["Ann", "Ben"], lone_choice="rewards"))
    )
    assert not any("a" <= char <= "z" for char in error.lower()), error


def test_a_rules_error_takes_a_message_not_english() -> None:
    error = RecordError(Message(_("{player} cannot trade with themself"), player="Ann"))
    assert str(error) == "Ann cannot trade with themself"
    with translation.override("fr"):
        assert "Ann" in say(error.message) and "themself" not in say(error.message)


def test_each_param_type_reads_in_english_for_the_command_line() -> None:
    template = "{a} | {b} | {c} | {d} | {e} | {f} | {g} | {h} | {i} | {j} | {k}"
    params = {
        "a": Players(("Ann", "Ben")),
        "b": Players(()),
        "c": Tokens.of({Reward.GREEN_CIRCLE: 1, Reward.GREEN_SQUARE: 3}),
        "d": Tokens.of({}),
        "e": Parts((Part(2, Building.FARM), Part(1, Building.SILO))),
        "f": Order((Figure("Ann", 3), Figure("Ben", 2))),
        "g": Order((Players(("Ann", "Ben")), "Cy")),
        "h": Series((Figure("Ann", True), Figure("Ben", False))),
        "i": Changes((Change(Reward.BLUE_CIRCLE, 1), Change(None, -2))),
        "j": Series((Gift("Ben", Reward.BLACK_HEXAGON),)),
        "k": Quoted("'blue'"),
    }
    assert english(template, params) == (
        "Ann and Ben | nobody | 3 × green-square and 1 × green-circle | nothing | 2 × farm (3) + 1 × silo (1) | "
        "Ann (3) > Ben (2) | (Ann and Ben) > Cy | Ann yes and Ben no | blue-circle +1 and nuggets -2 | "
        "Ben: black-hexagon | 'blue'"
    )
    assert Count(3, Reward.GREEN_SQUARE) in params["c"]  # type: ignore[operator]


@pytest.mark.parametrize(
    ("language", "listed"),
    [("en", "Ann, Ben, and Cy"), ("fr", "Ann, Ben et Cy"), ("zh-hant", "Ann、Ben和Cy"), ("it", "Ann, Ben e Cy")],
)
def test_a_list_of_players_is_the_locale_s_list(language: str, listed: str) -> None:
    message = Message(_("{players} are still tied and share the place."), players=Players(("Ann", "Ben", "Cy")))
    with translation.override(language):
        assert listed in say(message)


def test_a_json_parser_s_problem_is_said_in_the_reader_s_language() -> None:
    with pytest.raises(RulesError) as caught:
        read_json("{")
    assert str(caught.value) == "not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2"
    with translation.override("fr"):
        assert error_text(caught.value) == (
            "JSON non valide : un nom de clé entre guillemets doubles est attendu à la ligne 1, colonne 2"
        )
