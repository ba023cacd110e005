"""Accessibility on a phone: axe-core (the engine of browsers' accessibility audits, the npm package pinned
in package-lock.json) on every page and every stage of every kind of entry, in the light and the dark
theme, with no serious or critical violation (target sizes too); no page scrolls sideways at 320 px, nor the
table's pages at 200 % text size.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles.handlers import StaticFilesHandler
from playwright.sync_api import expect

from scoring.creation import NewGame, create_game, create_games, create_sheet_game
from scoring.help.calculators import CALCULATORS
from scoring.log import change_log
from scoring.models import Game, Group, Seat

from .test_play_on_a_phone import cell, chip, closer, in_entry, score_a_territory, tap, why, why_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PLAYERS = ("White", "Red", "Yellow")
TERRITORIES = ("forest", "lake", "field", "mountain")


COOPER_SHEET = {
    "format": "cooper-island-sheet/1",
    "players": [
        {"name": name, "logbooks": logbooks, "spaces_past_logbook": [1, 0], "royal_orders": {}, "buildings": 3,
         "leftovers": {"coins": 0, "resources": 0, "cartographer": 0, "tiles": 0}, "anchors": 0, "empty_spaces": 1}
        for name, logbooks in (("Ann", 4), ("Ben", 3))
    ],
}  # fmt: skip


def serious(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page, one line each."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # Evaluated by the browser's debugger protocol, so the site's Content-Security-Policy allows it.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    # With WCAG 2.2's target size (24 × 24 px, or spaced as far), which axe leaves off unless asked: a target partly
    # under a sticky bar is measured by what is left of it to tap.
    found = page.evaluate(
        "axe.run(document, {resultTypes: ['violations'], rules: {'target-size': {enabled: true}}})"
        ".then((r) => r.violations)"
    )
    return [
        f"{violation['id']} ({violation['impact']}): {[node['target'] for node in violation['nodes']][:3]}"
        for violation in found
        if violation["impact"] in ("serious", "critical")
    ]


def overflow(page: Any) -> str:
    """What sticks out of the page's width (the phone's screen): empty when nothing scrolls sideways.

    Measured against the screen, not ``window.innerWidth``: a phone's browser widens its layout viewport (and
    zooms out) to fit a page too wide for it.
    """
    found = _sticking_out(page)
    if found:  # measured again once the page is still: a layout caught mid-swap (a live poll) is not a page's width
        page.wait_for_timeout(700)
        found = _sticking_out(page)
    return found


def _sticking_out(page: Any) -> str:
    settled(page)
    page.evaluate("document.fonts.ready")
    found: str = page.evaluate(
        """(width) => {
        if (document.documentElement.scrollWidth <= width) return "";
        const out = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > width + 1);
        const leaves = out.filter((e) => !out.some((o) => o !== e && e.contains(o)));
        return leaves.slice(0, 4).map((e) => e.tagName.toLowerCase() + (e.className ? "." + e.className : "")
          + " " + JSON.stringify(e.textContent.trim().slice(0, 30))).join("; ")
          + ` (page ${document.documentElement.scrollWidth} px)`;
        }""",
        page.viewport_size["width"],
    )
    return found


def tour(page: Any, base: str, name: str, check: Callable[[str], None], table_only: bool = False) -> None:
    """Every page of the site, and every stage of every kind of entry, with ``check(where)`` called on each;
    ``table_only``: only the pages used at the table during a game (the game, the entry, the watch page).

    The user ``name`` signs up, owns a group with a game of White, Red and Yellow, and enters its events.
    """
    user = User.objects.create_user(name, password=f"pw-{name}-123")
    group = Group.objects.create(name=f"{name}'s table", owner=user)
    group.members.add(user)
    game = create_game(group, PLAYERS, {}, promos=True)  # with the Volcano and the Beaver Dam
    at = f"{base}/games/{game.pk}"

    def visit(path: str, where: str | None = None) -> None:
        page.goto(base + path)
        check(where or path)

    if not table_only:
        for path in ("/", "/accounts/signup/", "/accounts/login/", "/join/", f"/join/{game.table_code}/"):
            visit(path)
        visit(f"/invite/{group.invite_token}/", "invite")
        visit("/rules/")
        visit("/calculators/")
        for calculator in CALCULATORS.values():
            visit(f"/calculators/{calculator.slug}/")
            visit(f"/calculators/{calculator.slug}/?{calculator.example}")
        visit("/no-such-page/", "404")
    log_in_as(page, base, name)
    if not table_only:
        visit(f"/groups/{group.pk}/", "group")
        visit(f"/groups/{group.pk}/games/new/", "new game")
        page.get_by_text("Tokens and nugget cards in the box", exact=True).click()
        check("new game, the supply open")
        for kind in ("small_islands", "cooper_island"):
            visit(f"/groups/{group.pk}/sheets/new/{kind}/", f"sheet {kind}")
        sheet = create_games(group, [NewGame(Game.Kind.COOPER_ISLAND, ("Ann", "Ben"))])[0]
        visit(f"/games/{sheet.pk}/", "sheet game, who is this phone?")
        Seat.objects.filter(game=sheet, position=0).update(line={"order_3": "6"}, line_done=True)
        visit(f"/games/{sheet.pk}/sheet/1/", "sheet line, a card taken")
        page.get_by_label("Logbooks", exact=True).fill("")  # blank: an error at the field, never a 0
        tap(page, "Save Ben's line")
        check("sheet line with an error")
        page.get_by_label("Logbooks", exact=True).fill("2")
        tap(page, "Save Ben's line")
        check("sheet review")
        finished = create_sheet_game(group, COOPER_SHEET)
        visit(f"/games/{finished.pk}/", "sheet game over: the result and its share card")
        visit(f"/games/{sheet.pk}/delete/", "delete a game")
        visit("/accounts/password/", "password")
    visit(f"/games/{game.pk}/", "game, who is this phone?")
    if not table_only:
        visit(f"/games/{game.pk}/seats/", "seats")

    def stage(where: str) -> None:
        expect(page.locator(f"#wizard fieldset[data-stage='{where.split()[0]}']")).to_be_visible()
        check(f"{where} stage")

    # A territory where all three tie: the tie asked on the board, the rest of the order, the action, the picks.
    page.goto(f"{at}/events/new/territory/")
    stage("territory")
    tap(page, "Forest")
    stage("board")
    # Red's and White's 2 influence take 4 of the 6 tokens: a choice, so the collection is shown (a pick with
    # nothing to choose is filled in by itself).
    chip(page, "green square", 3)
    chip(page, "green circle", 2)
    chip(page, "green hexagon", 1)
    for player in PLAYERS:
        cell(page, player, "Warehouse")
    closer(page, "Red")
    page.get_by_role("button", name="blue circle: 0", exact=True).click()  # an icon of another colour: one tap
    expect(page.get_by_role("button", name="blue circle: 1", exact=True)).to_be_visible()
    orders = page.locator("#wizard div.next.answer").get_by_role(
        "group", name="Players tie: Red, who closed the territory, chooses their order:"
    )
    expect(orders).to_be_visible()
    stage("board (filled in, the tie's whole orders at its bottom, an icon of another colour)")
    in_entry(page, "Red > White > Yellow", orders)  # a tie of three: one tap orders it and ends the board
    stage("action")
    tap(page, "A gold nugget")
    stage("picks")
    collect(page)  # the last pick saves the forest
    card = landed(page)
    check("game, the Saved card")
    why_saved(card)
    check("game, the Saved card's rules unfolded")
    # An edit of a past event ends on the Save step.
    card.get_by_role("link", name="Edit").click()
    stage("confirm (an edit)")
    why(page)
    check("confirm stage, the rules applied unfolded")
    save(page)
    # A territory of two players, then of one: the last player's special action below the buildings, then the
    # lone player's choice.
    page.goto(f"{at}/events/new/territory/")
    tap(page, "Lake")
    chip(page, "blue circle", 1)  # two kinds for Red's 1 influence: a choice
    chip(page, "blue square", 1)
    cell(page, "Red", "Silo")
    cell(page, "White", "Farm")
    closer(page, "White")
    expect(page.locator("#wizard #board-action")).to_have_text("Red takes the special action:")
    stage("board (the last player's special action below the buildings)")
    cell(page, "White", "Farm")  # past the farm round 1 gives White: none (said by the cell), and Red is alone
    expect(page.locator("#wizard div.next.answer").get_by_role("button", name="The rewards")).to_be_visible()
    stage("board (the lone player's choice at its bottom)")
    tap(page, "The rewards")
    expect(page.locator("#wizard fieldset[data-stage=picks]")).to_be_visible()
    in_entry(page, "Change Alone in the territory")
    stage("lone")
    tap(page, "The rewards")
    expect(page.locator("#wizard fieldset[data-stage=picks]")).to_be_visible()
    collect(page)
    landed(page)

    page.goto(f"{at}/events/new/volcano/")
    stage("player (volcano)")
    tap(page, "Yellow")
    stage("action (volcano)")
    tap(page, "A gold nugget")  # the Volcano's action, complete: saved
    landed(page)
    page.goto(f"{at}/events/new/beaver_dam/")
    stage("player (beaver dam)")
    tap(page, "Yellow")
    stage("reward (beaver dam)")
    page.locator("#wizard fieldset[data-stage=reward] button").first.click()  # the token: saved
    landed(page)
    page.goto(f"{at}/events/new/objectives/")
    stage("player (objectives)")
    tap(page, "Enter for Red")
    stage("cards (objectives)")
    page.get_by_role("button", name="green square", exact=True).click()
    expect(page.get_by_role("button", name="green square", exact=True)).to_have_attribute("aria-pressed", "true")
    check("cards stage, a card half entered")
    tap(page, "Add this card")
    expect(page.get_by_role("button", name="Remove Specific reward (3 VP each) green square")).to_be_visible()
    check("cards stage, a card added")
    save(page, "Save these cards")
    page.goto(f"{at}/events/new/round_end/")
    stage("confirm (round end)")
    save(page)
    page.goto(f"{at}/events/new/adjust/")
    stage("player (adjust)")
    tap(page, "White")
    stage("changes (adjust)")
    tap(page, "one more gold nugget")
    expect(page.locator("#count-nuggets")).to_have_text("1")
    save(page)
    page.goto(f"{at}/events/new/holdings/")  # the quick count: a player, then their tokens and nuggets
    tap(page, "White")
    stage("count (quick count)")
    page.goto(f"{at}/")

    visit(f"/games/{game.pk}/", "game")
    tap(page, "I am White")
    expect(page.get_by_role("link", name="I am White")).to_be_visible()
    check("game, as White")
    page.goto(f"{at}/events/4/")  # event 4: Red's cards, entered above
    expect(page.get_by_role("heading", name="Red's objective cards")).to_be_visible()
    check("another player's objective cards")
    visit(f"/watch/{game.spectator_token}/", "watch")
    if table_only:
        return
    visit(f"/groups/{group.pk}/stats/", "stats")
    visit(f"/groups/{group.pk}/players/{game.seats.first().profile_id}/", "player")
    visit(f"/games/{game.pk}/finish/", "finish")
    tap(page, "End the game and score it")
    expect(page.locator("#final")).to_be_visible()
    check("game over")
    visit(f"/watch/{game.spectator_token}/", "watch, game over")
    visit(f"/groups/{group.pk}/", "group with a game")
    visit(f"/groups/{group.pk}/stats/", "stats, a game finished")  # ratings, records, insights, charts
    visit(f"/groups/{group.pk}/players/{game.seats.first().profile_id}/", "player, a game finished")


def collect(page: Any) -> None:
    """Each collector in turn takes one more of the first kind they can, until their turn ends by itself (and
    the last pick saves the territory)."""
    picks = page.locator("#wizard fieldset[data-stage=picks]")
    while picks.count():
        page.evaluate("document.getElementById('wizard').dataset.answered = 'not yet'")
        for group in picks.get_by_role("group").all():
            pressed = group.locator("button[aria-pressed=true]")
            taken = int(pressed.inner_text()) if pressed.count() else 0
            more = group.locator(f"button[value$=':{taken + 1}']")
            if more.count():
                more.click()
                break
        else:
            raise AssertionError(f"no chip to tap: {picks.inner_text()}")
        # Replaced by the server's answer, or gone with the page once the last pick saved the territory.
        expect(page.locator("#wizard[data-answered]")).to_have_count(0)


def landed(page: Any) -> Any:
    """The entry saved itself (or was saved): the game page, its Saved card first; that card."""
    expect(page).to_have_url(re.compile(r"/games/\d+/\?saved=\d+$"))
    card = page.locator("section#saved")
    expect(card).to_be_visible()
    return card


def save(page: Any, name: str = "Save") -> None:
    tap(page, name)
    expect(page).to_have_url(re.compile(r"/games/\d+/(\?saved=\d+)?$"))


def log_in_as(page: Any, base: str, name: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(f"pw-{name}-123")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your groups")).to_be_visible()


def findings(context: Any, base: str, name: str, look: Callable[[Any], object], table_only: bool = False) -> str:
    """The tour on a page of ``context``, ``look(page)`` at each stop: what it found, one line per stop."""
    page = context.new_page()
    found: dict[str, object] = {}

    def check(where: str) -> None:
        if result := look(page):
            found[where] = result

    tour(page, base, name, check, table_only=table_only)
    context.close()
    return "\n".join(f"{where}: {result}" for where, result in found.items())


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_and_no_entry_stage_has_a_serious_accessibility_violation(
    live_server: Any, browser: Any, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, color_scheme=scheme)
    problems = findings(context, live_server.url, f"axe-{scheme}", serious)
    assert not problems, problems


def test_no_page_scrolls_sideways_at_320_px(live_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True)
    wide = findings(context, live_server.url, "narrow", overflow)
    assert not wide, wide


def test_the_table_s_pages_do_not_scroll_sideways_at_200_percent_text(live_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)

    def overflow_at_200_percent(page: Any) -> str:
        # As a phone's largest text setting: every rem and em doubles (the site's sizes are all relative).
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        return overflow(page)

    wide = findings(context, live_server.url, "large", overflow_at_200_percent, table_only=True)
    assert not wide, wide


def test_the_group_page_s_player_links_are_targets_of_44_by_44_px(live_server: Any, phone: Any) -> None:
    log_in_as_owner_of_a_game(phone, live_server.url, "tall")
    phone.locator("p.muted a").first.click()  # the group
    for name in ("Ann", "Ben"):  # short names, of three letters
        box = phone.locator("#profiles").get_by_role("link", name=name, exact=True).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (name, box)


@pytest.fixture
def slow_scripts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test server sends each script a second late, as a busy phone runs them late: the page is shown
    (and its buttons can be focused and pressed) well before its deferred scripts have wired it up."""
    serve = StaticFilesHandler.serve

    def late(handler: StaticFilesHandler, request: Any) -> Any:
        if request.path.endswith(".js"):
            time.sleep(1)
        return serve(handler, request)

    monkeypatch.setattr(StaticFilesHandler, "serve", late)


