"""One stored source for a finished play: the engine's standings and winners stored with the game, read by every
page, the result image, the BG Stats link and file; one winner sentence in the locale's list; one rule for who
may log a play."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import translation

from scoring.creation import create_sheet_game
from scoring.log import finish
from scoring.models import Game, Group, Seat
from scoring.results import image as result_image
from scoring.results.image import ImageLine
from scoring.standings import stored_result, winner_sentence
from tests.scoring.results.test_bgstats import bgsplay, finished_okanagan, link_data, links

SOLO_LOST = {
    "format": "small-islands-sheet/1",
    "players": [{"name": "Ann", "prestige": 10, "discoveries": [], "ship_placed": False, "ports": 0, "houses": 0}],
    "alexis": {"base": 20, "per_house": 1, "houses": 3},
}
"""A solo game of Small Islands that Ann loses to the Alexis card, 10 to 23."""
TWO_PLAYERS = {
    "format": "small-islands-sheet/1",
    "players": [
        {"name": name, "prestige": points, "discoveries": [], "ship_placed": False, "ports": 0, "houses": 0}
        for name, points in (("Ann", 12), ("Ben", 20))
    ],
}
"""Ben wins, 20 to 12."""


@pytest.mark.parametrize(
    ("language", "three", "one"),
    [
        ("en", "Shared win: Ana, Ben, and Cleo", "Winner: Ana"),
        ("fr", "Victoire partagée : Ana, Ben et Cleo", "Vainqueur : Ana"),
        ("it", "Vittoria condivisa: Ana, Ben e Cleo", "Vincitore: Ana"),
        ("ko", "승자: Ana, Ben 및 Cleo", "승자: Ana"),
        ("zh-hant", "勝利者：Ana、Ben和Cleo", "勝利者：Ana"),
    ],
)
def test_the_winner_sentence_lists_the_names_as_the_reader_s_language_does(language: str, three: str, one: str) -> None:
    with translation.override(language):
        assert winner_sentence(["Ana", "Ben", "Cleo"]) == three
        assert winner_sentence(["Ana"]) == one
        assert winner_sentence([]) == ""


def test_a_finished_game_stores_the_engine_s_standings_and_winners(group: Group) -> None:
    game = create_sheet_game(group, TWO_PLAYERS)
    stored = stored_result(Game.objects.get(pk=game.pk))
    assert stored is not None and stored.winners == ("Ben",)
    assert [(player.name, player.total, player.rank) for player in stored.by_rank] == [("Ben", 20, 1), ("Ann", 12, 2)]
    assert list(stored.players[0].points) == ["prestige_points", "discovery_points", "port_points"]  # engine order


def test_a_solo_game_lost_to_alexis_says_so_everywhere(member_client: Client, group: Group) -> None:
    game = create_sheet_game(group, SOLO_LOST)
    assert game.winners == ["Alexis"]  # the engine's winners: the card among them
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert '<p class="winner">Winner: Alexis</p>' in page
    watch = Client().get(f"/watch/{game.spectator_token}/").content.decode()
    assert '<meta property="og:description" content="Winner: Alexis">' in watch
    data = link_data(links(page)["bgstats-app"])
    assert data["comments"] == "Winner: Alexis"
    assert [(player["name"], player["rank"], player["winner"]) for player in data["players"]] == [("Ann", 2, False)]


def test_every_reader_of_a_finished_play_reads_what_is_stored(
    member_client: Client, group: Group, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stored results changed by hand (as ``check_data`` would report): every reader shows the store, none scores
    the sheet again for the standings."""
    game = create_sheet_game(group, TWO_PLAYERS)
    Seat.objects.filter(game=game, name="Ann").update(total=99, rank=1, parts={"prestige_points": 99})
    Seat.objects.filter(game=game, name="Ben").update(rank=2)
    Game.objects.filter(pk=game.pk).update(winners=["Ann"])
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert '<p class="winner">Winner: Ann</p>' in page and '<td class="num">99</td>' in page
    found = {key: html.unescape(value) for key, value in links(page).items()}
    data = link_data(found["bgstats-app"])
    assert [(player["name"], player["score"], player["winner"]) for player in data["players"]] == [
        ("Ann", 99, True),
        ("Ben", 20, False),
    ]
    assert data["comments"] == "Winner: Ann"
    file = bgsplay(member_client, found["bgstats-file"])
    assert [score["score"] for score in file["plays"][0]["playerScores"]] == ["99", "20"]
    assert file["plays"][0]["comments"] == "Winner: Ann"
    drawn: list[tuple[str, list[ImageLine]]] = []

    def draw(title: str, headline: str, decider: str, lines: list[ImageLine], language: str) -> bytes:
        drawn.append((headline, lines))
        return b"png"

    monkeypatch.setattr(result_image, "draw_result", draw)
    assert Client().get(f"/watch/{game.spectator_token}/result.png").status_code == 200
    [(headline, lines)] = drawn
    assert headline == "Winner: Ann"
    assert [(line.name, line.total) for line in lines] == [("Ann", "99 points"), ("Ben", "20 points")]


