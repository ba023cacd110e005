"""Every page and htmx endpoint of a game runs as many queries with 60 events as with 1."""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.log import create_game
from scoring.models import Game, Group
from scoring.phones import PHONE_KEY
from tests.random_games import RandomChooser, random_record

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
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)  # type: ignore[arg-type]
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
