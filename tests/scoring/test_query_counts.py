"""Every page and htmx endpoint of a game runs as many queries with 60 events as with 1, and every page of a
group's history as many with 42 finished games as with 22."""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.creation import create_game, create_sheet_game
from scoring.log import finish
from scoring.models import Game, Group
from scoring.phones import PHONE_KEY
from support.random_games import RandomChooser, random_record

HTMX = {"HTTP_HX_REQUEST": "true"}


def a_game(group: Group, events: int) -> Game:
    """A legal 3-player game of ``events`` events (a round end among them, for the entry of a new one)."""
    record = random_record(RandomChooser(7), 3, events - events // 3, events // 3).to_json()
    return create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])


PAGES: list[tuple[str, Callable[[Game], str], dict[str, str]]] = [
    ("game page", lambda game: f"/games/{game.pk}/", {}),
    ("game fragment", lambda game: f"/games/{game.pk}/", HTMX),
    ("live game fragment", lambda game: f"/watch/{game.spectator_token}/live/?view=game", HTMX),
    ("live spectator fragment", lambda game: f"/watch/{game.spectator_token}/live/?view=watch", HTMX),
    ("spectator page", lambda game: f"/watch/{game.spectator_token}/", {}),
    ("new territory", lambda game: f"/games/{game.pk}/events/new/territory/", {}),
    ("edit first event", lambda game: f"/games/{game.pk}/events/0/?for=1", {}),
    ("record export", lambda game: f"/games/{game.pk}/record.json", {}),
]


def queries(client: Client, url: str, headers: dict[str, str]) -> int:
    """The queries of a page or file, a streamed one's counted while it is read to its end."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)  # type: ignore[arg-type]
        response.getvalue()
    assert response.status_code in {200, 422}, (url, response.status_code)
    return len(captured)


@pytest.mark.parametrize(("name", "url", "headers"), PAGES, ids=[name for name, _url, _headers in PAGES])
def test_a_page_runs_as_many_queries_with_60_events_as_with_1(
    member_client: Client, group: Group, name: str, url: Callable[[Game], str], headers: dict[str, str]
) -> None:
    small, large = a_game(group, 1), a_game(group, 60)
    assert large.events.count() == 60
    assert queries(member_client, url(small), headers) == queries(member_client, url(large), headers)


def test_a_tap_runs_as_many_queries_with_60_events_as_with_1(member_client: Client, group: Group) -> None:
    session = member_client.session
    session[PHONE_KEY] = "a-phone"  # made by the first tap otherwise, which then writes the session too
    session.save()
    counts = []
    for game in (a_game(group, 1), a_game(group, 60)):
        url = f"/games/{game.pk}/events/new/territory/"
        page = member_client.get(url).content.decode()
        draft = page.split('name="draft" value="', 1)[1].split('"', 1)[0]
        data = {"draft": html.unescape(draft), "revision": str(game.revision), "op": "set:territory:lake"}
        with CaptureQueriesContext(connection) as captured:
            member_client.post(url, data, **HTMX)  # type: ignore[arg-type]
        counts.append(len(captured))
    assert counts[0] == counts[1]


HISTORY_PAGES: list[tuple[str, Callable[[Group], str]]] = [
    ("group page", lambda group: f"/groups/{group.pk}/"),
    ("group page, second page", lambda group: f"/groups/{group.pk}/?page=2"),
    ("statistics", lambda group: f"/groups/{group.pk}/stats/"),
    ("player page", lambda group: f"/groups/{group.pk}/players/{group.profiles.get(name='Ann').pk}/"),
    ("CSV of plays", lambda group: f"/groups/{group.pk}/plays.csv"),
    ("BG Stats file", lambda group: f"/groups/{group.pk}/plays.bgsplay"),
    ("backup", lambda group: f"/groups/{group.pk}/backup.json"),
]


def finished_games(group: Group, count: int) -> None:
    """``count`` finished games of Ann, Ben and Cy: Okanagan (each a random legal game, ended) and Cooper Island
    in turn, so that the group page has a second page from 21 games."""
    for number in range(count):
        if number % 2:
            create_sheet_game(group, COOPER)
        else:
            record = random_record(RandomChooser(number), 3, 8, 2).to_json()
            game = create_game(group, ("Ann", "Ben", "Cy"), record["options"], promos=True, events=record["events"])
            finish(game, game.revision)


COOPER = {
    "format": "cooper-island-sheet/1",
    "players": [
        {"name": name, "logbooks": 1, "spaces_past_logbook": [0, 0], "royal_orders": {}, "buildings": points,
         "leftovers": {"coins": 0, "resources": 0, "cartographer": 0, "tiles": 0}, "anchors": 0, "empty_spaces": 0}
        for name, points in (("Ann", 12), ("Ben", 9), ("Cy", 12))
    ],
}  # fmt: skip


@pytest.mark.parametrize(("name", "url"), HISTORY_PAGES, ids=[name for name, _url in HISTORY_PAGES])
def test_a_history_page_runs_as_many_queries_with_42_finished_games_as_with_22(
    member_client: Client, group: Group, name: str, url: Callable[[Group], str]
) -> None:
    finished_games(group, 22)
    few = queries(member_client, url(group), {})
    finished_games(group, 20)
    assert group.games.filter(status=Game.Status.FINISHED).count() == 42
    assert queries(member_client, url(group), {}) == few


STREAMED: list[tuple[str, str, int]] = [
    ("CSV of plays", "plays.csv", 0),  # one query, read a chunk of seats at a time
    ("BG Stats file", "plays.bgsplay", 1),  # each chunk's seats
    ("backup", "backup.json", 2),  # each chunk's seats and events
]


@pytest.mark.parametrize(("name", "path", "per_chunk"), STREAMED, ids=[name for name, _path, _count in STREAMED])
def test_a_file_is_sent_as_its_games_are_read_a_chunk_at_a_time(
    monkeypatch: pytest.MonkeyPatch, member_client: Client, group: Group, name: str, path: str, per_chunk: int
) -> None:
    """The group's files are streamed: their first part leaves before the games are read, then the games are read
    from one query, a chunk of 4 at a time, each chunk costing the same queries: memory and the time to the first
    byte do not grow with the group."""
    monkeypatch.setattr("scoring.history.portability.BACKUP_CHUNK", 4)
    monkeypatch.setattr("scoring.results.bgstats.PLAYS_CHUNK", 4)
    monkeypatch.setattr("scoring.history.statistics.PLAYS_CHUNK", 4 * 3)
    monkeypatch.setattr("scoring.history.streams.PART_SIZE", 1)  # a part for each piece: each row, game or play
    url = f"/groups/{group.pk}/{path}"
    finished_games(group, 8)  # 2 chunks
    with CaptureQueriesContext(connection) as captured:
        response = member_client.get(url)
        parts = iter(response.streaming_content)  # type: ignore[attr-defined]
        next(parts)
        first = len(captured)
        rest = b"".join(parts)
    assert rest and len(captured) > first  # the games are read after the first part has left
    finished_games(group, 8)  # 4 chunks
    assert queries(member_client, url, {}) == len(captured) + 2 * per_chunk