def test_the_okanagan_final_table_reads_what_is_stored(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-shared-victory")
    Seat.objects.filter(game=game, name="Ann").update(total=77)
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    table = page[page.index('<table class="ranking">') : page.index("</table>")]
    assert "<td>Ann</td>" in table and '<td class="num">77</td>' in table


@pytest.mark.parametrize("reader", ["member", "guest", "stranger", "anonymous"])
def test_the_card_and_the_file_follow_one_rule(
    reader: str, member_client: Client, guest_client: Client, stranger_client: Client, game: Game
) -> None:
    client = {"member": member_client, "guest": guest_client, "stranger": stranger_client, "anonymous": Client()}[
        reader
    ]
    finish(game, game.revision)
    response = client.get(f"/games/{game.pk}/")
    may = reader in {"member", "guest"}  # the group's members and the phones of its table; nobody else
    assert response.status_code == (200 if may else 404)
    assert ('id="bgstats"' in response.content.decode()) is may
    assert client.get(f"/games/{game.pk}/play.bgsplay").status_code == (200 if may else 404)
    watch = client.get(f"/watch/{game.spectator_token}/").content.decode()
    assert "Final scores" in watch and 'id="bgstats"' not in watch  # the public page: never


@pytest.mark.django_db(transaction=True)
def test_the_migration_puts_the_solo_opponent_back_among_the_winners() -> None:
    before, after = ("scoring", "0014_start_token"), ("scoring", "0015_winners_as_the_engine_names_them")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    user = old.get_model("auth", "User").objects.create(username="old")
    group = old.get_model("scoring", "Group").objects.create(name="Old table", owner=user, invite_token="t")
    OldGame = old.get_model("scoring", "Game")  # noqa: N806
    tied = {**SOLO_LOST, "alexis": {"base": 10, "per_house": 1, "houses": 0}}  # 10 each, no houses: shared
    games = [
        OldGame.objects.create(
            group=group,
            kind="small_islands",
            sheet=sheet,
            status="finished",
            winners=winners,
            table_code=f"CODE{number}",
            spectator_token=f"s{number}",
        )
        for number, (sheet, winners) in enumerate([(SOLO_LOST, []), (tied, ["Ann"]), (TWO_PLAYERS, ["Ben"])])
    ]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([after])
    assert [list(OldGame.objects.get(pk=game.pk).winners) for game in games] == [["Alexis"], ["Ann", "Alexis"], ["Ben"]]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_result_page_of_a_game_joins_its_winners_in_the_reader_s_language(
    member_client: Client, group: Group
) -> None:
    game = create_sheet_game(group, TWO_PLAYERS)
    Game.objects.filter(pk=game.pk).update(winners=["Ann", "Ben"])  # as a shared win is stored
    member_client.cookies["django_language"] = "fr"
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert '<p class="winner">Victoire partagée : Ann et Ben</p>' in page
