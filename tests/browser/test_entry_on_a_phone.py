"""The entry's screens keep what the player opened (issue 12's bugs)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_play_on_a_phone import a_table, cell, chip, closer, in_entry, saved, take, tap, tie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_icons_of_other_colours_are_one_tap_each_with_no_disclosure(live_server: Any, phone: Any) -> None:
    """Was: "Icons of other colours" closed again after any + on a home-colour icon. Now they are always shown,
    a tap is one more, and "Clear them" sets them all back to none."""
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    tap(phone, "Forest")
    others = phone.get_by_role("group", name="Icons of other colours: a tap is one more.")
    expect(others.get_by_role("button")).to_have_count(9)
    chip(phone, "green square", 1)  # a home-colour icon: the wizard is swapped, the other colours still there
    others.get_by_role("button", name="blue circle: 0", exact=True).click()
    expect(others.get_by_role("button", name="blue circle: 1", exact=True)).to_be_visible()
    others.get_by_role("button", name="blue circle: 1", exact=True).click()
    expect(others.get_by_role("button", name="blue circle: 2", exact=True)).to_contain_text("2")
    phone.get_by_role("button", name="one more green square", exact=True).click()
    expect(phone.get_by_role("button", name="2 × green square", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(others.get_by_role("button", name="blue circle: 2", exact=True)).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    tap(phone, "Clear them")
    expect(others.get_by_role("button", name="blue circle: 0", exact=True)).to_be_visible()
    expect(phone.get_by_role("button", name="2 × green square", exact=True)).to_have_attribute("aria-pressed", "true")


def bottom_in_view(locator: Any) -> None:
    """``locator`` is on the screen without scrolling: in the viewport, its bottom above the screen's edge."""
    expect(locator).to_be_in_viewport()
    assert locator.evaluate("element => element.getBoundingClientRect().bottom") <= 844


