"""The rules reference and its search."""

from __future__ import annotations

import pytest
from django.test import Client

from rules import RULES
from rules.reference import OPEN_QUESTIONS
from scoring.help.search import plain, search_rules, terms

pytestmark = pytest.mark.django_db


def test_the_reference_anchors_every_rule_and_shows_its_source(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    for rule in RULES:
        assert f'id="{rule.id}"' in page
    assert "Printed rulebook" in page and "The app&#x27;s reading" in page and "House-rule option" in page


def test_the_reference_explains_the_rulebook_examples(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    assert "A forest completed by Red" in page
    assert "Red and Yellow tie with 2; Red, who closed the forest, put them in this order: Yellow &gt; Red." in page
    assert "A final score of 59" in page and "Ann wins with 59 VP." in page


def test_the_reference_lists_the_open_questions_with_the_default_and_the_option(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    for question in OPEN_QUESTIONS:
        assert f'id="open-{question.id}"' in page
    assert "Fewest nuggets score 0" in page and "By place: 10, 5, 2" in page


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("tie gold nuggets", "okanagan.nuggets.ties"),
        ("alone in a territory", "okanagan.special.lone"),
        ("who orders a tie", "okanagan.influence.tie"),
        ("Explorer", "okanagan.score.explorer"),
        ("last tile", "small_islands.tie.last_tile"),
        ("ANCHORS", "cooper_island.anchors"),
    ],
)
def test_search_finds_the_rule(query: str, expected: str) -> None:
    hits = search_rules(query, "en")
    assert hits and hits[0].rule.id == expected, [hit.rule.id for hit in hits]


def test_search_ignores_case_and_accents() -> None:
    assert plain("Égalité PÉPITES") == "egalite pepites"
    assert terms("  égalité, pépites!! égalité ", "fr") == terms("EGALITE pepite", "fr") == ["egalit", "pepit"]


def test_search_finds_nothing_for_nothing() -> None:
    assert search_rules("", "en") == [] and search_rules("!!!", "en") == []
    assert search_rules("zzqqxx", "en") == []


def test_search_as_you_type_answers_the_results_fragment(client: Client) -> None:
    fragment = client.get("/rules/", {"q": "gold nugget"}, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<section id="results"')
    assert 'href="#okanagan.special.gold_nugget"' in fragment
    page = client.get("/rules/", {"q": "gold nugget"}).content.decode()
    assert page.startswith("<!doctype html>") and 'href="#okanagan.special.gold_nugget"' in page


@pytest.mark.parametrize(
    ("query", "language", "expected"),
    [
        ("égalité pépites", "fr", "okanagan.nuggets.ties"),
        ("egalité pepites", "fr", "okanagan.nuggets.ties"),
        ("seul dans un territoire", "fr", "okanagan.special.lone"),
        ("parità pepite", "it", "okanagan.nuggets.ties"),
        ("da solo territorio", "it", "okanagan.special.lone"),
        ("동점 금덩이", "ko", "okanagan.nuggets.ties"),
        ("혼자", "ko", "okanagan.special.lone"),
        ("平手 金塊", "zh-hant", "okanagan.nuggets.ties"),
        ("獨自", "zh-hant", "okanagan.special.lone"),
        ("空格", "zh-hant", "cooper_island.tie"),
    ],
)
def test_search_finds_the_rule_in_each_language(query: str, language: str, expected: str) -> None:
    hits = search_rules(query, language)
    assert hits and hits[0].rule.id == expected, [hit.rule.id for hit in hits]


def test_the_results_are_in_the_readers_language(client: Client) -> None:
    page = client.get("/rules/", {"q": "금덩이"}, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "금덩이: 가장 많으면 승점 10점" in page
