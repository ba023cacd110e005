"""What a tap and a save cost the server, against the framework's floor on the same machine (issue 33, point 3).

In process, in one run, side by side: each request goes through Django's WSGI handler and its whole middleware
stack (as gunicorn calls it; no test client in between), from a logged-in member's phone that claimed a seat
of a 4-player game of 20 events (the table's usual case), with production settings (DEBUG off):

- the trivial view: ``/health/live/``, which answers "ok" with no query (the framework's floor);
- a tap: an op of a territory's board (who closed it) posted by htmx into the entry the phone is making;
- a first tap: the territory chosen on a new entry's page (the phone's draft is made);
- a save: the last tap of a lake, which saves it (and drops the phone's draft); the lake is then deleted,
  untimed, so that the game keeps its length.

Each is repeated ``--runs`` times, :data:`BATCH` in a row, the kinds in turn; it prints each
request's median CPU time of this process (``time.process_time``: the Python a host pays for; the database
server's own CPU is not in it), its multiple of the trivial view's, its median wall time and its queries
(counted once more, apart from the timed runs).

On SQLite (a fresh database in a temporary folder) by default; on PostgreSQL with ``DATABASE_URL`` (a fresh
database made beside the one named, dropped at the end), and with Redis (sessions, cache, live versions) with
``REDIS_URL``:

    .venv/bin/python bench/tap_cost.py [--runs 200]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/tap_cost.py
"""

from __future__ import annotations

