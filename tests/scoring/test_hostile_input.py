"""What a careless or hostile phone sends gets a message and breaks nothing (issue 10, points 1-4, 7).

Each test is a case the audit reproduced as a 500 or as stored damage; the suite runs on SQLite and
on PostgreSQL.
"""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from scoring.creation import create_game, create_sheet_game
from scoring.history.portability import MAX_RESTORED_EVENTS, MAX_RESTORED_GAMES
from scoring.log import change_log, finish
from scoring.models import Draft, Event, Game, Group, Profile
from scoring.table.drafts import KEPT_FOR
from scoring.table.entry import Draft as EventDraft
from support.entry import Entry
from tests.scoring.conftest import FOREST_PLAYERS, changed_signed
from tests.scoring.table.test_game_pages import FOREST

DATA = Path(__file__).resolve().parent.parent / "data"

RED = "1"


def correction_ready(client: Client, game: Game) -> Entry:
    """A correction for Red entered up to its last step (its Save), as a phone would."""
    entry = Entry(client, f"/games/{game.pk}/events/new/adjust/").tap(f"set:player:{RED}")
    entry.tap("add:nuggets:1")
    assert entry.stage == "changes"
    return entry


def post_draft(entry: Entry, draft: str, op: str = "save", revision: str | None = None) -> Any:
    data = {"draft": draft, "revision": entry.field("revision") if revision is None else revision, "op": op}
    return entry.client.post(entry.url, data)


def kept_drafts() -> list[tuple[str, dict[str, Any]]]:
    return list(Draft.objects.order_by("pk").values_list("phone", "data"))


def refused_as_damaged(response: Any) -> bool:
    return response.status_code == 422 and "The form was damaged; start again." in response.content.decode()


def readable(client: Client, game: Game) -> None:
    """The pages that failed for good once bad text was stored all still answer."""
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/record.json", f"/groups/{game.group_id}/backup.json"):
        response = client.get(url)
        assert response.status_code == 200 and response.getvalue(), url  # the backup streamed to its end


# 1. Text -------------------------------------------------------------------------------------------


def test_a_lone_surrogate_in_a_guests_draft_is_refused_and_nothing_is_stored(
    guest_client: Client, member_client: Client, game: Game
) -> None:
    entry = correction_ready(guest_client, game)
    kept = kept_drafts()
    draft = entry.draft
    draft["event"]["note"] = "\ud800"
    for damaged in (json.dumps(draft), changed_signed(entry.field("draft"), draft)):
        assert refused_as_damaged(post_draft(entry, damaged))
    assert not game.events.exists() and kept_drafts() == kept
    readable(member_client, game)


@pytest.mark.parametrize(
    ("note", "message"),
    [
        ("a\x00b", "contains a control character (U+0000)"),
        ("\u202eeton", "contains a character that reverses the direction of text (U+202E)"),
        ("\u200b \u3000", "shows nothing once blank and invisible characters are left out"),
        ("x" * 201, "is longer than 200 characters"),
    ],
)
def test_a_typed_note_that_cannot_be_stored_is_refused_in_place(
    member_client: Client, game: Game, note: str, message: str
) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/adjust/").tap(f"set:player:{RED}")
    entry.tap("add:nuggets:1").tap("done:changes", note=note)
    assert entry.response.status_code == 422 and entry.stage == "changes"
    assert message in entry.html
    assert f'value="{note}"' in entry.html  # shown again as typed: nothing is lost
    entry.tap("save", note="  forgot   it ")
    assert game.events.get().data["note"] == "forgot it"


def test_names_are_one_player_in_either_unicode_form_and_look_alikes_are_refused(
    member_client: Client, group: Group, game: Game
) -> None:
    url = f"/groups/{group.pk}/games/new/"
    base = {"nugget_ladder": "by_place"}
    twice = member_client.post(url, base | {"seat_1": "Zoé", "seat_2": "Zoe\u0301"})
    assert "&#x27;Zoé&#x27; is named twice" in twice.content.decode()
    hidden = member_client.post(url, base | {"seat_1": "Ann", "seat_2": "Ann\u200b"})
    assert "contains an invisible character (U+200B)" in hidden.content.decode()
    # "white" and "ＲＥＤ" are the group's White and Red, not new players.
    made = member_client.post(url, base | {"seat_1": "white", "seat_2": "ＲＥＤ", "seat_3": "Zoe\u0301"})
    assert made.status_code == 302
    game = Game.objects.get(pk=made["Location"].split("/")[2])
    assert game.players() == ("White", "Red", "Zoé")
    assert sorted(group.profiles.values_list("name", flat=True)) == ["Red", "White", "Yellow", "Zoé"]


