"""A table of phones (issue 11): each phone claims its player, the cards stay on their player's phone,
and the log, the entries and the end reach every other phone and the spectators without a reload.

Several browser contexts are several phones, in real Chromium at 390×844 against the live server.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.log import change_log
from scoring.models import Game
from support.chromium import CHROMIUM, CHROMIUM_FLAGS
from tests.scoring.table.test_game_pages import FOREST

from .test_play_on_a_phone import a_table, cell, chip, csp_violations, fits, saved, score_a_territory, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PURPLE = "rgb(111, 66, 193)"
"""The second seat's colour (``.seat-purple``)."""


def a_phone(browser: Any) -> Any:
    return browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()


def joined(browser: Any, base: str, game: Game) -> Any:
    """A second phone, without an account, at the table by its join link."""
    page = a_phone(browser)
    page.goto(f"{base}/join/{game.table_code}/")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("heading", name=re.compile("Okanagan ·"))).to_be_visible()
    return page


def test_each_phone_claims_its_player_and_the_others_see_it_live(live_server: Any, phone: Any, browser: Any) -> None:
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo", "Ines"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    theo = joined(browser, live_server.url, game)

    # One tap on each phone: who it is. The header says so, in the player's colour.
    tap(theo, "I am Theo")
    me = theo.locator("header .me")
    expect(me).to_have_text("I am Theo")
    assert me.evaluate("element => getComputedStyle(element).backgroundColor") == PURPLE
    # Maya's phone sees, without a reload, that Theo is taken.
    expect(phone.get_by_role("button", name="I am Theo")).to_be_disabled(timeout=5000)
    tap(phone, "I am Maya")
    expect(phone.locator("header .me")).to_have_text("I am Maya")
    assert fits(phone) and fits(theo)

    # A lost phone: the owner frees its seat, and another phone claims it.
    phone.goto(f"{live_server.url}/games/{game.pk}/seats/")
    tap(phone, "Free Theo's seat")
    ines = joined(browser, live_server.url, game)
    tap(ines, "I am Theo")
    expect(ines.locator("header .me")).to_have_text("I am Theo")
    assert not refused, refused
    for page in (theo, ines):
        page.context.close()


def test_cards_stay_on_their_player_s_phone(live_server: Any, phone: Any, browser: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "I am Maya")  # she enters her cards later: her phone stays on the game page
    theo = joined(browser, live_server.url, game)
    tap(theo, "I am Theo")

    # No card is entered at the table yet: Theo's cards are one tap away, his own: no "who?" step.
    theo.locator("#my-cards").get_by_role("link", name="My objective cards").click()
    expect(theo.locator("#wizard fieldset[data-stage=cards]")).to_be_visible()
    tap(theo, "card of one black hexagon")  # a card of one icon: one tap
    tap(theo, "Save these cards")
    saved(theo, game, 0, "objectives kept by Theo")

    # Maya's phone shows the count only, live; Edit does not open Theo's cards.
    expect(phone.get_by_text("1 objective card (hidden)")).to_be_visible(timeout=5000)
    phone.locator("#game details summary").first.click()
    phone.get_by_role("link", name="Edit").first.click()
    expect(phone.get_by_text("These cards are secret until the end of the game")).to_be_visible()
    expect(phone.locator("svg[aria-label='black hexagon']")).to_have_count(0)
    # Theo's phone opens them.
    theo.locator("#game details summary").first.click()
    theo.get_by_role("link", name="Edit").first.click()
    expect(theo.locator("svg[aria-label='black hexagon']")).to_have_count(1)
    # A spectator sees the count, not the card.
    watcher = a_phone(browser)
    watcher.goto(f"{live_server.url}/watch/{game.spectator_token}/")
    expect(watcher.get_by_text("1 objective card (hidden)")).to_be_visible()
    expect(watcher.locator("svg[aria-label='black hexagon']")).to_have_count(0)
    # On Theo's phone, the cards he holds are proposed when he enters them again.
    theo.goto(f"{live_server.url}/games/{game.pk}/")
    theo.get_by_role("link", name="Objective cards", exact=True).click()
    expect(theo.get_by_role("button", name="Remove Specific reward (3 VP each) black hexagon")).to_be_visible()
    # A card whose icons are tapped is saved with "Save these cards" too, without "Add this card".
    theo.get_by_role("button", name="blue circle", exact=True).click()
    expect(theo.get_by_role("button", name="blue circle", exact=True)).to_have_attribute("aria-pressed", "true")
    theo.get_by_role("button", name="blue square", exact=True).click()
    expect(theo.get_by_role("button", name="blue square", exact=True)).to_have_attribute("aria-pressed", "true")
    tap(theo, "Save these cards")
    saved(theo, game, 1, "objectives kept by Theo")
    expect(watcher.get_by_text("2 objective cards (hidden)")).to_be_visible(timeout=15000)
    theo.get_by_role("link", name="Objective cards", exact=True).click()
    expect(theo.get_by_role("button", name="Remove Specific reward (3 VP each) black hexagon")).to_be_visible()
    expect(theo.get_by_role("button", name="Remove Territory set (5 VP) blue square blue circle")).to_be_visible()
    for page in (theo, watcher):
        page.context.close()


