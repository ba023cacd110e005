"""Slow and lost connections (issue 12): taps are never lost on the entry, the phone says when it is offline and
sends what waits once the connection returns, and the scoreboard says when it is stale.

The correction's counters (its reward and nugget + and −) are the taps: they show a tap at once.
"""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from scoring.log import change_log, stored_events
from scoring.models import Draft, Game

from .test_accessibility import overflow, serious
from .test_play_on_a_phone import a_table, saved, score_a_territory, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("White", "Red")
SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 50 * 1024, "uploadThroughput": 50 * 1024}
"""Chromium's "slow 3G": 2 s for every request, 50 kB/s each way."""
ONE_MORE_CIRCLE = "add:rewards:green-circle:1"
WAITS = 20_000
"""How long (ms) a slow connection may take to deliver what waits: three taps of 2 s and more on slow 3G."""


def correction(page: Any, base: str, game: Game) -> str:
    """The correction for White, at its counters; its URL."""
    url = f"{base}/games/{game.pk}/events/new/adjust/"
    page.goto(url)
    tap(page, "White")
    expect(page.locator("#wizard fieldset[data-stage=changes]")).to_be_visible()
    return url


def taps_answered(page: Any) -> list[str]:
    """The ops of the taps the server answered, in order, from now on."""
    answered: list[str] = []

    def finished(request: Any) -> None:
        if request.method == "POST" and "/events/" in request.url:
            answered.append(parse_qs(request.post_data or "").get("op", [""])[0])

    page.on("requestfinished", finished)
    return answered


def kept(game: Game) -> dict[str, Any]:
    """The event of the entry the server keeps for the phone."""
    event: dict[str, Any] = Draft.objects.get(game=game).data["event"]
    return event


def readable(page: Any) -> None:
    """No serious accessibility violation (axe-core) and nothing wider than the phone, light and dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert not serious(page), scheme
        assert not overflow(page), scheme


def nothing_waits(page: Any) -> None:
    """Every tap answered: no count or button waits, and the queue's line is empty."""
    expect(page.locator("#wizard .pending")).to_have_count(0, timeout=WAITS)
    expect(page.locator("#entry-queue")).to_be_empty()


def restarted(browser: Any, context: Any) -> Any:
    """The browser closed and opened again on the same profile (its storage kept, its pages gone): a new context."""
    profile = context.storage_state()
    context.close()
    return browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, storage_state=profile
    )