def test_the_board_s_answer_is_in_thumb_reach_without_scrolling(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo", "Ines", "Ugo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    tap(phone, "Forest")
    chip(phone, "green square", 1)
    closer(phone, "Maya")  # this phone is nobody at the table: asked first (see the next test)
    # Four players' closer chips, the reward icons and the buildings grid make a long page: the board's answer
    # stays at the bottom of the screen, whichever question it is, once a building is entered. Before, the
    # answer ("Nobody built here: save") stays at the end of the board, covering no row of the grid.
    assert phone.evaluate("document.documentElement.scrollHeight") > 844
    answer = phone.locator("#wizard div.next.answer")
    expect(answer.get_by_role("button", name="Nobody built here: save")).not_to_be_in_viewport()
    expect(phone.get_by_role("button", name="Maya, Farm: 0", exact=True)).to_be_in_viewport()
    cell(phone, "Ugo", "Warehouse")  # the last row of the grid: Ugo alone
    phone.wait_for_load_state("networkidle")  # the swap done: the buttons measured are the ones shown
    for name in ("The rewards", "The special action"):
        bottom_in_view(answer.get_by_role("button", name=name))
    cell(phone, "Maya", "Farm")  # Ugo is last of two: his special action is below the grid
    phone.wait_for_load_state("networkidle")
    bottom_in_view(answer.get_by_role("link", name="Ugo takes the special action: choose it below."))


def test_a_tie_is_answered_in_thumb_reach_on_a_four_player_board(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo", "Ines", "Ugo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    tap(phone, "Forest")
    chip(phone, "green square", 2)
    for player in ("Maya", "Theo", "Ines", "Ugo"):
        cell(phone, player, "Farm")
    closer(phone, "Maya")
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate("document.documentElement.scrollHeight") > 844
    assert phone.evaluate("window.scrollY") == 0  # nothing scrolled the page
    tied = phone.get_by_role("group", name=re.compile("^Players tie: Maya, who closed the territory"))
    expect(phone.locator("#wizard div.next.answer #tie-question")).to_be_in_viewport()
    expect(tied.get_by_role("button")).to_have_text(["Maya", "Theo", "Ines", "Ugo"])
    for button in tied.get_by_role("button").all():
        bottom_in_view(button)
    tie(phone, "Ugo")  # the first answer ends the board; the rest of the order follows on the next screen
    expect(phone.locator("#wizard fieldset.stage")).to_have_attribute("data-stage", "order")
    expect(phone.locator(".summary[data-stage=board]")).to_contain_text("closed by Maya")
    tie(phone, "Theo")
    tie(phone, "Maya")
    expect(phone.locator(".summary[data-stage=order]")).to_contain_text("Ugo > Theo > Maya > Ines")


def test_an_answer_on_the_board_asks_who_closed_the_territory(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")  # a phone that is nobody at the table
    tap(phone, "Lake")
    chip(phone, "blue circle", 2)
    cell(phone, "Theo", "Silo")
    # The answer asks who closed first, where the thumb is (issue 23: the question that needs the closer
    # showed, and its tap was refused with the reason at the top of the board).
    answer = phone.locator("#wizard div.next.answer")
    expect(answer.get_by_role("button", name="The special action")).to_have_count(0)
    asked = answer.get_by_role("group", name="Who closed the territory? Tap their name.")
    bottom_in_view(asked)
    stage = phone.locator("#wizard fieldset.stage")
    expect(stage).to_have_attribute("data-stage", "board")
    asked.get_by_role("button", name="Maya", exact=True).click()
    expect(phone.get_by_role("group", name="Closed by").get_by_role("button", name="Maya")).to_have_attribute(
        "aria-pressed", "true"
    )
    # What was entered is kept.
    expect(phone.get_by_role("button", name="2 × blue circle", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(phone.get_by_role("button", name="Theo, Silo: 1", exact=True)).to_be_visible()
    tap(phone, "The special action")
    expect(stage).to_have_attribute("data-screen", "resolve")
    expect(stage).to_contain_text("Theo takes the special action:")
    expect(phone.locator(".summary[data-stage=board]")).to_contain_text("closed by Maya")
    expect(phone.locator(".summary[data-stage=lone]")).to_contain_text("the special action")


def test_score_a_territory_is_in_thumb_reach_on_a_four_player_game_page(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo", "Ines", "Ugo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "I am Maya")  # in round 1 with no card entered at the table: the game page, her cards a tap away
    expect(phone.locator("#my-cards").get_by_role("link", name="My objective cards")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollHeight") > 844
    territories = phone.get_by_role("navigation", name="Score a territory closed by Maya")
    expect(territories).to_be_in_viewport()
    for territory in ("Forest", "Lake", "Field", "Mountain"):
        expect(territories.get_by_role("link", name=territory, exact=True)).to_be_in_viewport()
    # A territory's link opens its board, closed by this phone's player.
    territories.get_by_role("link", name="Mountain", exact=True).click()
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/events/new/territory/\?territory=mountain$"))
    expect(phone.locator(".summary[data-stage=territory]")).to_contain_text("Mountain")
    expect(phone.get_by_role("group", name="Closed by").get_by_role("button", name="Maya")).to_have_attribute(
        "aria-pressed", "true"
    )


def test_the_collection_can_be_changed_from_its_summary_line(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    tap(phone, "Lake")
    chip(phone, "blue circle", 1)
    chip(phone, "blue square", 1)
    cell(phone, "Theo", "Silo")
    closer(phone, "Maya")
    tap(phone, "The rewards")
    phone.get_by_role("button", name="take 1 token: blue circle", exact=True).click()  # Theo may take 1: saved
    card = saved(phone, game, 0, "lake closed by Maya")
    # A new entry saves on its last pick; its edit ends on the Save step, where the collection is changed.
    card.get_by_role("link", name="Edit").click()
    picks = phone.locator(".summary[data-stage=picks]")
    expect(picks.locator("svg[aria-label='blue circle']")).to_have_count(1)
    in_entry(phone, "Change Collection")
    stage = phone.locator("#wizard fieldset.stage")
    expect(stage).to_have_attribute("data-stage", "picks")
    expect(phone.locator("#wizard strong.collector")).to_have_text("Theo")
    expect(stage.locator("button[aria-pressed=true]")).to_have_count(0)
    take(phone, "blue square", 1)
    expect(stage).to_have_attribute("data-stage", "confirm")  # an edit is saved by hand
    expect(picks.locator("svg[aria-label='blue square']")).to_have_count(1)
    expect(picks.locator("svg[aria-label='blue circle']")).to_have_count(0)
    tap(phone, "Save")
    saved(phone, game, 0, "lake closed by Maya")
    theo = phone.locator("#scoreboard .card").nth(1)
    expect(theo.locator("svg[aria-label='blue square']")).to_have_count(1)
    expect(theo.locator("svg[aria-label='blue circle']")).to_have_count(0)


def test_the_closer_taps_the_tied_players_in_order_and_may_start_again(live_server: Any, phone: Any) -> None:
    # Four tied players: 24 orders, too many to offer each as a button (a tie of three is one tap: see
    # test_busy_territory_on_a_phone.py).
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo", "Ines", "Ugo"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    tap(phone, "Field")
    chip(phone, "yellow square", 2)
    for player in ("Maya", "Theo", "Ines", "Ugo"):
        cell(phone, player, "Warehouse")
    closer(phone, "Maya")
    # The tie is asked on the board.
    expect(phone.locator("#wizard fieldset.stage")).to_have_attribute("data-stage", "board")
    tied = phone.get_by_role("group", name=re.compile("^Players tie: Maya, who closed the territory"))
    expect(tied.get_by_role("button")).to_have_text(["Maya", "Theo", "Ines", "Ugo"])
    tie(phone, "Ines")
    expect(phone.locator("#wizard fieldset.stage")).to_contain_text("1. Ines")
    expect(tied.get_by_role("button")).to_have_text(["Maya", "Theo", "Ugo"])
    in_entry(phone, "Start again")
    expect(tied.get_by_role("button")).to_have_text(["Maya", "Theo", "Ines", "Ugo"])
    tie(phone, "Theo")
    tie(phone, "Maya")
    tie(phone, "Ines")  # Ugo, the last, goes by itself
    expect(phone.locator(".summary[data-stage=order]")).to_contain_text("Theo > Maya > Ines > Ugo")


def test_the_two_grids_of_card_icons_are_told_apart_at_a_glance(live_server: Any, phone: Any) -> None:
    """A card of one icon and a set card show the same twelve icons: each grid is in a box of its own, labelled,
    one of card-shaped buttons, the other (the card being made, dashed) of round ones."""
    game = a_table(phone, live_server.url, "maya", ("White", "Red"))
    phone.goto(f"{live_server.url}/games/{game.pk}/events/new/objectives/")
    phone.locator('#wizard button[value="set:player:0"]').click()
    one = phone.get_by_role("group", name="A card with one icon (3 VP per token): tap it.")
    sets = phone.get_by_role("group", name=re.compile(r"^A set card \(5 or 7 VP\): tap its icons\."))
    expect(one.get_by_role("button")).to_have_count(12)
    expect(sets.get_by_role("button")).to_have_count(12)

    def look(grid: Any) -> dict[str, str]:
        return grid.evaluate(
            """grid => ({box: getComputedStyle(grid.parentElement).borderStyle,
                        button: getComputedStyle(grid.querySelector('button')).borderRadius,
                        wide: String(grid.querySelector('button').getBoundingClientRect().width),
                        high: String(grid.querySelector('button').getBoundingClientRect().height)})"""
        )

    card, icon = look(one), look(sets)
    assert (card["box"], icon["box"]) == ("solid", "dashed")
    assert icon["button"] == "50%" and card["button"] != "50%"
    assert float(card["high"]) > float(card["wide"])  # a card stands upright
    boxes = [phone.locator(".card-pick.specific"), phone.locator(".card-pick.set")]
    first, second = (box.bounding_box() for box in boxes)
    assert first["y"] + first["height"] < second["y"]  # apart, one below the other