def test_group_and_player_names_follow_the_same_rules(owner_client: Client, group: Group, game: Game) -> None:
    refused = owner_client.post("/groups/new/", {"name": "\u202e\u202e"})
    assert refused.status_code == 422 and "reverses the direction of text" in refused.content.decode()
    assert not Group.objects.filter(name__contains="\u202e").exists()
    white = group.profiles.get(name="White")
    clash = owner_client.post(f"/groups/{group.pk}/players/{white.pk}/", {"name": "RED"})
    assert "Red is already a player of this group." in clash.content.decode()
    assert group.profiles.filter(name="White").exists()


def test_the_check_command_finds_bad_text_stored_before_the_rules(game: Game) -> None:
    call_command("check_data", stdout=io.StringIO())
    Profile.objects.create(group=game.group, name="Ann\u200b")
    Event.objects.create(game=game, index=0, data={"type": "adjust", "player": "Red", "nuggets": 1, "note": "\u202ex"})
    out = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("check_data", stdout=out)
    assert failed.value.returncode == 1
    lines = out.getvalue().splitlines()
    assert any("name 'Ann\\u200b': contains an invisible character (U+200B)" in line for line in lines)
    bidi = f"game {game.pk}: event 0 (adjust): note: contains a character that reverses the direction of text"
    assert any(line.startswith(bidi) for line in lines)


def test_the_check_command_finds_a_game_of_a_kind_the_site_does_not_know(game: Game) -> None:
    """The group's files, sent as they are read, may not fail on what the check command accepts."""
    sheet = create_sheet_game(game.group, json.loads((DATA / "cooper-island-three-players-tie.json").read_text()))
    Game.objects.filter(pk=sheet.pk).update(kind="chess")  # a sheet the rules accept, of no game the site knows
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_data", stdout=out)
    assert f"game {sheet.pk}: kind 'chess' is none of the site's games" in out.getvalue()


# 2. Every input gets a message ------------------------------------------------------------------------


DEEP = "[" * 50_000 + "]" * 50_000


def test_deeply_nested_json_is_refused_everywhere(member_client: Client, group: Group, game: Game) -> None:
    imported = member_client.post(
        f"/groups/{group.pk}/games/import/", {"record": SimpleUploadedFile("r.json", DEEP.encode())}
    )
    assert imported.status_code == 422 and "nested deeper than 12 levels" in imported.content.decode()
    restored = member_client.post("/groups/restore/", {"backup": SimpleUploadedFile("b.json", DEEP.encode())})
    assert restored.status_code == 422 and "nested deeper than 12 levels" in restored.content.decode()
    entry = correction_ready(member_client, game)
    drafted = post_draft(entry, '{"event": ' + DEEP + "}")
    assert drafted.status_code == 422 and "The form was damaged" in drafted.content.decode()


@pytest.mark.parametrize("revision", ["²", "٣", "③", "-1", "1" * 40, "", "0x1"])
def test_an_odd_revision_is_a_stale_page_not_a_crash(member_client: Client, game: Game, revision: str) -> None:
    entry = correction_ready(member_client, game)
    saved = post_draft(entry, entry.field("draft"), revision=revision)
    # An entry is checked against the game as it is when saved, whatever revision its page saw: it saves.
    assert saved.status_code == 302
    assert game.events.count() == 1
    game.refresh_from_db()
    change_log(game, game.revision, lambda events: [FOREST])
    for url in (f"/games/{game.pk}/events/0/delete/", f"/games/{game.pk}/finish/"):
        assert member_client.post(url, {"revision": revision}).status_code == 302
    game.refresh_from_db()
    assert game.events.count() == 1 and game.is_playing


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["A\x00n"], "contains a control character (U+0000)"),
        (["B" * 41], "is longer than 40 characters"),
        (["Ann", "ann"], "&#x27;Ann&#x27; and &#x27;ann&#x27; would be the same player"),
        ([7], "The backup needs a group name, a list of players and a list of games."),
    ],
)
def test_a_backup_with_names_that_cannot_be_stored_is_refused(
    member_client: Client, players: list[object], message: str
) -> None:
    backup = {"format": "okanagan-companion-backup/1", "group": "G", "players": players, "games": []}
    response = member_client.post(
        "/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(backup).encode())}
    )
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Group.objects.filter(name="G").exists()