import argparse
import gzip
import html
import io
import os
import statistics
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = 4
EVENTS = 20
LAKE_TAPS = ("set:territory:lake", "count:rewards:blue-circle:1", "set:closed_by:0", "done:board")
BOARD_TAPS = tuple(f"set:closed_by:{seat}" for seat in "1230")
"""The taps timed as "a tap": who closed the territory, one seat after another (the board is drawn again)."""
BATCH = 5
"""Requests of one kind timed in a row, the kinds in turn: each kind is timed warm (as a server busy with it runs
it, its code and data in the processor's caches), and the machine's ups and downs still fall on each."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with a_site() as database:
        table = Table.make()
        requests: dict[str, Request] = {
            "trivial view": Request(table.trivial),
            "tap": Request(table.tap, before=table.tap_ready),
            "first tap": Request(table.first_tap, before=table.first_tap_ready),
            "save": Request(table.save, before=table.save_ready, after=table.undo),
        }
        for request in requests.values():  # the queries, once, apart from the timed runs
            request.count_queries()
        for run in range(args.runs // BATCH + 1):  # the first is a warm-up
            for request in requests.values():
                for _ in range(BATCH):
                    request.time(keep=run > 0)
        floor = statistics.median(requests["trivial view"].cpu)
        print(f"tap cost on {database}, {PLAYERS} players, {EVENTS} events, median of {args.runs} runs")
        print(f"{'request':<14}{'CPU ms':>9}{'× trivial':>11}{'wall ms':>10}{'queries':>9}")
        for name, request in requests.items():
            cpu = statistics.median(request.cpu)
            wall = statistics.median(request.wall)
            print(f"{name:<14}{cpu:>9.3f}{cpu / floor:>10.1f}×{wall:>10.3f}{request.queries:>9}")


@dataclass
class Request:
    """One kind of request: ``call`` is timed; ``before`` and ``after`` (untimed) make it ready and undo it."""

    call: Callable[[], None]
    before: Callable[[], None] | None = None
    after: Callable[[], None] | None = None
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    queries: int = 0

    def time(self, *, keep: bool) -> None:
        if self.before is not None:
            self.before()
        cpu, wall = time.process_time(), time.perf_counter()
        self.call()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if keep:
            self.cpu.append(cpu * 1000)
            self.wall.append(wall * 1000)
        if self.after is not None:
            self.after()

    def count_queries(self) -> None:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        if self.before is not None:
            self.before()
        with CaptureQueriesContext(connection) as captured:
            self.call()
        self.queries = len(captured)
        if self.after is not None:
            self.after()


@contextmanager
def a_site() -> Iterator[str]:
    """The site in this process with production settings, on a fresh database: SQLite, or PostgreSQL beside the
    one ``DATABASE_URL`` names; Redis with ``REDIS_URL``. Yields what it runs on."""
    given = os.environ.get("DATABASE_URL", "")
    with tempfile.TemporaryDirectory() as folder, fresh_database(given, Path(folder)) as url:
        os.environ |= {
            "DATABASE_URL": url,
            "SECRET_KEY": "benchmark-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
            "ALLOWED_HOSTS": "testserver",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "CACHE_KEY_PREFIX": f"bench-{uuid.uuid4().hex[:12]}",
            "DJANGO_SETTINGS_MODULE": "okanagan_site.settings",
            "LOG_LEVEL": "WARNING",
        }
        os.environ.pop("DEBUG", None)
        warnings.filterwarnings("ignore", message="No directory at")  # WhiteNoise's: no collected static files
        import django
        from django.conf import settings

        django.setup()
        # The static files' plain storage: no collectstatic (and its manifest) for a benchmark.
        settings.STORAGES = settings.STORAGES | {
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
        }
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0)
        call_command("createcachetable")
        redis = " + Redis" if os.environ.get("REDIS_URL") else ""
        try:
            yield ("PostgreSQL" if given.startswith("postgres") else "SQLite") + redis
        finally:
            connections.close_all()


@contextmanager
def fresh_database(given: str, folder: Path) -> Iterator[str]:
    """A fresh database's URL: a new PostgreSQL database on ``given``'s server (dropped afterwards), or a SQLite
    file in ``folder``."""
    if not given.startswith("postgres"):
        yield f"sqlite:///{folder / 'tap_cost.sqlite3'}"
        return
    import psycopg

    name = f"bench_tap_cost_{uuid.uuid4().hex[:8]}"
    parts = urlsplit(given)
    with psycopg.connect(given, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(given, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Table:
    """A member's phone at a 4-player game, which claimed its first seat; its requests sent through the WSGI
    handler as gunicorn sends them."""

    def __init__(self, game_id: int, cookies: dict[str, str]) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        self.handler = WSGIHandler()
        self.game_id, self.cookies = game_id, cookies
        self.url = f"/games/{game_id}/events/new/territory/"
        self.fields: dict[str, str] = {}
        self.taps = 0

    @classmethod
    def make(cls) -> Table:
        from django.test import Client

        from scoring.models import Seat
        from scoring.phones import PHONE_KEY

        user, game = a_game()
        client = Client()
        client.force_login(user)
        session = client.session
        session[PHONE_KEY] = "bench-phone"
        session.save()
        Seat.objects.filter(game=game, position=0).update(phone="bench-phone")  # "I am <the first player>"
        assert client.get(f"/games/{game.pk}/").status_code == 200  # the CSRF cookie
        return cls(game.pk, {name: morsel.value for name, morsel in client.cookies.items()})

    def send(self, method: str, path: str, data: dict[str, str] | None = None, *, htmx: bool = True) -> Any:
        """The response of the site to this request, its body read and closed as a server does."""
        body = urlencode(data or {}).encode()
        form = {"CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": "application/x-www-form-urlencoded"}
        headers = {"HTTP_X_CSRFTOKEN": self.cookies["csrftoken"]} | ({"HTTP_HX_REQUEST": "true"} if htmx else {})
        return through_wsgi(self.handler, method, path, "", body, self.cookies, form | headers)

    def trivial(self) -> None:
        response = self.send("GET", "/health/live/", htmx=False)
        assert response.status_code == 200, response.status_code

    def _post(self, op: str) -> Any:
        return self.send("POST", self.url, self.fields | {"op": op})

    def _page(self, content: bytes) -> None:
        """Keep the entry's fields of a page (or an htmx answer) for the next tap."""
        text = text_of(content)
        for name in ("draft", "revision", "draft_id", "entry"):
            self.fields[name] = html.unescape(text.split(f'name="{name}" value="', 1)[1].split('"', 1)[0])

    def _open(self) -> None:
        """A new entry's page, this phone's entry (if any) cancelled first."""
        from scoring.models import Draft

        Draft.objects.filter(game_id=self.game_id).delete()
        response = self.send("GET", self.url, htmx=False)
        assert response.status_code == 200, response.status_code
        self._page(response.content)

    def first_tap_ready(self) -> None:
        self.taps = 0  # the entry the taps went into is cancelled
        self._open()

    def first_tap(self) -> None:
        response = self._post(LAKE_TAPS[0])
        assert response.status_code == 200, response.status_code

    def tap_ready(self) -> None:
        if not self.taps:  # an entry on its board, kept on the server
            self._open()
            for op in LAKE_TAPS[:-1]:
                self._page(self._post(op).content)

    def tap(self) -> None:
        response = self._post(BOARD_TAPS[self.taps % len(BOARD_TAPS)])
        assert response.status_code == 200, text_of(response.content)
        self._page(response.content)
        self.taps += 1

    def save_ready(self) -> None:
        self.taps = 0  # the save drops the entry the taps went into
        self._open()
        for op in LAKE_TAPS[:-1]:
            self._page(self._post(op).content)

    def save(self) -> None:
        response = self._post(LAKE_TAPS[-1])
        assert response.status_code == 200 and response.has_header("HX-Redirect"), response.status_code

    def undo(self) -> None:
        """The lake just saved deleted, so that the game keeps its length."""
        from scoring.models import Game

        game = Game.objects.get(pk=self.game_id)
        response = self.send(
            "POST", f"/games/{game.pk}/events/{game.events.count() - 1}/delete/", {"revision": str(game.revision)}
        )
        assert response.status_code in {200, 302}, response.status_code


