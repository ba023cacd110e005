"""A NUL in what a client sends (a URL's word, a query's value, a form's field) is found nowhere or refused, never a
500: PostgreSQL cannot compare a text with one (scoring.http.TextConverter, and the checks before a query)."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.models import Game


@pytest.mark.parametrize(
    "url",
    [
        "/watch/%00/",
        "/watch/%00/live/?view=game",
        "/watch/%00/stream/",
        "/watch/%00/result.png",
        "/invite/%00/",
        "/join/%00/",
        "/calculators/%00/",
    ],
)
def test_a_nul_in_a_url_s_word_is_found_nowhere(member_client: Client, game: Game, url: str) -> None:
    assert member_client.get(url).status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        "/watch/{token}/live/?view=%00",
        "/watch/{token}/live/?view=entry&entry=%00",
        "/games/{game}/entry/?entry=%00",
        "/games/{game}/?saved=%00",
        "/games/{game}/events/new/%00/",
        "/games/{game}/events/new/territory/?territory=%00",
        "/groups/{group}/sheets/new/%00/",
    ],
)
def test_a_nul_in_a_query_is_refused_or_ignored_never_a_500(member_client: Client, game: Game, query: str) -> None:
    url = query.format(token=game.spectator_token, game=game.pk, group=game.group_id)
    assert member_client.get(url).status_code < 500


def test_a_nul_in_an_entry_s_fields_is_refused_never_a_500(member_client: Client, game: Game) -> None:
    fields = {"entry": "\x00", "op": "\x00", "draft": "\x00", "draft_id": "\x00", "revision": "\x00"}
    assert member_client.post(f"/games/{game.pk}/events/new/territory/", fields).status_code < 500
