"""Small Islands and Cooper Island on phones (issue 13): the names start the game, each phone fills in its own
player's line (steppers, royal order cards), the game page shows live which lines are done, a review, then
"Score the game"; and deleting a game once asked.

Several browser contexts are several phones, in real Chromium at 390×844 against the live server.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.creation import create_game
from scoring.models import Game, Group

from .test_play_on_a_phone import csp_violations, fits, log_in, tap
from .test_table_of_phones import a_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_group(page: Any, base: str, username: str) -> Group:
    log_in(page, base, username, f"pw-{username}-123")
    user = User.objects.get(username=username)
    group = Group.objects.create(name=f"{username}'s table", owner=user)
    group.members.add(user)
    return group


def start_sheet(page: Any, base: str, group: Group, kind: str, names: tuple[str, ...]) -> Game:
    page.goto(f"{base}/groups/{group.pk}/")
    page.get_by_role("link", name=kind, exact=True).click()
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    tap(page, "Start the score sheet")
    expect(page.get_by_role("heading", name=f"{kind} · {', '.join(names)}")).to_be_visible()
    return Game.objects.latest("pk")


def plus(page: Any, label: str, times: int = 1) -> None:
    for _ in range(times):
        page.get_by_role("button", name=f"{label}: one more", exact=True).click()


def joined(browser: Any, base: str, game: Game, name: str) -> Any:
    """Another phone, without an account: the join link (the QR code), then "I am …", which opens its line."""
    page = a_phone(browser)
    page.goto(f"{base}/join/{game.table_code}/")
    tap(page, "Join this table")
    tap(page, f"I am {name}")
    expect(page.get_by_role("heading", name=f"{name}'s line")).to_be_visible()
    return page


def test_each_phone_fills_in_its_own_line_and_the_game_is_scored(live_server: Any, phone: Any, browser: Any) -> None:
    refused = csp_violations(phone)
    base = live_server.url
    group = a_group(phone, base, "maya")
    game = start_sheet(phone, base, group, "Small Islands", ("Ann", "Ben", "Cy"))
    expect(phone.get_by_text(game.table_code, exact=True)).to_be_visible()
    assert fits(phone)

    # Ben fills in his line on his own phone, with the steppers.
    ben = joined(browser, base, game, "Ben")
    ben.get_by_label("Prestige points", exact=True).fill("30")
    plus(ben, "Houses placed", 3)
    plus(ben, "Houses placed", 0)
    ben.get_by_role("button", name="Houses placed: one less", exact=True).click()
    expect(ben.get_by_label("Houses placed", exact=True)).to_have_value("2")
    assert fits(ben)
    tap(ben, "Save Ben's line")
    expect(ben.get_by_role("heading", name=re.compile("Small Islands ·"))).to_be_visible()
    # The first phone sees it, without a reload.
    expect(phone.locator("#line-1")).to_contain_text("✓ done", timeout=6000)

    # Ann, on the first phone: a malformed token value is an error at its field, and nothing is lost.
    tap(phone, "I am Ann")
    expect(phone.get_by_role("heading", name="Ann's line")).to_be_visible()
    phone.get_by_label("Prestige points", exact=True).fill("34")
    phone.get_by_label("Discovery tokens: their values", exact=True).fill("3-6")
    phone.get_by_label("My ship tile is on the table", exact=True).check()
    plus(phone, "Ports around my ship", 4)
    tap(phone, "Save Ann's line")
    expect(phone.locator(".errorlist")).to_contain_text("“3-6” is not a token value")
    expect(phone.get_by_label("Ports around my ship", exact=True)).to_have_value("4")
    phone.get_by_label("Discovery tokens: their values", exact=True).fill("3 5")
    tap(phone, "Save Ann's line")

    # Cy has no phone: the first phone fills in his line too.
    phone.get_by_role("link", name="Fill in Cy", exact=True).click()
    phone.get_by_label("Prestige points", exact=True).fill("12")
    tap(phone, "Save Cy's line")

    # The review, by rank, then the score; no tie, so no question.
    review = phone.locator("#review")
    expect(review).to_contain_text("Check before scoring")
    expect(review.locator(".review-row").first).to_contain_text("Ann")
    tap(phone, "Score the game")
    expect(phone.locator("p.winner")).to_have_text("Winner: Ann")
    game.refresh_from_db()
    assert [seat.total for seat in game.seats.all()] == [46, 30, 12]
    assert not refused, refused
    ben.context.close()


def test_a_cooper_island_card_taken_is_shown_taken_on_the_other_phone(
    live_server: Any, phone: Any, browser: Any
) -> None:
    base = live_server.url
    group = a_group(phone, base, "theo")
    game = start_sheet(phone, base, group, "Cooper Island", ("Ann", "Ben", "Cy"))
    tap(phone, "I am Ann")
    phone.get_by_label("Card 3", exact=True).fill("6")
    tap(phone, "Save Ann's line")
    ben = joined(browser, base, game, "Ben")
    expect(ben.get_by_label("Card 3", exact=True)).to_be_disabled()
    expect(ben.get_by_text("Taken by Ann", exact=True)).to_be_visible()
    expect(ben.get_by_label("Card 8", exact=True)).to_be_enabled()  # 3 players: any 6 of the 8
    assert fits(ben)
    ben.context.close()


def test_the_last_tile_question_names_the_tied_players(live_server: Any, phone: Any) -> None:
    base = live_server.url
    group = a_group(phone, base, "ines")
    game = start_sheet(phone, base, group, "Small Islands", ("Ann", "Ben"))
    phone.get_by_role("link", name="Fill in Ann", exact=True).click()
    for name in ("Ann", "Ben"):
        phone.get_by_label("Prestige points", exact=True).fill("20")
        tap(phone, f"Save {name}'s line")
    tap(phone, "Score the game")
    expect(phone.get_by_role("heading", name="Who placed the last tile?")).to_be_visible()
    tap(phone, "Ben")
    expect(phone.locator("p.winner")).to_have_text("Winner: Ben")
    assert Game.objects.get(pk=game.pk).winners == ["Ben"]


def test_a_member_deletes_a_game_once_asked(live_server: Any, phone: Any) -> None:
    base = live_server.url
    group = a_group(phone, base, "olga")
    game = create_game(group, ("Ann", "Ben"), {}, promos=False)
    phone.goto(f"{base}/games/{game.pk}/")
    phone.get_by_role("link", name="Delete this game", exact=True).click()
    expect(phone.get_by_role("heading", name="Delete this game?")).to_be_visible()
    expect(phone.locator("main")).to_contain_text("Okanagan of")
    tap(phone, "Delete the game")
    expect(phone.get_by_role("heading", name="olga's table")).to_be_visible()
    expect(phone.locator(".messages")).to_contain_text("Game deleted: Okanagan of")
    assert not Game.objects.filter(pk=game.pk).exists()


def test_without_javascript_a_line_is_plain_number_inputs(live_server: Any, phone: Any, browser: Any) -> None:
    base = live_server.url
    group = a_group(phone, base, "nojs")
    game = start_sheet(phone, base, group, "Small Islands", ("Ann", "Ben"))
    plain = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, java_script_enabled=False
    ).new_page()
    plain.goto(f"{base}/join/{game.table_code}/")
    tap(plain, "Join this table")
    tap(plain, "I am Ben")
    expect(plain.get_by_role("button", name="Houses placed: one more", exact=True)).to_be_hidden()
    plain.get_by_label("Houses placed", exact=True).fill("8")
    plain.get_by_label("Prestige points", exact=True).fill("30")
    tap(plain, "Save Ben's line")
    expect(plain.locator("#line-1")).to_contain_text("✓ done")
    assert fits(plain)
    ben = game.seats.get(position=1)
    assert ben.line_done and ben.line == {"prestige": "30", "ports": "0", "houses": "8"}
    plain.context.close()


@pytest.mark.parametrize(("kind", "names"), [("Small Islands", ("Ann",)), ("Cooper Island", ("Ann", "Ben", "Cy"))])
def test_3_6_typed_in_every_number_field_of_a_sheet_is_refused_next_to_that_field(
    live_server: Any, phone: Any, kind: str, names: tuple[str, ...]
) -> None:
    """Was: "3-6" typed in a Cooper Island royal order card was sent empty by the phone's number input, stored
    as no card (worth 0), and the line was done. Every count now refuses it, its reason under the field."""
    base = live_server.url
    group = a_group(phone, base, "vera")
    start_sheet(phone, base, group, kind, names)
    tap(phone, "I am Ann")
    counts = phone.locator("input[data-stepper]")
    expect(counts.first).to_be_visible()
    labels = [field.evaluate("input => input.labels[0].textContent") for field in counts.all()]
    assert len(labels) >= (6 if kind == "Small Islands" else 14), labels  # Alexis's counts; Cooper's cards
    for field in counts.all():
        field.fill("")
        field.press_sequentially("3-6")  # typed, as on the phone's keyboard
    tap(phone, "Save Ann's line")
    expect(phone.get_by_role("alert")).to_have_text("Check the fields marked below.")
    first = phone.get_by_label(labels[0], exact=True)
    expect(first).to_be_focused()  # the phone shows the first field refused, its reason under it
    first_error = phone.locator(".stepper-row").filter(has=first).locator(".errorlist")
    expect(first_error).to_be_in_viewport()
    for label in labels:
        field = phone.get_by_label(label, exact=True)
        expect(field).to_have_value("3-6")  # kept as typed, to correct it
        row = phone.locator(".stepper-row").filter(has=field)
        error = row.locator(".errorlist")
        expect(error).to_have_text("Enter a whole number, such as 3.")
        error.scroll_into_view_if_needed()
        expect(field).to_be_in_viewport()  # the reason is seen with its field
    assert fits(phone)
    game = Game.objects.latest("pk")
    assert not game.seats.get(position=0).line_done


def test_a_royal_order_card_refused_is_shown_with_its_reason_clear_of_the_save_bar(
    live_server: Any, phone: Any
) -> None:
    base = live_server.url
    group = a_group(phone, base, "wim")
    start_sheet(phone, base, group, "Cooper Island", ("Ann", "Ben", "Cy"))
    tap(phone, "I am Ann")
    card = phone.get_by_label("Card 3", exact=True)
    card.fill("")
    card.press_sequentially("3-6")
    tap(phone, "Save Ann's line")
    expect(card).to_be_focused()  # the page opens on it
    error = phone.locator(".stepper-row").filter(has=card).locator(".errorlist")
    expect(error).to_have_text("Enter a whole number, such as 3.")
    expect(error).to_be_in_viewport()
    bar = phone.locator(".sticky-bottom")
    assert error.bounding_box()["y"] + error.bounding_box()["height"] <= bar.bounding_box()["y"]  # type: ignore[index]