def test_three_quick_taps_on_slow_3g_all_count(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    correction(phone, live_server.url, game)
    answered = taps_answered(phone)
    network = phone.context.new_cdp_session(phone)
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions", SLOW_3G)

    plus = phone.get_by_role("button", name="one more green circle", exact=True)
    for _ in range(3):
        plus.click()
    # The phone shows the three taps at once (no answer can come in under 2 s) and how many wait.
    expect(phone.locator("#count-green-circle")).to_have_text("3", timeout=1000)
    expect(phone.locator("#entry-queue")).to_have_text(re.compile(r"^Taps waiting: [1-3]$"))

    nothing_waits(phone)
    expect(phone.locator("#count-green-circle")).to_have_text("3")
    assert answered == [ONE_MORE_CIRCLE] * 3
    assert kept(game)["rewards"] == {"green-circle": 3}


def test_taps_made_offline_are_kept_told_and_sent_in_order_when_the_connection_returns(
    live_server: Any, phone: Any
) -> None:
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    url = correction(phone, live_server.url, game)
    answered = taps_answered(phone)

    phone.context.set_offline(True)
    tap(phone, "one more green circle")
    tap(phone, "one more green circle")
    tap(phone, "one more gold nugget")
    tap(phone, "Save")  # it would save nothing if it came before the counts: the order matters
    expect(phone.locator("#count-green-circle")).to_have_text("2")
    expect(phone.locator("#count-nuggets")).to_have_text("1")
    expect(phone.get_by_role("button", name="Save")).to_have_attribute("aria-busy", "true")
    expect(phone.get_by_role("status").filter(has_text="Offline")).to_have_text(
        "Offline. Taps waiting: 4; they will be sent when the connection returns."
    )
    readable(phone)
    # Following a link asks first; staying keeps the taps.
    asked: list[str] = []
    phone.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    phone.get_by_role("link", name="Back to the game").click()
    assert asked and asked[0].startswith("Taps waiting: 4. They have not reached the game yet"), asked
    assert phone.url == url
    assert "rewards" not in kept(game) and answered == []

    phone.context.set_offline(False)
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/\?saved=0$"), timeout=WAITS)
    saved(phone, game, 0, "correction for White")
    assert answered == [ONE_MORE_CIRCLE, ONE_MORE_CIRCLE, "add:nuggets:1", "save"]
    correction_saved = {"type": "adjust", "player": "White", "rewards": {"green-circle": 2}, "nuggets": 1}
    assert stored_events(game)[-1] == correction_saved


def test_taps_waiting_survive_a_reload_and_are_sent_once_the_server_is_reached(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    url = correction(phone, live_server.url, game)

    def unreachable(route: Any) -> None:  # the taps get no answer; the page itself still loads
        if route.request.method == "POST":
            route.abort("internetdisconnected")
        else:
            route.continue_()

    phone.route(url, unreachable)
    tap(phone, "one more green circle")
    tap(phone, "one more green circle")
    expect(phone.locator("#entry-queue")).to_have_text(
        "Offline. Taps waiting: 2; they will be sent when the connection returns."
    )
    phone.reload()
    # The page shows the kept draft, then the taps that wait on it.
    expect(phone.locator("#count-green-circle")).to_have_text("2")
    expect(phone.locator("#entry-queue")).to_have_text(
        "Offline. Taps waiting: 2; they will be sent when the connection returns."
    )
    assert "rewards" not in kept(game)

    answered = taps_answered(phone)
    phone.unroute(url)  # the next try (within 2 s) reaches the server
    nothing_waits(phone)
    assert answered == [ONE_MORE_CIRCLE, ONE_MORE_CIRCLE]
    assert kept(game)["rewards"] == {"green-circle": 2}


def test_the_scoreboard_says_when_it_is_stale(live_server: Any, phone: Any) -> None:
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    spectator = phone.context.new_page()
    spectator.goto(f"{live_server.url}/watch/{game.spectator_token}/")
    stale = re.compile(r"^Not updated since \d{1,2}:\d{2}\W*(AM|PM)? — offline\?$")
    for page in (phone, spectator):
        expect(page.locator("#stale")).to_be_empty()

    phone.context.set_offline(True)  # the next poll of each page fails (every 1.5 s)
    for page in (phone, spectator):
        expect(page.locator("#stale")).to_have_text(stale)
        readable(page)
    phone.context.set_offline(False)
    for page in (phone, spectator):
        expect(page.locator("#stale")).to_be_empty()


def test_a_tap_made_after_the_tap_that_saves_is_named_as_not_taken(live_server: Any, phone: Any) -> None:
    """The last choice saves the entry: a tap queued after it (a double tap, offline) cannot reach the entry
    any more. It is not lost silently: the game page's Saved card names it."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    correction(phone, live_server.url, game)
    phone.context.set_offline(True)
    tap(phone, "one more green circle")
    tap(phone, "Save")
    tap(phone, "one more gold nugget")  # after Save: the entry will be over when it could be sent
    phone.context.set_offline(False)
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/\?saved=0$"), timeout=WAITS)
    expect(phone.locator("#saved #dropped")).to_have_text(
        re.compile(r"^Not taken by the game: .*gold nugget.* \(tapped after the entry was saved\)\.$")
    )
    assert stored_events(game)[-1] == {"type": "adjust", "player": "White", "rewards": {"green-circle": 1}}
    phone.reload()  # said once
    expect(phone.locator("#saved #dropped")).to_be_hidden()


def test_a_button_of_the_game_page_pressed_offline_says_that_it_needs_the_network(live_server: Any, phone: Any) -> None:
    """Undo in the log posts through htmx: offline, the phone says so under the button, rather than nothing."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    change_log(game, game.revision, lambda events: [{"type": "round_end"}])
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.wait_for_function("() => document.documentElement.dataset.ready !== undefined")
    event = phone.locator("#event-0")
    event.locator("summary").click()
    phone.context.set_offline(True)
    event.get_by_role("button", name="Undo").click()
    expect(event.get_by_role("alert")).to_have_text(
        "This needs the network: nothing was changed. Go back, and try again once the phone is online."
    )
    phone.context.set_offline(False)
    assert stored_events(game) == [{"type": "round_end"}]


def test_a_building_cell_tapped_offline_shows_the_count_it_will_have(live_server: Any, phone: Any) -> None:
    """A cell of the buildings grid counts one more a tap and goes back to none past what a player has (3 farms
    in a 2-player game, once round 1 is over): offline, each tap shows that count at once, marked as waiting,
    and the server agrees."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    change_log(game, game.revision, lambda events: [{"type": "round_end"}])
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    score_a_territory(phone, "Forest")
    farm = phone.get_by_role("button", name=re.compile(r"^White, Farm: \d+$"))
    expect(farm).to_have_text("·")
    phone.context.set_offline(True)
    farm.click()
    expect(farm).to_have_text("1")
    expect(farm).to_have_attribute("aria-busy", "true")
    farm.click()
    expect(farm).to_have_text("2")
    farm.click()
    expect(farm).to_have_text("3")
    farm.click()
    expect(farm).to_have_text("·")  # a fourth farm: back to none, as the server will count it
    farm.click()
    expect(farm).to_have_text("1")
    expect(phone.get_by_role("status").filter(has_text="Offline")).to_contain_text("Taps waiting: 5")
    phone.context.set_offline(False)
    nothing_waits(phone)
    expect(phone.get_by_role("button", name="White, Farm: 1", exact=True)).to_have_text("1")
    assert kept(game)["buildings"] == {"White": {"farm": 1}}


@pytest.mark.parametrize("closed", ["the tab", "the browser"])
def test_taps_made_offline_survive_a_closed_tab_or_browser_and_are_sent_once(
    live_server: Any, phone: Any, browser: Any, closed: str
) -> None:
    """The queue is kept in the phone's storage, not the tab's: a new tab of the same browser, or the browser
    started again with its profile (Playwright's storage state: cookies and localStorage), sends the taps once
    the page is open again, each once, and then forgets them."""
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    url = correction(phone, live_server.url, game)
    context = phone.context
    context.set_offline(True)
    tap(phone, "one more green circle")
    tap(phone, "one more green circle")
    expect(phone.locator("#entry-queue")).to_contain_text("Taps waiting: 2")
    phone.close()
    context.set_offline(False)
    if closed == "the browser":
        context = restarted(browser, context)
    page = context.new_page()
    answered = taps_answered(page)
    page.goto(url)
    nothing_waits(page)
    expect(page.locator("#count-green-circle")).to_have_text("2")
    assert answered == [ONE_MORE_CIRCLE, ONE_MORE_CIRCLE]
    assert kept(game)["rewards"] == {"green-circle": 2}
    assert page.evaluate("Object.keys(localStorage).filter((name) => name.startsWith('entry-queue'))") == []
    page.reload()  # nothing is sent again
    expect(page.locator("#count-green-circle")).to_have_text("2")
    expect(page.locator("#entry-queue")).to_be_empty()
    assert answered == [ONE_MORE_CIRCLE, ONE_MORE_CIRCLE]
    if closed == "the browser":
        context.close()


def cached(page: Any, path: str, kept: bool = True) -> None:
    """Wait until the service worker's cache holds a copy of ``path`` (or, ``kept`` false, holds none): asked
    again every 0.1 s, for up to 10 s (page.wait_for_function does not wait for a promise)."""
    deadline = time.monotonic() + 10
    while page.evaluate("async (path) => Boolean(await caches.match(path))", path) != kept:
        assert time.monotonic() < deadline, f"{path} {'never' if kept else 'still'} kept"
        page.wait_for_timeout(100)


def test_a_phone_of_a_test_not_about_offline_use_has_no_service_worker(live_server: Any, phone: Any) -> None:
    """The service worker would answer some requests from its cache: only the tests about offline use allow it
    (``service_workers="allow"``), the others see the server's own answers."""
    phone.goto(f"{live_server.url}/")
    # Once a registration resolves, it is listed (as in the offline test's context), unless blocked.
    registered = "navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.getRegistrations())"
    assert phone.evaluate(f"{registered}.then((all) => all.length)") == 0
    phone.reload()
    assert phone.evaluate("navigator.serviceWorker.controller") is None


def test_offline_a_game_page_shows_its_last_copy_and_any_other_page_says_what_to_do(
    live_server: Any, browser: Any
) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, service_workers="allow"
    )
    phone = context.new_page()
    game = a_table(phone, live_server.url, "maya", PLAYERS)
    path = f"/games/{game.pk}/"
    phone.goto(live_server.url + path)
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    phone.reload()  # through the service worker, which keeps a copy
    cached(phone, path)
    expect(phone.locator("[data-offline-copy]")).to_be_hidden()

    context.set_offline(True)
    phone.reload()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Okanagan · White, Red")
    expect(phone.locator("[data-offline-copy]")).to_be_visible()
    expect(phone.locator("[data-offline-copy]")).to_have_text(
        "Offline: what you see may be out of date; taps are kept."
    )
    expect(phone.locator("#stale")).to_have_text(re.compile(r"^Not updated since .* — offline\?$"))  # its poll fails
    readable(phone)
    # A button of the page that posts a plain form: the phone says that it needs the network, not the browser.
    phone.get_by_role("button", name="End of round 1").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Offline")
    expect(phone.get_by_text("This needs the network: nothing was changed.")).to_be_visible()
    expect(phone.get_by_text("This page could not be loaded")).to_be_hidden()
    readable(phone)
    phone.go_back()
    expect(phone.locator("[data-offline-copy]")).to_be_visible()

    phone.goto(f"{live_server.url}/rules/")  # never opened: the offline page, styled by the kept stylesheet
    expect(phone.get_by_role("heading", level=1)).to_have_text("Offline")
    expect(phone.get_by_text("Taps made on an entry are kept on this phone")).to_be_visible()
    assert phone.evaluate("getComputedStyle(document.querySelector('main')).maxWidth") != "none"
    readable(phone)
    context.set_offline(False)
    phone.get_by_role("link", name="Try again").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Rules")
    # Online, a button that posts goes through the service worker to the server, redirect and all.
    phone.goto(live_server.url + path)
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    phone.get_by_role("button", name="End of round 1").click()
    expect(phone.get_by_role("button", name="End of round 1")).to_have_count(0)
    assert stored_events(game) == [{"type": "round_end"}]
    phone.goto(f"{live_server.url}/rules/")

    # In French from now on: the offline page is kept again, in French.
    phone.locator("#language").select_option("fr")
    phone.get_by_role("button", name="Change language").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Règles")
    deadline = time.monotonic() + 10
    while phone.evaluate("async () => (await caches.match('/offline/')).headers.get('Content-Language')") != "fr":
        assert time.monotonic() < deadline, "the offline page is not kept in French"
        phone.wait_for_timeout(100)
    context.set_offline(True)
    phone.goto(f"{live_server.url}/calculators/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Hors ligne")
    context.set_offline(False)

    # Logging out leaves no copy of a game page on the phone.
    phone.goto(live_server.url + path)
    cached(phone, path)
    phone.locator("form[action$='/logout/'] button").click()
    expect(phone.locator("form[action$='/logout/']")).to_have_count(0)  # logged out
    cached(phone, path, kept=False)
    context.close()
