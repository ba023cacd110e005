"""A group's data, taken elsewhere: backup and restore, and the CSV of every play."""

from __future__ import annotations

import csv
import io
import json

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.creation import create_game, create_sheet_game
from scoring.history.portability import CSV_COLUMNS
from scoring.history.summary import group_summary, history
from scoring.log import change_log, finish
from scoring.models import Game, Group
from tests.scoring.sheets.test_sheet_games import COOPER_ISLAND
from tests.scoring.table.test_game_pages import FOREST


def a_history(member_client: Client, group: Group, game: Game) -> None:
    """A finished Okanagan game, one in progress, and a Cooper Island game."""
    change_log(game, game.revision, lambda events: [FOREST])
    game.refresh_from_db()
    finish(game, game.revision)
    create_game(group, ("Ann", "Ben"), {}, promos=False)
    create_sheet_game(group, COOPER_ISLAND)


def summary(group: Group) -> list[tuple[str, int, int, float | None, int | None]]:
    lines = group_summary(history(group), group.profiles.all())
    return sorted((line.profile.name, line.plays, line.wins, line.average, line.best) for line in lines)


def test_a_backup_restores_into_an_identical_group(member_client: Client, group: Group, game: Game) -> None:
    a_history(member_client, group, game)
    exported = member_client.get(f"/groups/{group.pk}/backup.json")
    assert exported["Content-Disposition"] == f'attachment; filename="okanagan-group-{group.pk}.json"'
    body = exported.getvalue()  # streamed: read once
    someone = User.objects.create_user("rita", password="pw-rita-123")
    client = Client()
    client.force_login(someone)
    response = client.post("/groups/restore/", {"backup": SimpleUploadedFile("backup.json", body)})
    copy = Group.objects.get(owner=someone)
    assert response["Location"] == f"/groups/{copy.pk}/"
    again = json.loads(client.get(f"/groups/{copy.pk}/backup.json").getvalue())
    assert again == json.loads(body)
    assert summary(copy) == summary(group)
    assert plays(client, copy) == plays(member_client, group)


def plays(client: Client, group: Group) -> list[dict[str, str]]:
    """The CSV's rows without the game ids (a restored game has a new id)."""
    text = client.get(f"/groups/{group.pk}/plays.csv").getvalue().decode()
    return [{key: value for key, value in row.items() if key != "game_id"} for row in csv.DictReader(io.StringIO(text))]


def test_the_csv_has_a_row_per_player_per_finished_game(member_client: Client, group: Group, game: Game) -> None:
    a_history(member_client, group, game)
    with CaptureQueriesContext(connection) as captured:
        text = member_client.get(f"/groups/{group.pk}/plays.csv").getvalue().decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert not [query for query in captured if '"facts"' in query["sql"] or "rating_mu" in query["sql"]]  # not needed
    assert [(row["game"], row["player"], row["score"], row["rank"], row["won"]) for row in rows] == [
        ("okanagan", "White", "5", "2", "0"),
        ("okanagan", "Red", "10", "1", "1"),
        ("okanagan", "Yellow", "5", "3", "0"),  # tied with White on VP, fewer tokens
        ("cooper_island", "Ann", "47", "1", "1"),
    ]
    assert rows[1]["nugget_points"] == "10" and rows[3]["nugget_points"] == ""


def test_a_bad_backup_is_refused_and_creates_nothing(member_client: Client, group: Group, game: Game) -> None:
    a_history(member_client, group, game)
    data = json.loads(member_client.get(f"/groups/{group.pk}/backup.json").getvalue())
    data["games"][0]["document"]["events"][0]["picks"] = {}
    groups = Group.objects.count()
    broken = member_client.post("/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(data).encode())})
    assert broken.status_code == 422
    assert "Game 1 cannot be restored: Event 0: White took 0 tokens but may take 4" in broken.content.decode()
    other = member_client.post("/groups/restore/", {"backup": SimpleUploadedFile("b.json", b'{"format": "x"}')})
    assert "This is not a backup of a group" in other.content.decode()
    assert Group.objects.count() == groups
