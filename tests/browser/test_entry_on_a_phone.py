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
