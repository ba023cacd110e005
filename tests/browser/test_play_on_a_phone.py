"""Playing at the table on phones: the rulebook's forest through the UI, and a whole 2-player game.

Real Chromium at 390×844 against the live server, with htmx doing the swaps.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.creation import create_game
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


def chip(page: Any, label: str, count: int) -> None:
    """Tap the chip of ``count`` of a reward icon (``"2 × green square"``), waiting for it to be pressed."""
    name = f"{count} × {label}"
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-pressed", "true")


def cell(page: Any, player: str, building: str, times: int = 1) -> None:
    """Tap ``player``'s cell of ``building`` in the buildings grid ``times`` times (one more each, back to
    none past what a player has in a whole game), waiting for each swap."""
    for _ in range(times):
        button = page.get_by_role("button", name=re.compile(rf"^{re.escape(player)}, {building}: \d+$"))
        before = button.get_attribute("aria-label")
        button.click()
        expect(page.get_by_role("button", name=before, exact=True)).to_have_count(0)


def closer(page: Any, player: str) -> None:
    """Tap who closed the territory, waiting for their chip to be pressed."""
    chosen = page.get_by_role("group", name="Closed by").get_by_role("button", name=player, exact=True)
    chosen.click()
    expect(chosen).to_have_attribute("aria-pressed", "true")


def score_a_territory(page: Any, territory: str) -> None:
    """On the game page, the link of ``territory`` under "Score a territory"; the entry opens on its board."""
    links = page.get_by_role("navigation", name=re.compile("^Score a territory"))
    links.get_by_role("link", name=territory, exact=True).click()
    expect(page.locator("#wizard fieldset[data-stage=board]")).to_be_visible()


def in_entry(page: Any, name: str, within: Any = None) -> None:
    """Tap the entry's button ``name`` and wait for the server's answer to replace the form."""
    form = page.locator("#wizard").element_handle()
    (within or page).get_by_role("button", name=name, exact=True).click()
    form.wait_for_element_state("hidden")


def take(page: Any, label: str, count: int) -> None:
    """The current collector takes ``count`` of a kind (``"take 3 tokens: green square"``)."""
    in_entry(page, f"take {count} {'token' if count == 1 else 'tokens'}: {label}")


def tie(page: Any, player: str) -> None:
    """The closer taps ``player`` next in the order of the tied players."""
    in_entry(page, player, page.get_by_role("group", name=re.compile("^Players tie: ")))


def tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def why(page: Any) -> None:
    """Unfold the rules applied, on the Save step (an edit of a past event ends there)."""
    page.locator("details#why summary").click()
    expect(page.locator("details#why")).to_have_attribute("open", "")


def saved(page: Any, game: Game, index: int, title: str) -> Any:
    """The entry saved itself (or was saved): the phone is on the game page, whose first card says what was
    saved, event ``index`` titled ``title``; that card."""
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/\?saved={index}$"))
    card = page.locator("section#saved")
    expect(card).to_be_visible()
    expect(card.locator("#saved-title")).to_have_text(f"Saved: Event {index}: {title}")
    return card


def why_saved(card: Any) -> None:
    """Unfold the rules applied, on the game page's Saved card."""
    card.get_by_text("Why (the rules applied)", exact=True).click()
    expect(card.locator("details")).to_have_attribute("open", "")


def csp_violations(page: Any) -> list[str]:
    """Collects what the browser refuses under the Content-Security-Policy while the test runs."""
    refused: list[str] = []
    page.on(
        "console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None
    )
    return refused


