"""The load benchmark's own parts (`bench/load.py`): its HTTP client, a table's taps and polls, and how it finds
the knee."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bench.load import (
    FEWEST_TAPS,
    MOST_TAPS,
    PHONES_PER_TABLE,
    SAVE,
    TAP,
    UNCHANGED,
    Connection,
    Recorder,
    Step,
    Usage,
    knee,
    lake_taps,
    poller_headers,
    revision_of,
)
from scoring.creation import create_game
from scoring.live.intervals import PLAYING_MS
from scoring.live.parts import HEADER
from scoring.models import Group
from support.entry import Entry
from support.random_games import RandomChooser, random_record

ANSWERS = [
    b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\nhello",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n",
    b'HTTP/1.1 304 Not Modified\r\nETag: "1.2.0.en"\r\n\r\n',
]


async def exchange() -> tuple[list[tuple[int, bytes]], str, int]:
    """Four requests to a server that answers three on one connection and then closes it."""
    connections = 0

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        for reply in ANSWERS if connections == 1 else ANSWERS[:1]:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(reply)
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    connection = Connection(port)
    answers = [await connection.request("GET", "/") for _ in range(3)]
    await asyncio.sleep(0.05)  # the server has closed the kept-alive connection meanwhile
    answers.append(await connection.request("POST", "/", {"X": "1"}, "body"))
    connection.close()
    server.close()
    return [(each.status, each.body) for each in answers], answers[0].headers["set-cookie"], connections


def test_the_client_reads_each_kind_of_body_and_reconnects_when_a_kept_alive_connection_was_closed() -> None:
    # In a thread of its own: the browser tests' Playwright may hold an event loop in this one.
    with ThreadPoolExecutor(1) as thread:
        answers, cookies, connections = thread.submit(asyncio.run, exchange()).result()
    assert answers == [(200, b"hello"), (200, b"abcde"), (304, b""), (200, b"hello")]
    assert cookies == "a=1\nb=2"
    assert connections == 2


@pytest.mark.django_db
def test_a_lake_s_taps_are_legal_however_many_are_saved_and_the_page_polls_as_the_bench_does() -> None:
    member = User.objects.create_user("bench", password="pw-bench-123")
    group = Group.objects.create(name="Bench", owner=member)
    group.members.add(member)
    record = random_record(RandomChooser(1), PHONES_PER_TABLE, 20, 10).to_json()
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    client, rng, counts, revision = Client(), random.Random(1), set(), game.revision
    client.force_login(member)
    for _ in range(4):
        entry = Entry(client, f"/games/{game.pk}/events/new/territory/?territory=lake")
        taps = lake_taps(rng)
        counts.add(len(taps))
        for op in taps:
            assert entry.tap(op, htmx=True).response.status_code == 200, op
        if entry.tap("save", htmx=True).response.status_code == 422:  # the same lake as the last: asked once
            entry.tap("save", htmx=True, twin=entry.field("twin"))
        assert entry.saved_to.startswith(f"/games/{game.pk}/")
    game.refresh_from_db()
    assert game.revision == revision + 4
    assert all(FEWEST_TAPS <= count <= MOST_TAPS for count in counts) and len(counts) > 1
    page = client.get(entry.saved_to).content
    poller = poller_headers(page)
    assert revision_of(poller) == game.revision and poller[HEADER]
    assert f'hx-trigger="every {PLAYING_MS}ms, refresh"'.encode() in page, "as the bench polls"


def a_step(
    phones: int, save_ms: float, unchanged_ms: float, errors: int = 0, late: int = 0, tap_ms: float = 20
) -> Step:
    recorder = Recorder(0.0, 100.0)
    for _ in range(20):
        recorder.add(1.0, TAP, tap_ms, True)
        recorder.add(1.0, SAVE, save_ms, True)
        recorder.add(1.0, f"poll ?view=game {UNCHANGED}", unchanged_ms, True)
    recorder.errors[SAVE] += errors
    recorder.lateness = [0.5] * late + [0.0] * 99
    return Step(phones, 0, recorder, Usage(30.0, 1.0, 0.1, 0.0, 0.0, 0.1, 2.0), [])


def test_the_knee_is_the_last_step_before_the_first_that_misses_a_target() -> None:
    assert knee([a_step(150, 30, 5), a_step(300, 45, 9), a_step(450, 60, 9), a_step(600, 40, 8)]) == 300
    assert knee([a_step(150, 30, 5), a_step(300, 30, 11)]) == 150
    assert knee([a_step(150, 30, 5), a_step(300, 30, 5, errors=1)]) == 150
    assert knee([a_step(150, 30, 5), a_step(300, 30, 5, late=2)]) == 150, "the generator fell behind"
    assert knee([a_step(150, 30, 5, late=1)]) == 150, "1 late request in 100 is allowed"
    assert knee([a_step(150, 51, 5)]) is None
    assert knee([a_step(160, 30, 5), a_step(320, 30, 5, tap_ms=51)]) == 160, "a tap is held to 50 ms too"
