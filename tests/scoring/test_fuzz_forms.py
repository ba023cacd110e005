"""Hypothesis sends odd requests to every form and to record import: never a 5xx, always an answer."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game, Group

ODD_TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["", " ", "0", "-1", "999999999999999999999", "1e9", "NaN", "🦫", "\u202e", "\x00", "a" * 500]),
)
FIELDS = st.dictionaries(
    st.sampled_from(
        ["name", "seat_1", "seat_2", "seat_3", "nugget_ladder", "promos", "code", "name_1", "name_2", "prestige_1",
         "discoveries_1", "ports_1", "houses_1", "royal_orders_1", "logbooks_1", "last_tile_by", "closer", "tokens",
         "farm_1", "card_kind", "card_rewards", "username", "password", "user", "revision", "theme", "next"]
    ),
    ODD_TEXT,
    max_size=8,
)  # fmt: skip
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def urls(group: Group, game: Game) -> list[tuple[str, str]]:
    return [
        ("post", "/accounts/signup/"),
        ("post", "/accounts/login/"),
        ("post", "/groups/new/"),
        ("post", f"/groups/{group.pk}/"),
        ("post", f"/groups/{group.pk}/games/new/"),
        ("post", f"/groups/{group.pk}/sheets/new/small_islands/"),
        ("post", f"/groups/{group.pk}/sheets/new/cooper_island/"),
        ("post", "/join/"),
        ("post", "/theme/"),
        ("post", f"/games/{game.pk}/events/0/delete/"),
        ("post", f"/games/{game.pk}/finish/"),
        ("get", "/helper/influence/"),
        ("get", "/helper/small-islands-tie/"),
        ("get", "/helper/sets/"),
        ("get", "/rules/"),
    ]


@pytest.mark.parametrize("number", range(15))
@FUZZ
@given(data=FIELDS)
def test_odd_form_input_gets_an_answer_never_a_server_error(
    member_client: Client, group: Group, game: Game, number: int, data: dict[str, str]
) -> None:
    method, url = urls(group, game)[number]
    response = getattr(member_client, method)(url, data)
    assert response.status_code < 500, (url, data)


@FUZZ
@given(value=JSON_VALUES, spoil=st.sampled_from(["", "players", "events", "format"]))
def test_odd_record_files_are_refused_with_a_message(
    member_client: Client, group: Group, value: object, spoil: str
) -> None:
    valid = {"format": "okanagan-record/1", "players": ["A", "B"], "events": []}
    document = {**valid, spoil: value} if spoil else value
    upload = SimpleUploadedFile("x.json", json.dumps(document).encode())
    response = member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload})
    assert response.status_code in {302, 422}


def test_an_oversized_record_file_is_refused(member_client: Client, group: Group) -> None:
    upload = SimpleUploadedFile("big.json", b" " * 1_100_000)
    response = member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload})
    assert response.status_code == 422 and "too big" in response.content.decode()