def game_of(page: Any) -> Game:
    """The game whose page (or entry) ``page`` shows."""
    match = re.search(r"/games/(\d+)/", page.url)
    assert match, page.url
    return Game.objects.get(pk=int(match[1]))


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
    score_a_territory(phone, "Forest")
    chip(phone, "green square", 3)
    chip(phone, "green circle", 2)
    chip(phone, "green hexagon", 1)
    cell(phone, "White", "Farm", 2)
    # A second farm is more than round 1 gives a player: the cell goes back to none, and says why by the cell.
    expect(phone.get_by_role("button", name="White, Farm: 0", exact=True)).to_be_visible()
    expect(phone.locator("#wizard tr.cell-said")).to_contain_text("Round 1 gives each player 1 × farm")
    cell(phone, "White", "Farm")
    cell(phone, "White", "Silo")
    cell(phone, "Red", "Warehouse")
    cell(phone, "Yellow", "Warehouse")
    influence = phone.locator("table.buildings tbody td.influence")
    expect(influence).to_have_text(["4", "2", "2"])  # shown live while the buildings are entered
    closer(phone, "Red")
    assert fits(phone)
    # The tie is the resolution's first question: asked on the board, whose answer ends it.
    board = phone.locator("#wizard fieldset[data-stage=board]")
    expect(
        board.get_by_text("Red, who closed the territory, chooses their order. Tap them from first to last.")
    ).to_be_visible()
    tie(phone, "Yellow")  # Red, the last of the two, goes by itself
    expect(phone.locator(".summary[data-stage=order]")).to_contain_text("Yellow > Red")
    expect(phone.get_by_text("Red takes the special action:")).to_be_visible()
    tap(phone, "A gold nugget")
    expect(phone.get_by_text("collecting, may take 4")).to_be_visible()
    expect(phone.locator("#wizard strong.collector")).to_have_text("White")
    take(phone, "green square", 3)
    expect(phone.get_by_text("White: 3 of 4 taken")).to_be_visible()
    # White has 1 more to take: 2 circles is more than allowed.
    take(phone, "green circle", 2)
    expect(phone.get_by_role("alert")).to_have_text("White may not take another green circle.")
    expect(phone.get_by_text("White: 3 of 4 taken")).to_be_visible()
    phone.get_by_role("button", name="take 1 token: green circle", exact=True).click()
    # White's 4 taken: the turn ends by itself. Yellow may take 2, and the 2 left (no square: none is left in
    # the pool) are theirs without a choice: filled in by itself. That was the last choice: the forest saved
    # itself, and the game page says so first, with the rules applied.
    card = saved(phone, game, 0, "forest closed by Red")
    why_saved(card)
    expect(card.get_by_text("Order of influence: White (4) > Yellow (2) > Red (2).")).to_be_visible()
    expect(
        card.get_by_text("Red and Yellow tie with 2; Red, who closed the forest, put them in this order: Yellow > Red.")
    ).to_be_visible()
    assert fits(phone)

    boards = phone.locator("#scoreboard .card")
    expect(boards.nth(0)).to_contain_text("White")
    expect(boards.nth(0).locator("svg[aria-label='green square']")).to_have_count(1)
    expect(boards.nth(0)).to_contain_text("×3")
    expect(boards.nth(0).locator("svg[aria-label='green circle']")).to_have_count(1)
    expect(boards.nth(1)).to_contain_text("1 nugget")
    expect(boards.nth(2).locator("svg[aria-label='green hexagon']")).to_have_count(1)  # Yellow's, by itself
    expect(boards.nth(2).locator("svg[aria-label='green square']")).to_have_count(0)  # White's only
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
    tap(phone, "I am Ann")  # this phone is Ann's; no card is entered at the table yet: the game page
    expect(phone.locator("#my-cards").get_by_role("link", name="My objective cards")).to_be_visible()  # later

    score_a_territory(phone, "Forest")
    # This phone is Ann's: she is proposed as who closed it.
    expect(phone.get_by_role("group", name="Closed by").get_by_role("button", name="Ann")).to_have_attribute(
        "aria-pressed", "true"
    )
    chip(phone, "green square", 2)
    chip(phone, "green circle", 1)
    cell(phone, "Ann", "Farm")
    cell(phone, "Ben", "Silo")
    # Ben, the last in the order, takes the special action: tapped on the board, below the buildings.
    expect(phone.get_by_text("Ben takes the special action:", exact=True)).to_be_visible()
    tap(phone, "Two rewards: blue circle")  # the action with its token, in one tap
    # Ann may take 3: the whole pool, so no choice is left and her pick is filled in by itself: the forest is
    # complete and saved itself.
    saved(phone, game_of(phone), 0, "forest closed by Ann")
    boards = phone.locator("#scoreboard .card")
    expect(boards.nth(0)).to_contain_text("Ann")
    expect(boards.nth(0).locator("svg[aria-label='green square']")).to_have_count(1)
    expect(boards.nth(0)).to_contain_text("×2")
    expect(boards.nth(0).locator("svg[aria-label='green circle']")).to_have_count(1)
    expect(boards.nth(1).locator("svg[aria-label='blue circle']")).to_have_count(1)

    phone.get_by_role("link", name="Objective cards", exact=True).click()  # Ann's own: no "who?"
    expect(phone.locator("#wizard fieldset[data-stage=cards]")).to_be_visible()
    phone.get_by_role("button", name="green square", exact=True).click()
    expect(phone.get_by_role("button", name="green square", exact=True)).to_have_attribute("aria-pressed", "true")
    tap(phone, "Add this card")
    # Its kind follows from its one icon.
    expect(phone.get_by_role("button", name="Remove Specific reward (3 VP each) green square")).to_be_visible()
    tap(phone, "Save these cards")  # fewer than 3 cards: saved by hand
    saved(phone, game_of(phone), 1, "objectives kept by Ann")
    expect(phone.locator("#game").get_by_text("Event 1: objectives kept by Ann", exact=True)).to_be_visible()

    phone.get_by_role("button", name="End of round 1").click()  # one tap on the game page
    expect(phone.locator("#game").get_by_text("Event 2: end of round 1", exact=True)).to_be_visible()
    expect(phone.get_by_role("button", name="End of round 1")).to_have_count(0)

    phone.get_by_role("link", name="End the game and score it").click()
    expect(phone.get_by_text("Ben has no objective cards entered: they will score none.")).to_be_visible()
    assert fits(phone)
    tap(phone, "End the game and score it")
    final = phone.locator("#final")
    expect(final).to_contain_text("Winner: Ann")
    rows = final.locator("tbody tr")
    expect(rows.nth(0).locator("td")).to_have_text(["1", "Ann", "0", "6", "10", "16"])  # by rank, the place first
    expect(rows.nth(1).locator("td")).to_have_text(["2", "Ben", "0", "0", "10", "10"])
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
    tap(page, "1 × blue circle")
    tap(page, "1 × blue square")
    tap(page, "Ben, Silo: 0")
    page.get_by_role("group", name="Closed by").get_by_role("button", name="Ann", exact=True).click()
    # Ben alone: his choice is asked on the board, and answering it ends the board.
    board = page.locator("#wizard fieldset[data-stage=board]")
    expect(
        board.get_by_text("Ben is alone in the territory and takes the rewards or the special action:")
    ).to_be_visible()
    tap(page, "The rewards")
    expect(page.locator("strong.collector")).to_have_text("Ben")
    tap(page, "take 1 token: blue circle")  # his last pick: the lake saves itself
    card = saved(page, game, 0, "lake closed by Ann")
    expect(page.locator("#scoreboard .card").nth(1).locator("svg[aria-label='blue circle']")).to_have_count(1)
    # Undo is a plain form too.
    card.get_by_role("button", name="Undo").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(page.locator("#scoreboard .card").nth(1).locator("svg[aria-label='blue circle']")).to_have_count(0)
    assert not game.events.exists()
    context.close()


