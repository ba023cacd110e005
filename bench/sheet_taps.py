"""What a 3-player Small Islands and a 3-player Cooper Island score sheet cost the players, on phones.

    .venv/bin/python bench/sheet_taps.py --base http://127.0.0.1:8101

Drives Chromium at 390×844 (mobile, touch) against a running site: signs up, creates a group, then scores
the same two games (the counts below) through the site's own forms, the way a person would. It reads the
form it is given, so the same script measures the site before issue 13 (one long form with every player's
fields, royal orders typed as text) and after (the players' names, then each player's line):

- ``before``: the one form, on one phone;
- ``one_phone``: after, one phone fills in every line (the "next player" flow);
- ``table``: after, each player's line on their own phone (the first phone starts the game and says "I am
  Ann"; the others open the join link, as the QR code does, tap "Join this table" and "I am …").

For each it prints JSON, per phone and in total:

- ``taps``: every touch: a button, a link, a checkbox, a − or +, and a field touched to type in it;
- ``typed``: fields typed in (each opens the keyboard), ``keys``: characters typed;
- ``scrolls``: times the next control was off screen (or under the sticky button) and had to be scrolled to;
  ``scrolled_px``: how far, in all;
- ``screens``: pages loaded; ``tallest_px``: the tallest page seen (the result page's explanation included);
  ``form_px``: the tallest page with fields to fill in (the form's length).

A count of 1 is entered with + (one tap, no keyboard), a larger one typed; a 0 is left as shown (blank on the old
form, where blank was 0). Logging in, the
group and opening the group page are not counted. The games are scored and their winners checked.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.play_record import IN_VIEW  # noqa: E402
from support.chromium import CHROMIUM_FLAGS, chromium_path  # noqa: E402

PASSWORD = "robot-sheets-42"
NAMES = ("Ann", "Ben", "Cy")
SMALL_ISLANDS: dict[str, dict[str, Any]] = {
    "Ann": {"prestige": 34, "discoveries": [3, 5], "ship_placed": True, "ports": 4, "houses": 7},
    "Ben": {"prestige": 30, "discoveries": [], "ship_placed": False, "ports": 0, "houses": 8},
    "Cy": {"prestige": 27, "discoveries": [2], "ship_placed": True, "ports": 3, "houses": 6},
}
COOPER_ISLAND: dict[str, dict[str, Any]] = {
    "Ann": {"logbooks": 5, "sailed_1": 2, "sailed_2": 3, "orders": {3: 6, 5: 4}, "buildings": 7, "coins": 3,
            "resources": 4, "cartographer": 2, "tiles": 1, "anchors": 2, "empty_spaces": 3},
    "Ben": {"logbooks": 4, "sailed_1": 1, "sailed_2": 0, "orders": {1: 5}, "buildings": 9, "coins": 1,
            "resources": 6, "cartographer": 0, "tiles": 0, "anchors": 1, "empty_spaces": 5},
    "Cy": {"logbooks": 6, "sailed_1": 0, "sailed_2": 4, "orders": {2: 3, 6: 5}, "buildings": 4, "coins": 0,
           "resources": 2, "cartographer": 1, "tiles": 2, "anchors": 3, "empty_spaces": 2},
}  # fmt: skip
WINNERS = {"small_islands": "Ann", "cooper_island": "Ann"}


class Phone:
    """One phone and what it cost its player."""

    def __init__(self, browser: Any, name: str) -> None:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        self.page = context.new_page()
        self.name = name
        self.counting = False
        self.counts = dict.fromkeys(
            ("taps", "typed", "keys", "scrolls", "scrolled_px", "screens", "tallest_px", "form_px"), 0
        )
        self.page.on("load", lambda _page: self._loaded())

    def _loaded(self) -> None:
        if self.counting:
            self.counts["screens"] += 1
            self.counts["tallest_px"] = max(
                self.counts["tallest_px"], int(self.page.evaluate("document.documentElement.scrollHeight"))
            )

    def _reach(self, target: Any) -> None:
        target.wait_for(state="visible")
        if not target.evaluate(IN_VIEW):
            before = self.page.evaluate("window.scrollY")
            target.scroll_into_view_if_needed()
            if not target.evaluate(IN_VIEW):  # under the sticky button: a little further
                self.page.evaluate(
                    "(e) => window.scrollBy(0, e.getBoundingClientRect().top - 200)", target.element_handle()
                )
            self.counts["scrolls"] += 1
            self.counts["scrolled_px"] += abs(int(self.page.evaluate("window.scrollY")) - int(before))

    def tap(self, target: Any, *, navigates: bool = False) -> None:
        self._reach(target)
        if navigates:
            with self.page.expect_navigation():
                target.tap()
        else:
            target.tap()
        self.counts["taps"] += 1

    def _form(self) -> None:
        height = int(self.page.evaluate("document.documentElement.scrollHeight"))
        self.counts["form_px"] = max(self.counts["form_px"], height)

    def type(self, target: Any, text: str) -> None:
        self._form()
        self._reach(target)
        target.tap()
        target.fill(text)
        self.counts["taps"] += 1
        self.counts["typed"] += 1
        self.counts["keys"] += len(text)

    def button(self, name: str) -> Any:
        return self.page.get_by_role("button", name=name, exact=True).locator("visible=true").first

    def link(self, name: str) -> Any:
        return self.page.get_by_role("link", name=name, exact=True).locator("visible=true").first

    def count(self, field_id: str, value: int) -> None:
        """A count: left at 0, + once or twice, else typed (the old form: typed unless 0)."""
        field = self.page.locator(f"#{field_id}")
        plus = field.locator("xpath=..").locator("[data-step='1']")
        self._form()
        if value == 0:
            return
        if value == 1 and plus.count() and plus.is_visible():
            self.tap(plus)
            return
        self.type(field, str(value))


def sign_up(phone: Phone, base: str) -> str:
    """A new account and group (not counted); the group page's URL."""
    page = phone.page
    page.goto(base + "/accounts/signup/")
    username = "sheets" + secrets.token_hex(3)
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    if page.get_by_label("Password confirmation", exact=True).count():
        page.get_by_label("Password confirmation", exact=True).fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Create my account").click()
    page.get_by_label("New group", exact=True).fill("Sheet bench")
    with page.expect_navigation():
        page.get_by_role("button", name="Create", exact=True).click()
    return str(page.url)


