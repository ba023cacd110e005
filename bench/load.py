"""Load test: a busy evening of many tables, against gunicorn (2 workers) on loopback.

Starts the site on a fresh database (SQLite by default; ``--postgres`` uses the machine's server), makes
50 games, then for a bounded 60 s runs 50 tables × 3 phones and a few spectators, as the pages do:

- every phone polls the game's live fragment every 1.5 s (``--interval``) with the ETag it holds: the
  table's phones ``/watch/<token>/live/?view=game`` with a session, the spectators ``?view=watch``
  without one;
- one phone per table, the member's, saves a territory every 20 s and then loads the game page, as the
  browser does after a save. The territory is a lake the phone entered tap by tap before the run (then
  cancelled): each save posts the draft of that entry's last page again, which makes one more lake.

At a table, the member's phone is logged in over HTTP (one session shared by the 50 tables: a session is
one row, read once per request whoever holds it). The other two phones are table guests: the join view
allows 20 joins per client in 5 minutes, and every phone here is one client (127.0.0.1), so the setup
script stores their sessions itself as ``join_table`` does (``{"tables": {"<game id>": "<table code>"}}``)
and hands their keys over. Their live fragment is the same ``#game`` partial a member's is.

Then, in the same run, it measures the highest rate of the trivial view (``/health/live/``) and of an
unchanged poll, each for 10 s with 16 clients, and prints their ratio.

Prints:

- requests per second, p50/p95/p99 per endpoint and the errors;
- how long a save takes to reach the table's other phones and its spectators (propagation): from the
  save's response to the first poll answered 200 with the new revision (read from the ETag). Saves
  started in the last two intervals are not made, so that every save has time to arrive; one that never
  arrives counts as infinitely late. With polls every T the mean is about T/2 and the p95 about
  0.95·T plus a poll's latency;
- what it costs the server: the CPU time of gunicorn's master and workers (and, on PostgreSQL, of the
  database backends serving them) during the 60 s, per request and as a share of the machine's cores.
  This script's own CPU is printed too, as is the rest of the machine's: they run on the same cores,
  and a run while other processes are busy is slower than the site is.

Targets: 0 errors; propagation p95 < 2 s; territory submit p95 ≤ 50 ms; unchanged poll p95 ≤ 10 ms; poll
throughput ≥ 50 % of the trivial view's.

    .venv/bin/python bench/load.py [--postgres] [--seconds 60] [--tables 50] [--interval 1.5] [--spectators 10]
"""

from __future__ import annotations

import argparse
import html
import http.client
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
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.production import free_port, manage, prepare, production_env, serve  # noqa: E402

PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_BENCH = "postgres://postgres@127.0.0.1:5432/okanagan_bench"
LAKE_TAPS = ("set:territory:lake", "count:rewards:blue-circle:1", "set:closed_by:0", "done:board")
"""A lake with one blue circle, closed by Ann, nobody's buildings: then the entry is ready to save."""
SAVE_EVERY = 20.0
PAGE_ETAG = re.compile(r'"If-None-Match": "\\"([^"\\]+)\\""')  # the ETag the game page's live div sends


class Recorder:
    """Latencies (ms) and errors per endpoint, from many threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)

    def add(self, name: str, ms: float, ok: bool) -> None:
        with self.lock:
            self.times[name].append(ms)
            if not ok:
                self.errors[name] += 1


@dataclass
class Table:
    """One game and what its phones saw: when each revision was saved, and when each phone first got it."""

    game: int
    token: str
    guests: list[str]
    lake: str = ""
    """The draft of a lake ready to save, as its page held it (see :func:`enter_lake`)."""
    saved: dict[int, float] = field(default_factory=dict)
    """Revision → when the save that made it was answered (``time.monotonic()``)."""
    seen: dict[str, dict[int, float]] = field(default_factory=dict)
    """Phone → revision → when a poll first answered 200 with it (or a later one)."""


def request(
    port: int, method: str, path: str, headers: dict[str, str] | None = None, body: str | None = None
) -> tuple[int, dict[str, str], bytes, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    start = time.perf_counter()
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    result = response.status, {key.lower(): value for key, value in response.getheaders()}, data, elapsed
    connection.close()
    return result


def setup(env: dict[str, str], tables: int) -> list[Table]:
    """Prepare the database, and make a member, a group, ``tables`` games and two guests' sessions per game."""
    prepare(env)
    script = f"""
import json
from importlib import import_module
from django.conf import settings
from django.contrib.auth.models import User
from scoring.access import TABLES_KEY
from scoring.models import Group
from scoring.log import create_game
SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
def guest(game):
    session = SessionStore()
    session[TABLES_KEY] = {{str(game.pk): game.table_code}}
    session.save()
    return session.session_key
user = User.objects.create_user("bench", password="bench-password-1")
group = Group.objects.create(name="Bench", owner=user)
group.members.add(user)
games = [create_game(group, ("Ann", "Ben", "Cy"), {{}}, promos=False) for _ in range({tables})]
print(json.dumps([{{"id": g.pk, "token": g.spectator_token, "guests": [guest(g), guest(g)]}} for g in games]))
"""
    rows = json.loads(manage(env, "shell", "-c", script))
    return [Table(row["id"], row["token"], row["guests"]) for row in rows]


