"""Small Islands and Cooper Island games: a score-sheet form per game, checked by the rules engine."""

from __future__ import annotations

import json

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scoring.models import Game, Group

SMALL_ISLANDS = {
    "name_1": "Ann", "prestige_1": "34", "discoveries_1": "3, 5", "ship_placed_1": "on", "ports_1": "4",
    "houses_1": "7",
    "name_2": "Ben", "prestige_2": "30", "discoveries_2": "", "ports_2": "0", "houses_2": "8",
}  # fmt: skip
COOPER_ISLAND = {
    "name_1": "Ann", "logbooks_1": "5", "sailed_1_1": "2", "sailed_2_1": "3", "royal_orders_1": "3: 6, 5: 4",
    "buildings_1": "7", "coins_1": "3", "resources_1": "4", "cartographer_1": "2", "tiles_1": "1", "anchors_1": "2",
    "empty_spaces_1": "3",
}  # fmt: skip


def post(client: Client, group: Group, kind: str, data: dict[str, str]) -> object:
    return client.post(f"/groups/{group.pk}/sheets/new/{kind}/", data)


def test_a_small_islands_sheet_is_scored_and_kept_in_the_history(member_client: Client, group: Group) -> None:
    response = post(member_client, group, "small_islands", SMALL_ISLANDS)
    game = Game.objects.get(kind=Game.Kind.SMALL_ISLANDS)
    assert response["Location"] == f"/games/{game.pk}/"  # type: ignore[index]
    assert game.sheet["players"][0]["discoveries"] == [3, 5] and game.winners == ["Ann"]
    assert [(seat.name, seat.total) for seat in game.seats.all()] == [("Ann", 46), ("Ben", 30)]
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert (
        "Winner: Ann" in page and "Prestige" in page and "Ann: 34 prestige + 8 from discoveries + 4 ports = 46." in page
    )
    history = member_client.get(f"/groups/{group.pk}/").content.decode()
    assert "Small Islands" in history and "Ann 46" in history


def test_who_placed_the_last_tile_is_asked_only_when_it_decides(member_client: Client, group: Group) -> None:
    tied = {**SMALL_ISLANDS, "prestige_2": "42", "discoveries_2": "", "ship_placed_2": "on", "ports_2": "4",
            "houses_2": "7"}  # fmt: skip
    first = post(member_client, group, "small_islands", tied)
    assert first.status_code == 422  # type: ignore[attr-defined]
    assert "who placed the last tile?" in first.content.decode()  # type: ignore[attr-defined]
    assert not Game.objects.exists()
    second = post(member_client, group, "small_islands", {**tied, "last_tile_by": "2"})
    assert second.status_code == 302  # type: ignore[attr-defined]
    assert Game.objects.get().winners == ["Ben"]


def test_a_cooper_island_sheet_is_scored(member_client: Client, group: Group) -> None:
    post(member_client, group, "cooper_island", COOPER_ISLAND)
    game = Game.objects.get(kind=Game.Kind.COOPER_ISLAND)
    assert game.seats.get().total == 47
    assert game.sheet["players"][0]["royal_orders"] == {"3": 6, "5": 4}


def test_an_impossible_sheet_is_refused_at_the_field(member_client: Client, group: Group) -> None:
    response = post(member_client, group, "cooper_island", {**COOPER_ISLAND, "royal_orders_1": "9: 3"})
    page = response.content.decode()  # type: ignore[attr-defined]
    assert response.status_code == 422  # type: ignore[attr-defined]
    assert "9&#x27; is not a royal order card (1 to 8)" in page
    bad = post(member_client, group, "small_islands", {**SMALL_ISLANDS, "prestige_1": "lots", "ports_2": "40"})
    text = bad.content.decode()  # type: ignore[attr-defined]
    assert "Enter a whole number." in text and "Ensure this value is less than or equal to 16." in text
    nobody = post(member_client, group, "small_islands", {})
    assert "Name at least one player." in nobody.content.decode()  # type: ignore[attr-defined]
    assert not Game.objects.exists()


def test_a_sheet_exports_and_imports(member_client: Client, group: Group) -> None:
    post(member_client, group, "small_islands", SMALL_ISLANDS)
    game = Game.objects.get()
    exported = member_client.get(f"/games/{game.pk}/record.json")
    assert json.loads(exported.content)["format"] == "small-islands-sheet/1"
    upload = SimpleUploadedFile("sheet.json", exported.content)
    member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload})
    copy = Game.objects.exclude(pk=game.pk).get()
    assert copy.sheet == game.sheet and copy.winners == ["Ann"]


def test_a_sheet_game_has_no_table_and_cannot_be_reopened(member_client: Client, group: Group) -> None:
    post(member_client, group, "cooper_island", COOPER_ISLAND)
    game = Game.objects.get()
    for url in (f"/games/{game.pk}/reopen/", f"/games/{game.pk}/finish/", f"/games/{game.pk}/code/"):
        assert member_client.post(url, {"revision": game.revision}).status_code == 404
    assert member_client.get(f"/games/{game.pk}/events/new/territory/").status_code == 404


def test_sheet_names_are_stored_in_normal_form_and_look_alikes_refused(member_client: Client, group: Group) -> None:
    spaced = post(
        member_client, group, "small_islands", {**SMALL_ISLANDS, "name_1": "  Ann   Lee ", "name_2": "Zoe\u0301"}
    )
    assert spaced.status_code == 302  # type: ignore[attr-defined]
    game = group.games.get()
    assert game.players() == ("Ann Lee", "Zoé")
    twins = post(member_client, group, "small_islands", {**SMALL_ISLANDS, "name_1": "Ann", "name_2": "ANN"})
    assert "would be the same player" in twins.content.decode()  # type: ignore[attr-defined]