def test_the_keyboard_s_focus_stays_on_the_button_pressed_in_the_entry(
    live_server: Any, phone: Any, slow_scripts: None
) -> None:
    log_in_as_owner_of_a_game(phone, live_server.url, "keys")
    score_a_territory(phone, "Forest")
    one = phone.get_by_role("button", name="1 × green square", exact=True)
    two = phone.get_by_role("button", name="2 × green square", exact=True)
    plus = phone.get_by_role("button", name="one more green square", exact=True)
    settled(phone)
    one.focus()
    phone.keyboard.press("Enter")
    expect(one).to_have_attribute("aria-pressed", "true")
    expect(one).to_be_focused()
    settled(phone)
    plus.focus()
    phone.keyboard.press("Enter")
    expect(two).to_have_attribute("aria-pressed", "true")
    expect(plus).to_be_focused()
    # What a screen reader says with the chips, the + once again focused: which count is pressed.
    expect(one).to_have_attribute("aria-pressed", "false")
    # A cell of the buildings grid keeps the focus, its name saying the new count.
    settled(phone)
    phone.get_by_role("button", name="Ann, Farm: 0", exact=True).focus()
    phone.keyboard.press("Enter")
    expect(phone.get_by_role("button", name="Ann, Farm: 1", exact=True)).to_be_focused()
    settled(phone)
    ann = phone.get_by_role("group", name="Closed by").get_by_role("button", name="Ann", exact=True)
    ann.focus()
    phone.keyboard.press("Enter")
    expect(ann).to_have_attribute("aria-pressed", "true")
    expect(ann).to_be_focused()
    # The board answered (Ann is alone): the focus goes to the first control of the next step, not to the page's
    # body.
    settled(phone)
    phone.locator("#wizard div.next.answer").get_by_role("button", name="The special action").focus()
    phone.keyboard.press("Enter")
    stage = phone.locator("#wizard fieldset.stage")
    expect(stage).to_have_attribute("data-stage", "action")
    expect(stage.get_by_role("button", name="A gold nugget")).to_be_visible()
    expect(stage.get_by_role("button").first).to_be_focused()