def test_the_log_and_the_end_reach_every_phone_and_the_spectators(live_server: Any, phone: Any, browser: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    theo = joined(browser, live_server.url, game)
    watcher = a_phone(browser)
    watcher.goto(f"{live_server.url}/watch/{game.spectator_token}/")

    # Maya ends round 1 on her phone; Theo's log shows it with its Undo, without a reload.
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/round_end/")
    tap(phone, "Save")
    expect(theo.locator("summary", has_text="Event 0: end of round 1")).to_be_visible(timeout=5000)
    expect(watcher.locator("summary", has_text="Event 0: end of round 1")).to_be_visible(timeout=5000)
    theo.locator("#game details summary").first.click()
    expect(theo.get_by_role("button", name="Undo")).to_be_visible()

    # The end: the final scores appear on every phone and for the spectator.
    phone.goto(f"{live_server.url}/games/{game.pk}/finish/")
    phone.get_by_role("button", name=re.compile("End the game")).click()
    for page in (phone, theo, watcher):
        expect(page.locator("#final")).to_be_visible(timeout=15000)
    expect(theo.get_by_role("heading", name="Share the result")).to_be_visible()
    # A reload keeps the result for the guest.
    theo.reload()
    expect(theo.locator("#final")).to_be_visible()
    for page in (theo, watcher):
        page.context.close()


def test_a_claimed_seat_leads_to_one_s_cards_kept_after_round_1_in_one_tap(live_server: Any, phone: Any) -> None:
    """Issue 12: "I am Maya" leads to her cards (one tap on the game page when nobody's are entered yet, else
    straight there); a full set is one tap, the next card's first icon starts it, and after round 1 "Keep my
    3 cards" saves the cards she holds."""
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "I am Maya")
    phone.locator("#my-cards").get_by_role("link", name="My objective cards").click()
    expect(phone.locator("#wizard fieldset[data-stage=cards]")).to_be_visible()
    full_sets = phone.get_by_role("group", name="A full set card in one tap:").get_by_role("button")
    expect(full_sets).to_have_count(7)
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        assert fits(phone)
        for button in full_sets.all():
            box = button.bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44
    phone.emulate_media(color_scheme="light")

    tap(phone, "All 3 green: territory set")
    expect(
        phone.get_by_role("button", name="Remove Territory set (5 VP) green square green hexagon green circle")
    ).to_be_visible()
    for icon in ("blue circle", "yellow circle"):
        tap(phone, icon)
        expect(phone.get_by_role("button", name=icon, exact=True)).to_have_attribute("aria-pressed", "true")
    tap(phone, "black square")  # not on a card of circles: the circles are kept, the square starts the next card
    expect(phone.get_by_role("button", name="Remove Shape set (7 VP) blue circle yellow circle")).to_be_visible()
    expect(phone.get_by_role("button", name="Add this card")).to_be_visible()  # for the black square alone
    tap(phone, "Save these cards")
    saved(phone, game, 0, "objectives kept by Maya")

    phone.get_by_role("button", name="End of round 1").click()  # one tap on the game page
    redraw = phone.locator("#redraw")
    expect(redraw.get_by_role("link", name="My objective cards")).to_be_visible()  # to change them
    redraw.get_by_role("button", name="Keep my 3 cards").click()
    expect(redraw).to_have_count(0)
    expect(phone.locator("#game").get_by_text("Event 2: objectives kept by Maya", exact=True)).to_be_visible()
    assert game.events.last().data["cards"] == game.events.first().data["cards"]  # type: ignore[union-attr]
    assert not refused, refused