def log_in(port: int) -> dict[str, str]:
    """A session cookie and CSRF token for the member."""
    status, headers, body, _ms = request(port, "GET", "/accounts/login/")
    csrf = re.search(r"csrftoken=([^;]+)", headers.get("set-cookie", "")).group(1)  # type: ignore[union-attr]
    form = urlencode({"username": "bench", "password": "bench-password-1", "csrfmiddlewaretoken": csrf})
    status, headers, body, _ms = request(
        port,
        "POST",
        "/accounts/login/",
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={csrf}"},
        form,
    )
    session = re.search(r"sessionid=([^;]+)", headers.get("set-cookie", "")).group(1)  # type: ignore[union-attr]
    return {"Cookie": f"csrftoken={csrf}; sessionid={session}", "X-CSRFToken": csrf}


def enter_lake(port: int, game: int, session: dict[str, str]) -> str:
    """Enter a lake at ``game`` tap by tap, as a phone does, and cancel it: the draft the last page held,
    which this phone may post to save that lake (drafts are the server's to make: none is made up here)."""
    path = f"/games/{game}/events/new/territory/"
    headers = {**session, "Content-Type": "application/x-www-form-urlencoded"}
    _status, _headers, page, _ms = request(port, "GET", path, session)
    fields: dict[str, str] = {}
    for op in (*LAKE_TAPS, "cancel"):
        for name in ("draft", "revision", "draft_id"):
            found = re.search(rf'name="{name}" value="([^"]*)"'.encode(), page)
            assert found, f"no {name} in the entry page"
            fields[name] = html.unescape(found.group(1).decode())
        status, _headers, page, _ms = request(port, "POST", path, headers, urlencode(fields | {"op": op}))
        assert status == (302 if op == "cancel" else 200), (op, status)
    return fields["draft"]


def revision_of(etag: str) -> int:
    """The log's revision in a live ETag (``"<game>.<revision>.<activity>.<language>"``, see ``live_etag``)."""
    return int(etag.strip('"').split(".")[1])


