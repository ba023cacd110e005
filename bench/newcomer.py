"""Benchmark: a newcomer on a phone signs up, creates a group, starts a game and scores a territory.

Starts the site on a fresh SQLite database, drives Debian's Chromium at 390×844 through the whole
path, and prints what the person does (taps, fields typed), the server's answer times and the time
the automated run took. A person's time is estimated from those counts at the end.
Run with ``.venv/bin/python bench/newcomer.py`` (needs /usr/bin/chromium).
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from support.chromium import CHROMIUM_FLAGS, chromium_path  # noqa: E402
from support.production import free_port  # noqa: E402

SECONDS_PER_TAP = 1.5
SECONDS_PER_FIELD = 5.0


class Person:
    """Counts what a person would do: each tap, each field typed."""

    def __init__(self, page: Any) -> None:
        self.page, self.taps, self.fields = page, 0, 0

    def tap(self, role: str, name: str | re.Pattern[str], within: Any = None) -> None:
        (within or self.page).get_by_role(role, name=name, exact=True).click()
        self.page.wait_for_load_state("networkidle")
        self.taps += 1

    def type(self, label: str, text: str) -> None:
        self.page.get_by_label(label, exact=True).fill(text)
        self.fields += 1


def newcomer(person: Person, base: str) -> None:
    person.page.goto(base + "/")
    person.tap("link", "Sign up")
    person.type("Username", "nina")
    person.type("Password", "table-games-42")
    person.tap("button", "Create my account")
    person.type("New group", "Friday")
    person.tap("button", "Create")
    person.tap("link", "New game of Okanagan")
    person.type("First player", "Nina")  # the name the table uses (no stray player from the username)
    person.type("Second player", "Omar")
    person.tap("button", "Start the game")
    person.tap("button", "I am Nina")
    # The game page's bar of territory links; the entry opens on the board, Nina (this phone) as the closer.
    person.tap("link", "Forest", person.page.get_by_role("navigation", name=re.compile("^Score a territory")))
    person.tap("button", "2 × green square")
    person.tap("button", "1 × green circle")
    person.tap("button", re.compile(r"^Nina, Farm: \d+$"))
    person.tap("button", re.compile(r"^Omar, Silo: \d+$"))
    person.tap("button", "A gold nugget")  # Omar's special action; Nina's pick is the whole pool: saved
    person.page.get_by_text("Saved: Event 0: forest closed by Nina").wait_for()
    assert "/games/" in person.page.url


def main() -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = os.environ | {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3"}
        python = sys.executable
        subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run([python, "manage.py", "createcachetable"], cwd=ROOT, env=env, check=True)  # the rate limits
        server = subprocess.Popen(
            [python, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(2)
            timings: list[float] = []
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
                page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
                page.on("requestfinished", lambda request: timings.append(request.timing["responseEnd"]))
                person = Person(page)
                start = time.perf_counter()
                newcomer(person, f"http://127.0.0.1:{port}")
                elapsed = time.perf_counter() - start
                browser.close()
        finally:
            server.terminate()
            server.wait()
    estimate = person.taps * SECONDS_PER_TAP + person.fields * SECONDS_PER_FIELD
    answers = sorted(timing for timing in timings if timing > 0)
    print(f"taps: {person.taps}, fields typed: {person.fields}")
    print(f"requests: {len(timings)}, answer time median {statistics.median(answers):.0f} ms, max {answers[-1]:.0f} ms")
    print(f"automated run: {elapsed:.1f} s")
    print(
        f"estimated for a person ({SECONDS_PER_TAP:.1f} s a tap, {SECONDS_PER_FIELD:.0f} s a field): {estimate:.0f} s"
    )


if __name__ == "__main__":
    main()
