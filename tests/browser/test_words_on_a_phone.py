"""No word is cut in the middle at 390 px, in any of the five languages (issue 23): the table's pages and the
entry's screens are walked as a member sees them, and every word of every visible text is checked to stand on
one line. Nothing scrolls sideways, neither the page nor a table in its card.

Chinese breaks between any two characters, so its words are not checked; Korean wraps at spaces
(``word-break: keep-all``) and is. Identifiers and addresses (a rule's id, a URL, a table code) may break.
Screenshots go to ``.screenshots/`` for a person to look at.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.creation import create_game, create_sheet_game
from scoring.log import finish
from scoring.models import Game, Group
from scoring.sheets.lifecycle import start_sheet_game

from .test_languages_on_a_phone import has_fonts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parent.parent / "data"
SHOTS = Path(__file__).resolve().parent.parent.parent / ".screenshots"
LANGUAGES = {"en": "", "fr": "", "it": "", "ko": "ko", "zh-hant": "zh-tw"}
"""Each language, and the fontconfig language whose fonts it needs (none: the Latin ones are always there)."""

BROKEN_WORDS = """() => {
  const chinese = /[\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef]/;
  const identifier = /\\w[._@:]\\w/; // okanagan.special.gold_nugget, a URL, an address
  const broken = [];
  const range = document.createRange();
  let across = false; // the lines of a text set on end (writing-mode: vertical-*) follow one another across
  const lineOf = (node, at) => {
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    const rect = range.getClientRects()[0];
    if (!rect) return null;
    return across ? rect.left + rect.width / 2 : rect.top + rect.height / 2;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, svg, option, .visually-hidden, .url, .code")) continue;
    const style = getComputedStyle(parent);
    across = !style.writingMode.startsWith("horizontal");
    const apart = parseFloat(style.fontSize) * 0.6; // two letters this far apart are on two lines
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const word = match[0];
      if (word.length < 2 || chinese.test(word) || identifier.test(word)) continue;
      const first = match.index;
      const last = first + word.length - 1;
      const start = lineOf(node, first);
      const end = lineOf(node, last);
      if (start === null || end === null || Math.abs(end - start) < apart) continue;
      let at = first; // the word's last letter on its first line
      while (at < last && Math.abs(lineOf(node, at + 1) - start) < apart) at += 1;
      const before = word[at - first], after = word[at - first + 1];
      if (/[-‐–—\\/·)\\]}]/.test(before) || /[([{]/.test(after)) continue; // a break between two words
      broken.push(`${word.slice(0, at - first + 1)}/${word.slice(at - first + 1)} (${parent.tagName.toLowerCase()})`);
    }
  }
  return broken;
}"""

SIDEWAYS = """() => [document.documentElement, ...document.querySelectorAll('.table-scroll')]
  .filter(box => box.scrollWidth > box.clientWidth + 1)
  .map(box =>
     `${box === document.documentElement ? "the page" : box.className}: ${box.scrollWidth - box.clientWidth}`)"""


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    return data


def a_busy_group() -> tuple[Group, Game, Game, Game]:
    """A group with every kind of page: a finished and a running game of Okanagan (4 players, the promos),
    finished Cooper Island and Small Islands sheets, one in progress; its owner is ``olive``."""
    owner = User.objects.create_user("olive", password="pw-olive-123")
    group = Group.objects.create(name="Friday table", owner=owner)
    group.members.add(owner)
    record = load("okanagan-full-game")
    finished = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    finish(finished, finished.revision)
    for sheet in ("cooper-island-three-players-tie", "small-islands-spec-example"):
        create_sheet_game(group, load(sheet))
    sheet = start_sheet_game(group, Game.Kind.COOPER_ISLAND, ("Ann", "Ben", "Cy"))
    playing = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"][:12])
    return group, finished, playing, sheet


def unbroken(page: Any, name: str) -> None:
    """No word of ``name``'s page on two lines and nothing wider than its box; a screenshot of it."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"words-{name}-{page.language}.png"), full_page=True)
    assert page.evaluate(BROKEN_WORDS) == [], f"{name} in {page.language}"
    assert page.evaluate(SIDEWAYS) == [], f"{name} in {page.language}"


def tap(page: Any, op: str) -> None:
    """Tap the entry's button of ``op`` (the same in every language) and wait for the screen it leads to."""
    page.locator(f'#wizard button[name=op][value="{op}"]').first.click()  # a closer: its chip, or the question's
    expect(page.locator("#wizard .pending")).to_have_count(0)
    expect(page.locator("#entry-queue")).to_be_empty()


@pytest.fixture(params=list(LANGUAGES))
def member_phone(request: Any, browser: Any, live_server: Any) -> Any:
    language = request.param
    if LANGUAGES[language] and not has_fonts(LANGUAGES[language]):
        pytest.skip(f"no font for {language} (apt-get install -y fonts-noto-cjk)")
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        extra_http_headers={"Accept-Language": language},
    )  # fmt: skip
    page = context.new_page()
    page.language = language
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill("olive")
    page.locator("#id_password").fill("pw-olive-123")
    page.locator("form[action='/accounts/login/'] button").click()
    expect(page).not_to_have_url(f"{live_server.url}/accounts/login/")
    yield page
    context.close()


@pytest.fixture
def busy_group(db: None) -> tuple[Group, Game, Game, Game]:
    return a_busy_group()


def test_no_word_is_cut_on_the_table_s_pages(live_server: Any, busy_group: Any, member_phone: Any) -> None:
    group, finished, playing, sheet = busy_group
    page = member_phone
    sheets = group.games.filter(status=Game.Status.FINISHED).exclude(kind=Game.Kind.OKANAGAN)
    pages = {
        "home": "/",
        "group": f"/groups/{group.pk}/",
        "statistics": f"/groups/{group.pk}/stats/",
        "new-game": f"/groups/{group.pk}/games/new/",
        "game": f"/games/{playing.pk}/",
        "result": f"/games/{finished.pk}/",
        "end": f"/games/{playing.pk}/finish/",
        "sheet-line": f"/games/{sheet.pk}/sheet/1/",
        "calculators": "/calculators/",
        "influence-calculator": "/calculators/influence/",
        "nuggets-calculator": "/calculators/nuggets/",
        "rules": "/rules/",
        "player": f"/groups/{group.pk}/players/{group.profiles.get(name='Ann').pk}/",
        "spectators": f"/watch/{playing.spectator_token}/",
    } | {f"sheet-{game.kind}": f"/games/{game.pk}/" for game in sheets}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        unbroken(page, name)


def test_no_word_is_cut_on_the_entry_s_screens(live_server: Any, busy_group: Any, member_phone: Any) -> None:
    _group, _finished, playing, _sheet = busy_group
    page = member_phone
    entry = f"{live_server.url}/games/{playing.pk}/events/new"
    # A mountain's board, filled in: its icons, who closed it, the buildings grid with counts in it.
    page.goto(f"{entry}/territory/?territory=mountain")
    expect(page.locator("#wizard fieldset[data-stage=board]")).to_be_visible()
    unbroken(page, "board")
    for op in ("count:rewards:black-square:2", "set:closed_by:0", "cycle:buildings:0:warehouse",
               "cycle:buildings:1:farm", "cycle:buildings:2:silo"):  # fmt: skip
        tap(page, op)
    unbroken(page, "board-filled")
    for kind in ("objectives", "adjust", "holdings", "volcano", "beaver_dam"):
        page.goto(f"{entry}/{kind}/")
        expect(page.locator("#wizard")).to_be_visible()
        unbroken(page, kind)
