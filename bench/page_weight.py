"""Page weight: bytes transferred (compressed) and requests for a first load of a game page.

Starts the site as in production (gunicorn, whitenoise serving compressed static files) on a fresh
SQLite database, loads a game page in Chromium with an empty cache, and prints each request and the
total. Target: at most 40 KB, htmx and CSS included. Then the game page's HTML as it leaves Django (before
any compression) for a game of 60 and of 200 events (random legal games), and its first page of earlier
events (``?log=N``): the log shows its last 10 events, and the earlier ones 50 a page.

    .venv/bin/python bench/page_weight.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.serve import manage, prepare  # noqa: E402
from support.chromium import CHROMIUM_FLAGS, chromium_path  # noqa: E402
from support.production import free_port, production_env, serve  # noqa: E402

LONG_GAMES = (60, 200)
"""The lengths of the games whose page is weighed before compression."""


def main() -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = production_env(f"sqlite:///{folder}/weight.sqlite3")
        prepare(env)
        script = (
            "from scoring.models import Group; from django.contrib.auth.models import User;"
            "from scoring.creation import create_game;"
            "u = User.objects.create_user('w', password='weight-password-1');"
            "g = Group.objects.create(name='W', owner=u); g.members.add(u);"
            "from support.random_games import RandomChooser, random_record;"
            "records = [random_record(RandomChooser(n), 3, n * 2 // 3, n - n * 2 // 3).to_json() for n in LONG];"
            "print(create_game(g, ('Ann', 'Ben', 'Cy'), {}, promos=False).pk,"
            " *(create_game(g, tuple(r['players']), r['options'], promos=True, events=r['events']).pk"
            " for r in records))"
        ).replace("LONG", repr(LONG_GAMES))
        game, *long_games = manage(env, "shell", "-c", script).split()
        server = serve(env, port, workers=1)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
                login = browser.new_context().new_page()
                login.goto(f"http://127.0.0.1:{port}/accounts/login/")
                login.get_by_label("Username").fill("w")
                login.get_by_label("Password").fill("weight-password-1")
                login.get_by_role("button", name="Log in").click()
                login.wait_for_load_state("networkidle")
                # A new context with the session but an empty cache: the first load of the game page.
                context = browser.new_context(
                    viewport={"width": 390, "height": 844}, storage_state=login.context.storage_state()
                )
                page = context.new_page()
                sizes: list[tuple[str, int, str]] = []

                def finished(request: object) -> None:
                    response = request.response()  # type: ignore[attr-defined]
                    size = request.sizes()["responseBodySize"] + request.sizes()["responseHeadersSize"]  # type: ignore[attr-defined]
                    encoding = response.headers.get("content-encoding", "-") if response else "-"
                    sizes.append((request.url.split(str(port), 1)[-1], size, encoding))  # type: ignore[attr-defined]

                page.on("requestfinished", finished)
                page.goto(f"http://127.0.0.1:{port}/games/{game}/", wait_until="networkidle")
                raw = {}
                for events, pk in zip(LONG_GAMES, long_games, strict=True):
                    for query in ("", f"?log={events - 10}"):
                        answer = context.request.get(
                            f"http://127.0.0.1:{port}/games/{pk}/{query}", headers={"Accept-Encoding": "identity"}
                        )
                        raw[events, query] = len(answer.body())
                browser.close()
        finally:
            server.terminate()
            server.wait()
    for url, size, encoding in sizes:
        print(f"  {size / 1024:6.1f} KB  {encoding:7} {url}")
    print(f"first load of a game page: {len(sizes)} requests, {sum(size for _url, size, _e in sizes) / 1024:.1f} KB")
    for (events, query), size in raw.items():
        print(f"game page of {events} events{', ' + query if query else ''}: {size / 1024:.1f} KB before compression")


if __name__ == "__main__":
    main()
