"""What a request costs as a game grows (issue 15, point 1): a save, a changed poll and the game page, with the
game 1, 60 and 200 events long.

In process, on a fresh SQLite database, with the production code paths (Django's test client, a member's
session). Each game is a legal random 3-player game of that length (a round end among its events; a large
supply, so that a lake can always be saved). Each figure is the median of ``--runs`` requests:

- a save: a lake posted from the draft of an entry made tap by tap (as a phone's last tap), answered by the
  redirect to the game page; the event is then deleted, untimed, so that the game keeps its length;
- a changed poll: the live fragment a table's phone polls, without an ETag (as after a change);
- the game page.

Prints the milliseconds per request and per length, and each length's cost against the 1-event game's.

    .venv/bin/python bench/game_length.py [--events 1 60 200] [--runs 21]
"""

from __future__ import annotations

import argparse
import html
import itertools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from support.production import in_process, member_of_a_group  # noqa: E402

LAKE_TAPS = ("set:territory:lake", "count:rewards:blue-circle:1", "set:closed_by:0", "done:board")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="+", default=[1, 60, 200])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        in_process(Path(folder) / "length.sqlite3")
        from scoring.creation import create_game

        client, group = member_of_a_group("Lengths")
        requests: dict[str, list[tuple[Callable[[], None], Callable[[], None] | None]]] = {
            "save": [],
            "changed poll": [],
            "game page": [],
        }
        for length in args.events:
            record = a_record(length)
            game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
            draft = lake_draft(client, game.pk)
            requests["save"].append((partial(save, client, game.pk, draft), partial(undo, client, game.pk)))
            poll = f"/watch/{game.spectator_token}/live/?view=game"
            requests["changed poll"].append((partial(get, client, poll, HTTP_HX_REQUEST="true"), None))
            requests["game page"].append((partial(get, client, f"/games/{game.pk}/"), None))
        times: dict[str, list[list[float]]] = {name: [[] for _ in args.events] for name in requests}
        for run in range(args.runs + 1):  # the lengths in turn, so that the machine's ups and downs fall on each
            for name, calls in requests.items():
                for column, (call, after) in enumerate(calls):
                    start = time.process_time()
                    call()
                    if run:  # the first is a warm-up
                        times[name][column].append((time.process_time() - start) * 1000)
                    if after is not None:
                        after()
        heads = "".join(f"{f'{length} events':>14}" for length in args.events)
        print(f"{'request (median ms)':<22}{heads}   most / least")
        for name, columns in times.items():
            medians = [statistics.median(column) for column in columns]
            cells = "".join(f"{value:>14.1f}" for value in medians)
            print(f"{name:<22}{cells}   {max(medians) / min(medians):.2f}×")


def save(client: object, game_id: int, draft: str) -> None:
    """Post the lake's last tap: it saves the lake (the redirect to the game page)."""
    from django.test import Client

    from scoring.models import Game

    assert isinstance(client, Client)
    revision = Game.objects.get(pk=game_id).revision
    response = client.post(
        f"/games/{game_id}/events/new/territory/", {"draft": draft, "revision": revision, "op": LAKE_TAPS[-1]}
    )
    assert response.status_code == 302, response.status_code


def undo(client: object, game_id: int) -> None:
    """Delete the last event (the lake just saved), so that the game keeps its length."""
    from django.test import Client

    from scoring.models import Game

    assert isinstance(client, Client)
    row = Game.objects.get(pk=game_id)
    last = row.events.count() - 1
    response = client.post(f"/games/{game_id}/events/{last}/delete/", {"revision": row.revision})
    assert response.status_code in {200, 302}, response.status_code


def a_record(length: int) -> dict[str, Any]:
    """A legal random 3-player record of ``length`` events after which a blue circle is left for a lake, and
    whose last events hold no lake closed by the first player (the saved lake would be a twin, asked about:
    ``scoring.table.twins``)."""
    from rules import Reward, score_okanagan
    from scoring.table.twins import LOOKED_BACK
    from support.random_games import RandomChooser, random_record

    for seed in itertools.count():
        record = random_record(RandomChooser(seed), 3, length - length // 3, length // 3).to_json()
        lakes = [event for event in record["events"][-LOOKED_BACK:] if event.get("territory") == "lake"]
        if score_okanagan(record).state.available(Reward.BLUE_CIRCLE) and not any(
            lake["closed_by"] == record["players"][0] for lake in lakes
        ):
            return record
    raise AssertionError("unreachable")


def lake_draft(client: object, game_id: int) -> str:
    """The draft of a lake entered tap by tap up to its last tap (then cancelled): posting that tap saves it."""
    from django.test import Client

    assert isinstance(client, Client)
    url = f"/games/{game_id}/events/new/territory/"
    page = client.get(url).content.decode()
    fields: dict[str, str] = {}
    for op in (*LAKE_TAPS[:-1], "cancel"):
        for name in ("draft", "revision", "draft_id"):
            fields[name] = html.unescape(page.split(f'name="{name}" value="', 1)[1].split('"', 1)[0])
        response = client.post(url, fields | {"op": op})
        assert response.status_code == (302 if op == "cancel" else 200), (op, response.status_code)
        page = response.content.decode()
    return fields["draft"]


def get(client: object, url: str, **headers: str) -> None:
    from django.test import Client

    assert isinstance(client, Client)
    response = client.get(url, **headers)  # type: ignore[arg-type]
    assert response.status_code == 200, (url, response.status_code)


if __name__ == "__main__":
    main()
