"""Taps kept on a phone go into the entry they were made in, whichever way the phone comes back to it, and never
into another (issue 32): the queue is kept under the entry's identity, which the server gives the page when the
entry opens and which every tap carries. A tap that can no longer apply (its entry continued on another phone,
saved, cancelled) is named on the phone as not taken, and a phone whose entry was continued elsewhere learns it
without a tap.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Draft, Game

from .test_drafts_on_phones import second_phone
from .test_play_on_a_phone import a_table, score_a_territory
from .test_slow_network import WAITS, nothing_waits, restarted, taps_answered

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("White", "Red")
CELLS = (("White", "Farm"), ("White", "Warehouse"), ("White", "Silo"), ("Red", "Farm"), ("Red", "Warehouse"))
"""Five cells of the buildings grid, one building each: what each tap made counts, once."""
TAPS = re.compile(r"/events/new/territory/$")
"""Where the entry's taps are posted."""
ALL_FIVE = {"White": {"farm": 1, "warehouse": 1, "silo": 1}, "Red": {"farm": 1, "warehouse": 1}}


def cell_button(page: Any, player: str, building: str) -> Any:
    return page.get_by_role("button", name=re.compile(rf"^{player}, {building}: \d+$"))


def tap_cells(page: Any, cells: tuple[tuple[str, str], ...]) -> None:
    """Tap each cell once, offline: each shows its count at once, marked as waiting."""
    for player, building in cells:
        button = cell_button(page, player, building)
        button.click()
        expect(button).to_have_text("1")


def buildings(game: Game) -> dict[str, Any]:
    """The buildings of the lake the server keeps for the phone (none: no draft)."""
    draft = Draft.objects.filter(game=game).first()
    return {} if draft is None else dict(draft.data["event"].get("buildings", {}))


def queues(page: Any) -> list[str]:
    return list(page.evaluate("Object.keys(localStorage).filter((name) => name.startsWith('entry-queue'))"))


