"""Every reader at the table: the keyboard's focus is never hidden under the sticky bars (WCAG 2.2 "focus not
obscured"), live regions say briefly what changed, and an ``aria-label`` sits only where it is read."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from .test_play_on_a_phone import a_table, cell, chip, closer, score_a_territory

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
