"""BG Stats: the "Send to BG Stats" links and the ``.bgsplay`` files, checked field by field against
``../shared/spec/bgstats.md``, and who may have them."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from rules import TITLES
from scoring.creation import create_game, create_sheet_game
from scoring.history.portability import backup
from scoring.log import finish
from scoring.models import Game, Group

DATA = Path(__file__).resolve().parents[2] / "data"
UUID = re.compile(r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$")
LINK_KEYS = {
    "sourceName", "sourcePlayId", "playDate", "durationMin", "board", "comments", "location", "game", "players",
}  # fmt: skip
LINK_GAME_KEYS = {"name", "bggId", "sourceGameId", "highestWins", "noPoints"}
LINK_PLAYER_KEYS = {"name", "sourcePlayerId", "score", "rank", "winner", "startPlayer", "role"}
PLAY_KEYS = {
    "uuid", "playDate", "entryDate", "modificationDate", "durationMin", "gameRefId", "locationRefId", "board",
    "comments", "usesTeams", "ignored", "manualWinner", "rounds", "playerScores",
}  # fmt: skip
SCORE_KEYS = {"playerRefId", "score", "winner", "startPlayer", "newPlayer", "rank", "seatOrder", "role"}
DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    return data


def finished_okanagan(group: Group, name: str, *, promos: bool = False, minutes: int = 75) -> Game:
    """The record ``name`` of tests/data, played at the table in ``minutes`` and finished."""
    record = load(name)
    players, options = tuple(record["players"]), record.get("options", {})
    game = create_game(group, players, options, promos=promos, events=record["events"])
    finish(game, game.revision)
    game.created = game.finished - timedelta(minutes=minutes)  # type: ignore[operator]
    game.save(update_fields=["created"])
    return game


def links(page: str) -> dict[str, str]:
    """The BG Stats card's links by id."""
    return {
        key: html.unescape(value)
        for key, value in re.findall(r'id="(bgstats-app|bgstats-web|bgstats-file|bgg)"\s+href="([^"]*)"', page)
    }


def link_data(href: str) -> dict[str, Any]:
    """The play JSON that a BG Stats link carries, checked to be encoded as ``encodeURIComponent`` would."""
    query = urlsplit(href).query
    assert query.startswith("data=") and "&" not in query
    encoded = query.removeprefix("data=")
    text = unquote(encoded)
    assert quote(text, safe="") == encoded  # percent-encoding exactly as urllib.parse.quote(text, safe="")
    assert "+" not in encoded and " " not in encoded
    data: dict[str, Any] = json.loads(text)
    assert parse_qs(query)["data"] == [text]
    return data


def page_links(client: Client, game: Game) -> dict[str, str]:
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return links(response.content.decode())


def bgsplay(client: Client, url: str) -> dict[str, Any]:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert re.fullmatch(r'attachment; filename="[a-z0-9-]+\.bgsplay"', response["Content-Disposition"])
    data: dict[str, Any] = json.loads(response.getvalue())  # streamed
    return data


def test_the_titles_are_the_site_s_game_kinds_with_their_boardgamegeek_ids() -> None:
    assert set(TITLES) == set(Game.Kind.values)
    assert {key: title.bgg_id for key, title in TITLES.items()} == {
        "okanagan": 230089,
        "small_islands": 236248,
        "cooper_island": 269511,
    }