def a_game() -> tuple[Any, Any]:
    """The bench's member (their group made) and a game of that group whose log is :func:`a_record`'s."""
    from django.contrib.auth.models import User

    from scoring.creation import create_game
    from scoring.models import Group
    from support.random_games import RandomChooser, random_record

    user = User.objects.create_user("bench", password="bench-password-1")
    group = Group.objects.create(name="Bench", owner=user)
    group.members.add(user)
    record = a_record(random_record, RandomChooser)
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    return user, game


def through_wsgi(
    handler: Any, method: str, path: str, query: str, body: bytes, cookies: dict[str, str], extra: dict[str, str]
) -> Any:
    """The response of ``handler`` (Django's WSGI handler) to this request, as gunicorn hands it over, its body
    read and closed as a server does; ``extra``: more of the environ (headers as ``HTTP_…``)."""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "HTTP_COOKIE": "; ".join(f"{name}={value}" for name, value in cookies.items()),
        "HTTP_ACCEPT_ENCODING": "gzip",
    } | extra
    response = handler(environ, lambda status, headers: None)
    response.content = b"".join(response)
    response.close()
    return response


def text_of(content: bytes) -> str:
    """A response's body as text, uncompressed."""
    return (gzip.decompress(content) if content[:2] == b"\x1f\x8b" else content).decode()


def a_record(random_record: Any, chooser: Any) -> dict[str, Any]:
    """A legal random 4-player record of :data:`EVENTS` events after which a blue circle is left for a lake, and
    whose last events hold no lake closed by the first player (the saved lake would be a twin, asked about)."""
    from rules import Reward, score_okanagan
    from scoring.table.twins import LOOKED_BACK

    for seed in range(1000):
        record: dict[str, Any] = random_record(chooser(seed), PLAYERS, EVENTS - EVENTS // 3, EVENTS // 3).to_json()
        lakes = [event for event in record["events"][-LOOKED_BACK:] if event.get("territory") == "lake"]
        if score_okanagan(record).state.available(Reward.BLUE_CIRCLE) and not any(
            lake["closed_by"] == record["players"][0] for lake in lakes
        ):
            return record
    raise AssertionError("no such record in 1,000 seeds")


if __name__ == "__main__":
    main()
