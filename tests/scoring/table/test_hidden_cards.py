"""A game in progress's objective cards stay secret in all that leaves the table: its record export, the
group's backup, the CSV and the statistics show at most how many cards each player holds."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from scoring.creation import create_game
from scoring.log import finish
from scoring.models import Event, Game, Group
from tests.scoring.conftest import FOREST_PLAYERS
from tests.scoring.table.test_game_pages import FOREST, add_events

RED_CARDS: dict[str, object] = {
    "type": "objectives",
    "player": "Red",
    "cards": [
        {"kind": "shape", "rewards": ["blue-hexagon", "yellow-hexagon", "black-hexagon"]},
        {"kind": "specific", "rewards": ["yellow-square"]},
    ],
}
SECRETS = (
    *("blue-hexagon", "yellow-hexagon", "black-hexagon", "yellow-square"),
    *("blue hexagon", "yellow hexagon", "black hexagon", "yellow square"),
)
"""What would give Red's cards away: their rewards as the record and the pages name them (none is in FOREST)."""


def a_finished_game(group: Group) -> Game:
    game = create_game(group, FOREST_PLAYERS, {}, promos=False, events=[FOREST])
    finish(game, game.revision)
    return game


CSRF_TOKEN = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*')


def what_leaves(client: Client, game: Game) -> dict[str, str]:
    """Every page and file of the group that shows scores or records, by URL (CSRF tokens left out: each
    page has new ones)."""
    red = game.group.profiles.get(name="Red")
    urls = (
        f"/games/{game.pk}/record.json",
        f"/groups/{game.group_id}/backup.json",
        f"/groups/{game.group_id}/plays.csv",
        f"/groups/{game.group_id}/stats/",
        f"/groups/{game.group_id}/players/{red.pk}/",
    )
    return {url: CSRF_TOKEN.sub(r"\1", client.get(url).getvalue().decode()) for url in urls}


def test_nothing_of_the_cards_of_a_game_in_progress_leaves_but_their_count(
    member_client: Client, group: Group, game: Game
) -> None:
    a_finished_game(group)  # so that the statistics, the CSV and Red's page have a game to show
    add_events(game, FOREST)
    before = what_leaves(member_client, game)
    add_events(game, RED_CARDS)
    after = what_leaves(member_client, game)
    for url, text in after.items():
        assert not [secret for secret in SECRETS if secret in text], url
    changed = [url for url in after if after[url] != before[url]]
    assert changed == [f"/games/{game.pk}/record.json", f"/groups/{group.pk}/backup.json"]
    record = json.loads(after[f"/games/{game.pk}/record.json"])
    assert record["hidden"] == {"objective_cards": {"White": 0, "Red": 2, "Yellow": 0}}
    earlier = json.loads(before[f"/games/{game.pk}/record.json"])
    assert record | {"hidden": earlier["hidden"]} == earlier  # Red's count is all that changed
    backup = json.loads(after[f"/groups/{group.pk}/backup.json"])
    in_progress, finished = (entry["document"] for entry in backup["games"])
    assert in_progress == record and "hidden" not in finished


def test_a_finished_game_exports_its_cards(member_client: Client, game: Game) -> None:
    add_events(game, FOREST, RED_CARDS)
    game.refresh_from_db()
    finish(game, game.revision)
    record = json.loads(member_client.get(f"/games/{game.pk}/record.json").content)
    assert record["events"][1] == RED_CARDS and "hidden" not in record
    backup = json.loads(member_client.get(f"/groups/{game.group_id}/backup.json").getvalue())
    assert backup["games"][0]["document"] == record


def test_a_record_with_hidden_cards_imports_in_progress_for_the_players_to_enter_them(
    member_client: Client, group: Group, game: Game
) -> None:
    add_events(game, FOREST, RED_CARDS)
    exported = member_client.get(f"/games/{game.pk}/record.json").content
    upload = SimpleUploadedFile("game.json", exported, content_type="application/json")
    url = f"/groups/{group.pk}/games/import/"
    response = member_client.post(url, {"record": upload, "finished": "on"}, follow=True)
    assert "the file left out the objective cards; each player enters theirs" in response.content.decode()
    imported = Game.objects.exclude(pk=game.pk).get()
    assert imported.is_playing  # though "The game is over" was ticked: it cannot end without the cards
    assert [event.data["type"] for event in imported.events.all()] == ["territory"]
    add_events(imported, RED_CARDS)  # Red enters them again, then the table ends the game
    imported.refresh_from_db()
    red = finish(imported, imported.revision).final.players[1]
    assert (red.name, len(red.objectives)) == ("Red", 2)


def test_a_backup_restores_a_game_in_progress_without_its_cards(
    member_client: Client, group: Group, game: Game
) -> None:
    a_finished_game(group)
    add_events(game, FOREST, RED_CARDS)
    data = json.loads(member_client.get(f"/groups/{group.pk}/backup.json").getvalue())
    hidden = data["games"][0]["document"]
    data["games"].append(data["games"][0] | {"status": "finished"})  # edited by hand: hidden cards, yet finished
    someone = User.objects.create_user("rita", password="pw-rita-123")
    client = Client()
    client.force_login(someone)
    response = client.post("/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(data).encode())})
    assert response.status_code == 302
    restored = list(Group.objects.get(owner=someone).games.order_by("pk"))
    assert [restored_game.status for restored_game in restored] == ["playing", "finished", "playing"]
    assert [event.data["type"] for event in restored[0].events.all()] == ["territory"]
    assert restored[0].record() | {"hidden": hidden["hidden"]} == hidden


def test_a_log_the_rules_refuse_still_leaves_whole_and_without_its_cards(
    member_client: Client, group: Group, game: Game
) -> None:
    """Only a database edited by hand holds such a log (``check_data`` names it). The backup is sent as it is
    read, so nothing may fail once it has started: the game leaves as stored, its cards left out all the same,
    and restoring the backup says which game the rules refuse."""
    add_events(game, FOREST, RED_CARDS)
    Event.objects.create(game=game, index=2, data={"type": "territory", "territory": "nowhere"})
    backup = member_client.get(f"/groups/{group.pk}/backup.json").getvalue().decode()
    record = member_client.get(f"/games/{game.pk}/record.json").content.decode()
    for text in (backup, record):
        assert not [secret for secret in SECRETS if secret in text]
    [entry] = json.loads(backup)["games"]
    assert entry["document"] == json.loads(record)
    assert [event["type"] for event in entry["document"]["events"]] == ["territory", "territory"]
    response = member_client.post("/groups/restore/", {"backup": SimpleUploadedFile("b.json", backup.encode())})
    assert response.status_code == 422 and "Game 1 cannot be restored" in response.content.decode()
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_data", stdout=out)
    assert f"game {game.pk}: event 2 (territory)" in out.getvalue()