def phone(
    port: int,
    table: Table,
    name: str,
    view: str,
    cookie: dict[str, str],
    run: Run,
    recorder: Recorder,
    first_save: float = math.inf,
) -> None:
    """One phone's page: a poll every ``run.interval``. The saver saves a territory every 20 s from
    ``first_save`` s on, and loads the game page after each save (its live div restarts its timer then)."""
    seen = table.seen.setdefault(name, {})
    etag, revision = "", 0
    next_poll = run.start + random.uniform(0, run.interval)
    next_save = run.start + first_save
    while True:
        now = time.monotonic()
        if min(next_poll, next_save) >= run.until:
            return
        time.sleep(max(0.0, min(next_poll, next_save) - now))
        if next_save <= next_poll:
            next_save += SAVE_EVERY
            if time.monotonic() >= run.until - 2 * run.interval:
                continue  # no time left for the other phones to get it
            etag = save(port, table, cookie, recorder, etag)
            next_poll = time.monotonic() + run.interval
            continue
        next_poll += run.interval
        headers = {**cookie, "HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
        try:
            status, response, _body, ms = request(port, "GET", f"/watch/{table.token}/live/?view={view}", headers)
        except OSError:
            recorder.add(f"poll ?view={view}", 0, False)
            continue
        received = time.monotonic()
        outcome = {200: "changed (200)", 304: "unchanged (304)"}.get(status, f"failed ({status})")
        recorder.add(f"poll ?view={view} {outcome}", ms, status in (200, 304))
        if status == 200:
            etag = response.get("etag", etag)
            new = revision_of(etag)
            for each in range(revision + 1, new + 1):
                seen.setdefault(each, received)
            revision = max(revision, new)


def save(port: int, table: Table, session: dict[str, str], recorder: Recorder, etag: str) -> str:
    """Save a territory and load the game page as the browser does; the ETag the page's live div holds."""
    revision = max(table.saved, default=0)
    body = urlencode({"draft": table.lake, "revision": revision, "op": "save"})
    headers = {**session, "Content-Type": "application/x-www-form-urlencoded"}
    try:
        status, _headers, _body, ms = request(port, "POST", f"/games/{table.game}/events/new/territory/", headers, body)
    except OSError:
        recorder.add("territory submit", 0, False)
        return etag
    recorder.add("territory submit", ms, status == 302)
    if status != 302:
        return etag
    table.saved[revision + 1] = time.monotonic()
    status, _headers, page, ms = request(port, "GET", f"/games/{table.game}/", session)
    recorder.add("game page (after a save)", ms, status == 200)
    found = PAGE_ETAG.search(page.decode())
    return f'"{found.group(1)}"' if found else etag


@dataclass(frozen=True)
class Run:
    """The main phase's clock (``time.monotonic()``): when it starts and ends, and the poll interval."""

    start: float
    until: float
    interval: float


def hammer(port: int, path: str, headers: dict[str, str], seconds: float, clients: int) -> tuple[float, int]:
    """Requests per second that ``clients`` closed-loop clients get from ``path``, and the errors."""
    counts = [0] * clients
    errors = [0] * clients
    until = time.time() + seconds

    def client(index: int) -> None:
        while time.time() < until:
            status, _headers, _body, _ms = request(port, "GET", path, headers)
            counts[index] += 1
            errors[index] += status not in (200, 304)

    threads = [threading.Thread(target=client, args=(index,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / seconds, sum(errors)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int, *, children: bool = False) -> float:
    """A process's CPU time in seconds (user + system), with its reaped children's if ``children``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    utime, stime, cutime, cstime = (int(value) for value in fields[11:15])
    return (utime + stime + (cutime + cstime if children else 0)) / TICK


def server_cpu(master: int) -> float:
    """gunicorn's CPU time: the master with the workers it reaped, and its live workers."""
    workers = [
        int(stat.parent.name)
        for stat in Path("/proc").glob("[0-9]*/stat")
        if _parent(stat) == master
    ]  # fmt: skip
    return cpu_of(master, children=True) + sum(cpu_of(worker) for worker in workers)


def _parent(stat: Path) -> int:
    try:
        return int(stat.read_text().rsplit(")", 1)[1].split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return 0


def machine_busy() -> float:
    """CPU seconds all cores spent busy since boot (``/proc/stat``: all but idle and I/O wait)."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / TICK


def database_backends() -> dict[int, float]:
    """The PostgreSQL backends serving the bench database, and their CPU time so far."""
    sql = "SELECT pid FROM pg_stat_activity WHERE datname = 'okanagan_bench' AND pid <> pg_backend_pid()"
    pids = subprocess.run(["psql", PG_ADMIN, "-Atc", sql], check=True, capture_output=True, text=True).stdout.split()
    return {int(pid): cpu_of(int(pid)) for pid in pids}


def print_propagation(label: str, delays: list[float]) -> None:
    if not delays:
        print(f"  {label}: none")
        return
    late = sum(delay == math.inf for delay in delays)
    p95 = percentile(delays, 0.95)
    arrived = [delay for delay in delays if delay != math.inf]
    print(
        f"  {label}: n={len(delays)} mean={statistics.mean(arrived):.2f} s p50={statistics.median(delays):.2f} s "
        f"p95={p95:.2f} s max={max(delays):.2f} s never={late}; p95 < 2 s: {'yes' if p95 < 2 else 'NO'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--interval", type=float, default=1.5, help="seconds between a phone's polls")
    parser.add_argument("--spectators", type=int, default=10, help="one each at the first N tables")
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    if args.postgres:
        for sql in ("DROP DATABASE IF EXISTS okanagan_bench", "CREATE DATABASE okanagan_bench"):
            subprocess.run(["psql", PG_ADMIN, "-q", "-c", sql], check=True)
        database = PG_BENCH
    else:
        database = f"sqlite:///{folder}/bench.sqlite3"
    port = free_port()
    env = production_env(database)
    tables = setup(env, args.tables)
    server = serve(env, port, workers=2)
    try:
        member = log_in(port)
        for table in tables:
            table.lake = enter_lake(port, table.game, member)
        recorder = Recorder()
        start = time.monotonic() + 0.5
        run = Run(start, start + args.seconds, args.interval)
        threads = []
        for index, table in enumerate(tables):
            first_save = index * SAVE_EVERY / len(tables)  # the tables' saves spread evenly over 20 s
            phones = [("member", "game", member, first_save)]
            phones += [
                (f"guest {k}", "game", {"Cookie": f"sessionid={key}"}, math.inf) for k, key in enumerate(table.guests)
            ]
            phones += [("spectator", "watch", {}, math.inf)] if index < args.spectators else []
            threads += [
                threading.Thread(target=phone, args=(port, table, name, view, cookie, run, recorder, save_at))
                for name, view, cookie, save_at in phones
            ]
        cpu_before, backends_before, own_before, busy_before = server_cpu(server.pid), {}, os.times(), machine_busy()
        if args.postgres:
            backends_before = database_backends()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - start
        cpu = server_cpu(server.pid) - cpu_before
        own, busy = os.times(), machine_busy() - busy_before
        own_cpu = own.user + own.system - own_before.user - own_before.system
        database_cpu = 0.0
        if args.postgres:
            database_cpu = sum(
                seconds - backends_before.get(pid, 0.0) for pid, seconds in database_backends().items()
            )  # fmt: skip
        guest = {"Cookie": f"sessionid={tables[0].guests[0]}"}
        live = f"/watch/{tables[0].token}/live/?view=game"
        _status, headers, _body, _ms = request(port, "GET", live, guest)
        trivial, trivial_errors = hammer(port, "/health/live/", {}, 10, 16)
        polls, poll_errors = hammer(port, live, {**guest, "If-None-Match": headers["etag"]}, 10, 16)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)

    total = sum(len(times) for times in recorder.times.values())
    poll_count = sum(len(times) for name, times in recorder.times.items() if name.startswith("poll"))
    print(
        f"database: {'PostgreSQL' if args.postgres else 'SQLite'}; {len(tables)} tables × 3 phones "
        f"+ {min(args.spectators, len(tables))} spectators, polls every {args.interval:g} s, for {elapsed:.0f} s"
    )
    print(
        f"requests: {total} ({total / elapsed:.1f}/s), errors: {sum(recorder.errors.values())}; "
        f"polls {poll_count / total:.0%} of them"
    )
    for name, times in sorted(recorder.times.items()):
        print(
            f"  {name}: n={len(times)} p50={statistics.median(times):.1f} ms p95={percentile(times, 0.95):.1f} ms "
            f"p99={percentile(times, 0.99):.1f} ms errors={recorder.errors[name]}"
        )
    delays: dict[str, list[float]] = defaultdict(list)
    for table in tables:
        for name, seen in table.seen.items():
            if name == "member":
                continue
            view = "spectators (?view=watch)" if name == "spectator" else "table's other phones (?view=game)"
            delays[view] += [seen.get(revision, math.inf) - saved for revision, saved in table.saved.items()]
    print(
        f"propagation, save answered → other phone has it (polls every {args.interval:g} s: expected mean "
        f"≈ {args.interval / 2:.2f} s, p95 ≈ {0.95 * args.interval:.2f} s + a poll's latency):"
    )
    print_propagation("all", [delay for values in delays.values() for delay in values])
    for view, values in sorted(delays.items()):
        print_propagation(view, values)
    cores = os.cpu_count() or 1
    database = f" + PostgreSQL backends {database_cpu:.1f} s" if args.postgres else ""
    print(
        f"server CPU: gunicorn {cpu:.1f} s{database} for {total} requests: "
        f"{(cpu + database_cpu) * 1000 / total:.2f} ms per request, {(cpu + database_cpu) / elapsed / cores:.0%} "
        f"of {cores} cores; this script {own_cpu / elapsed / cores:.0%}; "
        f"other processes {(busy - cpu - database_cpu - own_cpu) / elapsed / cores:.0%}"
    )
    print(f"trivial view: {trivial:.0f} req/s (errors {trivial_errors}); unchanged poll: {polls:.0f} req/s "
          f"(errors {poll_errors}); ratio {polls / trivial:.0%}")  # fmt: skip


if __name__ == "__main__":
    main()
