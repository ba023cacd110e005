"""One source for the statistics: each seat stores its rank and score parts when its game finishes, the pages
count from them by player (never by the seat's name), and no page replays a game to count."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from rules import documents, score_sheet
from scoring.creation import create_game, create_sheet_game
from scoring.history.summary import group_summary, history, player_stats
from scoring.log import change_log, finish, reopen
from scoring.models import Game, Group, Seat
from scoring.standings import store_result
from tests.scoring.history.test_stats import cooper
from tests.scoring.table.test_game_pages import FOREST

FOREST_RESULT = [  # (name, total, rank, parts): the rulebook's forest, as the engine scores it
    ("White", 5, 2, {"explorer_points": 0, "objective_points": 0, "nugget_points": 5}),
    ("Red", 10, 1, {"explorer_points": 0, "objective_points": 0, "nugget_points": 10}),
    ("Yellow", 5, 3, {"explorer_points": 0, "objective_points": 0, "nugget_points": 5}),
]


def finished_forest(game: Game) -> Game:
    """``game`` (White, Red, Yellow) with the rulebook's forest, ended: Red wins with 10."""
    change_log(game, game.revision, lambda events: [FOREST])
    game.refresh_from_db()
    finish(game, game.revision)
    game.refresh_from_db()
    return game


def seat_results(game: Game) -> list[tuple[str, int | None, int | None, dict[str, int]]]:
    return [(seat.name, seat.total, seat.rank, seat.parts) for seat in game.seats.order_by("position")]


# Stored when a game finishes, cleared when it is reopened ------------------------------------------------


def test_ending_a_game_stores_each_seats_total_rank_and_parts(game: Game) -> None:
    assert seat_results(finished_forest(game)) == FOREST_RESULT


def test_reopening_clears_them_and_ending_again_stores_them_again(game: Game) -> None:
    finished_forest(game)
    reopen(game, game.revision)
    assert seat_results(game) == [(name, None, None, {}) for name, *_rest in FOREST_RESULT]
    game.refresh_from_db()
    finish(game, game.revision)
    assert seat_results(game) == FOREST_RESULT


def test_an_edit_of_a_finished_game_stores_the_new_result(game: Game) -> None:
    finished_forest(game)
    change_log(game, game.revision, lambda events: [*events, {"type": "adjust", "player": "White", "nuggets": 2}])
    white, red, _yellow = seat_results(game)
    assert (white[1], white[2], white[3]["nugget_points"]) == (10, 1, 10)  # White now has the most nuggets
    assert (red[1], red[2]) == (5, 2)


def test_a_score_sheet_stores_its_components(group: Group) -> None:
    cooper(group, ("Ann", 40, 0), ("Ben", 45, 0))
    game = group.games.get()
    ann, ben = seat_results(game)
    assert (ann[1], ann[2], ben[1], ben[2]) == (40, 2, 45, 1)
    assert ann[3]["building_points"] == 40 and "anchor_points" in ann[3] and "total" not in ann[3]


def test_a_solo_small_islands_game_lost_to_alexis_ranks_second(group: Group) -> None:
    sheet = {
        "format": "small-islands-sheet/1",
        "players": [{"name": "Ann", "prestige": 10, "discoveries": [], "ship_placed": False, "ports": 0, "houses": 0}],
        "alexis": {"base": 20, "per_house": 1, "houses": 3},
    }
    game = create_sheet_game(group, sheet)
    assert seat_results(game) == [("Ann", 10, 2, {"prestige_points": 10, "discovery_points": 0, "port_points": 0})]
    (stats,) = history(group).stats()
    assert (stats.players[0].plays, stats.players[0].wins) == (1, 0)


def test_an_imported_finished_game_and_a_restored_one_store_them(
    member_client: Client, group: Group, game: Game
) -> None:
    finished_forest(game)
    record = member_client.get(f"/games/{game.pk}/record.json").content
    member_client.post(
        f"/groups/{group.pk}/games/import/", {"record": SimpleUploadedFile("r.json", record), "finished": "on"}
    )
    imported = group.games.exclude(pk=game.pk).get()
    assert seat_results(imported) == FOREST_RESULT
    backup = member_client.get(f"/groups/{group.pk}/backup.json").getvalue()
    member_client.post("/groups/restore/", {"backup": SimpleUploadedFile("b.json", backup)})
    copy = Group.objects.exclude(pk=group.pk).get()
    assert [seat_results(restored) for restored in copy.games.all()] == [FOREST_RESULT, FOREST_RESULT]


# One source, keyed by player ---------------------------------------------------------------------------


def group_line(page: str, name: str) -> list[str]:
    """The group page's figures for the player ``name``: plays, wins, average, best."""
    row = re.search(rf">{name}</a>.*?</tr>", page, re.S)
    assert row, f"no line for {name}"
    return re.findall(r'<td class="num">([^<]*)</td>', row.group(0))


def stats_line(page: str, name: str) -> list[str]:
    """The statistics page's figures for ``name``: plays, wins, %, average, best, streak."""
    row = re.search(rf">{name}</a></th>(.*?)</tr>", page, re.S)
    assert row, f"no line for {name}"
    return re.findall(r'<td class="num">([^<]*)</td>', row.group(1))