@pytest.mark.parametrize("key", ["²", "③", "٣", "03"])
def test_cooper_island_card_keys_are_exactly_1_to_8(member_client: Client, group: Group, key: str) -> None:
    sheet = json.loads(Path("tests/data/cooper-island-spec-example.json").read_text())
    sheet["players"][0]["royal_orders"] = {"3": 5, key: 4}
    upload = SimpleUploadedFile("s.json", json.dumps(sheet).encode())
    response = member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload})
    assert response.status_code == 422
    assert "is not a royal order card (1 to 8)" in response.content.decode()


def test_counts_written_as_decimals_are_stored_as_whole_numbers_and_stay_editable(
    member_client: Client, group: Group
) -> None:
    text = json.dumps(
        {"format": "okanagan-record/1", "players": ["White", "Red", "Yellow"], "events": [FOREST]}
    ).replace('"farm": 1', '"farm": 1.0')
    assert '"farm": 1.0' in text
    upload = SimpleUploadedFile("r.json", text.encode())
    response = member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload, "finished": ""})
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    data = game.events.get().data
    assert data["buildings"]["White"]["farm"] == 1 and isinstance(data["buildings"]["White"]["farm"], int)
    edit = Entry(member_client, f"/games/{game.pk}/events/0/")
    edit.tap("save")
    assert edit.response.status_code == 302


# 3. Removing a member takes their access away ---------------------------------------------------------


def test_a_removed_member_and_the_guests_they_let_in_are_out(
    owner_client: Client, member_user: User, group: Group, game: Game, guest_client: Client
) -> None:
    old_invite, old_code, old_watch = group.invite_token, game.table_code, game.spectator_token
    finished = Game.objects.create(group=group, status=Game.Status.FINISHED)
    owner_client.post(f"/groups/{group.pk}/members/{member_user.pk}/remove/")
    removed = Client()
    removed.force_login(member_user)
    assert removed.get(f"/invite/{old_invite}/").status_code == 404
    assert removed.post(f"/invite/{old_invite}/").status_code == 404
    joined = removed.post("/join/", {"code": old_code})
    assert joined.status_code != 302
    assert removed.get(f"/games/{game.pk}/").status_code == 404
    assert Client().get(f"/watch/{old_watch}/").status_code == 404
    assert guest_client.get(f"/games/{game.pk}/").status_code == 404
    entry_url = f"/games/{game.pk}/events/new/round_end/"
    assert guest_client.post(entry_url, {"op": "save", "draft": "", "revision": "0"}).status_code == 404
    assert not game.events.exists()
    # The others get the new link and code, which work.
    group.refresh_from_db()
    game.refresh_from_db()
    assert Client().post("/join/", {"code": game.table_code}).status_code == 302
    assert Client().get(f"/watch/{game.spectator_token}/").status_code == 200
    assert Game.objects.get(pk=finished.pk).spectator_token != finished.spectator_token  # it may be reopened


def test_guests_join_again_when_a_finished_game_is_reopened(
    member_client: Client, game: Game, guest_client: Client
) -> None:
    assert guest_client.get(f"/games/{game.pk}/").status_code == 200
    finish(game, game.revision)
    game.refresh_from_db()
    member_client.post(f"/games/{game.pk}/reopen/", {"revision": str(game.revision)})
    game.refresh_from_db()
    assert game.is_playing
    assert guest_client.get(f"/games/{game.pk}/").status_code == 404
    assert guest_client.post("/join/", {"code": game.table_code}).status_code == 302
    assert guest_client.get(f"/games/{game.pk}/").status_code == 200


# 4. Limits checked before the work --------------------------------------------------------------------


def test_a_backup_with_too_many_games_is_refused_before_any_is_replayed(member_client: Client) -> None:
    games = [{"kind": "okanagan", "document": {}}] * (MAX_RESTORED_GAMES + 1)
    backup = {"format": "okanagan-companion-backup/1", "group": "G", "players": [], "games": games}
    response = member_client.post(
        "/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(backup).encode())}
    )
    assert response.status_code == 422
    assert f"A backup restores at most {MAX_RESTORED_GAMES} games" in response.content.decode()


