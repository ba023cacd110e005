"""Playing at the table on phones: the rulebook's forest through the UI, and a whole 2-player game.

Real Chromium at 390×844 against the live server, with htmx doing the swaps.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.log import create_game
from scoring.models import Game, Group

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page: Any, base: str, username: str, password: str) -> None:
    User.objects.create_user(username, password=password)
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your groups")).to_be_visible()


def a_table(page: Any, base: str, username: str, players: tuple[str, ...]) -> Game:
    """``username`` signed up and logged in on ``page``, owner of a group with a new game of ``players``."""
    log_in(page, base, username, f"pw-{username}-123")
    user = User.objects.get(username=username)
    group = Group.objects.create(name=f"{username}'s table", owner=user)
    group.members.add(user)
    return create_game(group, players, {}, promos=False)


def more(page: Any, label: str, times: int = 1) -> None:
    """Tap the + of a counter ``times`` times, waiting for each swap."""
    for _ in range(times):
        counter = page.locator(".counter", has=page.get_by_role("button", name=f"one more {label}", exact=True))
        before = counter.locator("output").inner_text()
        page.get_by_role("button", name=f"one more {label}", exact=True).click()
        expect(counter.locator("output")).not_to_have_text(before)


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def csp_violations(page: Any) -> list[str]:
    """Collects what the browser refuses under the Content-Security-Policy while the test runs."""
    refused: list[str] = []
    page.on(
        "console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None
    )
    return refused


def fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_the_forest_example_through_the_ui(live_server: Any, phone: Any, browser: Any) -> None:
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "white", ("White", "Red", "Yellow"))

    # A second phone joins with the table code and watches the scoreboard.
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    other.goto(live_server.url + "/")
    other.get_by_label("Join a table with its code").fill(game.table_code.lower())
    other.get_by_role("button", name="Join").click()
    expect(other.get_by_role("heading", name="Okanagan · White, Red, Yellow")).to_be_visible()
    # Its polls answer 304 while nothing changes, and the scoreboard is not swapped.
    other.evaluate("document.getElementById('scoreboard').dataset.probe = 'kept'")
    other.wait_for_event(
        "response", lambda response: "/live/" in response.url and response.status == 304, timeout=15000
    )
    assert other.evaluate("document.getElementById('scoreboard').dataset.probe") == "kept"

    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.get_by_role("link", name="Score a territory").click()
    tap(phone, "Forest")
    more(phone, "green square", 3)
    more(phone, "green circle", 2)
    more(phone, "green hexagon")
    tap(phone, "Next")
    more(phone, "Farm White", 2)
    # A third farm is more than a player has in a 3-player game: the error shows in place.
    tap(phone, "one more Farm White")
    expect(phone.get_by_role("alert")).to_have_text("a player has 2 farms in a 3-player game, not 3")
    expect(
        phone.locator(".counter", has=phone.get_by_role("button", name="one more Farm White")).locator("output")
    ).to_have_text("2")
    tap(phone, "one less Farm White")
    more(phone, "Silo White")
    more(phone, "Warehouse Red")
    more(phone, "Warehouse Yellow")
    assert fits(phone)
    tap(phone, "Next")
    tap(phone, "Red")
    expect(phone.get_by_text("Red, who closed the territory, chooses their order.")).to_be_visible()
    phone.get_by_label("Yellow > Red").check()
    tap(phone, "This order")
    expect(phone.get_by_text("Red takes the special action:")).to_be_visible()
    tap(phone, "A gold nugget")
    expect(phone.get_by_text("collecting, may take 4")).to_be_visible()
    more(phone, "green square", 3)
    more(phone, "green circle")
    # White has taken 4: nothing more is allowed.
    expect(phone.get_by_role("button", name="one more green hexagon")).to_be_disabled()
    tap(phone, "White is done")
    expect(phone.get_by_text("collecting, may take 2")).to_be_visible()
    expect(phone.get_by_role("button", name="one more green square")).to_have_count(0)  # none left in the pool
    more(phone, "green circle")
    more(phone, "green hexagon")
    tap(phone, "Yellow is done")
    expect(phone.get_by_text("Order of influence: White (4) > Yellow (2) > Red (2).")).to_be_visible()
    expect(
        phone.get_by_text("Red, Yellow tie with 2; Red, who closed the forest, put them in this order: Yellow > Red.")
    ).to_be_visible()
    assert fits(phone)
    tap(phone, "Save")

    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    boards = phone.locator("#scoreboard .card")
    expect(boards.nth(0)).to_contain_text("White")
    expect(boards.nth(0).locator("svg[aria-label='green square']")).to_have_count(1)
    expect(boards.nth(0)).to_contain_text("×3")
    expect(boards.nth(1)).to_contain_text("1 nugget")
    expect(boards.nth(2).locator("svg[aria-label='green hexagon']")).to_have_count(1)
    # The other phone's scoreboard catches up by polling.
    expect(other.locator("#scoreboard .card").nth(1)).to_contain_text("1 nugget", timeout=15000)
    assert not refused, refused
    assert other.evaluate("document.getElementById('scoreboard').dataset.probe") is None
    other.context.close()


def test_a_whole_two_player_game_to_the_final_scores(live_server: Any, phone: Any) -> None:
    # A newcomer: sign up, create a group, start a game.
    refused = csp_violations(phone)
    phone.goto(live_server.url + "/")
    phone.get_by_role("link", name="Sign up").click()
    phone.get_by_label("Username").fill("ann")
    phone.get_by_label("Password", exact=True).fill("table-games-42")
    tap(phone, "Create my account")
    phone.get_by_label("New group").fill("Ann and Ben")
    tap(phone, "Create")
    phone.get_by_role("link", name="New game of Okanagan").click()
    expect(phone.get_by_label("First player")).to_have_value("")  # the name the table uses, not the username
    phone.get_by_label("First player").fill("Ann")
    phone.get_by_label("Second player").fill("Ben")
    tap(phone, "Start the game")
    tap(phone, "I am Ann")  # this phone is Ann's

    phone.get_by_role("link", name="Score a territory").click()
    tap(phone, "Forest")
    more(phone, "green square", 2)
    more(phone, "green circle")
    tap(phone, "Next")
    more(phone, "Farm Ann")
    more(phone, "Silo Ben")
    tap(phone, "Next")
    tap(phone, "Ann")
    tap(phone, "Two rewards")
    phone.get_by_role("button", name="blue circle").click()
    expect(phone.get_by_text("collecting, may take 3")).to_be_visible()
    more(phone, "green square", 2)
    more(phone, "green circle")
    tap(phone, "Ann is done")
    tap(phone, "Save")

    phone.get_by_role("link", name="Objective cards").click()  # Ann's own: no "who?"
    tap(phone, "Specific reward (3 VP each)")
    phone.get_by_role("button", name="green square").click()
    tap(phone, "Add this card")
    tap(phone, "These are the cards kept")
    expect(phone.get_by_text("Ann keeps 1 objective cards.")).to_be_visible()
    tap(phone, "Save")

    phone.get_by_role("link", name="End of round 1").click()
    tap(phone, "Save")
    expect(phone.get_by_text("Event 2: end of round 1")).to_be_visible()
    expect(phone.get_by_role("link", name="End of round 1")).to_have_count(0)

    phone.get_by_role("link", name="End the game and score it").click()
    expect(phone.get_by_text("Ben has no objective cards entered: they will score none.")).to_be_visible()
    assert fits(phone)
    tap(phone, "End the game and score it")
    final = phone.locator("#final")
    expect(final).to_contain_text("Winner: Ann")
    rows = final.locator("tbody tr")
    expect(rows.nth(0).locator("td")).to_have_text(["Ann", "0", "6", "10", "16", "1"])
    expect(rows.nth(1).locator("td")).to_have_text(["Ben", "0", "0", "10", "10", "2"])
    assert fits(phone)
    game = Game.objects.get()
    assert game.winners == ["Ann"]
    assert not refused, refused


def test_scoring_a_territory_works_without_javascript(live_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    game = a_table(page, live_server.url, "nojs", ("Ann", "Ben"))
    page.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    tap(page, "Lake")
    tap(page, "one more blue circle")
    tap(page, "one more blue circle")
    tap(page, "Next")
    tap(page, "one more Silo Ben")
    tap(page, "Next")
    tap(page, "Ann")
    expect(page.get_by_text("Ben is alone in the territory and chooses:")).to_be_visible()
    tap(page, "The rewards")
    tap(page, "one more blue circle")
    tap(page, "Ben is done")
    tap(page, "Save")
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(page.locator("#scoreboard .card").nth(1).locator("svg[aria-label='blue circle']")).to_have_count(1)
    context.close()