def test_renaming_a_player_keeps_the_group_page_the_statistics_and_their_page_in_agreement(
    member_client: Client, group: Group, game: Game
) -> None:
    finished_forest(game)  # Red wins as "Red"
    red = group.profiles.get(name="Red")
    renamed = member_client.post(f"/groups/{group.pk}/players/{red.pk}/", {"name": "Rhoda"})
    assert renamed.status_code == 302
    later = create_game(group, ("Rhoda", "White"), {}, promos=False)  # the new name is the same player
    finish(later, later.revision)  # nothing scored: both tie on 10 VP (the nugget ladder's first place), shared

    home = member_client.get(f"/groups/{group.pk}/").content.decode()
    stats = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    mine = member_client.get(f"/groups/{group.pk}/players/{red.pk}/").content.decode()

    assert group_line(home, "Rhoda") == ["2", "2", "10.0", "10"]
    assert stats_line(stats, "Rhoda") == ["2", "2", "100", "10.0", "10", "2/2"]
    assert "2 wins · 2 plays · average 10.0 · best 10" in mine
    assert group_line(home, "White") == ["2", "1", "7.5", "10"]
    assert stats_line(stats, "White") == ["2", "1", "50", "7.5", "10", "1/1"]
    assert ">Red<" not in stats and "Red:" not in stats  # no line, no head-to-head under the old name
    assert "Rhoda 10 ★" in home and "Red 10" not in home  # the games, too, under the player's name
    assert "Rhoda – White: 1 – 0 (1 tied) in 2 games" in stats
    assert "count under their current name, with those played under an earlier name" in stats
    assert "<strong>Rhoda</strong>: 2 players: 1/1 · 3 players: 1/1" in stats


def test_a_new_game_proposes_the_last_games_players_by_their_names_now(
    member_client: Client, group: Group, game: Game
) -> None:
    """After a rename, the new game's form proposes the new name: the old one would make a second player."""
    finished_forest(game)
    red = group.profiles.get(name="Red")
    member_client.post(f"/groups/{group.pk}/players/{red.pk}/", {"name": "Rhoda"})
    okanagan = member_client.get(f"/groups/{group.pk}/games/new/").content.decode()
    assert 'value="Rhoda"' in okanagan and 'value="Red"' not in okanagan
    cooper = member_client.get(f"/groups/{group.pk}/sheets/new/cooper_island/").content.decode()
    assert 'value="Rhoda"' in cooper and 'value="Red"' not in cooper


def test_a_new_okanagan_game_proposes_the_last_okanagan_games_players_not_a_later_sheets(
    member_client: Client, group: Group, game: Game
) -> None:
    """A Cooper Island played after the Okanagan game (other players, fewer seats) does not set the Okanagan table."""
    finished_forest(game)  # White, Red, Yellow
    cooper(group, ("Ann", 50, 0), ("Ben", 40, 0))
    okanagan = member_client.get(f"/groups/{group.pk}/games/new/").content.decode()
    assert re.findall(r'name="seat_\d" value="([^"]*)"', okanagan) == ["White", "Red", "Yellow"]
    cooper_island = member_client.get(f"/groups/{group.pk}/sheets/new/cooper_island/").content.decode()
    assert re.findall(r'name="name_\d" value="([^"]*)"', cooper_island) == ["Ann", "Ben"]


def test_every_count_comes_from_one_module(group: Group, game: Game) -> None:
    finished_forest(game)
    cooper(group, ("Red", 50, 0), ("White", 40, 0))
    red = group.profiles.get(name="Red")
    okanagan, cooper_island = history(group).stats()
    assert (okanagan.kind, cooper_island.kind) == (Game.Kind.OKANAGAN, Game.Kind.COOPER_ISLAND)
    (line,) = (line for line in group_summary(history(group), group.profiles.all()) if line.profile == red)
    (record, _sheet) = player_stats(history(group), red)
    assert (line.plays, line.wins, line.average, line.best) == (record.plays, record.wins, record.average, record.best)
    assert record.average_parts() == {"explorer_points": 0.0, "objective_points": 0.0, "nugget_points": 10.0}


def test_the_csv_names_the_player_as_they_are_called_now(member_client: Client, group: Group, game: Game) -> None:
    finished_forest(game)
    red = group.profiles.get(name="Red")
    member_client.post(f"/groups/{group.pk}/players/{red.pk}/", {"name": "Rhoda"})
    text = member_client.get(f"/groups/{group.pk}/plays.csv").getvalue().decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(row["seat"], row["player"], row["players"], row["rank"], row["won"]) for row in rows] == [
        ("1", "White", "3", "2", "0"),
        ("2", "Rhoda", "3", "1", "1"),
        ("3", "Yellow", "3", "3", "0"),
    ]


