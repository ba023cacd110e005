"""The quick count (issue 13): a table that did not score territory by territory enters, at the end, each
player's holdings on their own phone; every phone sees who has counted, live, and the final result.

Two browser contexts are two phones, in real Chromium at 390×844 against the live server.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.log import stored_events
from scoring.models import Game

from .test_play_on_a_phone import a_table, chip, csp_violations, fits, saved, tap
from .test_table_of_phones import joined

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seated(page: Any, base: str, game: Game, player: str) -> None:
    """``page`` is ``player``'s phone, on the game page (no card is entered at the table: claiming a seat stays
    there; a quick-count table enters the cards with the count)."""
    page.goto(f"{base}/games/{game.pk}/")
    tap(page, f"I am {player}")
    expect(page.locator("#quick-count")).to_be_visible()


def count_mine(page: Any, chips: dict[str, int], nuggets: int, card: str) -> None:
    """From the game page: "Enter my final holdings", the tokens as chips, the nuggets with +, save; then the
    cards, where the count leads: one card of one icon."""
    page.locator("#quick-count").get_by_role("link", name="Enter my final holdings").click()
    count = page.locator("#wizard fieldset[data-stage=count]")
    expect(count).to_be_visible()
    for label, number in chips.items():
        chip(page, label, number)
    for shown in range(1, nuggets + 1):
        tap(page, "one more gold nugget")
        expect(page.locator("#count-nuggets")).to_have_text(str(shown))
    page.wait_for_load_state("networkidle")  # the taps waiting on the phone have reached the server
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert fits(page)
    for button in count.get_by_role("button").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, button.get_attribute("aria-label")
    tap(page, "Save the count")
    expect(page.locator("#wizard fieldset[data-stage=cards]")).to_be_visible()
    expect(page.get_by_text("Your count is saved.", exact=False)).to_be_visible()
    tap(page, card)
    tap(page, "Save these cards")


def counted(page: Any, player: str) -> Any:
    return page.locator("#quick-count li", has_text=re.compile(rf"^{player}: counted$"))


def test_each_phone_counts_its_player_and_the_result_reaches_both(live_server: Any, phone: Any, browser: Any) -> None:
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    seated(phone, live_server.url, game, "Maya")
    theo = joined(browser, live_server.url, game)
    seated(theo, live_server.url, game, "Theo")
    for page in (phone, theo):
        expect(page.locator("#quick-count li")).to_have_text(["Maya: not yet", "Theo: not yet"])

    # Maya counts on her phone: one Explorer set and 2 more green squares, 3 nuggets, a card of green squares.
    count_mine(
        phone,
        {"green square": 3, "blue square": 1, "yellow square": 1, "black square": 1},
        3,
        "card of one green square",
    )
    saved(phone, game, 1, "objectives kept by Maya")
    expect(counted(phone, "Maya")).to_be_visible()
    # Theo's phone sees it by its next poll, without a reload; her card stays hidden there.
    expect(counted(theo, "Maya")).to_be_visible(timeout=5000)
    expect(theo.get_by_text("1 objective card (hidden)")).to_be_visible()
    expect(theo.locator("#game svg[aria-label='green square']")).to_have_count(1)  # her tokens (×3), not her card
    theo.locator("#game details summary", has_text="Event 0: final count of Maya").click()
    expect(theo.get_by_text("Maya counted their holdings:", exact=False)).to_be_visible()

    # Theo counts on his: 2 blue circles, 1 nugget, a card of blue circles.
    count_mine(theo, {"blue circle": 2}, 1, "card of one blue circle")
    saved(theo, game, 3, "objectives kept by Theo")
    expect(counted(phone, "Theo")).to_be_visible(timeout=5000)
    assert [event["type"] for event in stored_events(game)] == ["holdings", "objectives", "holdings", "objectives"]

    # Maya ends the game: the final result appears on both phones.
    phone.goto(f"{live_server.url}/games/{game.pk}/finish/")
    expect(phone.get_by_text("have not entered a final count", exact=False)).to_have_count(0)
    phone.get_by_role("button", name=re.compile("End the game")).click()
    for page in (phone, theo):
        final = page.locator("#final")
        expect(final).to_be_visible(timeout=15000)
        # Maya: 1 Explorer set (4) + 3 green squares on her card (9) + most nuggets (10) = 23; Theo: 6 + 5 = 11.
        expect(final).to_contain_text("23")
        expect(final).to_contain_text("11")
        assert fits(page)
    game.refresh_from_db()
    assert not game.is_playing
    assert not refused, refused
    theo.context.close()


def test_a_count_beyond_the_supply_is_refused_in_place(live_server: Any, phone: Any, browser: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    game.options = {"reward_supply": 3}
    game.save()
    seated(phone, live_server.url, game, "Maya")
    phone.locator("#quick-count").get_by_role("link", name="Enter my final holdings").click()
    chip(phone, "blue circle", 3)
    tap(phone, "one more blue circle")  # a fourth: the game has 3
    expect(phone.get_by_role("alert")).to_have_text(
        "Maya cannot hold 4 × blue circle: the game has 3 and the other players hold 0"
    )
    expect(phone.get_by_role("button", name="3 × blue circle", exact=True)).to_have_attribute("aria-pressed", "true")
    # The finish page names who has not counted yet.
    tap(phone, "Save the count")
    expect(phone.locator("#wizard fieldset[data-stage=cards]")).to_be_visible()
    phone.goto(f"{live_server.url}/games/{game.pk}/finish/")
    expect(phone.get_by_text("Theo has not entered a final count.")).to_be_visible()
