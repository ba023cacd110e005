"""What a changed poll costs the server for each phone of a table, its shared parts rendered once per version or
by every phone (issue 33, point 1), against the framework's floor on the same machine.

In process, in one run, side by side: each request goes through Django's WSGI handler and its whole middleware stack
(as gunicorn calls it), with production settings (DEBUG off), at a 4-player game of 20 events whose four seats are
held by four phones (each its own session). After each change of the game (an event saved, then undone, untimed),
the four phones poll their live fragment in turn (``?view=game``, with the digests of the parts they hold, as a push
makes them do): the first phone renders the version's shared parts (the scoreboard, the log, the grid of events),
the 2nd to 4th take them from the shared cache. The same changes are timed with the shared parts turned off (every
phone renders every part: as before), in turn with them on. It prints each poll's median CPU time of this process
(``time.process_time``) and its multiple of the trivial view's (``/health/live/``).

On SQLite by default; on PostgreSQL with ``DATABASE_URL`` and with Redis (where the shared parts are kept by
every server) with ``REDIS_URL``, as ``bench/tap_cost.py``:

    .venv/bin/python bench/shared_parts.py [--runs 100]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/shared_parts.py
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.tap_cost import EVENTS, PLAYERS, a_game, a_site, text_of, through_wsgi  # noqa: E402

HELD_DIGEST = "AAAAAAAA"
"""The digest a phone says it holds of each part: none is the new version's, as after a change."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    with a_site() as database:
        table = Table.make()
        cpu: dict[str, list[float]] = {name: [] for name in ROWS}
        for run in range(args.runs + 5):  # the first 5 are a warm-up
            for shared in (False, True):
                table.change()
                with sharing(on=shared):
                    first, *others = table.polls()
                if run >= 5:
                    cpu[f"1st phone{'' if shared else ', not shared'}"].append(first)
                    cpu[f"2nd–4th phone{'' if shared else ', not shared'}"].extend(others)
            for _ in range(4):
                cpu["trivial view"].append(timed(table.trivial) if run >= 5 else 0.0)
        floor = statistics.median(cpu["trivial view"])
        print(f"changed poll on {database}, {PLAYERS} phones, {EVENTS} events, median of {args.runs} changes")
        print(f"{'request':<28}{'CPU ms':>9}{'× trivial':>11}")
        for name in ROWS:
            median = statistics.median(cpu[name])
            print(f"{name:<28}{median:>9.3f}{median / floor:>10.1f}×")


ROWS = (
    "trivial view",
    "1st phone, not shared",
    "2nd–4th phone, not shared",
    "1st phone",
    "2nd–4th phone",
)


@contextmanager
def sharing(*, on: bool) -> Iterator[None]:
    """The shared parts as the site takes them (``on``), or rendered by every phone (as before they were
    shared)."""
    if on:
        yield
        return
    from scoring.live.parts import SharedParts

    with mock.patch.object(SharedParts, "get", return_value=None), mock.patch.object(SharedParts, "save"):
        yield


def timed(call: Callable[[], None]) -> float:
    """``call``'s CPU time in this process, in milliseconds."""
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


class Table:
    """A 4-player game whose seats four phones hold, its requests sent through the WSGI handler."""

    def __init__(self, game_id: int, phones: list[tuple[dict[str, str], str]]) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        from scoring.log import stored_events
        from scoring.models import Game

        self.handler = WSGIHandler()
        self.game = Game.objects.get(pk=game_id)
        self.events = stored_events(self.game)
        self.phones = phones
        self.held = ""

    @classmethod
    def make(cls) -> Table:
        from django.test import Client

        from scoring.models import Seat
        from scoring.phones import PHONE_KEY
        from scoring.table.seats import here_token

        user, game = a_game()
        phones = []
        for seat in Seat.objects.filter(game=game).order_by("position"):
            client = Client()
            client.force_login(user)
            session = client.session
            session[PHONE_KEY] = f"bench-phone-{seat.position}"
            session.save()
            Seat.objects.filter(pk=seat.pk).update(phone=f"bench-phone-{seat.position}")
            assert client.get(f"/games/{game.pk}/").status_code == 200  # the CSRF cookie
            cookies = {name: morsel.value for name, morsel in client.cookies.items()}
            phones.append((cookies, f"view=game&here={here_token(seat)}"))
        return cls(game.pk, phones)

    def send(self, path: str, query: str = "", cookies: dict[str, str] | None = None, **headers: str) -> Any:
        """The response of the site to a GET, its body read and closed as a server does."""
        extra = {f"HTTP_{name.upper()}": value for name, value in headers.items()}
        return through_wsgi(self.handler, "GET", path, query, b"", cookies or {}, extra)

    def trivial(self) -> None:
        response = self.send("/health/live/")
        assert response.status_code == 200, response.status_code

    def change(self) -> None:
        """An event saved or, every other time, undone (the game keeps its length): a new version."""
        from scoring.log import change_log

        self.game.refresh_from_db()
        events = self.events if self.game.events.count() < len(self.events) else self.events[:-1]
        change_log(self.game, self.game.revision, lambda _log: events)

    def poll(self, cookies: dict[str, str], query: str) -> None:
        """A phone's changed poll, with the digests of the parts it holds (none of them the new version's)."""
        response = self.send(
            f"/watch/{self.game.spectator_token}/live/", query, cookies, hx_request="true", x_live_parts=self.held
        )
        assert response.status_code == 200, response.status_code
        if not self.held:  # the names of the fragment's parts, from its first (whole) answer
            names = re.findall(r'<div id="part-([a-z-]+)"', text_of(response.content))
            self.held = " ".join(f"{name}:{HELD_DIGEST}" for name in names)
            assert "HX-Retarget" not in response and names

    def polls(self) -> list[float]:
        """The four phones' changed polls, in turn: their CPU times."""
        if not self.held:
            self.poll(*self.phones[0])
        times = []
        for cookies, query in self.phones:
            start = time.process_time()
            self.poll(cookies, query)
            times.append((time.process_time() - start) * 1000)
        return times


if __name__ == "__main__":
    main()