def test_no_history_page_replays_a_game(
    member_client: Client, group: Group, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    finished_forest(game)
    cooper(group, ("Ann", 40, 0), ("Ben", 45, 0))
    red = group.profiles.get(name="Red")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a history page replayed a game")

    monkeypatch.setattr("rules.okanagan.replay", refuse)
    monkeypatch.setattr(documents, "SHEET_SCORERS", dict.fromkeys(documents.SHEET_SCORERS, refuse))
    for url in ("/", "stats/", f"players/{red.pk}/", "plays.csv", "plays.bgsplay"):
        response = member_client.get(f"/groups/{group.pk}/{url.lstrip('/')}")
        assert response.status_code == 200 and response.getvalue(), url  # the files streamed to their end


def test_the_group_page_lists_its_games_a_page_at_a_time(member_client: Client, group: Group) -> None:
    for number in range(23):
        cooper(group, (f"P{number}", 10, 0))
    first = member_client.get(f"/groups/{group.pk}/").content.decode()
    assert first.count('class="card hit"') == 20 and "P22 10" in first and "P2 10" not in first
    assert "Page 1 of 2" in first and "?page=2" in first and "Older games" in first
    second = member_client.get(f"/groups/{group.pk}/?page=2").content.decode()
    assert second.count('class="card hit"') == 3 and "P0 10" in second and "Newer games" in second
    for odd in ("99", "x", "-1"):  # never a server error
        assert member_client.get(f"/groups/{group.pk}/?page={odd}").status_code == 200


# Games finished before: filled in by the migration -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_in_the_games_finished_before_by_replaying_them_once() -> None:
    before, after = ("scoring", "0009_rule_search_words"), ("scoring", "0010_seat_results")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    user = old.get_model("auth", "User").objects.create(username="old")
    group = old.get_model("scoring", "Group").objects.create(name="Old table", owner=user, invite_token="t")
    OldGame, OldSeat = old.get_model("scoring", "Game"), old.get_model("scoring", "Seat")  # noqa: N806
    forest = OldGame.objects.create(group=group, status="finished", table_code="CODE1", spectator_token="s1")
    old.get_model("scoring", "Event").objects.create(game=forest, index=0, data=FOREST)
    playing = OldGame.objects.create(group=group, table_code="CODE2", spectator_token="s2")
    sheet = {
        "format": "cooper-island-sheet/1",
        "players": [
            {"name": name, "logbooks": 0, "spaces_past_logbook": [0, 0], "royal_orders": {}, "buildings": points,
             "leftovers": {"coins": 0, "resources": 0, "cartographer": 0, "tiles": 0}, "anchors": 0, "empty_spaces": 0}
            for name, points in (("Ann", 40), ("Ben", 45))
        ],
    }  # fmt: skip
    island = OldGame.objects.create(
        group=group, kind="cooper_island", sheet=sheet, status="finished", table_code="CODE3", spectator_token="s3"
    )
    for position, name in enumerate(("White", "Red", "Yellow")):
        OldSeat.objects.create(game=forest, position=position, name=name, total=0)
        OldSeat.objects.create(game=playing, position=position, name=name)
    for position, name in enumerate(("Ann", "Ben")):
        OldSeat.objects.create(game=island, position=position, name=name, total=0)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([after])
    # Read as the models were at that migration: later migrations add columns the database has not yet.
    NewSeat = executor.loader.project_state([after]).apps.get_model("scoring", "Seat")  # noqa: N806
    seats = NewSeat.objects.order_by("position")
    assert [(seat.name, seat.total, seat.rank, seat.parts) for seat in seats.filter(game=forest.pk)] == FOREST_RESULT
    assert [(seat.total, seat.rank) for seat in seats.filter(game=island.pk)] == [(40, 2), (45, 1)]
    assert not seats.filter(game=playing.pk).exclude(rank=None).exists()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_check_command_finds_a_stored_result_that_differs_from_the_replay(game: Game) -> None:
    finished_forest(game)
    call_command("check_data", stdout=io.StringIO())  # as stored: nothing to say
    Seat.objects.filter(game=game, name="Red").update(rank=2)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_data", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"group {game.group_id}: its stored history differs from its games counted again"
    assert lines[1].startswith(f"game {game.pk}: seat 'Red': stored (total, rank, parts) (10, 2, {{")


def test_a_sheet_game_finished_later_stores_its_result_the_same_way(group: Group) -> None:
    """What a score sheet filled in at the table will do when it ends: ``store_result`` takes any game's result."""
    game = create_game(group, ("Ann", "Ben"), {}, promos=False)  # seats as a sheet in progress would have them
    sheet = {
        "format": "small-islands-sheet/1",
        "players": [
            {"name": name, "prestige": points, "discoveries": [], "ship_placed": False, "ports": 0, "houses": 0}
            for name, points in (("Ann", 12), ("Ben", 20))
        ],
    }
    store_result(game, score_sheet(sheet))
    assert game.winners == ["Ben"]
    assert seat_results(game) == [
        ("Ann", 12, 2, {"prestige_points": 12, "discovery_points": 0, "port_points": 0}),
        ("Ben", 20, 1, {"prestige_points": 20, "discovery_points": 0, "port_points": 0}),
    ]