def test_the_link_carries_every_field_of_the_spec(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-shared-victory", minutes=75)
    found = page_links(member_client, game)
    assert found["bgstats-app"].startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    assert found["bgstats-web"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert found["bgstats-app"].split("?", 1)[1] == found["bgstats-web"].split("?", 1)[1]
    assert "%20" in found["bgstats-app"]  # the group's name, "Friday table": a space is %20, not +
    data = link_data(found["bgstats-app"])
    assert set(data) == LINK_KEYS
    assert data["sourceName"] == "Okanagan Companion"
    assert UUID.match(data["sourcePlayId"]) and data["sourcePlayId"] == str(game.uuid).upper()
    assert data["playDate"] == game.finished.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")  # type: ignore[union-attr]
    assert data["durationMin"] == 75 and type(data["durationMin"]) is int
    assert data["board"] == "" and data["location"] == "Friday table"
    assert data["comments"] == "Shared win: Ann, Ben, and Cy" and len(data["comments"]) < 400
    assert set(data["game"]) == LINK_GAME_KEYS
    assert data["game"] == {
        "name": "Okanagan: Valley of the Lakes",
        "bggId": 230089,
        "sourceGameId": "okanagan",
        "highestWins": True,
        "noPoints": False,
    }
    assert type(data["game"]["bggId"]) is int  # a JSON number, never a string
    players = data["players"]
    assert all(set(player) == LINK_PLAYER_KEYS for player in players)
    assert [player["name"] for player in players] == ["Ann", "Ben", "Cy", "Dee"]
    assert [player["score"] for player in players] == [10, 10, 10, 10]
    assert all(type(player["score"]) is int and type(player["rank"]) is int for player in players)
    assert [player["rank"] for player in players] == [1, 1, 1, 4]  # competition ranks: tied players share
    assert [player["winner"] for player in players] == [True, True, True, False]  # a shared victory
    assert [player["startPlayer"] for player in players] == [True, False, False, False]  # the first seat
    assert all(player["role"] == "" for player in players)
    profiles = {profile.name: str(profile.uuid).upper() for profile in group.profiles.all()}
    assert [player["sourcePlayerId"] for player in players] == [profiles[name] for name in ("Ann", "Ben", "Cy", "Dee")]
    assert found["bgg"] == "https://boardgamegeek.com/boardgame/230089/okanagan-valley-of-the-lakes"
    assert found["bgstats-file"] == f"/games/{game.pk}/play.bgsplay"


def test_the_play_file_has_the_spec_s_structure(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-shared-victory")
    data = bgsplay(member_client, f"/games/{game.pk}/play.bgsplay")
    assert set(data) == {"about", "players", "locations", "games", "plays", "userInfo"}
    assert "BG Stats" in data["about"] and "Open it with the BG Stats app" in data["about"]
    assert data["userInfo"] == {}  # this member is none of the players: no meRefId
    assert [player["name"] for player in data["players"]] == ["Ann", "Ben", "Cy", "Dee"]
    for number, player in enumerate(data["players"], start=1):
        assert player["id"] == number and UUID.match(player["uuid"])
        assert player["isAnonymous"] is False and player["bggUsername"] == "" and DATE.match(player["modificationDate"])
    [location] = data["locations"]
    assert location["id"] == 1 and location["name"] == "Friday table" and UUID.match(location["uuid"])
    [entry] = data["games"]
    assert entry["bggId"] == 230089 and type(entry["bggId"]) is int and entry["name"] == "Okanagan: Valley of the Lakes"
    assert (entry["highestWins"], entry["noPoints"]) == (True, False)
    assert (entry["cooperative"], entry["usesTeams"]) == (False, False)
    assert UUID.match(entry["uuid"]) and DATE.match(entry["modificationDate"])
    [play] = data["plays"]
    assert set(play) == PLAY_KEYS
    assert play["uuid"] == str(game.uuid).upper()
    assert all(DATE.match(play[key]) for key in ("playDate", "entryDate", "modificationDate"))
    assert play["playDate"] == game.finished.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")  # type: ignore[union-attr]
    assert (play["gameRefId"], play["locationRefId"], play["durationMin"]) == (1, 1, 75)
    assert (play["usesTeams"], play["ignored"], play["manualWinner"], play["rounds"]) == (False, False, False, 0)
    scores = play["playerScores"]
    assert all(set(score) == SCORE_KEYS for score in scores)
    assert [score["playerRefId"] for score in scores] == [1, 2, 3, 4]
    assert [score["score"] for score in scores] == ["10", "10", "10", "10"]  # a string in the file
    assert [score["rank"] for score in scores] == [1, 1, 1, 4]
    assert [score["winner"] for score in scores] == [True, True, True, False]
    assert [score["startPlayer"] for score in scores] == [True, False, False, False]
    assert [score["seatOrder"] for score in scores] == [1, 2, 3, 4]
    assert all(score["newPlayer"] is False and score["role"] == "" for score in scores)


def test_two_exports_of_a_play_have_the_same_uuids_as_its_link(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-four-players-nugget-tie")
    first = bgsplay(member_client, f"/games/{game.pk}/play.bgsplay")
    second = bgsplay(member_client, f"/games/{game.pk}/play.bgsplay")
    assert first == second
    whole = bgsplay(member_client, f"/groups/{group.pk}/plays.bgsplay")
    link = link_data(page_links(member_client, game)["bgstats-app"])
    assert whole["plays"][0]["uuid"] == first["plays"][0]["uuid"] == link["sourcePlayId"]
    uuids = [player["uuid"] for player in first["players"]]
    assert [player["uuid"] for player in whole["players"]] == uuids
    assert [player["sourcePlayerId"] for player in link["players"]] == uuids
    assert [score["rank"] for score in first["plays"][0]["playerScores"]] == [1, 2, 4, 3]
    assert [score["winner"] for score in first["plays"][0]["playerScores"]] == [True, False, False, False]


def test_a_renamed_player_and_a_reopened_game_keep_their_uuids(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-promo-tiles", promos=True)
    before = link_data(page_links(member_client, game)["bgstats-app"])
    group.profiles.filter(name="Ann").update(name="Anne")
    game.status = Game.Status.PLAYING
    game.save()
    finish(game, game.revision)
    after = link_data(page_links(member_client, game)["bgstats-app"])
    assert after["sourcePlayId"] == before["sourcePlayId"]
    assert [p["sourcePlayerId"] for p in after["players"]] == [p["sourcePlayerId"] for p in before["players"]]
    assert after["players"][0]["name"] == "Anne"  # the group's player, as named now
    assert after["board"] == "Promo tiles"


def test_the_board_names_the_variant(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-three-players-fewest-zero", promos=True)
    data = link_data(page_links(member_client, game)["bgstats-app"])
    assert data["board"] == "Fewest nuggets score 0; Promo tiles"
    assert [player["rank"] for player in data["players"]] == [1, 2, 2]


def test_the_link_speaks_the_reader_s_language(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-shared-victory", promos=True)
    member_client.cookies["django_language"] = "fr"
    data = link_data(page_links(member_client, game)["bgstats-app"])
    assert (data["comments"], data["board"]) == ("Victoire partagée : Ann, Ben et Cy", "Tuiles promo")
    assert data["game"]["name"] == "Okanagan: Valley of the Lakes"  # BoardGameGeek's title, in every language
    response = member_client.get(f"/groups/{group.pk}/plays.bgsplay")
    with translation.override("en"):  # the file is made as it is sent, after the view: in the reader's language
        [play] = json.loads(response.getvalue())["plays"]
    assert (play["comments"], play["board"]) == ("Victoire partagée : Ann, Ben et Cy", "Tuiles promo")


def test_a_game_not_played_in_one_sitting_has_an_unknown_duration(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-two-player-game", minutes=60 * 24 * 3)
    assert link_data(page_links(member_client, game)["bgstats-app"])["durationMin"] == 0


@pytest.mark.parametrize(
    ("name", "kind", "bgg_id", "ranks"),
    [
        ("cooper-island-three-players-tie", "cooper_island", 269511, [1, 2, 2]),
        ("small-islands-spec-example", "small_islands", 236248, [1, 2]),
        ("small-islands-solo", "small_islands", 236248, None),
    ],
)
def test_a_score_sheet_game_is_a_play_without_a_start_player(
    member_client: Client, group: Group, name: str, kind: str, bgg_id: int, ranks: list[int] | None
) -> None:
    game = create_sheet_game(group, load(name))
    found = page_links(member_client, game)
    data = link_data(found["bgstats-web"])
    assert set(data) == LINK_KEYS and data["game"]["bggId"] == bgg_id and data["game"]["sourceGameId"] == kind
    assert data["durationMin"] == 0 and data["board"] == ""
    assert not any(player["startPlayer"] for player in data["players"])  # the sheets do not record who started
    if ranks is not None:
        assert [player["rank"] for player in data["players"]] == ranks
        assert [player["winner"] for player in data["players"]] == [rank == 1 for rank in ranks]
    assert found["bgg"] == TITLES[kind].bgg_url
    file = bgsplay(member_client, found["bgstats-file"])
    scores = file["plays"][0]["playerScores"]
    assert [score["score"] for score in scores] == [str(player["score"]) for player in data["players"]]
    assert {score["seatOrder"] for score in scores} == {0}  # not recorded


def test_nothing_of_bg_stats_shows_for_a_game_in_progress(member_client: Client, game: Game) -> None:
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "bgstats" not in page and "boardgamegeek" not in page
    assert member_client.get(f"/games/{game.pk}/play.bgsplay").status_code == 404


def test_a_phone_of_the_table_has_the_links_of_the_game_it_played(guest_client: Client, game: Game) -> None:
    finish(game, game.revision)
    assert set(page_links(guest_client, game)) == {"bgstats-app", "bgstats-web", "bgstats-file", "bgg"}
    assert bgsplay(guest_client, f"/games/{game.pk}/play.bgsplay")["plays"][0]["uuid"] == str(game.uuid).upper()
    assert guest_client.get(f"/groups/{game.group_id}/plays.bgsplay").status_code == 404  # members only


def test_a_stranger_a_spectator_and_a_bad_id_get_nothing(
    stranger_client: Client, member_client: Client, group: Group
) -> None:
    game = finished_okanagan(group, "okanagan-shared-victory")
    assert stranger_client.get(f"/games/{game.pk}/play.bgsplay").status_code == 404
    assert stranger_client.get(f"/groups/{group.pk}/plays.bgsplay").status_code == 404
    assert Client().get(f"/games/{game.pk}/play.bgsplay").status_code == 404
    watch = Client().get(f"/watch/{game.spectator_token}/").content.decode()
    assert "Final scores" in watch and "bgstats" not in watch
    live = Client().get(f"/watch/{game.spectator_token}/live/?view=watch").content.decode()
    assert "bgstats" not in live
    for url in ("/games/999999/play.bgsplay", f"/games/{'9' * 30}/play.bgsplay", "/groups/999999/plays.bgsplay"):
        assert member_client.get(url).status_code == 404


def test_the_group_file_holds_every_finished_play_once(owner: User, owner_client: Client, group: Group) -> None:
    first = finished_okanagan(group, "okanagan-shared-victory")
    sheet = create_sheet_game(group, load("cooper-island-three-players-tie"))
    create_game(group, ("Ann", "Zed"), {}, promos=False)  # in progress: left out
    group.profiles.filter(name="Ben").update(user=owner)
    data = bgsplay(owner_client, f"/groups/{group.pk}/plays.bgsplay")
    assert [play["uuid"] for play in data["plays"]] == [str(first.uuid).upper(), str(sheet.uuid).upper()]
    assert [player["name"] for player in data["players"]] == ["Ann", "Ben", "Cy", "Dee"]  # once each, across plays
    assert [game["bggId"] for game in data["games"]] == [230089, 269511]
    assert [play["gameRefId"] for play in data["plays"]] == [1, 2]
    assert len(data["locations"]) == 1 and {play["locationRefId"] for play in data["plays"]} == {1}
    ids = {player["name"]: player["id"] for player in data["players"]}
    assert data["userInfo"] == {"meRefId": ids["Ben"]}  # this account is Ben
    assert [s["playerRefId"] for s in data["plays"][1]["playerScores"]] == [ids["Ann"], ids["Ben"], ids["Cy"]]
    group_page = owner_client.get(f"/groups/{group.pk}/").content.decode()
    assert f'href="/groups/{group.pk}/plays.bgsplay"' in group_page


def test_a_restored_backup_keeps_the_uuids(owner_client: Client, group: Group) -> None:
    finished_okanagan(group, "okanagan-shared-victory")
    create_sheet_game(group, load("small-islands-spec-example"))
    before = bgsplay(owner_client, f"/groups/{group.pk}/plays.bgsplay")
    upload = SimpleUploadedFile("backup.json", "".join(backup(group)).encode())
    response = owner_client.post("/groups/restore/", {"backup": upload})
    assert response.status_code == 302
    restored = Group.objects.exclude(pk=group.pk).get()
    after = bgsplay(owner_client, f"/groups/{restored.pk}/plays.bgsplay")
    assert [play["uuid"] for play in after["plays"]] == [play["uuid"] for play in before["plays"]]
    assert [(p["name"], p["uuid"]) for p in after["players"]] == [(p["name"], p["uuid"]) for p in before["players"]]


def test_a_backup_without_uuids_or_with_bad_ones_still_restores(owner_client: Client, group: Group) -> None:
    finished_okanagan(group, "okanagan-shared-victory")
    data = json.loads("".join(backup(group)))
    data["player_uuids"] = {"Ann": "not a uuid", "Ben": 7}
    data["games"][0]["uuid"] = ["nope"]
    upload = SimpleUploadedFile("backup.json", json.dumps(data).encode())
    assert owner_client.post("/groups/restore/", {"backup": upload}).status_code == 302
    restored = Group.objects.exclude(pk=group.pk).get()
    assert restored.games.get().uuid != group.games.get().uuid
    assert len({profile.uuid for profile in restored.profiles.all()}) == 4


def test_every_game_and_player_gets_its_own_uuid(group: Group) -> None:
    games = [finished_okanagan(group, "okanagan-shared-victory") for _ in range(2)]
    assert games[0].uuid != games[1].uuid
    assert len({profile.uuid for profile in group.profiles.all()}) == group.profiles.count() == 4


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_existing_game_and_player_its_own_uuid() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("scoring", "0005_seats_drafts_activity")])
    old = executor.loader.project_state([("scoring", "0005_seats_drafts_activity")]).apps
    user = old.get_model("auth", "User").objects.create(username="old")
    group = old.get_model("scoring", "Group").objects.create(name="Old table", owner=user, invite_token="t")
    for number in range(3):
        old.get_model("scoring", "Game").objects.create(
            group=group, table_code=f"CODE{number}", spectator_token=f"s{number}"
        )
        old.get_model("scoring", "Profile").objects.create(group=group, name=f"P{number}")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert len(set(Game.objects.values_list("uuid", flat=True))) == 3
    assert len({profile.uuid for profile in Group.objects.get(name="Old table").profiles.all()}) == 3