def test_after_a_gold_nugget_the_keyboard_s_focus_goes_to_the_first_pick(live_server: Any, phone: Any) -> None:
    """The picks' step opens with a hidden field (whose turn it is): the focus goes past it to the first take,
    not to the page's body (from where a keyboard would Tab through the whole page again)."""
    log_in_as_owner_of_a_game(phone, live_server.url, "nugget")
    score_a_territory(phone, "Forest")
    chip(phone, "green square", 3)
    chip(phone, "green circle", 1)
    cell(phone, "Ann", "Farm")
    cell(phone, "Ben", "Silo")
    closer(phone, "Ann")
    settled(phone)
    phone.get_by_role("button", name="A gold nugget", exact=True).focus()
    phone.keyboard.press("Enter")
    stage = phone.locator("#wizard fieldset.stage")
    expect(stage).to_have_attribute("data-stage", "picks")
    expect(stage.get_by_role("button").first).to_be_focused()


def test_the_scoreboard_says_briefly_what_another_phone_changed(live_server: Any, phone: Any) -> None:
    game = log_in_as_owner_of_a_game(phone, live_server.url, "news")
    news = phone.locator("#news")
    expect(news).to_have_attribute("role", "status")  # polite
    expect(news).to_have_text("")
    change_log(game, 0, lambda events: [{"type": "objectives", "player": "Ben", "cards": []}])
    # Polled, the scoreboard is replaced; the status line outside it stays and gets the news.
    expect(news).to_have_text("Event 0: objectives kept by Ben", timeout=15000)
    assert phone.locator("#news").evaluate("(element) => !element.closest('#game')")
    assert phone.locator("#game [aria-live]").count() == 0


