"""The entry's screens keep what the player opened (issue 12's bugs)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .test_play_on_a_phone import a_table, more, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_icons_of_other_colours_stay_open_after_a_tap_on_a_home_colour_icon(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    tap(phone, "Forest")
    others = phone.locator("details#other-colours")
    others.locator("summary").click()
    expect(others).to_have_attribute("open", "")
    more(phone, "green square")  # a home-colour icon: the wizard is swapped
    expect(others).to_have_attribute("open", "")
    more(phone, "blue circle")
    expect(others).to_have_attribute("open", "")


def test_the_step_s_main_button_is_in_thumb_reach_without_scrolling(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo", "Ines", "Ugo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    tap(phone, "Forest")
    more(phone, "green square")
    next_button = phone.get_by_role("button", name="Next")
    expect(next_button).to_be_in_viewport()
    tap(phone, "Next")
    # Four players' building counters make a long page: "Next" stays at the bottom of the screen.
    assert phone.evaluate("document.documentElement.scrollHeight") > 844
    expect(phone.get_by_role("button", name="Next")).to_be_in_viewport()
    phone.wait_for_load_state("networkidle")  # the swap done: the button measured is the one shown
    assert phone.get_by_role("button", name="Next").evaluate("button => button.getBoundingClientRect().bottom") <= 844


def test_score_a_territory_is_in_thumb_reach_on_a_four_player_game_page(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo", "Ines", "Ugo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "I am Maya")
    assert phone.evaluate("document.documentElement.scrollHeight") > 844
    expect(phone.get_by_role("link", name="Score a territory")).to_be_in_viewport()
