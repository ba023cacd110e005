"""Hypothesis sends odd requests to every form and to record import: never a 5xx, always an answer."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import JSONField, Value
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game, Group
from scoring.site.rate_limits import RATES
from support.entry import Entry
from tests.scoring.conftest import changed_signed

ODD_TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["", " ", "0", "-1", "999999999999999999999", "1e9", "NaN", "🦫", "\u202e", "\x00", "a" * 500]),
)
FIELDS = st.dictionaries(
    st.sampled_from(
        ["name", "seat_1", "seat_2", "seat_3", "nugget_ladder", "reward_supply", "nugget_supply", "promos", "code",
         "name_1", "name_2", "prestige_1", "discoveries_1", "ports_1", "houses_1", "royal_orders_1", "logbooks_1",
         "last_tile_by", "closer", "tokens", "farm_1", "card_kind", "card_rewards", "username", "password", "user",
         "revision", "theme", "next", "claim", "free", "leave", "view", "twin", "collector", "start_token", "move",
         "draft", "draft_id", "op", "public", "description", "note", "done", "language", "q", "players", "kind"]
    ),
    ODD_TEXT,
    max_size=8,
)  # fmt: skip
# Any text, lone surrogates and control characters included (JSON carries them as \u escapes).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=10) | st.sampled_from(
    ["\ud800", "\x00", "\u202e", "\u200b", " ", "green-square", "farm", "White", "specific", "1.0"]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ANY_TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(ANY_TEXT, children, max_size=4),
    max_leaves=20,
)
REVISIONS = st.one_of(ODD_TEXT, st.sampled_from(["²", "٣", "③", "0", "1", "00", "1.0", "９"]))
FUZZ = settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])


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
        ("post", f"/games/{game.pk}/seats/"),
        ("post", f"/games/{game.pk}/drafts/1/take/"),
        ("post", f"/games/{game.pk}/drafts/1/cancel/"),
        ("post", f"/games/{game.pk}/events/new/territory/"),
        ("post", f"/games/{game.pk}/events/new/cards/"),
        ("post", f"/games/{game.pk}/events/new/volcano/"),
        ("post", f"/games/{game.pk}/events/0/"),
        ("post", f"/games/{game.pk}/cards/keep/"),
        ("post", f"/games/{game.pk}/round-end/"),
        ("post", f"/games/{game.pk}/public/"),
        ("post", f"/games/{game.pk}/reopen/"),
        ("post", f"/games/{game.pk}/code/"),
        ("post", f"/games/{game.pk}/sheet/score/"),
        ("get", f"/watch/{game.spectator_token}/live/"),
        ("get", "/calculators/influence/"),
        ("get", "/calculators/small-islands-tie/"),
        ("get", "/calculators/sets/"),
        ("get", "/rules/"),
    ]


@pytest.mark.parametrize("number", range(29))
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


@FUZZ
@given(
    kind=st.sampled_from(["territory", "objectives", "adjust", "volcano"]),
    spoil=st.sampled_from(["event", "done", "partial", "card", "note", "cards", "buildings", "order", "whole"]),
    value=JSON_VALUES,
    carried=st.sampled_from(["as JSON", "in the signed token"]),
    revision=REVISIONS,
    op=st.sampled_from(["save", "done:changes", "done:cards", "card:add", "card:remove:0", "tie:0", "done:board"]),
)
def test_odd_drafts_are_refused_by_their_signature_never_a_server_error(
    member_client: Client, game: Game, kind: str, spoil: str, value: object, carried: str, revision: str, op: str
) -> None:
    game.drafts.all().delete()  # the fixture's game outlives the examples
    url = f"/games/{game.pk}/events/new/{kind}/"
    page = Entry(member_client, url)
    draft: dict[str, object] = {"event": {"type": kind}, "done": [], "partial": {}, "original": None, "chosen": []}
    if spoil in {"event", "done", "partial", "card"}:
        draft[spoil] = value
    elif spoil != "whole":
        draft["event"] = {"type": kind, spoil: value}
    odd = value if spoil == "whole" else draft
    text = json.dumps(odd) if carried == "as JSON" else changed_signed(page.field("draft"), odd)
    response = member_client.post(url, {"draft": text, "revision": revision, "op": op, "note": json.dumps(value)})
    if odd != page.draft:  # changed in any way: refused, and nothing done
        assert response.status_code == 422, (text, response.status_code)
        assert "The form was damaged; start again." in response.content.decode()
        assert not game.events.exists() and not game.drafts.exists()
    assert response.status_code in {200, 302, 422}, (text, response.status_code)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/record.json", f"/groups/{game.group_id}/backup.json"):
        response = member_client.get(url)
        assert response.status_code == 200 and response.getvalue()  # the backup streamed to its end


STORABLE = st.recursive(  # JSON a database stores (PostgreSQL refuses NUL and lone surrogates)
    st.none() | st.booleans() | st.integers() | st.text(st.characters(exclude_characters="\x00"), max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(
    kind=st.sampled_from(["territory", "objectives", "adjust", "volcano"]),
    spoil=st.sampled_from(["event", "done", "partial", "card", "original", "whole", "more"]),
    value=STORABLE,
)
def test_a_kept_draft_of_another_form_is_dropped_never_a_server_error(
    member_client: Client, game: Game, kind: str, spoil: str, value: object
) -> None:
    game.drafts.all().delete()  # the fixture's game outlives the examples
    url = f"/games/{game.pk}/events/new/{kind}/"
    entry = Entry(member_client, url).tap("set:territory:lake" if kind == "territory" else "set:player:1")
    stored = game.drafts.get()
    data = value if spoil == "whole" else stored.data | {spoil: value}
    game.drafts.update(data=Value(data, JSONField()))  # JSON null too, not SQL NULL
    again = Entry(member_client, url)
    fresh = {"event": {"type": kind}, "done": [], "partial": {}, "original": None, "chosen": []}
    assert "Your entry was kept." in again.html or again.draft == fresh  # not in form: the entry starts again
    for response in (again.tap("done:board").response, entry.tap("save").response):
        assert response.status_code in {200, 302, 422}


@FUZZ
@given(value=JSON_VALUES, revision=REVISIONS, spoil=st.sampled_from(["delete", "finish", "reopen", "code"]))
def test_odd_revisions_on_every_form_that_sends_one(
    member_client: Client, game: Game, value: object, revision: str, spoil: str
) -> None:
    url = {
        "delete": f"/games/{game.pk}/events/0/delete/",
        "finish": f"/games/{game.pk}/finish/",
        "reopen": f"/games/{game.pk}/reopen/",
        "code": f"/games/{game.pk}/code/",
    }[spoil]
    # 404 once an earlier example finished the game (events are then not changed).
    assert member_client.post(url, {"revision": revision, "x": json.dumps(value)}).status_code in {302, 404}


BACKUP_PLACES = ["", "group", "players", "games", "game", "kind", "document", "created", "status", "players[]"]


@FUZZ
@given(value=JSON_VALUES, spoil=st.sampled_from(BACKUP_PLACES))
def test_odd_backups_are_refused_with_a_message_or_restored(member_client: Client, value: object, spoil: str) -> None:
    game = {
        "kind": "okanagan",
        "created": "2026-01-01T00:00:00+00:00",
        "status": "playing",
        "document": {"format": "okanagan-record/1", "players": ["A", "B"], "events": []},
    }
    backup: dict[str, object] = {"format": "okanagan-companion-backup/1", "group": "G", "players": ["A"]}
    backup["games"] = [game]
    if spoil == "game":
        backup["games"] = [value]
    elif spoil == "players[]":
        backup["players"] = ["A", value]
    elif spoil in {"kind", "document", "created", "status"}:
        game[spoil] = value
    elif spoil:
        backup[spoil] = value
    document = backup if spoil else value
    upload = SimpleUploadedFile("b.json", json.dumps(document).encode())
    with mock.patch.dict(RATES, {"restore": "100000/h"}):  # many examples: the limit has its own test
        response = member_client.post("/groups/restore/", {"backup": upload})
    assert response.status_code in {302, 422}, (document, response.status_code)
    if response.status_code == 302:
        assert member_client.get(response["Location"]).status_code == 200
        restored = member_client.get(response["Location"] + "backup.json")
        assert restored.status_code == 200 and json.loads(restored.getvalue())  # streamed to its end
