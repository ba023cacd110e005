"""Load test: a busy evening of many tables, against gunicorn (2 workers) on loopback.

Starts the site on a fresh database (SQLite by default; ``--postgres`` uses the machine's server), makes
50 games, then for a bounded 60 s runs 50 tables × 3 phones: each phone polls its scoreboard every 3 s
(sending the ETag it holds, as the page does) and each table submits a completed territory every 20 s.
Then, in the same run, it measures the highest rate of the trivial view (``/health/live/``) and of an
unchanged poll, each for 10 s with 16 clients, and prints their ratio.

Prints requests per second, p50/p95/p99 per endpoint and the errors. Targets: 0 errors; territory
submit p95 ≤ 50 ms; unchanged poll p95 ≤ 10 ms; poll throughput ≥ 50 % of the trivial view's.

    .venv/bin/python bench/load.py [--postgres] [--seconds 60] [--tables 50]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.production import free_port, manage, prepare, production_env, serve  # noqa: E402

PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_BENCH = "postgres://postgres@127.0.0.1:5432/okanagan_bench"
LAKE = {"type": "territory", "territory": "lake", "closed_by": "Ann", "rewards": {"blue-circle": 1}, "buildings": {}}


class Recorder:
    """Latencies (ms) and errors per endpoint, from many threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))

    def add(self, name: str, ms: float, status: int, ok: bool) -> None:
        with self.lock:
            self.times[name].append(ms)
            self.statuses[name][status] += 1
            if not ok:
                self.errors[name] += 1


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


def setup(env: dict[str, str], tables: int) -> list[dict[str, object]]:
    """Prepare the database, and make a member, a group and ``tables`` games; their ids and tokens."""
    prepare(env)
    script = f"""
import json
from django.contrib.auth.models import User
from scoring.models import Group
from scoring.log import create_game
user = User.objects.create_user("bench", password="bench-password-1")
group = Group.objects.create(name="Bench", owner=user)
group.members.add(user)
games = [create_game(group, ("Ann", "Ben", "Cy"), {{}}, promos=False) for _ in range({tables})]
print(json.dumps([{{"id": g.pk, "token": g.spectator_token}} for g in games]))
"""
    games: list[dict[str, object]] = json.loads(manage(env, "shell", "-c", script))
    return games


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


def phone(port: int, token: str, until: float, recorder: Recorder, offset: float) -> None:
    time.sleep(offset)
    etag = ""
    while time.time() < until:
        headers = {"HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
        try:
            status, response, _body, ms = request(port, "GET", f"/watch/{token}/scoreboard/", headers)
            name = "poll unchanged (304)" if status == 304 else "poll changed (200)"
            recorder.add(name, ms, status, status in (200, 304))
            etag = response.get("etag", etag)
        except OSError:
            recorder.add("poll", 0, 0, False)
        time.sleep(max(0.0, min(3.0, until - time.time())))


def table(port: int, game: int, session: dict[str, str], until: float, recorder: Recorder, offset: float) -> None:
    time.sleep(offset)
    revision = 0
    draft = json.dumps({"event": LAKE, "done": ["rewards", "buildings"], "partial": {}, "card": ""})
    while time.time() < until:
        body = urlencode({"draft": draft, "revision": revision, "op": "save"})
        headers = {**session, "Content-Type": "application/x-www-form-urlencoded"}
        try:
            status, _headers, _body, ms = request(port, "POST", f"/games/{game}/events/new/territory/", headers, body)
            recorder.add("territory submit", ms, status, status == 302)
            revision += status == 302
        except OSError:
            recorder.add("territory submit", 0, 0, False)
        time.sleep(max(0.0, min(20.0, until - time.time())))


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tables", type=int, default=50)
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
    games = setup(env, args.tables)
    server = serve(env, port, workers=2)
    try:
        session = log_in(port)
        recorder = Recorder()
        until = time.time() + args.seconds
        threads = [
            threading.Thread(
                target=phone, args=(port, game["token"], until, recorder, (i * 3 + k) * 3 / (len(games) * 3))
            )
            for i, game in enumerate(games)
            for k in range(3)
        ] + [
            threading.Thread(target=table, args=(port, game["id"], session, until, recorder, i * 20 / len(games)))
            for i, game in enumerate(games)
        ]
        started = time.time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.time() - started
        token = str(games[0]["token"])
        _status, headers, _body, _ms = request(port, "GET", f"/watch/{token}/scoreboard/")
        trivial, trivial_errors = hammer(port, "/health/live/", {}, 10, 16)
        polls, poll_errors = hammer(port, f"/watch/{token}/scoreboard/", {"If-None-Match": headers["etag"]}, 10, 16)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    total = sum(len(times) for times in recorder.times.values())
    print(
        f"database: {'PostgreSQL' if args.postgres else 'SQLite'}; {len(games)} tables × 3 phones for {elapsed:.0f} s"
    )
    print(f"requests: {total} ({total / elapsed:.1f}/s), errors: {sum(recorder.errors.values())}")
    for name, times in sorted(recorder.times.items()):
        print(
            f"  {name}: n={len(times)} p50={statistics.median(times):.1f} ms p95={percentile(times, 0.95):.1f} ms "
            f"p99={percentile(times, 0.99):.1f} ms errors={recorder.errors[name]}"
        )
    print(f"trivial view: {trivial:.0f} req/s (errors {trivial_errors}); unchanged poll: {polls:.0f} req/s "
          f"(errors {poll_errors}); ratio {polls / trivial:.0%}")  # fmt: skip


if __name__ == "__main__":
    main()