def test_a_record_with_too_many_events_is_refused(member_client: Client, group: Group) -> None:
    events = [{"type": "adjust", "player": "Red", "nuggets": 1}, {"type": "adjust", "player": "Red", "nuggets": -1}]
    record = {"format": "okanagan-record/1", "players": ["White", "Red"], "events": events * 251}
    upload = SimpleUploadedFile("r.json", json.dumps(record).encode())
    response = member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload})
    assert response.status_code == 422
    assert "a game has at most 500 events, not 502" in response.content.decode()


# 7. CSV ------------------------------------------------------------------------------------------------


def test_csv_cells_a_spreadsheet_would_run_are_quoted(member_client: Client, group: Group) -> None:
    names = ["=HYPERLINK(1)", "+1", "-Ann", "@SUM"]
    record = {"format": "okanagan-record/1", "players": names, "events": []}
    upload = SimpleUploadedFile("r.json", json.dumps(record).encode())
    imported = member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload, "finished": "on"})
    assert imported.status_code == 302
    text = member_client.get(f"/groups/{group.pk}/plays.csv").getvalue().decode()
    players = [row["player"] for row in csv.DictReader(io.StringIO(text))]
    assert players == ["'" + name for name in names]


# A draft comes back only as the server signed it -------------------------------------------------------

FOREST_SO_FAR = {key: value for key, value in FOREST.items() if key != "picks"}
TERRITORY_DONE = ["territory", "rewards", "buildings", "closer", "order"]
FORGED: dict[str, tuple[str, str, dict[str, Any]]] = {
    # name: (the page's kind of event, the tap posted with it, the draft's event and stages done)
    "an unknown special action": ("territory", "save", FOREST_SO_FAR | {"special_action": {"action": "bogus"}}),
    "a trade with nobody at the table": (
        "territory",
        "detail:get:0=green-square",
        FOREST_SO_FAR | {"special_action": {"action": "trade", "with": "Nobody", "give": "green-square"}},
    ),
    "an unknown territory": ("territory", "add:rewards:green-square:1", {"type": "territory", "territory": "ocean"}),
    "an objective card with an unknown reward": (
        "objectives",
        "done:cards",
        {"type": "objectives", "player": "Red", "cards": [{"kind": "specific", "rewards": ["gold-unicorn"]}]},
    ),
    "another kind of event than the page's": (
        "round_end",
        "save",
        {"type": "beaver_dam", "player": "White", "reward": "green-square"},
    ),
    "a whole event, never tapped": ("adjust", "save", {"type": "adjust", "player": "Red", "nuggets": 99}),
}


@pytest.mark.parametrize("carried", ["as JSON", "in the signed token"])
@pytest.mark.parametrize("name", FORGED)
def test_a_forged_draft_is_refused_and_changes_nothing(
    member_client: Client, game: Game, name: str, carried: str
) -> None:
    kind, op, event = FORGED[name]
    entry = Entry(member_client, f"/games/{game.pk}/events/new/{kind}/")
    if kind != "round_end":
        entry.tap("set:territory:lake" if kind == "territory" else f"set:player:{RED}")
    kept = kept_drafts()
    done = TERRITORY_DONE if kind == "territory" else []
    forged = {"event": event, "done": done, "partial": {}, "original": None, "chosen": []}
    EventDraft.from_data(forged)  # a draft in form: only its signature can refuse it
    posted = json.dumps(forged) if carried == "as JSON" else changed_signed(entry.field("draft"), forged)
    entry.response = post_draft(entry, posted, op=op)
    assert refused_as_damaged(entry.response)
    assert not game.events.exists() and kept_drafts() == kept
    assert [entry.draft] == [data for _phone, data in kept] or not kept  # the kept draft stays, and is shown


