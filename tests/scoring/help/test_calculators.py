"""The calculators, on their examples, on ties and on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from scoring.help.calculators import CALCULATORS

pytestmark = pytest.mark.django_db

EXPECTED = {
    "influence": "The special action goes to whichever of Red and Yellow Red puts last.",
    "collection": "Red takes nothing: the territory is empty.",
    "nuggets": "Ben, with the fewest nuggets (1), scores 0 (game option).",
    "sets": "These tokens: 2 Explorer sets × 4 = 8 VP.",
    "okanagan-tie": "Ann and Ben tie on 40 VP; Ben holds the most tokens (Ann 9 and Ben 11) and wins.",
    "small-islands-tie": "Ann and Ben are tied; next, who placed the last tile: Ann no and Ben yes.",
    "cooper-island-tie": "Ann and Ben are tied; next, fewer empty spaces: Ann 3 and Ben 1.",
}


def test_the_calculators_page_lists_every_calculator(client: Client) -> None:
    page = client.get("/calculators/").content.decode()
    for slug in CALCULATORS:
        assert f'href="/calculators/{slug}/"' in page


@pytest.mark.parametrize("slug", list(CALCULATORS))
def test_each_calculator_rules_on_its_example_and_cites_the_rule(client: Client, slug: str) -> None:
    calc = CALCULATORS[slug]
    response = client.get(f"/calculators/{slug}/?{calc.example}")
    page = response.content.decode()
    assert response.status_code == 200
    assert EXPECTED[slug] in page.replace("&#x27;", "'")
    assert "The rules" in page and 'class="badge' in page


@pytest.mark.parametrize("slug", list(CALCULATORS))
def test_each_calculator_answers_htmx_with_the_ruling_only(client: Client, slug: str) -> None:
    fragment = client.get(f"/calculators/{slug}/?{CALCULATORS[slug].example}", HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<section id="ruling"')


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("name_1=Ann&nuggets_1=3", "Name at least 2 players."),
        ("name_1=Ann&nuggets_1=3&name_2=Ann&nuggets_2=1", "Each player needs a different name."),
        ("name_1=Ann&nuggets_1=-3&name_2=Ben", "Ensure this value is greater than or equal to 0."),
        ("name_1=Ann&nuggets_1=abc&name_2=Ben", "Enter a whole number."),
    ],
)
def test_bad_figures_are_refused_with_a_message(client: Client, query: str, message: str) -> None:
    response = client.get(f"/calculators/nuggets/?{query}")
    assert response.status_code == 422
    assert message in response.content.decode()


def test_a_card_that_cannot_exist_is_refused(client: Client) -> None:
    response = client.get("/calculators/sets/?card_kind=territory&card_rewards=blue-circle&card_rewards=green-circle")
    assert response.status_code == 422
    assert "a territory card&#x27;s rewards are all of one colour" in response.content.decode()


def test_a_closer_without_a_name_is_refused(client: Client) -> None:
    response = client.get("/calculators/influence/?name_1=Ann&farm_1=1&closer=3")
    assert response.status_code == 422 and "Player 3 has no name." in response.content.decode()


def test_an_unknown_calculator_is_a_404(client: Client) -> None:
    assert client.get("/calculators/nope/").status_code == 404


def test_a_ruling_speaks_the_readers_language(client: Client) -> None:
    example = CALCULATORS["sets"].example
    page = client.get(f"/calculators/sets/?{example}", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "這些標記：探險家組 2 組 × 4 = 8 分。" in page
    assert "這些標記：形狀系列卡（綠色圓形、藍色圓形和黃色圓形）：2 × 7 = 14 分。" in page


@pytest.mark.parametrize("slug", ["okanagan-tie", "small-islands-tie", "cooper-island-tie"])
def test_a_tie_ruling_lists_the_places_from_first_to_last(client: Client, slug: str) -> None:
    # Each example's second player wins the tie: the ruling lists them first ("1. Ben", then "2. Ann").
    page = client.get(f"/calculators/{slug}/?{CALCULATORS[slug].example}").content.decode()
    assert "<li><strong>1.</strong> Ben</li><li><strong>2.</strong> Ann</li>" in page


@pytest.mark.parametrize("path", ["/calculators/", *(f"/calculators/{slug}/" for slug in CALCULATORS)])
def test_the_calculators_have_one_name_on_their_pages(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    title = page.split("<title>")[1].split("</title>")[0]
    assert "Calculators" in title
    assert '<a href="/calculators/">Calculators</a>' in page  # the bar on every page
    for other in ("Rules help", "dispute helper", "Settle a dispute", "All the questions"):
        assert other not in page


def test_the_first_address_of_the_calculators_still_leads_to_them(client: Client) -> None:
    response = client.get("/helper/sets/?card_kind=shape")
    assert response.status_code == 301
    assert response["Location"] == "/calculators/sets/?card_kind=shape"
    assert client.get("/helper/")["Location"] == "/calculators/"


def test_no_word_for_the_calculators_but_their_name() -> None:
    root = Path(__file__).resolve().parents[3]
    places = [root / "README.md", *(root / "docs").glob("*.md"), *(root / "templates").rglob("*.html")]
    places += [*(root / "scoring").rglob("*.py")]
    places += [*(root / "rules").glob("*.py")]
    found = [
        f"{path.relative_to(root)}: {word}"
        for path in places
        for word in ("Rules help", "rules help", "dispute helper", "rules helper")
        if word in path.read_text(encoding="utf-8")
    ]
    assert found == []


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("name_1=Ann&total_1=50&empty_1=3&name_2=Ben&total_2=50&empty_2=1", "Ruling: 1. Ben, 2. Ann"),
        ("name_1=Ann&total_1=abc&empty_1=3&name_2=Ben&total_2=50&empty_2=1", "Total: Enter a whole number."),
    ],
)
def test_an_answer_in_place_says_briefly_what_it_ruled_or_what_to_correct(
    client: Client, query: str, said: str
) -> None:
    answer = client.get(f"/calculators/cooper-island-tie/?{query}", headers={"HX-Request": "true"})
    line = answer.content.decode().split('<p hx-swap-oob="innerHTML:#said">')[1].split("</p>")[0]
    assert line.strip() == said
    assert "aria-live" not in answer.content.decode()
    assert "hx-swap-oob" not in client.get(f"/calculators/cooper-island-tie/?{query}").content.decode()