def before(phone: Phone, group_url: str, kind: str) -> None:
    """The form of main before issue 13: one form, every player's fields."""
    page = phone.page
    page.goto(group_url)
    phone.counting = True
    phone.tap(phone.link("Small Islands" if kind == "small_islands" else "Cooper Island"), navigates=True)
    counts = SMALL_ISLANDS if kind == "small_islands" else COOPER_ISLAND
    for seat, name in enumerate(NAMES, start=1):
        phone.type(page.locator(f"#id_name_{seat}"), name)
        line = counts[name]
        if kind == "small_islands":
            phone.count(f"id_prestige_{seat}", line["prestige"])
            if line["discoveries"]:
                phone.type(page.locator(f"#id_discoveries_{seat}"), ", ".join(map(str, line["discoveries"])))
            if line["ship_placed"]:
                phone.tap(page.locator(f"#id_ship_placed_{seat}"))
            for key in ("ports", "houses"):
                phone.count(f"id_{key}_{seat}", line[key])
        else:
            for key in ("logbooks", "sailed_1", "sailed_2"):
                phone.count(f"id_{key}_{seat}", line[key])
            orders = ", ".join(f"{card}: {points}" for card, points in line["orders"].items())
            phone.type(page.locator(f"#id_royal_orders_{seat}"), orders)
            for key in ("buildings", "coins", "resources", "cartographer", "tiles", "anchors", "empty_spaces"):
                phone.count(f"id_{key}_{seat}", line[key])
    phone.tap(phone.button("Score the game"), navigates=True)


def start(phone: Phone, group_url: str, kind: str) -> str:
    """After: the players' names start the game; the join link."""
    phone.page.goto(group_url)
    phone.counting = True
    phone.tap(phone.link("Small Islands" if kind == "small_islands" else "Cooper Island"), navigates=True)
    for seat, name in enumerate(NAMES, start=1):
        phone.type(phone.page.locator(f"#id_name_{seat}"), name)
    phone.tap(phone.button("Start the score sheet"), navigates=True)
    return str(phone.page.locator("a.url").first.inner_text()).strip()