def test_a_draft_signed_for_another_entry_is_refused(
    member_client: Client, guest_client: Client, group: Group, game: Game
) -> None:
    change_log(game, game.revision, lambda events: [FOREST])
    lake = Entry(member_client, f"/games/{game.pk}/events/new/territory/").tap("set:territory:lake")
    other_game = create_game(group, FOREST_PLAYERS, {}, promos=True)
    elsewhere = {
        "another game": (member_client, f"/games/{other_game.pk}/events/new/territory/"),
        "another kind of event": (member_client, f"/games/{game.pk}/events/new/volcano/"),
        "in place of event 0": (member_client, f"/games/{game.pk}/events/0/"),
        "another phone": (guest_client, f"/games/{game.pk}/events/new/territory/"),
    }
    kept = kept_drafts()
    for where, (client, url) in elsewhere.items():
        data = {"draft": lake.field("draft"), "revision": str(game.revision), "op": "save"}
        assert refused_as_damaged(client.post(url, data)), where
    assert game.events.count() == 1 and not other_game.events.exists() and kept_drafts() == kept
    assert lake.tap("add:rewards:blue-circle:1").response.status_code == 200  # on its own page, it holds


def test_a_page_left_longer_than_drafts_are_kept_is_refused(member_client: Client, game: Game) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/round_end/")
    later = time.time() + KEPT_FOR.total_seconds() + 1
    with mock.patch.object(signing, "time", SimpleNamespace(time=lambda: later)):
        assert refused_as_damaged(post_draft(entry, entry.field("draft")))
    assert not game.events.exists()
    assert post_draft(entry, entry.field("draft")).status_code == 302  # in time, it saves


def test_a_sheet_player_named_alexis_can_win(member_client: Client, group: Group) -> None:
    sheet = json.loads(Path("tests/data/cooper-island-spec-example.json").read_text())
    sheet["players"][0]["name"] = "Alexis"
    upload = SimpleUploadedFile("s.json", json.dumps(sheet).encode())
    member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload})
    assert group.games.get().winners == ["Alexis"]


@pytest.mark.parametrize(
    "date", ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "1-01-01T00:00:00", "2026-02-30T00:00:00Z"]
)
def test_a_backup_date_that_is_no_date_of_a_play_is_left_out(member_client: Client, date: str) -> None:
    game = {"kind": "okanagan", "created": date, "finished": date, "status": "finished"}
    game["document"] = {"format": "okanagan-record/1", "players": ["A", "B"], "events": []}
    backup = {"format": "okanagan-companion-backup/1", "group": "Dated", "players": [], "games": [game]}
    response = member_client.post(
        "/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(backup).encode())}
    )
    assert response.status_code == 302
    restored = Game.objects.get(group__name="Dated")
    assert restored.created.year >= 2026 and restored.finished is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [("annxyz", "Ａｎｎxyz"), ("ǅaX", "ǆaX"), ("Émilexx", "émilexx"), ("Straße", "STRASSE"), ("Ωμέγαξξ", "ωμέγαξξ")],
)
def test_a_username_is_taken_in_any_case_and_any_script(db: None, first: str, second: str) -> None:
    password = "a-long-pass-phrase-42"
    assert Client().post("/accounts/signup/", {"username": first, "password": password}).status_code == 302
    again = Client().post("/accounts/signup/", {"username": second, "password": password})
    assert again.status_code == 200
    assert "This username is taken" in again.content.decode()
    assert User.objects.count() == 1


def test_a_backup_of_compact_events_is_bounded_in_events_not_only_in_games(member_client: Client) -> None:
    events = [{"type": "adjust", "player": "A", "nuggets": 1}, {"type": "adjust", "player": "A", "nuggets": -1}]
    document = {"format": "okanagan-record/1", "players": ["A", "B"], "events": events * 250}
    games = [{"kind": "okanagan", "status": "finished", "document": document}] * (MAX_RESTORED_EVENTS // 500 + 1)
    backup = {"format": "okanagan-companion-backup/1", "group": "G", "players": [], "games": games}
    response = member_client.post(
        "/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(backup).encode())}
    )
    assert response.status_code == 422
    assert f"A backup restores at most {MAX_RESTORED_EVENTS} events in all its games." in response.content.decode()


def test_a_game_in_progress_in_a_backup_is_replayed_too(member_client: Client) -> None:
    greedy = FOREST | {"picks": {}}
    game = {"kind": "okanagan", "status": "playing"}
    game["document"] = {"format": "okanagan-record/1", "players": ["White", "Red", "Yellow"], "events": [greedy]}
    backup = {"format": "okanagan-companion-backup/1", "group": "G", "players": [], "games": [game]}
    response = member_client.post(
        "/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(backup).encode())}
    )
    assert response.status_code == 422
    assert "Game 1 cannot be restored: Event 0: White took 0 tokens but may take 4" in response.content.decode()