def test_a_territory_saved_by_its_last_pick_reaches_another_phone_s_log_within_a_poll(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "I am Maya")
    theo = joined(browser, live_server.url, game)
    expect(theo.locator("#game details.card")).to_have_count(0)

    score_a_territory(phone, "Mountain")
    chip(phone, "black square", 1)
    cell(phone, "Theo", "Warehouse")
    tap(phone, "The rewards")  # Theo, alone, takes the square: filled in by itself, the mountain saves itself
    # Theo's phone shows it in its log, with the square on his scoreboard, by its next poll (every 1.5 s): within
    # 2 s of the tap.
    entry = theo.locator("#game details.card summary", has_text="Event 0: mountain closed by Maya")
    expect(entry).to_be_visible(timeout=2000)
    saved(phone, game, 0, "mountain closed by Maya")
    expect(theo.locator("#scoreboard .card").nth(1).locator("svg[aria-label='black square']")).to_have_count(1)
    # The Saved card is this phone's only: the other phone has the log's line.
    expect(theo.locator("section#saved")).to_have_count(0)
    assert fits(theo)
    theo.context.close()


def test_a_changed_poll_swaps_in_only_what_changed_and_what_was_opened_stays_open(
    live_server: Any, phone: Any, browser: Any
) -> None:
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    change_log(game, 0, lambda events: [{"type": "objectives", "player": "Maya", "cards": []}])
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.locator("details#event-0 summary").click()
    expect(phone.locator("details#event-0")).to_have_attribute("open", "")
    # A mark on two parts of Maya's page: a part swapped in anew does not have it.
    for part in ("#part-claim", "#part-log"):
        phone.locator(part).evaluate("(part) => { part.dataset.kept = 'yes'; }")

    # Theo claims his seat on his phone: Maya's "I am Theo" is greyed, and only that part was sent again.
    theo = joined(browser, live_server.url, game)
    tap(theo, "I am Theo")
    expect(phone.get_by_role("button", name="I am Theo")).to_be_disabled(timeout=5000)
    expect(phone.locator("#part-claim")).not_to_have_attribute("data-kept", "yes")
    expect(phone.locator("#part-log")).to_have_attribute("data-kept", "yes")

    # An event saved on another phone: the log is sent again, what Maya opened stays open, the news says it.
    game.refresh_from_db()
    change_log(game, game.revision, lambda events: [*events, {"type": "objectives", "player": "Theo", "cards": []}])
    expect(phone.locator("#news")).to_have_text("Event 1: objectives kept by Theo", timeout=5000)
    expect(phone.locator("#part-log")).not_to_have_attribute("data-kept", "yes")
    expect(phone.locator("details#event-0")).to_have_attribute("open", "")
    expect(phone.locator("details#event-1")).not_to_have_attribute("open", "")
    assert not refused, refused
    theo.context.close()


@pytest.fixture
def phone_that_keeps_pages(browser: Any) -> Any:
    """A phone whose browser keeps the pages it leaves, whole, for Back (its back-forward cache, as a phone's
    browser does; Playwright turns it off by default)."""
    keeping = browser.browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_FLAGS, ignore_default_args=["--disable-back-forward-cache"]
    )
    context = keeping.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, service_workers="block"
    )  # as every test's phone not about offline use (tests/conftest.py)
    yield context.new_page()
    keeping.close()


def test_back_from_an_entry_shows_the_game_as_it_is_now_not_as_it_was(
    live_server: Any, phone_that_keeps_pages: Any
) -> None:
    """Another phone saved while this one was entering: Back shows the game as the server has it now, the page
    itself, not the one the browser kept (as it was when left, Saved card and all) patched by its next poll."""
    phone = phone_that_keeps_pages
    game = a_table(phone, live_server.url, "maya", ("White", "Red", "Yellow"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    log = phone.locator("#game details.card summary")
    expect(log).to_have_count(0)
    phone.evaluate("window.keptWhole = true")  # gone from any page the server sends again
    score_a_territory(phone, "Mountain")
    change_log(game, game.revision, lambda events: [FOREST])  # saved on another phone meanwhile
    phone.go_back(wait_until="commit")  # a page restored whole fires no "load"
    phone.wait_for_function("() => document.querySelector('#live-poll') && window.keptWhole === undefined")
    expect(phone).to_have_url(f"{live_server.url}/games/{game.pk}/")
    expect(log.filter(has_text="Event 0: forest closed by Red")).to_be_visible()
