"""Bytes of a changed poll (issue 15, less to send): the whole live fragment, as every poll that found a change
sent it before, against the parts that changed only, raw and compressed, for the usual changes at a table.

In process, on a fresh SQLite database, with Django's test client: a 3-player game already N events long (a
random legal game), a phone at the table that holds a seat, and a spectator. For each change another phone makes,
each of the two polls as its poller does, once without the digests of its parts (a page from before: the whole
fragment) and once with them (the parts that changed and the new poller). "gzip" is the body as GZipMiddleware
compresses it, without the 0 to 99 random bytes it adds to the gzip header (50 on average). Also prints the game
page's size and what a poll sends up in its X-Live-Parts header.

    .venv/bin/python bench/live_bytes.py [--events 30]
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from support.production import in_process, member_of_a_group  # noqa: E402

if TYPE_CHECKING:
    from django.test import Client


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=30, help="how long the game is before the changes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        in_process(Path(folder) / "live.sqlite3")
        from django.test import Client
        from django.utils.text import compress_string

        from rules import EventType
        from scoring.creation import create_game
        from scoring.live.parts import HEADER
        from scoring.log import change_log
        from scoring.models import Draft
        from scoring.table.drafts import discard
        from support.random_games import RandomChooser, random_record

        _member, group = member_of_a_group("Bench")
        seed = 0
        while True:  # a game whose next event, once N long, is a territory whose rewards someone takes
            record = random_record(RandomChooser(seed), 3, args.events, args.events // 2).to_json()
            events: list[dict[str, object]] = record["events"]  # type: ignore[assignment]
            if events[args.events]["type"] == EventType.TERRITORY and events[args.events].get("picks"):
                break
            seed += 1
        game = create_game(group, tuple(record["players"]), record["options"], promos=True)  # type: ignore[arg-type]
        change_log(game, game.revision, lambda log: [*log, *events[: args.events]])
        game.refresh_from_db()

        def joined() -> Client:
            phone = Client()
            phone.post("/join/", {"code": game.table_code})
            return phone

        seated, other, watcher = joined(), joined(), Client()
        seated.post(f"/games/{game.pk}/seats/", {"claim": "0"})
        page = seated.get(f"/games/{game.pk}/", headers={"Accept-Encoding": "gzip"})
        raw_page = seated.get(f"/games/{game.pk}/").content
        print(f"game page of {args.events} events: {len(raw_page):,} B, {len(page.content):,} B compressed (as sent)")

        def poller(client: Client, url: str) -> tuple[str, dict[str, str]]:
            """The poller of the page at ``url``: its URL and headers."""
            text = client.get(url).content.decode()
            found = re.search(r'<div id="live-poll" hx-get="([^"]*)"[^>]* hx-headers=\'([^\']*)\'', text)
            assert found, url
            return html.unescape(found[1]), json.loads(html.unescape(found[2]))

        def save_territory() -> None:
            draft = Draft.objects.filter(game=game).first()
            if draft is not None:  # the entry that saved it is done
                discard(game, draft.phone, draft.pk)
            game.refresh_from_db()
            change_log(game, game.revision, lambda log: [*log, events[args.events]])

        def undo() -> None:
            game.refresh_from_db()
            change_log(game, game.revision, lambda log: log[:-1])

        changes: list[tuple[str, Callable[[], object]]] = [
            ("a phone starts entering", lambda: start_entry(other, game.pk)),
            ("a seat claimed", lambda: other.post(f"/games/{game.pk}/seats/", {"claim": "2"})),
            ("a territory saved", save_territory),
            ("an event undone", undo),
        ]
        phones = [
            ("at the table", seated, f"/games/{game.pk}/"),
            ("spectator", watcher, f"/watch/{game.spectator_token}/"),
        ]
        print(f"X-Live-Parts sent up by each poll: {len(poller(seated, phones[0][2])[1][HEADER])} B (at the table)")
        print(f"{'change':<24} {'phone':<13} {'whole':>8} {'gzip':>7} {'parts':>8} {'gzip':>7}  parts sent")
        for change, make in changes:
            held = {name: poller(client, url) for name, client, url in phones}
            make()
            for name, client, _url in phones:
                live_url, headers = held[name]
                whole_headers = {key: value for key, value in headers.items() if key != HEADER}
                whole = client.get(live_url, headers={"HX-Request": "true", **whole_headers}).content
                parts = client.get(live_url, headers={"HX-Request": "true", **headers}).content
                sent = re.findall(r'<div id="part-([a-z-]+)" hx-swap-oob="true">', parts.decode()) or ["(poller only)"]
                print(
                    f"{change:<24} {name:<13} {len(whole):>8,} {len(compress_string(whole)):>7,}"
                    f" {len(parts):>8,} {len(compress_string(parts)):>7,}  {', '.join(sent)}"
                )


def start_entry(client: Client, game_id: int) -> None:
    """Another phone opens the board of a forest: an entry in progress, shown to the table."""
    from support.entry import Entry

    Entry(client, f"/games/{game_id}/events/new/territory/").tap("set:territory:forest")


if __name__ == "__main__":
    main()
