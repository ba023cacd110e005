"""A group's history as it grows (issue 15, point 4): each history page at 10, 100 and 1,000 finished games.

In process, on a fresh SQLite database with the production code paths (Django's test client). Each group's
games are 60-event random legal games of Okanagan (one in four a Cooper Island sheet instead), stored finished
with their results as the engine gives them. Prints, per page and size: the median of 5 loads of the time to
the first byte and to the last (the same for a page; the CSV, the BG Stats file and the backup are streamed)
and of the CPU time it took (what other processes on the machine do not change), the number of queries, the
answer's size, and the most memory Python held during one more load (tracemalloc's peak, the data already in
the database left out). Then what the writer pays: the median time to store one more finished game (its facts, the
ratings, its sums added to the group's), and to fold the group's sums again (a game reopened, deleted or imported
with an earlier date).

    .venv/bin/python bench/history.py [--games 10 100 1000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from support.production import in_process  # noqa: E402

if TYPE_CHECKING:
    from django.test import Client


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 100, 1000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        in_process(Path(folder) / "history.sqlite3")
        from django.contrib.auth.models import User
        from django.test import Client

        from rules import score_okanagan
        from scoring.creation import NewGame, create_games, sheet_game
        from scoring.history.summary import refresh
        from scoring.models import Game, Group
        from support.random_games import RandomChooser, random_record

        user = User.objects.create_user("bench", password="bench-password-1")
        client = Client()
        client.force_login(user)
        players = ("Ann", "Ben", "Cy")
        records = []
        for seed in range(20):  # 20 different games, stored again and again
            record = random_record(RandomChooser(seed), 3, 40, 20).to_json()
            result = score_okanagan(record)
            records.append(
                NewGame(
                    Game.Kind.OKANAGAN,
                    players,
                    record["options"],
                    True,
                    events=record["events"],
                    results=result.standings,
                    winners=result.winners,
                )
            )
        cooper = sheet_game(
            {
                "format": "cooper-island-sheet/1",
                "players": [
                    {"name": name, "logbooks": 2, "spaces_past_logbook": [1, 0], "royal_orders": {},
                     "buildings": points, "leftovers": {"coins": 0, "resources": 0, "cartographer": 0, "tiles": 0},
                     "anchors": 0, "empty_spaces": 0}
                    for name, points in zip(players, (12, 9, 15), strict=True)
                ],
            }
        )  # fmt: skip
        print(
            f"{'games':>6} {'page':<14} {'first ms':>9} {'total ms':>9} {'CPU ms':>7} {'queries':>8} {'KB':>8}"
            f" {'peak MB':>8}"
        )
        for count in args.games:
            group = Group.objects.create(name=f"History {count}", owner=user)
            group.members.add(user)
            games = [cooper if number % 4 == 3 else records[number % len(records)] for number in range(count)]
            for start in range(0, count, 100):
                create_games(group, games[start : start + 100])
            ann = group.profiles.get(name="Ann")
            pages = {
                "group page": f"/groups/{group.pk}/",
                "statistics": f"/groups/{group.pk}/stats/",
                "stats JSON": f"/groups/{group.pk}/statistics.json",
                "player page": f"/groups/{group.pk}/players/{ann.pk}/",
                "CSV of plays": f"/groups/{group.pk}/plays.csv",
                "BG Stats file": f"/groups/{group.pk}/plays.bgsplay",
                "backup": f"/groups/{group.pk}/backup.json",
            }
            for name, url in pages.items():
                loads = [load(client, url) for _ in range(5)]
                first, total, cpu = (
                    statistics.median(times[column] for times, _q, _s in loads) * 1000 for column in range(3)
                )
                _times, queries, size = loads[-1]
                print(
                    f"{count:>6} {name:<14} {first:>9.1f} {total:>9.1f} {cpu:>7.1f} {queries:>8} {size / 1024:>8.1f}"
                    f" {peak(client, url) / 2**20:>8.1f}"
                )
            for name, write in {
                "one more game": lambda group=group: create_games(group, [records[0]]),
                "fold again": lambda group=group: refresh(group),
            }.items():
                times = []
                for _ in range(5):
                    start, cpu = time.perf_counter(), time.process_time()
                    write()
                    times.append((time.perf_counter() - start, time.process_time() - cpu))
                wall, cpu = (statistics.median(pair[column] for pair in times) * 1000 for column in range(2))
                print(f"{count:>6} {name:<14} {'':>9} {wall:>9.1f} {cpu:>7.1f}")


def load(client: Client, url: str) -> tuple[tuple[float, float, float], int, int]:
    """One load of ``url``, read to its end: (seconds to the first byte, to the last, of this process's CPU),
    queries, bytes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        start, cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        parts = iter(response.streaming_content if response.streaming else [response.content])
        size = len(next(parts, b""))
        first = time.perf_counter() - start
        size += sum(len(part) for part in parts)
        last, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert response.status_code == 200, (url, response.status_code)
    return (first, last, cpu), len(captured), size


def peak(client: Client, url: str) -> int:
    """The most memory Python held during one load of ``url`` read to its end (its parts dropped as they come)."""
    tracemalloc.start()
    try:
        load(client, url)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


if __name__ == "__main__":
    main()