def fill_line(phone: Phone, kind: str, name: str) -> None:
    """After: one player's line, then its Save button."""
    page = phone.page
    if kind == "small_islands":
        line = SMALL_ISLANDS[name]
        phone.count("id_prestige", line["prestige"])
        if line["discoveries"]:
            phone.type(page.locator("#id_discoveries"), " ".join(map(str, line["discoveries"])))
        if line["ship_placed"]:
            phone.tap(page.locator("#id_ship_placed"))
        for key in ("ports", "houses"):
            phone.count(f"id_{key}", line[key])
    else:
        line = COOPER_ISLAND[name]
        for key in ("logbooks", "sailed_1", "sailed_2"):
            phone.count(f"id_{key}", line[key])
        for card, points in line["orders"].items():
            phone.count(f"id_order_{card}", points)
        for key in ("buildings", "coins", "resources", "cartographer", "tiles", "anchors", "empty_spaces"):
            phone.count(f"id_{key}", line[key])
    phone.tap(phone.button(f"Save {name}'s line"), navigates=True)


def one_phone(phone: Phone, group_url: str, kind: str) -> None:
    start(phone, group_url, kind)
    phone.tap(phone.page.get_by_role("link", name="Fill in Ann", exact=True), navigates=True)
    for name in NAMES:
        fill_line(phone, kind, name)  # each Save leads to the next line
    phone.tap(phone.button("Score the game"), navigates=True)


def table(phones: list[Phone], group_url: str, kind: str) -> None:
    first = phones[0]
    join_url = start(first, group_url, kind)
    first.tap(first.button("I am Ann"), navigates=True)
    fill_line(first, kind, "Ann")
    for phone, name in zip(phones[1:], NAMES[1:], strict=True):
        phone.counting = True
        phone.page.goto(join_url)  # the QR code scanned
        phone.tap(phone.button("Join this table"), navigates=True)
        phone.tap(phone.button(f"I am {name}"), navigates=True)
        fill_line(phone, kind, name)
        phone.counting = False  # the result reaching this phone by itself later is not its player's doing
    first.page.get_by_role("button", name="Score the game").wait_for(timeout=10000)  # the review, live
    first.tap(first.button("Score the game"), navigates=True)


def winner(phone: Phone) -> str:
    text = phone.page.locator("p.winner").first.inner_text()
    return text.split(":", 1)[1].strip()


def report(phones: list[Phone]) -> dict[str, Any]:
    for phone in phones:  # the last page's load event, counted before the sums
        phone.page.wait_for_load_state()
        phone.page.wait_for_timeout(300)
    total = {key: sum(phone.counts[key] for phone in phones) for key in phones[0].counts}
    for key in ("tallest_px", "form_px"):
        total[key] = max(phone.counts[key] for phone in phones)
    return {"total": total, "phones": {phone.name: dict(phone.counts) for phone in phones}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="http://127.0.0.1:8101", help="the running site")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        setup = Phone(browser, "setup")
        group_url = sign_up(setup, args.base)
        cookies = setup.page.context.cookies()
        probe = setup.page
        probe.goto(group_url)
        probe.get_by_role("link", name="Small Islands", exact=True).click()
        old = probe.locator("#id_prestige_1").count() > 0
        for kind in ("small_islands", "cooper_island"):
            runs: dict[str, Any] = {}
            if old:
                phone = Phone(browser, "phone 1")
                phone.page.context.add_cookies(cookies)
                before(phone, group_url, kind)
                runs["before"] = report([phone]) | {"winner": winner(phone)}
            else:
                phone = Phone(browser, "phone 1")
                phone.page.context.add_cookies(cookies)
                one_phone(phone, group_url, kind)
                runs["one_phone"] = report([phone]) | {"winner": winner(phone)}
                phones = [Phone(browser, f"phone {n} ({name})") for n, name in enumerate(NAMES, start=1)]
                phones[0].page.context.add_cookies(cookies)
                table(phones, group_url, kind)
                runs["table"] = report(phones) | {"winner": winner(phones[0])}
            for run in runs.values():
                if run["winner"] != WINNERS[kind]:
                    print(f"{kind}: the winner shown is {run['winner']!r}", file=sys.stderr)
                    return 1
            results[kind] = runs
        browser.close()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
