"""Issue 23: a busy territory on a phone costs one tap per thing the table decided: a tie of three ordered in
one tap, a collector's take of two kinds in one chip, and "Change" on the board keeps what came after.

Real Chromium at 390×844 against the live server, with htmx doing the swaps.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_play_on_a_phone import a_table, cell, chip, fits, in_entry, saved, score_a_territory, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page: Any, name: str) -> None:
    """With ``SHOTS=DIR`` in the environment, the screen as the person sees it, light and dark (to look at)."""
    folder = os.environ.get("SHOTS")
    if not folder:
        return
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(Path(folder) / f"{name}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def test_a_tie_of_three_and_a_take_of_two_kinds_are_one_tap_each(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo", "Ines", "Ugo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "I am Maya")  # nobody's cards are entered: the game page, her cards one big tap away
    prompt = phone.locator("#my-cards")
    expect(prompt.get_by_role("link", name="My objective cards")).to_have_class("button big wide")
    expect(prompt.get_by_role("link", name="My objective cards")).to_be_in_viewport()  # above the scoreboard
    shot(phone, "game-round-1")

    score_a_territory(phone, "Forest")
    chip(phone, "green square", 2)
    chip(phone, "green circle", 1)
    chip(phone, "green hexagon", 1)
    for player in ("Maya", "Theo", "Ines"):
        cell(phone, player, "Warehouse")
    orders = phone.get_by_role("group", name="Players tie: Maya, who closed the territory, chooses their order:")
    expect(orders.get_by_role("button")).to_have_count(6)
    assert fits(phone)
    shot(phone, "board-tie-of-three")
    in_entry(phone, "Theo > Maya > Ines", orders)  # one tap: Ines, last, takes the special action
    in_entry(phone, "A gold nugget")

    # "Change" on the board: the tie and the action stay; "Done" ends the board again.
    in_entry(phone, "Change The territory")
    expect(phone.locator("#tie-question")).to_have_count(0)
    shot(phone, "board-changed")
    in_entry(phone, "Done")
    expect(phone.locator("#wizard strong.collector")).to_have_text("Theo")

    takes = phone.get_by_role("group", name="Their whole take in one tap:")
    expect(takes.get_by_role("button")).to_have_count(3)  # 2 of a square, a circle and a hexagon, mixed
    assert fits(phone)
    shot(phone, "picks-whole-take")
    takes.get_by_role("button", name="1 × green square + 1 × green circle", exact=True).click()
    # Maya takes the 2 left (no choice), Ines nothing: saved by that one tap.
    saved(phone, game, 0, "forest closed by Maya")
    assert game.events.get().data["picks"] == {
        "Theo": {"green-square": 1, "green-circle": 1},
        "Maya": {"green-square": 1, "green-hexagon": 1},
    }
    # A territory is scored: the cards prompt is a small one now.
    expect(phone.locator("#my-cards").get_by_role("link", name="My objective cards")).to_have_class("button secondary")
    shot(phone, "game-round-1-under-way")
