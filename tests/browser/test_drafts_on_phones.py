"""Entries kept on the server, on real phones: a reload keeps an entry where it was; when another phone saves
first, an entry that still holds saves with no more taps, and one that no longer holds shows which step and why.

Each phone is a browser context of its own (its own session, so its own phone token).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.log import change_log, stored_events
from scoring.models import Game

from .test_play_on_a_phone import a_table, cell, chip, closer, csp_violations, score_a_territory, take, tap
from .test_play_on_a_phone import saved as saved_on_the_game_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NINE_SQUARES = {"type": "adjust", "player": "Ben", "rewards": {"green-square": 9}, "nuggets": 0}


def second_phone(browser: Any, base: str, game: Game) -> Any:
    """Another phone at the table: it joins with the table code, without an account."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    page.goto(f"{base}/join/{game.table_code}/")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("heading", name=re.compile("^Okanagan · "))).to_be_visible()
    return page


def forest_begun(page: Any, base: str, game: Game, icons: dict[str, int] | None = None, *, asked: bool = False) -> None:
    """A forest of 3 green squares and a green circle (or ``icons``), from the game page up to Ann's farm;
    ``asked``: another phone is entering a forest, and this one starts another."""
    page.goto(f"{base}/games/{game.pk}/")
    if asked:
        bar = page.get_by_role("navigation", name=re.compile("^Score a territory"))
        bar.get_by_role("link", name="Forest", exact=True).click()
        expect(page.get_by_role("heading", name=re.compile("is scoring a forest"))).to_be_visible()
        page.get_by_role("link", name="Start another forest").click()
        expect(page.locator("#wizard fieldset[data-stage=board]")).to_be_visible()
    else:
        score_a_territory(page, "Forest")
    for label, count in (icons or {"green square": 3, "green circle": 1}).items():
        chip(page, label, count)
    cell(page, "Ann", "Farm")


def forest_up_to_ben_s_pick(
    page: Any, base: str, game: Game, icons: dict[str, int], *, asked: bool = False
) -> Callable[[], None]:
    """Ann closes a forest of ``icons``, with a farm to Ben's silo; Ben draws a gold nugget (his special action,
    tapped on the board); Ann takes the 3 squares: up to Ben's pick, which he makes between kinds. The last
    tap, to call: Ben takes a circle, which saves the forest."""
    forest_begun(page, base, game, icons, asked=asked)
    return up_to_ben_s_pick(page)


def up_to_ben_s_pick(page: Any) -> Callable[[], None]:
    """On a forest with Ann's farm: Ben's silo, closed by Ann, Ben draws a gold nugget, Ann takes the 3 squares: up
    to Ben's pick. The last tap, to call: Ben takes a circle, which saves the forest."""
    cell(page, "Ben", "Silo")
    closer(page, "Ann")
    tap(page, "A gold nugget")
    take(page, "green square", 3)
    expect(page.locator("#wizard strong.collector")).to_have_text("Ben")
    return lambda: page.get_by_role("button", name="take 1 token: green circle", exact=True).click()


def forest_to_save(page: Any, base: str, game: Game, *, asked: bool = False) -> Callable[[], None]:
    """:func:`forest_up_to_ben_s_pick` in a forest of 3 green squares, a circle and a hexagon."""
    icons = {"green square": 3, "green circle": 1, "green hexagon": 1}
    return forest_up_to_ben_s_pick(page, base, game, icons, asked=asked)


def bigger_forest_to_save(page: Any, base: str, game: Game, *, asked: bool = False) -> Callable[[], None]:
    """:func:`forest_up_to_ben_s_pick` in a forest of 3 green squares, 2 circles and 2 hexagons."""
    icons = {"green square": 3, "green circle": 2, "green hexagon": 2}
    return forest_up_to_ben_s_pick(page, base, game, icons, asked=asked)


def lake_to_save(page: Any, base: str, game: Game) -> Callable[[], None]:
    """Ben alone in a lake of 2 blue circles, closed by Ann: up to his choice on the board. The last tap, to
    call: he takes the rewards (a circle: the only kind, filled in by itself), which saves the lake."""
    page.goto(f"{base}/games/{game.pk}/events/new/territory/")
    tap(page, "Lake")
    chip(page, "blue circle", 2)
    cell(page, "Ben", "Silo")
    closer(page, "Ann")
    return lambda: tap(page, "The rewards")


def test_an_entry_survives_a_reload_and_the_game_page(live_server: Any, phone: Any) -> None:
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "ann", ("Ann", "Ben"))
    forest_begun(phone, live_server.url, game)

    phone.reload()  # pull-to-refresh
    expect(phone.locator(".notice")).to_have_text("Your entry was kept.")
    stage = phone.locator("fieldset.stage")
    expect(stage.locator("legend")).to_have_text("The territory")
    expect(phone.get_by_role("button", name="Ann, Farm: 1", exact=True)).to_be_visible()
    expect(phone.get_by_role("button", name="3 × green square", exact=True)).to_have_attribute("aria-pressed", "true")

    phone.get_by_role("link", name="Back to the game").click()
    expect(phone.get_by_text("Your entry in progress: scoring a forest")).to_be_visible()
    phone.get_by_role("link", name="Continue", exact=True).click()
    expect(stage.locator("legend")).to_have_text("The territory")
    cell(phone, "Ben", "Silo")
    phone.go_back()
    phone.go_forward()  # Back and forth: still where the phone was
    expect(phone.get_by_role("button", name="Ben, Silo: 1", exact=True)).to_be_visible()

    tap(phone, "Cancel this entry")
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(phone.get_by_text("Your entry in progress")).to_have_count(0)
    assert not refused, refused


