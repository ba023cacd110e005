"""Idle streams (issue 33, push): what nginx with nchan pays to hold N idle pages' streams, and how fast a change
reaches the 4 phones of one table.

The site as `make serve` runs it (deploy/serve.py: nginx with the project's rendered configuration, one app
server of 2 workers on a fresh SQLite database), with N/4 games. N streams are opened as the pages open them
(``GET /watch/<token>/stream/``, ``Accept: text/event-stream``; nginx first asks the site whether the token is a
current game's), 4 on each game, over raw asyncio sockets from as many loopback addresses as nginx's connection
limit per client needs (64 each). Then, with every stream open and idle (nchan pings each every 20 s):

- nginx's memory (the PSS of its master and workers, nchan's shared memory counted once; their RSS beside it)
  and its CPU over a minute, as a share of one core;
- the latency from a publish, as an app server makes it after a commit (a POST to nchan's publisher socket), to
  its arrival on each of the 4 streams of one game: p50 and p95 over 100 publishes, 0.1 s apart.

    .venv/bin/python bench/streams.py [--streams 10000] [--idle 60]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.nginx import NCHAN_MODULE, PUSH_SOCKET  # noqa: E402
from deploy.serve import Site, prepare, serve_env, start  # noqa: E402
from support.production import free_port, production_env  # noqa: E402

PER_ADDRESS = 60
"""Streams opened from one loopback address: under nginx's limit of 64 connections per client."""
GAMES = """
from django.contrib.auth.models import User
from scoring.creation import create_game
from scoring.models import Group
owner = User.objects.create_user("bench")
group = Group.objects.create(name="Streams", owner=owner)
group.members.add(owner)
for _ in range(COUNT):
    print(create_game(group, ("Ann", "Ben", "Cy", "Dee"), {}, promos=False).spectator_token)
"""


def address(number: int) -> str:
    """The loopback address of stream ``number``."""
    block = number // PER_ADDRESS
    return f"127.{block // 250 + 1}.{block % 250}.1"


async def open_stream(port: int, token: str, number: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """One page's stream of game ``token``, its headers read (200)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address(number), 0))
    writer.write(
        f"GET /watch/{token}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream {number} refused: {status!r}")
    while (await reader.readline()) not in {b"\r\n", b""}:
        pass
    return reader, writer


async def drain(reader: asyncio.StreamReader) -> None:
    """Read an idle stream's pings until it ends, as a page does."""
    while await reader.read(4096):
        pass


async def publish(socket_path: str, token: str) -> None:
    """A change of game ``token``, published as an app server publishes it."""
    reader, writer = await asyncio.open_unix_connection(socket_path)
    writer.write(f"POST /pub/{token} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 7\r\n\r\nchanged".encode())
    await writer.drain()
    await reader.readline()
    writer.close()


async def received(reader: asyncio.StreamReader) -> float:
    """The moment the next message (``data: changed``) arrives on a stream."""
    while True:
        line = await reader.readline()
        if not line:
            raise RuntimeError("the stream ended")
        if line.startswith(b"data: changed"):
            return time.perf_counter()


def processes(site: Site) -> list[int]:
    """nginx's master and its workers."""
    assert site.nginx is not None
    master = site.nginx.pid
    found = [master]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == master:
                found.append(int(entry.name))
    return found


def memory_kib(pids: list[int], field: str) -> int:
    """The sum of ``field`` (``Pss``, ``Rss``) over ``pids``, in KiB."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(field + ":"):
                total += int(line.split()[1])
    return total


def cpu_ticks(pids: list[int]) -> int:
    """User and system clock ticks of ``pids`` so far."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total


async def measure(site: Site, port: int, tokens: list[str], streams: int, idle: float) -> None:
    opened_at = time.perf_counter()
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    for first in range(0, streams, 500):  # 500 at a time: the site answers each stream's question
        batch = [open_stream(port, tokens[number // 4], number) for number in range(first, min(first + 500, streams))]
        held += await asyncio.gather(*batch)
    print(f"{len(held):,} streams open in {time.perf_counter() - opened_at:.1f} s (each asked the site first)")
    watched = held[:4]  # the 4 phones of the first game, read for the latency below
    drains = [asyncio.create_task(drain(reader)) for reader, _writer in held[4:]]

    pids = processes(site)
    ticks = cpu_ticks(pids)
    began = time.perf_counter()
    await asyncio.sleep(idle)
    seconds = time.perf_counter() - began
    share = (cpu_ticks(pids) - ticks) / os.sysconf("SC_CLK_TCK") / seconds * 100
    pss, rss = memory_kib(pids, "Pss"), memory_kib(pids, "Rss")
    print(f"nginx ({len(pids) - 1} workers) holding {len(held):,} idle streams over {seconds:.0f} s:")
    print(f"  memory: {pss / 1024:.0f} MiB PSS ({rss / 1024:.0f} MiB RSS summed over its processes)")
    print(f"  CPU: {share:.2f} % of one core")

    socket_path = str(site.run_dir / PUSH_SOCKET)
    latencies: list[float] = []
    for _ in range(100):
        arrivals = [asyncio.create_task(received(reader)) for reader, _writer in watched]
        sent = time.perf_counter()
        await publish(socket_path, tokens[0])
        latencies += [(arrived - sent) * 1000 for arrived in await asyncio.gather(*arrivals)]
        await asyncio.sleep(0.1)
    cuts = statistics.quantiles(latencies, n=100)
    print(f"publish → each of a table's 4 streams ({len(latencies)} arrivals, the other streams idle):")
    print(f"  p50 {statistics.median(latencies):.2f} ms, p95 {cuts[94]:.2f} ms, max {max(latencies):.2f} ms")
    for task in drains:
        task.cancel()
    for _reader, writer in held:
        writer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=10_000, help="idle streams to open (4 per game)")
    parser.add_argument("--idle", type=float, default=60, help="seconds the streams stay idle while measured")
    args = parser.parse_args()
    if not NCHAN_MODULE.exists():
        sys.exit(f"nginx's nchan module not found at {NCHAN_MODULE} (apt-get install -y libnginx-mod-nchan)")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per stream here too
    if hard < args.streams + 100:
        sys.exit(f"open files are limited to {hard}: raise the hard limit (ulimit -Hn) above {args.streams}")
    with tempfile.TemporaryDirectory() as folder:
        env = serve_env(production_env(f"sqlite:///{folder}/streams.sqlite3"), "127.0.0.1") | {"LOG_LEVEL": "WARNING"}
        env.pop("REDIS_URL", None)
        prepare(env)
        script = GAMES.replace("COUNT", str((args.streams + 3) // 4))
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "--no-imports", "-c", script],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if made.returncode:
            sys.exit(made.stderr)
        tokens = made.stdout.split()
        port = free_port()
        site = start(env, "127.0.0.1", port, workers=2, run_dir=Path(folder) / "run")
        try:
            asyncio.run(measure(site, port, tokens, args.streams, args.idle))
        finally:
            site.stop()


if __name__ == "__main__":
    main()
