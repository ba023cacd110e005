"""The rules search answers questions as players ask them, in every language of the site.

The questions are in tests/data/search/rule-questions.json; bench/search_quality.py prints the shares and
the answer times.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from scoring.help.search import search_rules
from scoring.help.words import query_terms, words
from scoring.models import Game

pytestmark = pytest.mark.django_db

QUESTIONS = json.loads((Path(__file__).parents[2] / "data" / "search" / "rule-questions.json").read_text())


def found_in(question: dict[str, object], places: int) -> bool:
    hits = search_rules(str(question["question"]), str(question["language"]), game=str(question["game"]))
    return any(hit.rule.id in question["expected"] for hit in hits[:places])  # type: ignore[operator]


def test_the_question_set_has_twenty_questions_in_each_language_of_the_site() -> None:
    for language, _name in settings.LANGUAGES:
        assert sum(question["language"] == language for question in QUESTIONS) >= 20, language


def test_at_least_95_percent_of_the_questions_find_their_rule_in_the_top_3() -> None:
    found = sum(found_in(question, 3) for question in QUESTIONS)
    assert found >= 0.95 * len(QUESTIONS), f"{found} of {len(QUESTIONS)}"


@pytest.mark.parametrize(
    ("query", "language", "expected"),
    [
        ("what if two players tie with the closer", "en", "okanagan.influence.tie"),
        (
            "I'm the only one with buildings in the lake, do I get the special action and the rewards?",
            "en",
            "okanagan.special.lone",
        ),
        ("no gold nugget cards left in the pile", "en", "okanagan.special.gold_nugget"),
        ("reward pile empty", "en", "okanagan.supply.exhausted"),
        ("qui prend l'action spéciale", "fr", "okanagan.special.lowest"),
        ("影響力平手誰決定", "zh-hant", "okanagan.influence.tie"),
    ],
)
def test_the_questions_it_used_to_miss_find_their_rule_first(query: str, language: str, expected: str) -> None:
    hits = search_rules(query, language, game="okanagan")
    assert hits and hits[0].rule.id == expected, [hit.rule.id for hit in hits]


def test_a_question_in_another_language_than_the_page_s_finds_its_rules_in_the_reader_s_language() -> None:
    """A phone set to English, a question typed in Korean or Chinese: the rules it finds, said in English."""
    korean = search_rules("금덩이 카드가 없으면", "en", game="okanagan")
    assert korean and korean[0].rule.id.startswith("okanagan.")
    assert all(not any("\uac00" <= char <= "\ud7a3" for char in hit.text) for hit in korean)  # English texts
    chinese = search_rules("影響力平手誰決定", "en", game="okanagan")
    assert chinese and chinese[0].rule.id == "okanagan.influence.tie"
    assert chinese[0].text.startswith("When players tie on influence")
    assert search_rules("zzqx", "en") == []


def test_the_game_the_reader_is_looking_at_comes_first() -> None:
    assert search_rules("tie for the win", "en", game="okanagan")[0].rule.id == "okanagan.winner.tokens"
    assert search_rules("tie for the win", "en", game="small_islands")[0].rule.id == "small_islands.tie.houses"
    assert search_rules("tie for the win", "en", game="cooper_island")[0].rule.id == "cooper_island.tie"


def test_chinese_and_korean_are_cut_into_bigrams_and_latin_words_are_stemmed() -> None:
    assert [term.text for term in query_terms("影響力平手", "zh-hant")] == ["影響", "響力", "力平", "平手"]
    assert words("金塊", "zh-hant") == ["金塊", "金", "塊"]
    assert [term.text for term in query_terms("동점이면 누가", "ko")][:3] == ["동점", "점이", "이면"]
    assert words("The tied players", "en") == ["tie", "player"]
    assert words("Les joueurs à égalité", "fr") == ["joueur", "egalit"]


def test_the_last_word_is_a_prefix_while_it_is_typed() -> None:
    assert search_rules("gold nug", "en")[0].rule.id.startswith("okanagan.nuggets")
    assert query_terms("gold nug", "en")[-1].prefix and not query_terms("gold nug ", "en")[-1].prefix


def test_the_search_box_keeps_the_game_and_ignores_an_unknown_one(client: Client) -> None:
    page = client.get("/rules/", {"q": "tie for the win", "game": "small_islands"}).content.decode()
    assert page.index('href="#small_islands.tie.houses"') < page.index('href="#okanagan.winner.tokens"')
    assert '<option value="small_islands" selected>' in page
    fragment = client.get("/rules/", {"q": "tie for the win", "game": "okanagan"}, HTTP_HX_REQUEST="true")
    html = fragment.content.decode()
    assert html.lstrip().startswith('<section id="results"')
    assert html.index('href="#okanagan.winner.tokens"') < html.index('href="#small_islands.tie.houses"')
    assert client.get("/rules/", {"q": "tie", "game": "<script>"}).status_code == 200


def test_a_game_page_links_to_the_rules_of_its_game(member_client: Client, game: Game) -> None:
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert 'href="/rules/?game=okanagan"' in page
