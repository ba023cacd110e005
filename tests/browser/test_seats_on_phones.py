"""One table, one truth (issue 23), on several phones: cards entered for another player start empty, and a seat
follows its person — to a second phone by account or by code, the old phone told — and a member's seat is
refused to a guest.

Several browser contexts are several phones, in real Chromium at 390×844 against the live server.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.log import append_event
from scoring.models import Game, Profile

from .test_play_on_a_phone import a_table, fits, saved, tap
from .test_table_of_phones import a_phone, joined

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAYA_CARDS = [
    {"kind": "specific", "rewards": ["black-hexagon"]},
    {"kind": "specific", "rewards": ["black-square"]},
    {"kind": "specific", "rewards": ["black-circle"]},
]


def logged_in_phone(browser: Any, base: str, username: str) -> Any:
    """Another phone (its own storage, as the home-screen app has) logged in to an existing account."""
    page = a_phone(browser)
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"pw-{username}-123")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your groups")).to_be_visible()
    return page


def a_member(game: Game, username: str, player: str) -> None:
    """``username`` is a member of the game's group, and ``player`` is their player."""
    user = User.objects.create_user(username, password=f"pw-{username}-123")
    game.group.members.add(user)
    Profile.objects.filter(group=game.group, name=player).update(user=user)


def test_enter_for_another_player_on_a_phone_with_saved_cards_starts_empty(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    append_event(game, game.revision, lambda _state: {"type": "objectives", "player": "Maya", "cards": MAYA_CARDS})
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "I am Maya")
    phone.get_by_role("link", name="Objective cards").click()
    # Her own phone proposes her cards...
    expect(phone.get_by_role("button", name=re.compile("^Remove .*black hexagon"))).to_be_visible()
    phone.locator("button[value='reopen:player']").click()
    tap(phone, "Enter for Theo")
    # ...but Theo's start empty: none of hers is shown or kept.
    expect(phone.locator("#wizard fieldset[data-stage=cards]")).to_be_visible()
    expect(phone.get_by_role("button", name=re.compile("^Remove "))).to_have_count(0)
    tap(phone, "card of one blue circle")
    expect(phone.get_by_role("button", name=re.compile("^Remove .*blue circle"))).to_be_visible()
    tap(phone, "Save these cards")
    saved(phone, game, 1, "objectives kept by Theo")
    assert game.events.get(index=1).data["cards"] == [{"kind": "specific", "rewards": ["blue-circle"]}]
    assert fits(phone)


def test_a_member_s_seat_moves_to_a_second_phone_by_logging_in_and_the_first_is_told(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Lena"))
    a_member(game, "lena", "Lena")
    first = logged_in_phone(browser, live_server.url, "lena")
    first.goto(f"{live_server.url}/games/{game.pk}/")
    tap(first, "I am Lena")
    expect(first.locator("header .me")).to_have_text("I am Lena")
    first.goto(f"{live_server.url}/games/{game.pk}/")

    second = logged_in_phone(browser, live_server.url, "lena")  # a new phone, or the home-screen app
    second.goto(f"{live_server.url}/games/{game.pk}/")
    expect(second.get_by_role("button", name="I am Lena")).to_be_enabled()
    tap(second, "I am Lena")
    expect(second.locator("header .me")).to_have_text("I am Lena")
    # The old phone is told on its next poll, without a reload.
    told = first.get_by_text("Lena's seat moved to another phone: this phone is nobody at the table now.")
    expect(told).to_be_visible(timeout=10000)
    expect(first.locator("header .me")).to_have_text("Who is this phone?")
    expect(first.get_by_role("button", name="I am Lena")).to_be_enabled()  # her account may take it back
    assert fits(first) and fits(second)
    for page in (first, second):
        page.context.close()


def theo_s_code_shown(browser: Any, url: str, game: Game) -> tuple[Any, str]:
    """A guest's phone that is Theo, showing the code that moves Theo's seat to another phone; and the code."""
    first = joined(browser, url, game)
    tap(first, "I am Theo")
    expect(first.locator("header .me")).to_have_text("I am Theo")
    first.goto(f"{url}/games/{game.pk}/seats/")
    tap(first, "Move my seat to another phone")
    code = first.locator("#move-code .code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{4}$"))
    assert fits(first)
    return first, code.inner_text()


def test_a_guest_s_seat_moves_to_a_second_phone_with_a_code_and_the_first_is_told(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    first, shown = theo_s_code_shown(browser, live_server.url, game)
    first.goto(f"{live_server.url}/games/{game.pk}/")

    second = joined(browser, live_server.url, game)
    expect(second.get_by_role("button", name="I am Theo")).to_be_disabled()  # a tap alone does not take it
    second.get_by_role("link", name="A code from your other phone").click()
    second.get_by_label("A code from your other phone").fill(shown.lower())
    tap(second, "Take my seat here")
    expect(second.locator("header .me")).to_have_text("I am Theo")
    told = first.get_by_text("Theo's seat moved to another phone: this phone is nobody at the table now.")
    expect(told).to_be_visible(timeout=10000)
    expect(first.locator("header .me")).to_have_text("Who is this phone?")
    expect(first.get_by_role("button", name="I am Theo")).to_be_disabled()
    for page in (first, second):
        page.context.close()


def test_the_old_phone_left_on_its_code_stops_showing_the_seat_it_gave_away(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    first, shown = theo_s_code_shown(browser, live_server.url, game)
    expect(first.locator("header .me")).to_have_text("I am Theo")  # left on the page of its code

    second = joined(browser, live_server.url, game)
    second.get_by_role("link", name="A code from your other phone").click()
    second.get_by_label("A code from your other phone").fill(shown)
    tap(second, "Take my seat here")
    expect(second.locator("header .me")).to_have_text("I am Theo")
    # The old phone, still showing its code, is told without a tap: the seat is no longer shown as its own.
    told = first.get_by_text("Theo's seat moved to another phone: this phone is nobody at the table now.")
    expect(told).to_be_visible(timeout=10000)
    expect(first.locator("header .me")).to_have_text("Who is this phone?")
    expect(first.locator("#move-code")).to_have_count(0)
    assert fits(first)
    for page in (first, second):
        page.context.close()


def test_a_member_s_seat_is_refused_to_a_guest(live_server: Any, phone: Any, browser: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Lena", "Theo"))
    a_member(game, "lena", "Lena")
    guest = joined(browser, live_server.url, game)
    # Lena's seat is free, but it is her account's: greyed on the guest's phone, with the reason.
    expect(guest.get_by_role("button", name="I am Lena")).to_be_disabled()
    expect(guest.get_by_role("button", name="I am Theo")).to_be_enabled()
    expect(guest.get_by_text("A member's name is claimed only logged in to their account.")).to_be_visible()
    guest.goto(f"{live_server.url}/games/{game.pk}/seats/")
    expect(guest.get_by_text("A member's: only their account claims it")).to_be_visible()
    # A form posted anyway (an old page) is refused with a sentence.
    guest.evaluate("document.querySelector(\"button[name=claim][value='1']\").disabled = false")
    tap(guest, "I am Lena")
    expect(guest.get_by_text("Lena is a member's player: only their account claims this seat")).to_be_visible()
    assert game.seats.get(position=1).phone == ""
    assert fits(guest)
    guest.context.close()