def first_answer_lost(page: Any) -> list[str]:
    """The entry's first tap reaches the server but its answer is lost; no later tap reaches it (the phone is out
    of reach). The address of the tap whose answer was lost, once it was."""
    lost: list[str] = []

    def lose(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
        elif lost:
            route.abort("internetdisconnected")
        else:
            lost.append(route.request.url)
            route.fetch()  # the server takes the tap...
            route.abort("internetdisconnected")  # ...and its answer never comes back

    page.route(TAPS, lose)
    return lost


def lake(page: Any, base: str, game: Game) -> str:
    """The game page, then a lake's board (its address has ``?territory=lake``); that address."""
    page.goto(f"{base}/games/{game.pk}/")
    score_a_territory(page, "Lake")
    assert page.url.endswith("?territory=lake")
    return str(page.url)


def test_taps_kept_offline_are_sent_into_their_entry_by_continue(live_server: Any, phone: Any) -> None:
    """The entry reached the server with its first tap; five more are made offline and the tab is closed. Back
    online, "Continue" on the game page (an address without ``?territory=lake``) sends the five, once."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    lake(phone, live_server.url, game)
    first, *rest = CELLS
    tap_cells(phone, (first,))
    expect(phone.get_by_role("button", name="White, Farm: 1", exact=True)).to_be_visible()  # answered
    context = phone.context
    context.set_offline(True)
    tap_cells(phone, tuple(rest))
    expect(phone.locator("#entry-queue")).to_contain_text("Offline. Taps waiting: 4")
    phone.close()
    context.set_offline(False)

    page = context.new_page()
    answered = taps_answered(page)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("link", name="Continue", exact=True).click()
    nothing_waits(page)
    expect(page.get_by_role("button", name="Red, Warehouse: 1", exact=True)).to_be_visible()
    assert buildings(game) == ALL_FIVE
    assert len(answered) == 4
    assert queues(page) == []


def test_a_tap_whose_answer_was_lost_and_the_taps_after_it_survive_a_restarted_browser(
    live_server: Any, phone: Any, browser: Any
) -> None:
    """The first tap reaches the server but its answer is lost; the next taps are made offline; the browser is
    closed and started again. The lake's own address sends every tap, each counted once."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    url = lake(phone, live_server.url, game)
    lost = first_answer_lost(phone)
    tap_cells(phone, CELLS[:1])
    expect(phone.locator("#entry-queue")).to_contain_text("Offline. Taps waiting: 1")  # the answer was lost
    assert lost and buildings(game) == {"White": {"farm": 1}}
    context = phone.context
    context.set_offline(True)
    tap_cells(phone, CELLS[1:])
    expect(phone.locator("#entry-queue")).to_contain_text("Offline. Taps waiting: 5")

    page = restarted(browser, context).new_page()
    answered = taps_answered(page)
    page.goto(url)
    nothing_waits(page)
    expect(page.get_by_role("button", name="Red, Warehouse: 1", exact=True)).to_be_visible()
    assert buildings(game) == ALL_FIVE  # the first tap, sent again, counted once
    assert len(answered) == 5
    assert queues(page) == []
    context.close()


def test_taps_of_an_entry_that_is_over_never_go_into_the_next_one(live_server: Any, phone: Any) -> None:
    """A lake's taps wait on the phone (its first reached the server, its answer lost); back on the game page,
    the phone cancels that lake. The next lake it opens starts empty: the taps kept are named as not taken."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    lake(phone, live_server.url, game)
    first_answer_lost(phone)
    tap_cells(phone, CELLS[:3])
    expect(phone.locator("#entry-queue")).to_contain_text("Offline. Taps waiting: 3")  # the first answer was lost
    context = phone.context
    phone.close()
    assert buildings(game) == {"White": {"farm": 1}}

    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("button", name="Cancel this entry").click()
    expect(page.get_by_text("Your entry in progress")).to_have_count(0)
    score_a_territory(page, "Lake")
    expect(page.locator("#entry-queue")).to_have_text(
        re.compile(r"^Taps kept on this phone from an earlier entry, .*not taken: White, Farm: 0.*\.$")
    )
    for player, building in CELLS:
        expect(page.get_by_role("button", name=f"{player}, {building}: 0", exact=True)).to_have_text("·")
    assert buildings(game) == {}
    assert queues(page) == []
    tap_cells(page, CELLS[3:4])  # the new lake goes on
    nothing_waits(page)
    assert buildings(game) == {"Red": {"farm": 1}}


def test_a_phone_whose_entry_is_continued_elsewhere_learns_it_without_a_tap(
    live_server: Any, phone: Any, browser: Any
) -> None:
    """Another phone continues this phone's lake ("Continue here"): without a tap, this phone says so, and its
    controls go but for the way back to the game."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    lake(phone, live_server.url, game)
    tap_cells(phone, CELLS[:1])
    expect(phone.get_by_role("button", name="White, Farm: 1", exact=True)).to_be_visible()

    other = second_phone(browser, live_server.url, game)
    other.get_by_role("button", name="Continue here").click()
    expect(other.get_by_role("button", name="White, Farm: 1", exact=True)).to_be_visible()
    expect(phone.locator("#entry-queue")).to_have_text("This entry was continued on another phone.", timeout=WAITS)
    expect(phone.locator("#wizard button")).to_have_count(0)
    expect(phone.locator("#wizard").get_by_role("link", name="Back to the game")).to_be_visible()
    other.context.close()


def test_a_tap_waiting_on_a_phone_whose_entry_was_continued_elsewhere_is_named_as_not_taken(
    live_server: Any, phone: Any, browser: Any
) -> None:
    """This phone's tap waits (offline) when another phone continues its lake: back online, the tap is named as
    not taken, and never counted."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    lake(phone, live_server.url, game)
    tap_cells(phone, CELLS[:1])
    expect(phone.get_by_role("button", name="White, Farm: 1", exact=True)).to_be_visible()
    phone.context.set_offline(True)
    tap_cells(phone, CELLS[1:2])

    other = second_phone(browser, live_server.url, game)
    other.get_by_role("button", name="Continue here").click()
    expect(other.get_by_role("button", name="White, Farm: 1", exact=True)).to_be_visible()
    phone.context.set_offline(False)
    expect(phone.locator("#entry-queue")).to_have_text(
        "This entry was continued on another phone. Not taken by the game: White, Warehouse: 0.", timeout=WAITS
    )
    expect(phone.locator("#wizard button")).to_have_count(0)
    assert buildings(game) == {"White": {"farm": 1}}
    assert queues(phone) == []
    other.context.close()