def test_a_territory_saved_by_its_last_pick_is_shown_first_and_undone_in_one_tap(live_server: Any, phone: Any) -> None:
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "I am Maya")
    score_a_territory(phone, "Lake")
    chip(phone, "blue circle", 2)
    chip(phone, "blue square", 1)
    cell(phone, "Maya", "Farm")
    cell(phone, "Theo", "Silo")
    tap(phone, "A gold nugget")  # Theo's special action, on the board: it ends the board
    # Maya may take all 3: her pick is filled in by itself, and that was the last choice. No Save step.
    card = saved(phone, game, 0, "lake closed by Maya")
    expect(card.get_by_role("button", name="Save")).to_have_count(0)
    boards = phone.locator("#scoreboard .card")
    expect(boards.nth(0).locator("svg[aria-label='blue circle']")).to_have_count(1)
    expect(boards.nth(1)).to_contain_text("1 nugget")
    assert fits(phone)
    # The Saved card is a part of the live fragment, which this phone's polls ask for: they keep it while the lake
    # is the log's last event and the game is on, and take it away once either changes.
    expect(phone.locator("#live-poll")).to_have_attribute("hx-get", re.compile(r"[?&]saved=0$"))
    why_saved(card)
    expect(card.get_by_text("Order of influence: Maya (3) > Theo (1).")).to_be_visible()
    expect(card.get_by_role("link", name="Edit")).to_have_attribute("href", f"/games/{game.pk}/events/0/")

    card.get_by_role("button", name="Undo").click()
    expect(phone.locator("section#saved")).to_have_count(0)
    expect(phone.locator("#game details.card")).to_have_count(0)  # the log is empty again
    expect(boards.nth(0).locator("svg[aria-label='blue circle']")).to_have_count(0)
    expect(boards.nth(1)).to_contain_text("0 nuggets")
    assert not game.events.exists()
    assert not refused, refused
