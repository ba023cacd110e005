"""Every reader at the table: the keyboard's focus is never hidden under the sticky bars (WCAG 2.2 "focus not
obscured"), live regions say briefly what changed, and an ``aria-label`` sits only where it is read."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from .test_accessibility import landed, tour
from .test_play_on_a_phone import a_table, cell, chip, closer, score_a_territory, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("White", "Red", "Yellow")

HIDDEN_BY = """() => {
  const focused = document.activeElement;
  if (!focused || focused === document.body) return "";  // round the page: on the browser's own controls
  const seen = focused.getBoundingClientRect();
  const bars = [...document.querySelectorAll("body *")].filter((bar) => {
    const position = getComputedStyle(bar).position;
    return (position === "sticky" || position === "fixed") && !bar.contains(focused);
  });
  for (const bar of bars) {
    const edge = bar.getBoundingClientRect();
    const across = Math.min(seen.right, edge.right) - Math.max(seen.left, edge.left);
    const down = Math.min(seen.bottom, edge.bottom) - Math.max(seen.top, edge.top);
    if (across > 0.5 && down > 0.5) return `${bar.tagName.toLowerCase()}.${bar.className}`;
  }
  return "";
}"""
"""The sticky bar that covers some of the focused control (empty when none does)."""

STOP = """() => {
  const focused = document.activeElement;
  const name = focused.getAttribute("aria-label") || focused.textContent.trim().slice(0, 30);
  return `${focused.tagName.toLowerCase()} ${JSON.stringify(name)}`;
}"""


def test_the_keyboard_s_focus_is_never_under_the_sticky_bars_of_the_board(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    score_a_territory(phone, "Forest")
    # Filled in as a tie of three: the board's last question (the whole orders) sticks to its bottom.
    chip(phone, "green square", 3)
    chip(phone, "green circle", 2)
    chip(phone, "green hexagon", 1)
    for player in PLAYERS:
        cell(phone, player, "Warehouse")
    closer(phone, "Red")
    expect(phone.locator("#wizard div.next.answer")).to_be_visible()
    phone.evaluate("window.scrollTo(0, 0)")
    phone.evaluate("document.activeElement.blur()")
    stops: list[str] = []
    hidden: list[str] = []
    for _ in range(200):
        phone.keyboard.press("Tab")
        stop = phone.evaluate(STOP)
        if stops and stop == stops[0]:
            break  # round the page once
        stops.append(stop)
        try:  # the page may scroll the control clear once it is focused: wait for what the reader sees
            phone.wait_for_function(f"() => ({HIDDEN_BY})() === ''", timeout=5000)
        except PlaywrightTimeoutError:
            hidden.append(f"{stop} under {phone.evaluate(HIDDEN_BY)}")
    assert len(stops) > 40, stops
    assert not hidden, f"{len(hidden)} of {len(stops)} stops: {hidden}"


def said(page: Any) -> Any:
    """The page's status line, marked so a test sees that it stays the same element (updated in place)."""
    line = page.locator("#said")
    expect(line).to_have_attribute("role", "status")
    line.evaluate("(line) => { line.dataset.kept = 'yes'; }")
    return line


def test_the_rules_search_says_briefly_how_many_rules_it_found(live_server: Any, phone: Any) -> None:
    phone.goto(f"{live_server.url}/rules/")
    expect(phone.locator("html[data-ready]")).to_have_count(1)
    line = said(phone)
    phone.get_by_label("Search the rules").fill("tie")
    hits = phone.locator("#results a.hit")
    expect(hits.first).to_be_visible()
    expect(line).to_have_text(f"{hits.count()} rules found.")
    phone.get_by_label("Search the rules").fill("zzqqxx")
    expect(line).to_have_text("No rule matches “zzqqxx”.")
    expect(line).to_have_attribute("data-kept", "yes")
    # The results swapped in are no live region: only the short line is said, not the whole list again.
    assert phone.locator("[aria-live]").count() == 0


def test_the_calculators_say_the_ruling_briefly(live_server: Any, phone: Any) -> None:
    phone.goto(
        f"{live_server.url}/calculators/cooper-island-tie/?name_1=Ann&total_1=50&empty_1=3&name_2=Ben&total_2=50"
    )
    expect(phone.locator("html[data-ready]")).to_have_count(1)
    line = said(phone)
    phone.locator("[name=empty_2]").fill("1")
    phone.locator("[name=empty_2]").dispatch_event("change")
    expect(line).to_have_text("Ruling: 1. Ben, 2. Ann")
    phone.goto(f"{live_server.url}/calculators/influence/?name_1=White&farm_1=1&name_2=Red&warehouse_2=1&closer=2")
    expect(phone.locator("html[data-ready]")).to_have_count(1)
    line = said(phone)
    phone.locator("[name=silo_1]").fill("1")
    phone.locator("[name=silo_1]").dispatch_event("change")
    expect(line).to_have_text("The ruling is below.")
    expect(line).to_have_attribute("data-kept", "yes")
    assert phone.locator("[aria-live]").count() == 0


def test_the_board_s_tie_question_is_said_when_it_appears(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "tess", PLAYERS)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    score_a_territory(phone, "Forest")
    line = said(phone)
    chip(phone, "green square", 3)
    for player in PLAYERS:
        cell(phone, player, "Warehouse")
    expect(line).to_have_text("")  # nothing asked yet: the board is being filled in
    closer(phone, "Red")  # a tie of three, whose order Red chooses: asked at the board's bottom
    expect(phone.locator("#wizard div.next.answer #tie-question")).to_be_visible()
    expect(line).to_have_text("Players tie: Red, who closed the territory, chooses their order:")
    expect(line).to_have_attribute("data-kept", "yes")
    expect(phone.get_by_role("group", name="Closed by").get_by_role("button", name="Red")).to_be_focused()


def test_the_game_page_says_what_the_entry_saved(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "sara", PLAYERS)
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/adjust/")
    tap(phone, "White")
    tap(phone, "one more gold nugget")
    expect(phone.locator("#count-nuggets")).to_have_text("1")
    tap(phone, "Save")
    card = landed(phone)
    expect(card.locator("#saved-title")).to_have_text(re.compile(r"^Saved: .*White"))
    title = " ".join(card.locator("#saved-title").inner_text().split())
    expect(phone.locator("#said")).to_have_text(title)
    assert card.locator("[role=status]:not(:empty), [aria-live]").count() == 0  # said once, by the status line


UNREAD_LABELS = """() => [...document.querySelectorAll("div[aria-label]:not([role]), span[aria-label]:not([role])")]
  .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${element.getAttribute("aria-label")}`)"""
"""The ``aria-label``s on a plain div or span (no role), which screen readers do not read."""


def test_every_aria_label_sits_where_screen_readers_read_it(live_server: Any, phone: Any) -> None:
    unread: dict[str, list[str]] = {}

    def check(where: str) -> None:
        found = phone.evaluate(UNREAD_LABELS)
        if found:
            unread[where] = found

    tour(phone, live_server.url, "maya", check)
    assert not unread, unread
