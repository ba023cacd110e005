"""The limits on work (issue 10, point 4): what the largest accepted inputs cost, and what is refused.

In process, on a fresh SQLite database with the production code paths (Django's test client):

- a game at the event limit (500 corrections, the kind of record that once made a 10 MB page):
  import time, game page time and size, and the 501st event refused;
- a backup at the game limit (500 finished games of 60 events, random and legal): its size, the time
  to check it (no lock held), the longest the database write lock is held (the restore writes its games a
  chunk at a time), which is how long another table's save may have to wait on SQLite, and how much the
  database grows (the finished games' states are built when first read, not at restore).

    .venv/bin/python bench/limits.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from support.production import in_process, member_of_a_group  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        in_process(Path(folder) / "limits.sqlite3")
        from django.core.files.uploadedfile import SimpleUploadedFile

        from rules.record import MAX_EVENTS
        from scoring.history import portability
        from scoring.models import Game

        client, group = member_of_a_group("Bench")

        corrections = [
            {"type": "adjust", "player": "Ann", "nuggets": 1, "note": "found one"},
            {"type": "adjust", "player": "Ann", "nuggets": -1, "note": "put it back"},
        ] * (MAX_EVENTS // 2)
        record = {"format": "okanagan-record/1", "players": ["Ann", "Ben", "Cy"], "events": corrections}
        text = json.dumps(record).encode()
        start = time.perf_counter()
        response = client.post(
            f"/groups/{group.pk}/games/import/", {"record": SimpleUploadedFile("r.json", text), "finished": ""}
        )
        imported = time.perf_counter() - start
        game = Game.objects.get(pk=response["Location"].split("/")[2])
        page_times, size = [], 0
        for _ in range(5):
            start = time.perf_counter()
            page = client.get(f"/games/{game.pk}/")
            page_times.append(time.perf_counter() - start)
            size = len(page.content)
        print(f"game at the limit: {MAX_EVENTS} events ({len(text) / 1000:.0f} kB record)")
        print(f"  import: {imported * 1000:.0f} ms")
        print(f"  game page: median {statistics.median(page_times) * 1000:.0f} ms, {size / 1000:.0f} kB")
        over = dict(record, events=[*corrections, corrections[0]])
        start = time.perf_counter()
        refused = client.post(
            f"/groups/{group.pk}/games/import/",
            {"record": SimpleUploadedFile("r.json", json.dumps(over).encode())},
        )
        took = (time.perf_counter() - start) * 1000
        print(f"  {MAX_EVENTS + 1} events: answered {refused.status_code} in {took:.0f} ms")

        from support.random_games import RandomChooser, random_record

        played_record = random_record(RandomChooser(2026), players=4, territories=40, others=20)
        played, record_events = played_record.to_json(), played_record.events
        entry = {"kind": "okanagan", "status": "finished", "promos": False, "document": played}
        backup = {
            "format": portability.BACKUP_FORMAT,
            "group": "Restored",
            "players": list(played["players"]),  # type: ignore[call-overload]
            "games": [entry] * portability.MAX_RESTORED_GAMES,
        }
        # As many games as the limits allow: the games limit, or the file-size limit for games this long.
        from scoring.forms import MAX_BACKUP_BYTES

        fitting = MAX_BACKUP_BYTES * 95 // 100 // len(json.dumps(entry))
        backup["games"] = [entry] * min(portability.MAX_RESTORED_GAMES, fitting)
        text = json.dumps(backup).encode()
        start = time.perf_counter()
        for number, game_entry in enumerate(backup["games"], start=1):
            portability._checked_game(number, game_entry)
        checking = time.perf_counter() - start
        database = Path(folder) / "limits.sqlite3"
        grown_from = _stored_bytes(database)
        writes: list[float] = []  # each transaction of the restore: how long it holds SQLite's write lock
        write_games = portability.create_games

        def timed(*args: Any) -> Any:
            start = time.perf_counter()
            try:
                return write_games(*args)
            finally:
                writes.append(time.perf_counter() - start)

        portability.create_games = timed  # type: ignore[assignment]
        start = time.perf_counter()
        response = client.post("/groups/restore/", {"backup": SimpleUploadedFile("b.json", text)})
        restoring = time.perf_counter() - start
        grown = _stored_bytes(database) - grown_from
        print(
            f"backup at the limit: {len(backup['games'])} games of "
            f"{len(record_events)} events ({len(text) / 1_000_000:.1f} MB), answered {response.status_code}"
        )
        print(f"  whole restore: {restoring:.1f} s, of which checking (no lock held) about {checking:.1f} s")
        print(f"  database write lock held in {len(writes)} transactions, at most {max(writes):.2f} s each")
        print(f"  the database grew by {grown / 1_000_000:.1f} MB")
        tiny = {"kind": "okanagan", "document": dict(played, events=[])}  # so that the games limit is what refuses
        backup["games"] = [tiny] * (portability.MAX_RESTORED_GAMES + 1)
        start = time.perf_counter()
        refused = client.post("/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(backup).encode())})
        print(
            f"  {portability.MAX_RESTORED_GAMES + 1} games: answered {refused.status_code} "
            f"in {(time.perf_counter() - start) * 1000:.0f} ms"
        )


def _stored_bytes(database: Path) -> int:
    """The SQLite database's size with its write-ahead log checkpointed into it."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return database.stat().st_size


if __name__ == "__main__":
    main()