def test_after_another_phone_saved_the_first_phone_s_last_tap_just_saves(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = a_table(phone, live_server.url, "ann", ("Ann", "Ben"))
    other = second_phone(browser, live_server.url, game)
    last_tap = lake_to_save(phone, live_server.url, game)
    forest_to_save(other, live_server.url, game)()
    saved_on_the_game_page(other, game, 0, "forest closed by Ann")

    last_tap()  # its page saw the game before the forest
    saved_on_the_game_page(phone, game, 1, "lake closed by Ann")
    log = phone.locator("#game")
    expect(log.get_by_text("Event 0: forest closed by Ann", exact=True)).to_be_visible()
    expect(log.get_by_text("Event 1: lake closed by Ann", exact=True)).to_be_visible()
    other.context.close()


def saved_first_on_another_phone(
    live_server: Any, phone: Any, browser: Any, to_save: Callable[..., Callable[[], None]]
) -> Callable[..., None]:
    """The same forest entered on two phones while 3 green squares are left in the supply (the other phone is
    asked, and starts another forest): the other phone saves first with its last tap, then this one makes its
    own last tap, which is not taken. The check to call once this phone's entry is done: Save (unless its last
    tap saved it) asks once whether to save the same board again, and Save saves it as the game's third event;
    nothing was refused by the page's security policy."""
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "ann", ("Ann", "Ben"))
    change_log(game, game.revision, lambda events: [NINE_SQUARES])
    other = second_phone(browser, live_server.url, game)
    last_tap = to_save(phone, live_server.url, game)
    to_save(other, live_server.url, game, asked=True)()
    saved_on_the_game_page(other, game, 1, "forest closed by Ann")
    last_tap()

    def saved(by_hand: bool = True) -> None:
        if by_hand:
            tap(phone, "Save")
        expect(phone.get_by_role("alert")).to_contain_text("saved by another phone a moment ago, has this same board")
        tap(phone, "Save mine as well")  # asked once
        saved_on_the_game_page(phone, game, 2, "forest closed by Ann")
        expect(phone.locator("#game").get_by_text("Event 2: forest closed by Ann", exact=True)).to_be_visible()
        assert not refused, refused
        other.context.close()

    return saved


def test_after_another_phones_save_the_step_that_no_longer_holds_is_shown(
    live_server: Any, phone: Any, browser: Any
) -> None:
    saved = saved_first_on_another_phone(live_server, phone, browser, bigger_forest_to_save)
    stage = phone.locator("fieldset.stage")
    expect(stage.locator("legend")).to_have_text("Collection")
    expect(phone.get_by_role("alert")).to_have_text("Ann took 3 × green square but the pool had 0 left")
    expect(phone.locator(".notice")).to_contain_text("The game changed on another phone")
    expect(stage).to_contain_text("Ann: 0 of 3 taken")
    expect(phone.get_by_role("button", name="take 1 token: green square")).to_have_count(0)  # none left in the pool
    expect(phone.locator(".summary[data-stage=board]")).to_contain_text("Ann 3, Ben 1")  # the rest is kept
    # The rest of Ann's 3 is a hexagon: her turn ends by itself. Ben's circle was the tap not taken; his turn (a
    # hexagon, the only kind left) is filled in by itself, and the forest, complete, saves itself.
    phone.get_by_role("button", name="take 2 tokens: green circle", exact=True).click()
    saved(by_hand=False)
    assert stored_events(Game.objects.get())[-1]["picks"] == {
        "Ann": {"green-circle": 2, "green-hexagon": 1},
        "Ben": {"green-hexagon": 1},
    }


def test_after_another_phones_save_a_pick_with_nothing_left_to_choose_is_made_again_by_itself(
    live_server: Any, phone: Any, browser: Any
) -> None:
    saved = saved_first_on_another_phone(live_server, phone, browser, forest_to_save)
    # Only the circle and the hexagon are left in the pool: Ann takes them without a choice, and Ben has nothing
    # left to take.
    expect(phone.locator("#wizard fieldset[data-stage=confirm]")).to_be_visible()
    expect(phone.locator(".notice")).to_contain_text("The game changed on another phone")
    expect(phone.get_by_role("alert")).to_contain_text("but the pool had 0 left")
    expect(phone.locator(".summary[data-stage=board]")).to_contain_text("Ann 3, Ben 1")  # the rest is kept
    picks = phone.locator(".summary[data-stage=picks]")
    expect(picks).to_contain_text("Ben –")
    expect(picks.locator("svg[aria-label='green circle']")).to_have_count(1)
    expect(picks.locator("svg[aria-label='green hexagon']")).to_have_count(1)
    expect(picks.locator("svg[aria-label='green square']")).to_have_count(0)
    saved()