def settled(page: Any) -> None:
    """The page is wired up (its deferred scripts ran: until then a key press submits a plain form, which
    reloads the page) and htmx has finished with the last answer (until then, the new form is not wired up
    yet)."""
    expect(page.locator("html[data-ready]")).to_have_count(1)
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def log_in_as_owner_of_a_game(page: Any, base: str, name: str) -> Game:
    """``name`` logged in on ``page`` with a new game of Ann and Ben open."""
    user = User.objects.create_user(name, password=f"pw-{name}-123")
    group = Group.objects.create(name=f"{name}'s table", owner=user)
    group.members.add(user)
    game = create_game(group, ("Ann", "Ben"), {}, promos=False)
    log_in_as(page, base, name)
    page.goto(f"{base}/games/{game.pk}/")
    return game


CONTRAST = """
(pairs) => {
  const luminance = (colour) => {
    const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return Math.round(((x + 0.05) / (y + 0.05)) * 100) / 100;
  };
  const page = getComputedStyle(document.body).backgroundColor;
  const card = getComputedStyle(document.querySelector(".card") || document.body).backgroundColor;
  const out = {};
  for (const [name, selector, property, against] of pairs) {
    const element = document.querySelector(selector);
    const style = getComputedStyle(element);
    const colour = style[property];
    if (colour === "none" || /^rgba\\(.*, 0\\)$/.test(colour)) {  // no edge at all
      out[name] = 1;
      continue;
    }
    const back = against === "text" ? style.color : against === "card" ? card : page;
    out[name] = ratio(colour, back);
  }
  return out;
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_tokens_fields_chart_bars_and_territories_stand_out_from_the_page(
    live_server: Any, browser: Any, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    game = log_in_as_owner_of_a_game(page, live_server.url, f"contrast-{scheme}")
    # The territories' links on the game page and buttons in the entry, each in its territory's colour.
    territories = [[f"{name} text", f".terr-{name}", "backgroundColor", "text"] for name in TERRITORIES]
    shown = page.evaluate(CONTRAST, territories)
    page.goto(f"{live_server.url}/games/{game.pk}/events/new/territory/")
    shown |= {f"{name}, in the entry": ratio for name, ratio in page.evaluate(CONTRAST, territories).items()}
    low_text = {name: ratio for name, ratio in shown.items() if ratio < 4.5}
    assert not low_text, low_text
    page.goto(f"{live_server.url}/games/{game.pk}/")
    score_a_territory(page, "Field")
    expect(page.locator("#wizard .token.yellow").first).to_be_visible()
    # Charts' bars in every colour of the palette, as scoring/history/charts.py draws them.
    page.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML("beforeend", '<svg class="chart">'
        + [0, 1, 2, 3, 4, 5].map((n) => `<rect class="series-${n}" width="9" height="9"/>`).join("") + "</svg>")"""
    )
    pairs = [
        ["yellow token's edge", "#wizard .token.yellow", "stroke", "page"],
    ]
    pairs += [[f"chart bar {n}", f".chart .series-{n}", "fill", where] for n in range(6) for where in ("page", "card")]
    found = page.evaluate(CONTRAST, pairs)
    page.goto(live_server.url + "/accounts/login/")
    found |= page.evaluate(CONTRAST, [["login field's border", "#id_username", "borderTopColor", "page"]])
    context.close()
    low = {name: ratio for name, ratio in found.items() if ratio < 3}
    assert not low, low
