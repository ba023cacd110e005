"""Load test: how many phones the site serves as in production before its targets fail (the knee).

Starts the site as ``make serve`` does (``deploy/serve.py``: nginx in front of gunicorn's sync workers on a
unix socket, 2 × cores + 1 of them unless ``--workers``) on a fresh database: SQLite, or with ``--postgres``
a database of its own on the machine's server (127.0.0.1:5432), dropped afterwards; ``--redis`` puts the
shared cache on Redis (``REDIS_URL``, or 127.0.0.1:6379) under a key prefix of its own, deleted afterwards.
Then it steps the number of phones (``--phones``), each step on fresh tables: ``--warmup`` s, then
``--seconds`` s measured, then two poll intervals more for the last saves to arrive. As the pages do:

- a table is 4 phones (the member's and 3 guests') on a 4-player game that starts ``--events`` events long
  (a legal random record of ``support/random_games.py``, seeded by the table's number) and sends from its
  own loopback address (127.1.x.y), as a table behind its home router does; ``--spectators`` more phones
  watch the first tables;
- every phone on the game page polls the game's live fragment every ``--interval`` s (by default the
  site's own, ``scoring.live.intervals.PLAYING_MS``) with the ETag and the parts' digests its poller holds, as htmx
  sends them (from the start the table's current ones, as if it had loaded the page): the table's phones
  ``/watch/<token>/live/?view=game`` with a session, spectators ``?view=watch`` without one. A phone whose
  answer has not come when its next poll is due skips that poll, as htmx does;
- one phone per table, the member's, enters a territory every 20 s (the tables spread evenly over the 20 s),
  as the entry's htmx does: it loads the entry page from the game page's Lake button, posts each tap
  (``op``, with the draft the last answer held), one every ``TAP_EVERY`` s, then Save, then loads the game
  page the answer sends it to (``HX-Redirect``). It does not poll meanwhile: the entry page does not. The
  taps are a legal lake's, 6 to 16 of them (seeded by the table): who closed it, then its reward icons
  (the lake's own colour by their count chips, others one more per tap). Nobody has buildings there, so
  nobody collects: the lake stays legal however many are saved and whatever the supply still holds, and a
  refused tap or save counts as an error. With ``--warmup`` at least the longest entry (16 taps), each
  table's save and taps fall in the measured seconds as in a steady game.

The member's phones share one session, logged in over HTTP (a session is one row, read once per request
whoever holds it). The other three phones of a table are its guests: the setup script stores their sessions
itself as ``join_table`` does (``{"tables": {"<game id>": "<table code>"}}``).

Each phone keeps one HTTP/1.1 connection alive, as a browser does; the phones are coroutines of one asyncio
loop on raw sockets, so that the load generator, which runs on the same cores as the server, stays cheap.
It prints its own CPU share, and how late it sent what it meant to send: a step where it fell behind (more
than 1 % of its requests over 100 ms late) did not load the site as asked and misses.

Per step it prints requests per second, the p50/p95/p99 of every endpoint and its errors, how long a save
takes to reach the table's other phones (from the save's answer to the first poll answered 200 with the new
revision: with polls every T, about T/2 on average and 0.95·T at the 95th percentile, plus a poll's
latency), and the CPU it cost: gunicorn's (master and workers), nginx's and, on PostgreSQL, the backends
serving the database (with ``--redis`` the Redis server's, which other programs may use too), per request
and as a share of the machine's cores, next to the generator's and the rest of the machine's: a run while
other processes are busy is slower than the site is. ``--nice -10`` puts the site and the generator ahead
of them (as if the machine were idle; it needs root, and PostgreSQL's backends keep their priority).

Then a table of the steps, and the knee: the most phones at which that step and every one before it held
the targets

    territory tap p95 ≤ 50 ms, territory save p95 ≤ 50 ms, unchanged poll p95 ≤ 10 ms, no error (and the
    generator kept up).

It stops after the first step that misses them (``--keep-going`` runs them all). Last, in the same run, 16
clients hammer the trivial view (``/health/live/``) and an unchanged poll for ``--hammer`` s each, and it
prints their rates and ratio (target: polls ≥ 50 % of the trivial view's rate).

``--servers N`` starts N gunicorn servers behind nginx (``SERVERS=N make serve``); ``--direct`` serves with
one gunicorn on loopback TCP, without nginx, for comparison (its sync workers close every connection, so the
generator connects once per request).

    .venv/bin/python bench/load.py [--postgres] [--redis [URL]] [--events 30]
        [--phones 40 80 120 160 200 300 400 600 800] [--interval 1.5] [--seconds 20] [--warmup 14]
        [--spectators 10] [--workers 5] [--servers 1] [--direct] [--nice -10] [--keep-going] [--hammer 10]
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.serve import NGINX, default_workers, manage, prepare, serve_env, start  # noqa: E402  # noqa: E402
from rules import Reward, Territory  # noqa: E402
from scoring.live.intervals import PLAYING_MS, STREAMING_MS  # noqa: E402
from scoring.live.parts import HEADER  # noqa: E402
from scoring.table.entry.stages import MAX_CHIP  # noqa: E402
from support.production import free_port, production_env, serve  # noqa: E402

PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PHONES_PER_TABLE = 4
"""The member's phone and 3 guests' (a game of 4 players)."""
SAVE_EVERY = 20.0
"""Seconds between two territories entered at a table (from the first tap of one to the first of the next)."""
FEWEST_TAPS, MOST_TAPS = 6, 16
"""How many taps a territory takes on the entry page, Save left out."""
TAP_EVERY = 0.8
"""Seconds between two taps of an entry (the entry page's load, each tap, Save): a person reading and tapping."""
HOME_ICONS = [reward for reward in Reward if reward.colour is Territory.LAKE.colour]
"""The lake's own icons: a count chip each."""
OTHER_ICONS = [reward for reward in Reward if reward.colour is not Territory.LAKE.colour]
"""Icons of other colours: a tap is one more."""
TAP_P95_MS = 50.0
SAVE_P95_MS = 50.0
UNCHANGED_P95_MS = 10.0
LATE_S = 0.1
"""A request the generator sends this much after it was due is late: its own delay, not the server's."""
LATE_SHARE = 0.01
"""More late requests than this share, and the step did not load the site as asked."""
TIMEOUT_S = 30.0
REACH_P95_S = 0.25
"""With ``--push``: a save reaches the table's other phones within this at the 95th percentile."""
PUSH_TAIL_S = 3.0
"""With ``--push``: how long the phones go on after the measured seconds, for the last saves to arrive."""
TWIN = re.compile(r'name="twin" value="(\d+)"')
"""The event a save repeats, which the page asks about (scoring.table.twins)."""
POLLER = re.compile(rf'"If-None-Match": "\\"([^"\\]+)\\"", "{HEADER}": "([^"]*)"')
"""The headers of a live fragment's poller (``scoring/templates/scoring/_live_poll.html``): its ETag and the
parts held."""
ENTRY = "entry page"
TAP = "territory tap"
SAVE = "territory save"
PAGE = "game page (after a save)"
UNCHANGED = "unchanged (304)"
CHANGED = "changed (200)"


class Response(NamedTuple):
    status: int
    headers: dict[str, str]
    """Lower-case names; a header sent several times (Set-Cookie) has its values joined by newlines."""
    body: bytes
    ms: float


class Connection:
    """One phone's kept-alive HTTP/1.1 connection to the site, from its own loopback address."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port, self.source = port, source
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: str | None = None
    ) -> Response:
        """Send a request and read its whole answer, timed; again on a new connection if the kept-alive one
        was closed by the server before answering (as a browser does). Raises ``OSError`` or ``TimeoutError``."""
        data = (body or "").encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        lines += [f"Content-Length: {len(data)}"] if body is not None else []
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        for attempt in range(2):
            reused = self.streams is not None
            start = time.perf_counter()
            try:
                async with asyncio.timeout(TIMEOUT_S):
                    if self.streams is None:
                        self.streams = await asyncio.open_connection(
                            "127.0.0.1", self.port, local_addr=(self.source, 0)
                        )
                    reader, writer = self.streams
                    writer.write(message)
                    status, answer_headers, answer = await self._read(reader, method)
            except (OSError, asyncio.IncompleteReadError) as error:
                self.close()
                if reused and not attempt:
                    continue
                raise OSError(f"{method} {path}: {error!r}") from error
            except TimeoutError:
                self.close()
                raise
            if answer_headers.get("connection", "").lower() == "close":
                self.close()
            return Response(status, answer_headers, answer, (time.perf_counter() - start) * 1000)
        raise AssertionError("unreachable")

    async def _read(self, reader: asyncio.StreamReader, method: str) -> tuple[int, dict[str, str], bytes]:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in head[1:]:
            if line:
                name, _colon, value = line.partition(":")
                name = name.strip().lower()
                headers[name] = f"{headers[name]}\n{value.strip()}" if name in headers else value.strip()
        if method == "HEAD" or status in (204, 304) or status < 200:
            return status, headers, b""
        if "chunked" in headers.get("transfer-encoding", "").lower():
            chunks = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                chunks.append((await reader.readexactly(size + 2))[:-2])
            while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                pass
            return status, headers, b"".join(chunks)
        if "content-length" in headers:
            return status, headers, await reader.readexactly(int(headers["content-length"]))
        body = await reader.read()  # to the end: the server closes
        self.close()
        return status, headers, body

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


class Recorder:
    """What one step measured: latencies (ms) and errors per endpoint, and the generator's own lateness.
    Only requests sent from ``measure_from`` to ``until`` count."""

    def __init__(self, measure_from: float, until: float) -> None:
        self.measure_from, self.until = measure_from, until
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.requests = 0
        self.lateness: list[float] = []
        """How late (s) the generator sent each request, by its own fault (the server's answers were in)."""
        self.skipped = 0
        """Polls not sent because the phone's previous answer had not come yet (the server's fault)."""

    def measured(self, sent: float) -> bool:
        return self.measure_from <= sent < self.until

    def add(self, sent: float, name: str, ms: float, ok: bool) -> None:
        """An answered request: its latency, and whether its status was the one expected."""
        if self.measured(sent):
            self.requests += 1
            self.times[name].append(ms)
            self.errors[name] += not ok

    def failed(self, sent: float, name: str) -> None:
        """A request that got no answer (refused, cut or timed out)."""
        if self.measured(sent):
            self.requests += 1
            self.errors[name] += 1

    def p95(self, kind: str) -> float:
        """The 95th percentile of the endpoints whose name ends with ``kind`` (NaN if none answered)."""
        times = [ms for name, values in self.times.items() if name.endswith(kind) for ms in values]
        return percentile(times, 0.95) if times else math.nan


@dataclass
class Table:
    """One game and what its phones saw: when each revision was saved, and when each phone first got it."""

    game: int
    token: str
    revision: int
    guests: list[str]
    address: str
    """The loopback address its phones send from (one home router)."""
    poller: dict[str, str] = field(default_factory=dict)
    """The live fragment's poller headers at the start (ETag, parts held): the phones hold them, as if they had
    loaded the page."""
    saved: dict[int, float] = field(default_factory=dict)
    """Revision → when the save that made it was answered (``time.monotonic()``)."""
    seen: dict[str, dict[int, float]] = field(default_factory=dict)
    """Phone → revision → when a poll first answered 200 with it (or a later one)."""


@dataclass(frozen=True)
class Clock:
    """A step's clock (``time.monotonic()``): when the phones start, when measuring starts and ends (the last
    save), and the poll interval. The phones poll two intervals more, for the last saves to arrive."""

    start: float
    measure_from: float
    until: float
    interval: float
    push: bool = False
    """The phones hold their game's stream and poll when it says the game changed (``--push``): then
    ``interval`` is the safety poll's, and the last saves arrive by push within :data:`PUSH_TAIL_S`."""

    @property
    def end(self) -> float:
        return self.until + (PUSH_TAIL_S if self.push else 2 * self.interval)


def address(kind: int, number: int) -> str:
    """The ``number``-th loopback address of a ``kind`` of client (1 tables, 2 spectators, 3 hammers)."""
    return f"127.{kind}.{number // 250}.{1 + number % 250}"


# Setup ------------------------------------------------------------------------------------------


def make_member(env: dict[str, str]) -> None:
    """The member (``bench``) and their group, on a prepared database."""
    manage(env, "shell", "-c", """
from django.contrib.auth.models import User
from scoring.models import Group
user = User.objects.create_user("bench", password="bench-password-1")
Group.objects.create(name="Bench", owner=user).members.add(user)
""")  # fmt: skip


def make_tables(env: dict[str, str], first: int, count: int, events: int) -> list[Table]:
    """Tables ``first`` to ``first + count - 1``: each a game of the member's group whose log is a legal random
    record of ``events`` events of 4 players (seeded by the table's number), and three guests' sessions."""
    script = f"""
import json
from importlib import import_module
from django.conf import settings
from scoring.access import TABLES_KEY
from scoring.creation import create_game
from scoring.models import Group
from support.random_games import RandomChooser, random_record
SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
def guest(game):
    session = SessionStore()
    session[TABLES_KEY] = {{str(game.pk): game.table_code}}
    session.save()
    return session.session_key
group = Group.objects.get(name="Bench")
rows = []
for number in range({first}, {first + count}):
    record = random_record(RandomChooser(number), {PHONES_PER_TABLE}, {events - events // 3}, {events // 3}).to_json()
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    rows.append({{"id": game.pk, "token": game.spectator_token, "revision": game.revision,
                  "guests": [guest(game) for _ in range({PHONES_PER_TABLE - 1})]}})
print(json.dumps(rows))
"""
    rows = json.loads(manage(env, "shell", "-c", script))
    return [
        Table(row["id"], row["token"], row["revision"], row["guests"], address(1, first + number))
        for number, row in enumerate(rows)
    ]


async def log_in(port: int) -> dict[str, str]:
    """A session cookie and CSRF token for the member."""
    connection = Connection(port)
    page = await connection.request("GET", "/accounts/login/")
    csrf = re.search(r"csrftoken=([^;]+)", page.headers.get("set-cookie", "")).group(1)  # type: ignore[union-attr]
    form = urlencode({"username": "bench", "password": "bench-password-1", "csrfmiddlewaretoken": csrf})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={csrf}"}
    answer = await connection.request("POST", "/accounts/login/", headers, form)
    connection.close()
    session = re.search(r"sessionid=([^;]+)", answer.headers.get("set-cookie", "")).group(1)  # type: ignore[union-attr]
    return {"Cookie": f"csrftoken={csrf}; sessionid={session}", "X-CSRFToken": csrf}


def poller_headers(body: bytes) -> dict[str, str]:
    """What the live fragment's poller in ``body`` sends with its next poll (none if ``body`` has no poller)."""
    found = POLLER.search(body.decode())
    return {"If-None-Match": f'"{found.group(1)}"', HEADER: found.group(2)} if found else {}


async def first_pollers(port: int, tables: list[Table]) -> None:
    """Each table's poller headers at the start (a guest's poll), four tables at a time."""
    limit = asyncio.Semaphore(4)

    async def first(table: Table) -> None:
        async with limit:
            connection = Connection(port, table.address)
            guest = {"Cookie": f"sessionid={table.guests[0]}", "HX-Request": "true"}
            answer = await connection.request("GET", f"/watch/{table.token}/live/?view=game", guest)
            connection.close()
            table.poller = poller_headers(answer.body)
            assert table.poller, f"no poller in the live fragment of game {table.game}"

    await asyncio.gather(*(first(table) for table in tables))


def lake_taps(rng: random.Random) -> list[str]:
    """The taps of a lake on the entry page, 6 to 16 of them, Save left out: who closed it (the first player),
    then its icons, each a count chip of the lake's colour or one more of another colour. Nobody's buildings:
    nobody collects, so the lake stays legal however many are saved."""
    icons = [
        f"count:rewards:{rng.choice(HOME_ICONS)}:{rng.randint(1, MAX_CHIP)}"
        if rng.random() < 0.6
        else f"add:rewards:{rng.choice(OTHER_ICONS)}:1"
        for _ in range(rng.randint(FEWEST_TAPS, MOST_TAPS) - 1)
    ]
    return ["set:closed_by:0", *icons]


# The phones -------------------------------------------------------------------------------------


def revision_of(poller: dict[str, str]) -> int:
    """The log's revision in a poller's ETag (``"<game>.<revision>.<activity>.<language>"``, see ``live_etag``)."""
    return int(poller["If-None-Match"].strip('"').split(".")[1])


async def phone(
    port: int,
    table: Table,
    name: str,
    view: str,
    source: str,
    cookie: dict[str, str],
    clock: Clock,
    recorder: Recorder,
    first_entry: float = math.inf,
) -> None:
    """One phone's game page: a poll every ``clock.interval``, skipped while the last one is unanswered. The
    member's enters a territory every 20 s from ``first_entry`` s on (:func:`enter_territory`), without polling
    meanwhile, then polls from the game page it loaded."""
    connection = Connection(port, source)
    seen = table.seen.setdefault(name, {})
    held, revision = dict(table.poller), table.revision
    rng = random.Random(f"{table.game} {name}")
    next_poll = clock.start + random.uniform(0, clock.interval)
    next_entry = clock.start + first_entry
    path = f"/watch/{table.token}/live/?view={view}"
    pushed = asyncio.Event()
    listening = (
        asyncio.ensure_future(listen(port, source, table.token, clock, recorder, pushed)) if clock.push else None
    )
    try:
        while (due := min(next_poll, next_entry)) < clock.end or clock.push:
            if next_entry <= next_poll:
                next_entry += SAVE_EVERY
                held = await enter_territory(connection, table, cookie, recorder, clock, due, lake_taps(rng)) or held
                next_poll = time.monotonic() + clock.interval  # the new page's poller starts its timer
                continue
            if await woken(pushed, min(due, clock.end)):
                due = time.monotonic()  # a push: the page polls at once
            elif due >= clock.end:
                break
            else:
                next_poll += clock.interval
            sent = time.monotonic()
            if recorder.measured(sent):
                recorder.lateness.append(sent - due)
            try:
                answer = await connection.request("GET", path, {**cookie, "HX-Request": "true", **held})
            except (OSError, TimeoutError):
                recorder.failed(sent, f"poll ?view={view}")
                continue
            received = time.monotonic()
            outcome = {200: CHANGED, 304: UNCHANGED}.get(answer.status, f"failed ({answer.status})")
            recorder.add(sent, f"poll ?view={view} {outcome}", answer.ms, answer.status in (200, 304))
            if answer.status == 200:
                held = poller_headers(answer.body) or held
                new = revision_of(held)
                for each in range(revision + 1, new + 1):
                    seen.setdefault(each, received)
                revision = max(revision, new)
            while next_poll <= received:
                next_poll += clock.interval
                recorder.skipped += recorder.measured(next_poll)
    finally:
        connection.close()
        if listening is not None:
            listening.cancel()


async def woken(pushed: asyncio.Event, due: float) -> bool:
    """Wait until ``due`` (a timed poll) or a push, whichever comes first; whether it was a push."""
    try:
        async with asyncio.timeout(max(0.0, due - time.monotonic())):
            await pushed.wait()
    except TimeoutError:
        return False
    pushed.clear()
    return True


async def listen(port: int, source: str, token: str, clock: Clock, recorder: Recorder, pushed: asyncio.Event) -> None:
    """A page's stream of its game (``--push``: nginx's nchan, scoring/live/push.py), as an EventSource holds it:
    each message sets ``pushed``; pings only keep it open. Reopened after a pause if it fails, as the page does."""
    request = (
        f"GET /watch/{token}/stream/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    while time.monotonic() < clock.end:
        sent = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            recorder.failed(sent, "stream")
            await asyncio.sleep(random.uniform(0, 2))
            continue
        try:
            writer.write(request)
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            status = int(head.split(" ", 2)[1])
            recorder.add(sent, "stream opened", (time.monotonic() - sent) * 1000, status == 200)
            if status != 200:
                await asyncio.sleep(random.uniform(0, 2))
                continue
            chunked = "chunked" in head.lower()
            event = ""
            while True:
                data = await read_chunk(reader) if chunked else await reader.readuntil(b"\n")
                for line in data.decode().splitlines():
                    if line.startswith("event:"):
                        event = line.partition(":")[2].strip()
                    elif line.startswith("data:") and event in ("", "message"):
                        pushed.set()
                    elif not line:
                        event = ""
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            recorder.failed(sent, "stream")
        finally:
            writer.close()


async def read_chunk(reader: asyncio.StreamReader) -> bytes:
    """One chunk of a chunked answer (an empty one ends it: the stream closed)."""
    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
    if not size:
        raise asyncio.IncompleteReadError(b"", None)
    return (await reader.readexactly(size + 2))[:-2]


HIDDEN = re.compile(r'<input type="hidden" name="([\w-]+)" value="([^"]*)">')
"""A hidden field of the entry's form (the CSRF token, the draft, the revision, the draft's id, a twin asked)."""


async def enter_territory(
    connection: Connection,
    table: Table,
    member: dict[str, str],
    recorder: Recorder,
    clock: Clock,
    began: float,
    taps: list[str],
) -> dict[str, str]:
    """Enter a lake at the table's game as the entry's htmx does, from ``began`` on: the entry page (the game
    page's Lake button), then each tap ``TAP_EVERY`` s after the one before, posted with the form's fields as
    the last answer left them, then Save, then the game page the answer sends to (``HX-Redirect``). The same
    lake as one saved a moment before is asked about once (scoring.table.twins): the phone taps Save again, as a
    person does, and both posts count as saves. The new page's poller headers; none if the entry stopped (a
    refused or failed request, or the step's end)."""
    path = f"/games/{table.game}/events/new/territory/"
    htmx = {**member, "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"}
    due = began

    async def send(name: str, method: str, url: str, headers: dict[str, str], body: str | None) -> Response | None:
        nonlocal due
        if due >= clock.end:
            return None
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        sent = time.monotonic()
        if recorder.measured(sent):
            recorder.lateness.append(sent - due)
        try:
            answer = await connection.request(method, url, headers, body)
        except (OSError, TimeoutError):
            recorder.failed(sent, name)
            return None
        saved = name == SAVE and "hx-redirect" in answer.headers
        twin = name == SAVE and answer.status == 422 and TWIN.search(answer.body.decode()) is not None
        recorder.add(sent, name, answer.ms, saved or twin or (name != SAVE and answer.status == 200))
        if saved:
            table.revision += 1
            if sent < clock.until:  # the phones poll two intervals more for it to arrive
                table.saved[table.revision] = time.monotonic()
        due = max(due + TAP_EVERY, time.monotonic()) if name != SAVE else time.monotonic()
        return answer if saved or twin or answer.status == 200 else None

    answer = await send(ENTRY, "GET", f"{path}?territory={Territory.LAKE}", member, None)
    for op in [*taps, "save", "save"]:
        if answer is None:
            return {}
        if "hx-redirect" in answer.headers:
            break
        form = answer.body.decode().partition('<form id="wizard"')[2].partition("</form>")[0]
        fields = {name: html.unescape(value) for name, value in HIDDEN.findall(form)}
        answer = await send(TAP if op != "save" else SAVE, "POST", path, htmx, urlencode(fields | {"op": op}))
    if answer is None or "hx-redirect" not in answer.headers:
        return {}
    page = await send(PAGE, "GET", answer.headers["hx-redirect"], member, None)
    return poller_headers(page.body) if page is not None else {}


# What it costs ----------------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """A process's CPU time in seconds (user + system); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children_cpu() -> dict[str, float]:
    """The CPU seconds of this process's children, each with its descendants (and the children they reaped),
    by the child's name: ``gunicorn`` (each server's master and workers), ``nginx``."""
    processes: dict[int, tuple[int, str, float]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name, fields = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()
        processes[int(stat.parent.name)] = (int(fields[1]), name, sum(int(value) for value in fields[11:15]) / TICK)
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (parent, _name, _cpu) in processes.items():
        children[parent].append(pid)
    totals: dict[str, float] = defaultdict(float)
    for child in children[os.getpid()]:
        stack = [child]
        while stack:
            pid = stack.pop()
            totals[processes[child][1]] += processes[pid][2]
            stack += children[pid]
    return totals


def machine_busy() -> float:
    """CPU seconds all cores spent busy since boot (``/proc/stat``: all but idle and I/O wait)."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / TICK


@dataclass(frozen=True)
class Usage:
    """CPU seconds used so far (or in a period: a difference), by whom, and when (``time.monotonic()``)."""

    at: float
    app: float
    front: float
    database: float
    cache: float
    generator: float
    machine: float
    backends: tuple[tuple[int, float], ...] = ()

    def __sub__(self, before: Usage) -> Usage:
        earlier = dict(before.backends)
        database = sum(seconds - earlier.get(pid, 0.0) for pid, seconds in self.backends)
        return Usage(
            self.at - before.at,
            self.app - before.app,
            self.front - before.front,
            database,
            self.cache - before.cache,
            self.generator - before.generator,
            self.machine - before.machine,
        )

    @property
    def server(self) -> float:
        return self.app + self.front + self.database + self.cache

    @property
    def others(self) -> float:
        return self.machine - self.server - self.generator


@dataclass(frozen=True)
class Meter:
    """Where the CPU goes: the site's processes, the database's backends, the cache server."""

    database: str | None
    """The PostgreSQL database whose backends count, if any."""
    cache_pid: int | None

    def backends(self) -> list[int]:
        """The PostgreSQL backends serving the database (none on SQLite)."""
        if not self.database:
            return []
        sql = f"SELECT pid FROM pg_stat_activity WHERE datname = '{self.database}' AND pid <> pg_backend_pid()"
        run = subprocess.run(["psql", PG_ADMIN, "-Atc", sql], check=True, capture_output=True, text=True)
        return [int(pid) for pid in run.stdout.split()]

    def read(self) -> Usage:
        """The CPU used so far."""
        backends = self.backends()
        processes, own = children_cpu(), os.times()
        front = sum(seconds for name, seconds in processes.items() if name.startswith("nginx"))
        return Usage(
            time.monotonic(),
            sum(processes.values()) - front,
            front,
            0.0,
            cpu_of(self.cache_pid) if self.cache_pid else 0.0,
            own.user + own.system,
            machine_busy(),
            tuple((pid, cpu_of(pid)) for pid in backends),
        )


# A step -----------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Step:
    """One step's figures."""

    phones: int
    spectators: int
    recorder: Recorder
    usage: Usage
    propagation: list[float]
    """For each save, how long (s) until each other phone of its table (and its spectator) had it."""
    push: bool = False
    """The phones held streams (``--push``): a save must reach the others within :data:`REACH_P95_S`."""

    @property
    def rate(self) -> float:
        return self.recorder.requests / self.usage.at

    @property
    def errors(self) -> int:
        return sum(self.recorder.errors.values())

    @property
    def late(self) -> int:
        return sum(lateness > LATE_S for lateness in self.recorder.lateness)

    @property
    def generator_behind(self) -> bool:
        return self.late > LATE_SHARE * len(self.recorder.lateness)

    def failures(self) -> list[str]:
        """The targets this step missed (empty: it held them all)."""
        tap, save, unchanged = self.recorder.p95(TAP), self.recorder.p95(SAVE), self.recorder.p95(UNCHANGED)
        missed = [f"tap p95 {tap:.0f} > {TAP_P95_MS:.0f} ms"] if tap > TAP_P95_MS else []
        missed += [f"save p95 {save:.0f} > {SAVE_P95_MS:.0f} ms"] if save > SAVE_P95_MS else []
        missed += ["no tap measured"] if math.isnan(tap) else []
        missed += ["no save measured"] if math.isnan(save) else []
        if not unchanged <= UNCHANGED_P95_MS:
            missed.append(f"unchanged poll p95 {unchanged:.1f} > {UNCHANGED_P95_MS:.0f} ms")
        reach = percentile(self.propagation, 0.95) if self.propagation else math.inf
        missed += [f"reach p95 {reach:.2f} > {REACH_P95_S} s"] if self.push and not reach <= REACH_P95_S else []
        missed += [f"{self.errors} errors"] if self.errors else []
        missed += [f"the generator fell behind ({self.late} late)"] if self.generator_behind else []
        return missed


async def run_step(
    port: int, tables: list[Table], spectators: int, member: dict[str, str], options: argparse.Namespace, meter: Meter
) -> Step:
    """The tables' phones and ``spectators`` spectators for ``options.warmup`` s, then ``options.seconds`` s
    measured."""
    start = time.monotonic() + 0.2
    interval = STREAMING_MS / 1000 if options.push else options.interval
    clock = Clock(start, start + options.warmup, start + options.warmup + options.seconds, interval, options.push)
    recorder = Recorder(clock.measure_from, clock.until)
    phones = []
    for index, table in enumerate(tables):
        first_entry = index * SAVE_EVERY / len(tables)  # the tables' entries spread evenly over 20 s
        phones.append(phone(port, table, "member", "game", table.address, member, clock, recorder, first_entry))
        phones += [
            phone(port, table, f"guest {k}", "game", table.address, {"Cookie": f"sessionid={key}"}, clock, recorder)
            for k, key in enumerate(table.guests)
        ]
    phones += [
        phone(port, table, "spectator", "watch", address(2, number), {}, clock, recorder)
        for number, table in enumerate(tables[:spectators])
    ]
    running = [asyncio.ensure_future(each) for each in phones]
    await asyncio.sleep(clock.measure_from - time.monotonic())
    before = await asyncio.to_thread(meter.read)
    await asyncio.sleep(clock.until - time.monotonic())
    usage = await asyncio.to_thread(meter.read) - before
    await asyncio.gather(*running)
    propagation = [
        seen.get(revision, math.inf) - saved
        for table in tables
        for name, seen in table.seen.items()
        if name != "member"
        for revision, saved in table.saved.items()
    ]
    return Step(
        len(tables) * PHONES_PER_TABLE, min(spectators, len(tables)), recorder, usage, propagation, options.push
    )


async def hammer(port: int, path: str, headers: dict[str, str], seconds: float, clients: int) -> tuple[float, int]:
    """Requests per second that ``clients`` closed-loop clients (kept-alive connections) get from ``path``,
    and the errors."""
    until = time.monotonic() + seconds
    done, errors = 0, 0

    async def client(number: int) -> None:
        nonlocal done, errors
        connection = Connection(port, address(3, number))
        while time.monotonic() < until:
            try:
                ok = (await connection.request("GET", path, headers)).status in (200, 304)
            except (OSError, TimeoutError):
                ok = False
            done, errors = done + 1, errors + (not ok)
        connection.close()

    await asyncio.gather(*(client(number) for number in range(clients)))
    return done / seconds, errors


# Printing ---------------------------------------------------------------------------------------


def ms(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def print_step(step: Step, cores: int) -> None:
    """A step's figures in full."""
    recorder, usage = step.recorder, step.usage
    lateness = recorder.lateness or [0.0]
    print(
        f"{step.phones} phones ({step.phones // PHONES_PER_TABLE} tables) + {step.spectators} spectators, "
        f"{usage.at:.0f} s measured: "
        f"{recorder.requests} requests ({step.rate:.1f}/s), errors {step.errors}; the generator sent "
        f"{step.late} of {len(recorder.lateness)} over {LATE_S * 1000:.0f} ms late (p99 "
        f"{percentile(lateness, 0.99) * 1000:.0f} ms); polls skipped while an answer was awaited: {recorder.skipped}"
    )
    for name, times in sorted(recorder.times.items()):
        print(
            f"  {name}: n={len(times)} p50={ms(statistics.median(times))} p95={ms(percentile(times, 0.95))} "
            f"p99={ms(percentile(times, 0.99))} ms errors={recorder.errors[name]}"
        )
    for name in sorted(set(recorder.errors) - set(recorder.times)):
        print(f"  {name}: no answer {recorder.errors[name]} times")
    delays = step.propagation
    if delays:
        print(
            f"  a save reaches the other phones: n={len(delays)} p50={statistics.median(delays):.2f} "
            f"p95={percentile(delays, 0.95):.2f} max={max(delays):.2f} s, never {sum(map(math.isinf, delays))}"
        )
    requests = max(1, recorder.requests)
    parts = [f"gunicorn {usage.app:.1f} s"] + ([f"nginx {usage.front:.1f} s"] if usage.front else [])
    parts += [f"PostgreSQL {usage.database:.1f} s"] if usage.database else []
    parts += [f"Redis {usage.cache:.1f} s"] if usage.cache else []
    print(
        f"  CPU: {', '.join(parts)}: {usage.server * 1000 / requests:.2f} ms per request "
        f"({(usage.server - usage.database) * 1000 / requests:.2f} the site's, {usage.database * 1000 / requests:.2f} "
        f"the database's), {usage.server / usage.at / cores:.0%} of {cores} cores; the generator "
        f"{usage.generator / usage.at / cores:.0%}, other processes {max(0.0, usage.others) / usage.at / cores:.0%}"
    )
    missed = step.failures()
    print(f"  targets: {'held' if not missed else 'missed: ' + '; '.join(missed)}", flush=True)


COLUMNS = (
    ("phones", 6), ("req/s", 6), ("tap p95", 7), ("save p95", 8), ("304 p95", 7), ("200 p95", 7), ("page p95", 8),
    ("errors", 6), ("late", 5), ("reach p95", 9), ("CPU ms/req site+db", 18), ("cores", 5), ("gen.", 4), ("others", 6),
)  # fmt: skip


def print_table(steps: list[Step], cores: int) -> None:
    """The steps side by side, and the knee."""
    print(" ".join(f"{name:>{width}}" for name, width in COLUMNS) + "  targets")
    for step in steps:
        usage, requests = step.usage, max(1, step.recorder.requests)
        site = usage.server - usage.database
        reach = percentile(step.propagation, 0.95) if step.propagation else math.nan
        cells = (
            str(step.phones), f"{step.rate:.0f}", ms(step.recorder.p95(TAP)), ms(step.recorder.p95(SAVE)),
            ms(step.recorder.p95(UNCHANGED)),
            ms(step.recorder.p95(CHANGED)), ms(step.recorder.p95(PAGE)), str(step.errors), str(step.late),
            f"{reach:.2f} s", f"{site * 1000 / requests:.2f}+{usage.database * 1000 / requests:.2f}",
            f"{usage.server / usage.at:.2f}", f"{usage.generator / usage.at / cores:.0%}",
            f"{max(0.0, usage.others) / usage.at / cores:.0%}",
        )  # fmt: skip
        missed = step.failures()
        print(
            " ".join(f"{cell:>{width}}" for cell, (_name, width) in zip(cells, COLUMNS, strict=True))
            + f"  {'hold' if not missed else 'MISSED: ' + '; '.join(missed)}"
        )
    most = knee(steps)
    print(
        f"knee: {most} phones (tap p95 ≤ {TAP_P95_MS:.0f} ms, save p95 ≤ {SAVE_P95_MS:.0f} ms, unchanged poll p95 ≤ "
        f"{UNCHANGED_P95_MS:.0f} ms, no error)"
        if most
        else f"knee: below {steps[0].phones} phones (the first step missed the targets)"
    )


def knee(steps: list[Step]) -> int | None:
    """The most phones of a step that held the targets, as every step before it did."""
    most = None
    for step in steps:
        if step.failures():
            break
        most = step.phones
    return most


# The run ----------------------------------------------------------------------------------------


@contextmanager
def niceness(nice: int) -> Iterator[str]:
    """This process at niceness ``nice``, and so the site's processes it starts; what it got, to print. Where
    the kernel groups processes by session (autogroup), a niceness counts only within the group: the
    session's group gets ``nice`` too, and its own back afterwards. Not permitted (a negative niceness needs
    root), the run goes on at the usual priority."""
    group = Path("/proc/self/autogroup")
    before = group.read_text().split()[-1] if nice and group.exists() else None
    try:
        if nice:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        if before is not None:
            group.write_text(str(nice))
    except PermissionError:
        yield f"niceness {nice} not permitted: the usual priority"
        return
    try:
        yield f"niceness {nice}" if nice else ""
    finally:
        if before is not None:
            group.write_text(before)


@contextmanager
def database(postgres: bool, folder: Path) -> Iterator[tuple[str, str | None]]:
    """A fresh database: its URL, and its name on PostgreSQL (dropped afterwards)."""
    if not postgres:
        yield f"sqlite:///{folder}/load.sqlite3", None
        return
    name = f"okanagan_load_{os.getpid()}"
    subprocess.run(["psql", PG_ADMIN, "-q", "-c", f"CREATE DATABASE {name}"], check=True)
    try:
        yield f"postgres://postgres@127.0.0.1:5432/{name}", name
    finally:
        subprocess.run(["psql", PG_ADMIN, "-q", "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=True)


@contextmanager
def site(env: dict[str, str], options: argparse.Namespace, folder: Path) -> Iterator[int]:
    """The site, as ``make serve`` runs it (or gunicorn alone with ``--direct``); its port."""
    port = free_port()
    if options.direct:
        server = serve(env, port, workers=options.workers)
        try:
            yield port
        finally:
            server.terminate()
            server.wait()
        return
    running = start(env, "127.0.0.1", port, options.workers, folder / "run", servers=options.servers)
    try:
        yield port
    finally:
        running.stop()


def cache_server(url: str) -> int | None:
    """The Redis server's process id, to count its CPU."""
    import redis

    pid = redis.Redis.from_url(url).info("server").get("process_id")
    return int(pid) if pid else None


def forget(url: str, prefix: str) -> None:
    """Delete the run's keys from Redis (Django's keys are ``<prefix>:<version>:<key>``)."""
    import redis

    client = redis.Redis.from_url(url)
    for keys in batched(client.scan_iter(match=f"{prefix}:*", count=1000), 1000):
        client.delete(*keys)


def batched(items: Iterator[bytes], size: int) -> Iterator[list[bytes]]:
    batch: list[bytes] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


async def run(options: argparse.Namespace, env: dict[str, str], meter: Meter, port: int) -> None:
    """The steps, then the hammers."""
    cores = os.cpu_count() or 1
    member = await log_in(port)
    steps: list[Step] = []
    made = 0
    for phones in options.phones:
        begun = time.monotonic()
        tables = make_tables(env, made, phones // PHONES_PER_TABLE, options.events)
        made += len(tables)
        await first_pollers(port, tables)
        print(f"{phones} phones: {len(tables)} games made in {time.monotonic() - begun:.0f} s", flush=True)
        steps.append(await run_step(port, tables, options.spectators, member, options, meter))
        print_step(steps[-1], cores)
        if steps[-1].failures() and not options.keep_going:
            break
    print()
    print_table(steps, cores)
    table = tables[0]
    guest = {"Cookie": f"sessionid={table.guests[0]}", "HX-Request": "true"}
    live = f"/watch/{table.token}/live/?view=game"
    held = poller_headers((await Connection(port).request("GET", live, guest)).body)
    own = os.times()
    trivial, trivial_errors = await hammer(port, "/health/live/", {}, options.hammer, 16)
    polls, poll_errors = await hammer(port, live, {**guest, **held}, options.hammer, 16)
    generator = (os.times().user + os.times().system - own.user - own.system) / (2 * options.hammer) / cores
    print(
        f"trivial view: {trivial:.0f} req/s (errors {trivial_errors}); unchanged poll: {polls:.0f} req/s "
        f"(errors {poll_errors}); ratio {polls / trivial:.0%} (target ≥ 50 %); 16 clients each, the generator "
        f"{generator:.0%} of {cores} cores"
    )


def describe(options: argparse.Namespace, priority: str) -> str:
    """The run's first line: what serves, on what, under what load."""
    workers = f"{options.workers} workers"
    front = f"gunicorn alone ({workers})" if options.direct else f"nginx + gunicorn ({options.servers} × {workers})"
    return (
        f"load: {'PostgreSQL' if options.postgres else 'SQLite'}{' + Redis' if options.redis else ''}, {front}; "
        f"tables of {PHONES_PER_TABLE} phones on games of {options.events} events, a territory per table every "
        f"{SAVE_EVERY:.0f} s ({FEWEST_TAPS}–{MOST_TAPS} taps, one every {TAP_EVERY:g} s, then Save and the game "
        f"page), "
        + (
            f"pushed, a safety poll every {STREAMING_MS / 1000:g} s"
            if options.push
            else f"polls every {options.interval:g} s"
        )
        + f"; each step {options.warmup:g} s of warm-up, then "
        f"{options.seconds:g} s measured" + (f"; {priority}" if priority else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL at 127.0.0.1:5432 (else SQLite)")
    parser.add_argument(
        "--redis",
        nargs="?",
        const=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
        help="the shared cache on Redis (REDIS_URL, or redis://127.0.0.1:6379/0)",
    )
    parser.add_argument("--events", type=int, default=30, help="each table's game starts this many events long")
    steps = [40, 80, 120, 160, 200, 300, 400, 600, 800]
    parser.add_argument("--phones", type=int, nargs="+", default=steps, help="the steps")
    parser.add_argument(
        "--interval", type=float, default=PLAYING_MS / 1000, help="seconds between a phone's polls (the site's own)"
    )
    parser.add_argument(
        "--push",
        action="store_true",
        help="each phone holds its game's stream (nginx's nchan) and polls when a change is pushed, else once a "
        "minute (the pages' own safety poll); targets add a save reaching the other phones at p95 ≤ 0.25 s",
    )
    parser.add_argument("--seconds", type=float, default=20, help="each step's measured seconds")
    parser.add_argument(
        "--warmup",
        type=float,
        default=math.ceil((MOST_TAPS + 1) * TAP_EVERY),
        help="each step's seconds before measuring (at least the longest entry's, for a steady game)",
    )
    parser.add_argument("--spectators", type=int, default=10, help="one each at a step's first N tables")
    parser.add_argument("--workers", type=int, default=default_workers(), help="gunicorn's workers (per server)")
    parser.add_argument("--servers", type=int, default=1, help="gunicorn servers behind nginx")
    parser.add_argument("--direct", action="store_true", help="one gunicorn on loopback TCP, without nginx")
    parser.add_argument("--keep-going", action="store_true", help="run every step, not only to the first miss")
    parser.add_argument("--hammer", type=float, default=10, help="seconds of each hammer")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="the site's and this script's niceness: -10 puts them ahead of the machine's other processes, as if "
        "it were idle (needs root; PostgreSQL's backends keep theirs)",
    )
    options = parser.parse_args()
    if options.servers != 1 and options.direct:
        parser.error("--servers: not with --direct")
    if options.push and options.direct:
        parser.error("--push: not with --direct (the streams are nginx's)")
    if not options.direct and not Path(NGINX).exists():
        parser.error(f"nginx not found at {NGINX} (apt-get install -y nginx-light), or use --direct")
    if options.warmup < options.interval:
        parser.error("--warmup must be at least --interval, for every phone to poll from the start")
    folder = Path(tempfile.mkdtemp())
    try:
        with database(options.postgres, folder) as (url, name):
            env = production_env(url)
            env.pop("REDIS_URL", None)
            if options.redis:
                env["REDIS_URL"] = options.redis
            if not options.direct:
                env = serve_env(env, "127.0.0.1") | {"LOG_LEVEL": "WARNING"}
            prepare(env)
            make_member(env)
            meter = Meter(name, cache_server(options.redis) if options.redis else None)
            try:
                with niceness(options.nice) as priority, site(env, options, folder) as port:
                    print(describe(options, priority), flush=True)
                    asyncio.run(run(options, env, meter, port))
            finally:
                if options.redis:
                    forget(options.redis, env["CACHE_KEY_PREFIX"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
