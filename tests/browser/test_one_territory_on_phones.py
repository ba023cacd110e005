"""One table, one truth, on several phones (each a browser context of its own): the bottom bar names who is
entering a territory on another phone, and opening it there asks first; a phone's stale controls once the game
has ended, or was deleted, say what happened instead of a 404 or a 500."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.log import finish
from scoring.models import Game

from .test_drafts_on_phones import lake_to_save, second_phone, up_to_ben_s_pick
from .test_play_on_a_phone import a_table, cell, chip, saved, score_a_territory, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def bar_link(page: Any, territory: str) -> Any:
    """The link of ``territory`` in the bottom bar ("Score a territory")."""
    bar = page.get_by_role("navigation", name=re.compile("^Score a territory"))
    return bar.get_by_role("link", name=territory, exact=True)


def claimed(page: Any, base: str, game: Game, name: str) -> None:
    """This phone is ``name`` ("I am …"), back on the game page."""
    page.goto(f"{base}/games/{game.pk}/")
    tap(page, f"I am {name}")
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.get_by_role("button", name=f"I am {name}", exact=True)).to_have_count(0)


def two_phones(base: str, phone: Any, browser: Any, players: tuple[str, str]) -> tuple[Game, Any]:
    """A game of ``players``: ``phone`` (its group's owner) is the first, another phone (a guest) the second."""
    game = a_table(phone, base, players[0].lower(), players)
    claimed(phone, base, game, players[0])
    other = second_phone(browser, base, game)
    claimed(other, base, game, players[1])
    return game, other


def test_a_second_phone_sees_who_enters_a_territory_is_asked_and_continues_it(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game, other = two_phones(live_server.url, phone, browser, ("Lena", "Alexandrina-Josephine"))
    score_a_territory(phone, "Field")
    chip(phone, "yellow square", 2)

    field = bar_link(other, "Field")
    expect(field.locator(".terr-who")).to_have_text("Lena…")  # live, where the eye is, with no reload
    expect(field).to_have_accessible_description("Lena is scoring a field…")
    assert other.evaluate("document.documentElement.scrollWidth") <= 390  # four buttons still fit
    field.click()
    expect(other.get_by_role("heading", name="Lena is scoring a field on another phone.")).to_be_visible()
    expect(other.get_by_role("link", name="Start another field")).to_be_visible()
    tap(other, "Continue Lena's entry here")
    expect(other.get_by_role("button", name="2 × yellow square", exact=True)).to_have_attribute("aria-pressed", "true")

    phone.goto(f"{live_server.url}/games/{game.pk}/")  # Lena's phone: her entry went to the other phone
    long_name = bar_link(phone, "Field").locator(".terr-who")
    expect(long_name).to_have_text("Alexandrina-Josephine…")
    box, link = long_name.bounding_box(), bar_link(phone, "Field").bounding_box()
    assert box is not None and link is not None and box["x"] + box["width"] <= link["x"] + link["width"] + 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # cut with an ellipsis, not wider
    other.context.close()


def forest_opened(page: Any, base: str, game: Game) -> None:
    """The forest's entry, opened from its link (as from the bottom bar) before the other phone tapped anything."""
    page.goto(f"{base}/games/{game.pk}/events/new/territory/?territory=forest")
    expect(page.locator("#wizard fieldset[data-stage=board]")).to_be_visible()


def forest_to_save(page: Any, icons: dict[str, int]) -> None:
    """On an opened forest: ``icons`` and Ann's farm, then up to Ben's pick, which saves it."""
    for label, count in icons.items():
        chip(page, label, count)
    cell(page, "Ann", "Farm")
    up_to_ben_s_pick(page)()


def test_two_phones_that_open_one_forest_at_once_are_told_and_the_second_may_plainly_not_save(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game, ben = two_phones(live_server.url, phone, browser, ("Ann", "Ben"))
    forest_opened(phone, live_server.url, game)
    forest_opened(ben, live_server.url, game)  # neither is asked: no entry exists yet
    chip(phone, "green square", 3)
    chip(ben, "green square", 3)
    # As soon as both entries exist, each board says so, with no tap (its live part's next poll).
    expect(phone.locator("#entry-live")).to_have_text("Ben is scoring a forest too.")
    expect(ben.locator("#entry-live")).to_have_text("Ann is scoring a forest too.")
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390

    forest_to_save(phone, {"green circle": 1, "green hexagon": 1})
    saved(phone, game, 0, "forest closed by Ann")
    expect(ben.locator("#entry-live")).to_have_text("")  # Ann's entry is over

    forest_to_save(ben, {"green circle": 2, "green hexagon": 1})  # one icon more: not the same board
    question = ben.get_by_role("alert")
    expect(question).to_contain_text("Event 0 (Forest, closed by Ann) was saved by Ann while you were entering yours.")
    keep, drop = ben.get_by_role("button", name="Save mine as well"), ben.get_by_role("button", name="Don't save mine")
    keep_box, drop_box = keep.bounding_box(), drop.bounding_box()
    assert keep_box is not None and drop_box is not None and drop_box["height"] == keep_box["height"] >= 44
    drop.click()
    expect(ben).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(ben.locator("#game").get_by_text("Event 0: forest closed by Ann", exact=True)).to_be_visible()
    assert Game.objects.get().events.count() == 1
    ben.context.close()


def test_a_second_phone_asked_may_start_another_territory_of_that_kind(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = a_table(phone, live_server.url, "lena", ("Lena", "Ben"))
    other = second_phone(browser, live_server.url, game)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    score_a_territory(phone, "Lake")
    chip(phone, "blue circle", 2)
    expect(bar_link(other, "Lake").locator(".terr-who")).to_have_text("a phone…")  # nobody at the table yet
    bar_link(other, "Lake").click()
    expect(other.get_by_role("heading", name="Another phone is scoring a lake.")).to_be_visible()
    other.get_by_role("link", name="Start another lake").click()
    expect(other.locator("#wizard fieldset[data-stage=board]")).to_be_visible()
    expect(other.get_by_role("button", name="2 × blue circle", exact=True)).to_have_attribute("aria-pressed", "false")
    other.context.close()


def test_the_saved_card_goes_when_the_game_ends_and_a_stale_undo_says_why(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "ann", ("Ann", "Ben"))
    lake_to_save(phone, live_server.url, game)()
    saved(phone, game, 0, "lake closed by Ann")
    phone.route(re.compile(r"/live/"), lambda route: route.abort())  # its polls lost: the card stays, stale
    game.refresh_from_db()
    finish(game, game.revision)  # another phone ends the game
    tap(phone, "Undo")
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(phone.get_by_text("The game has ended: its events can no longer be changed.")).to_be_visible()
    expect(phone.locator("#final")).to_be_visible()  # the game as it is: its final scores
    assert Game.objects.get().events.count() == 1

    phone.unroute(re.compile(r"/live/"))
    phone.goto(f"{live_server.url}/games/{game.pk}/?saved=0")  # a Saved card of an ended game is not shown
    expect(phone.locator("#final")).to_be_visible()
    expect(phone.locator("#saved")).to_have_count(0)


@pytest.mark.parametrize("control", ["Undo", "Edit"])
def test_a_guests_stale_undo_or_edit_after_the_end_says_why_as_a_members_does(
    live_server: Any, phone: Any, browser: Any, control: str
) -> None:
    game = a_table(phone, live_server.url, "ann", ("Ann", "Ben"))
    guest = second_phone(browser, live_server.url, game)  # joined with the table code, no account
    lake_to_save(guest, live_server.url, game)()
    saved(guest, game, 0, "lake closed by Ann")
    guest.route(re.compile(r"/live/"), lambda route: route.abort())  # its polls lost: the card stays, stale
    game.refresh_from_db()
    finish(game, game.revision)  # a member's phone ends the game
    card = guest.locator("section#saved")
    card.get_by_role("button" if control == "Undo" else "link", name=control, exact=True).click()
    expect(guest).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(guest.get_by_text("The game has ended: its events can no longer be changed.")).to_be_visible()
    expect(guest.locator("#final")).to_be_visible()  # the game as it is: its final scores
    assert Game.objects.get().events.count() == 1
    guest.context.close()


def test_the_saved_card_goes_live_once_another_phone_ends_the_game(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "ann", ("Ann", "Ben"))
    lake_to_save(phone, live_server.url, game)()
    saved(phone, game, 0, "lake closed by Ann")
    game.refresh_from_db()
    finish(game, game.revision)
    expect(phone.locator("#saved")).to_have_count(0)  # the next poll takes it away
    expect(phone.locator("#final")).to_be_visible()


def test_a_game_deleted_during_a_save_sends_the_phones_away_saying_who(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = a_table(phone, live_server.url, "ann", ("Ann", "Ben"))
    saving, watching = second_phone(browser, live_server.url, game), second_phone(browser, live_server.url, game)
    last_tap = lake_to_save(saving, live_server.url, game)
    # The saving phone's entry page would learn of the deletion by its own polls (the live part, the entry's
    # check) and go before its tap: they are held back, so that what is tested is the save itself.
    saving.route(re.compile(r"/live/|/entry/\?entry="), lambda route: route.abort())
    phone.goto(f"{live_server.url}/games/{game.pk}/delete/")
    tap(phone, "Delete the game")
    expect(phone.get_by_text(re.compile("^Game deleted: "))).to_be_visible()

    last_tap()  # the save of a game deleted meanwhile
    expect(saving).to_have_url(f"{live_server.url}/")
    expect(saving.get_by_text("This game was deleted by ann.")).to_be_visible()
    expect(watching).to_have_url(f"{live_server.url}/")  # its poll: sent away with no tap
    expect(watching.get_by_text("This game was deleted by ann.")).to_be_visible()
    assert not Game.objects.exists()
    saving.context.close()
    watching.context.close()
