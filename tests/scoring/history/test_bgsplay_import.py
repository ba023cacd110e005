"""Old plays brought in from BG Stats ``.bgsplay`` files: the round trip through the site's own export, the same
play refused twice, plays of other games and broken files refused with a sentence naming them (nothing stored),
players matched by name, and imported plays in the statistics, the CSV, the backup, a restore and every page."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from rules import TITLES
from scoring.creation import create_sheet_game
from scoring.history.bgsplay_import import BadPlayFile, read_play_file
from scoring.history.portability import backup
from scoring.history.summary import history
from scoring.models import Game, Group, Profile
from scoring.standings import stored_result
from tests.scoring.conftest import at_once, logged_in
from tests.scoring.history.test_portability import summary
from tests.scoring.results.test_bgstats import bgsplay, finished_okanagan
from tests.scoring.sheets.test_sheet_games import COOPER_ISLAND

DAY = "2024-05-17 21:30:00"


def play_file(*plays: dict[str, Any], games: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A ``.bgsplay`` file as BG Stats writes one: its plays, their players by name, and their games."""
    names = sorted({score["name"] for play in plays for score in play["playerScores"]})
    ids = {name: number for number, name in enumerate(names, start=1)}
    return {
        "about": "A play file for BG Stats.",
        "players": [{"id": ids[name], "uuid": f"P{ids[name]}", "name": name, "isAnonymous": False} for name in names],
        "locations": [],
        "games": games or [{"id": 1, "name": "Okanagan: Valley of the Lakes", "bggId": 230089}],
        "plays": [
            {key: value for key, value in play.items() if key != "playerScores"}
            | {
                "playerScores": [
                    {key: value for key, value in score.items() if key != "name"} | {"playerRefId": ids[score["name"]]}
                    for score in play["playerScores"]
                ]
            }
            for play in plays
        ],
        "userInfo": {},
    }


def a_play(scores: dict[str, object], *, uuid: str = "", date: str = DAY, game: int = 1) -> dict[str, Any]:
    """A play of ``game`` on ``date``: each player's score as BG Stats writes it (text), no rank set."""
    return {
        "uuid": uuid,
        "playDate": date,
        "gameRefId": game,
        "playerScores": [{"name": name, "score": score, "rank": 0, "winner": False} for name, score in scores.items()],
    }


def upload(client: Client, group: Group, data: object) -> Any:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post(f"/groups/{group.pk}/plays/import/", {"plays": SimpleUploadedFile("plays.bgsplay", body)})


def results(game: Game) -> list[tuple[str, int, int]]:
    stored = stored_result(game)
    assert stored is not None
    return [(player.name, player.total, player.rank) for player in stored.players]


def test_a_play_exported_deleted_and_imported_is_the_same_play(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-dense-four-players")
    before, winners, finished, uuid = results(game), game.winners, game.finished, game.uuid
    file = bgsplay(member_client, f"/games/{game.pk}/play.bgsplay")
    game.delete()
    response = upload(member_client, group, file)
    assert response.status_code == 200
    assert "1 play imported" in response.content.decode()
    back = Game.objects.get(group=group)
    assert back.imported and not back.is_playing and back.kind == Game.Kind.OKANAGAN
    assert results(back) == before and back.winners == winners
    assert back.finished == finished.replace(microsecond=0)  # type: ignore[union-attr]
    assert back.uuid == uuid and back.source_play_id == str(uuid).upper()
    assert not back.events.exists()
    again = bgsplay(member_client, f"/games/{back.pk}/play.bgsplay")  # the same play for BG Stats
    assert again["plays"][0]["uuid"] == file["plays"][0]["uuid"]
    assert again["plays"][0]["playerScores"] == file["plays"][0]["playerScores"]


def test_a_score_sheet_comes_back_with_its_totals_and_ranks(member_client: Client, group: Group) -> None:
    game = create_sheet_game(group, COOPER_ISLAND)
    before = results(game)
    file = bgsplay(member_client, f"/games/{game.pk}/play.bgsplay")
    game.delete()
    upload(member_client, group, file)
    back = Game.objects.get(group=group)
    assert back.kind == Game.Kind.COOPER_ISLAND and back.imported and back.sheet is None
    assert results(back) == before


def test_the_same_play_is_refused_by_its_id(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-dense-four-players")
    file = bgsplay(member_client, f"/games/{game.pk}/play.bgsplay")
    page = upload(member_client, group, file).content.decode()  # the game is still here: the same play
    assert "0 plays imported" in page and "in the group already" in page and "Okanagan: Valley of the Lakes" in page
    game.delete()
    upload(member_client, group, file)
    page = upload(member_client, group, file).content.decode()
    assert "0 plays imported" in page and "1 play refused" in page
    assert Game.objects.filter(group=group).count() == 1


def test_a_play_without_an_id_is_refused_by_its_date_game_and_scores(member_client: Client, group: Group) -> None:
    first = play_file(a_play({"Ann": "40", "Ben": "38"}))
    assert "1 play imported" in upload(member_client, group, first).content.decode()
    same = play_file(a_play({"ben": "38", "ANN": "40"}, date="2024-05-17 09:00:00"))  # the same day, another hour
    assert "in the group already" in upload(member_client, group, same).content.decode()
    other = play_file(a_play({"Ann": "41", "Ben": "38"}))
    assert "1 play imported" in upload(member_client, group, other).content.decode()
    twice = play_file(a_play({"Ann": "1", "Ben": "2"}), a_play({"Ann": "1", "Ben": "2"}))  # twice in one file
    page = upload(member_client, group, twice).content.decode()
    assert "1 play imported" in page and "Play 2" in page
    assert Game.objects.filter(group=group).count() == 3


def test_a_play_of_another_game_is_refused_with_its_name(member_client: Client, group: Group) -> None:
    games = [{"id": 1, "name": "Catan", "bggId": 13}, {"id": 2, "name": "Small Islands", "bggId": 236248}]
    file = play_file(a_play({"Ann": "3", "Ben": "4"}), a_play({"Ann": "30", "Ben": "40"}, game=2), games=games)
    page = upload(member_client, group, file).content.decode()
    assert "1 play imported" in page
    assert "Play 1 (Catan, 2024-05-17 21:30:00): Catan is not one of this site&#x27;s games" in page
    assert Game.objects.get(group=group).kind == Game.Kind.SMALL_ISLANDS


def test_a_game_is_known_by_its_name_when_it_has_no_boardgamegeek_id() -> None:
    for title in TITLES.values():
        games = [{"id": 1, "name": title.name.split(":")[0].upper(), "bggId": 0}]
        read = read_play_file(play_file(a_play({"Ann": "3"}), games=games))
        assert [play.kind for _number, play in read.plays] == [title.key]


def test_ranks_come_from_the_file_else_from_the_winners_then_the_scores() -> None:
    plain = read_play_file(play_file(a_play({"Ann": "40", "Ben": "38", "Cy": "40"})))
    assert [(p.name, p.rank) for p in plain.plays[0][1].players] == [("Ann", 1), ("Ben", 3), ("Cy", 1)]
    decided = a_play({"Ann": "40", "Ben": "38", "Cy": "40"})
    decided["playerScores"][2]["winner"] = True  # a tie broken in BG Stats
    read = read_play_file(play_file(decided))
    assert read.plays[0][1].winners == ("Cy",)
    ranked = a_play({"Ann": "40", "Ben": "38"})
    for score, rank in zip(ranked["playerScores"], (2, 1), strict=True):
        score["rank"] = rank
    assert read_play_file(play_file(ranked)).plays[0][1].winners == ("Ben",)


SMALL_ISLANDS = [{"id": 1, "name": "Small Islands", "bggId": 236248}]
ALEXIS_WINS = {
    "format": "small-islands-sheet/1",
    "players": [{"name": "Ann", "prestige": 10, "discoveries": [], "ship_placed": False, "ports": 0, "houses": 0}],
    "alexis": {"base": 40, "per_house": 1, "houses": 6},
}


def test_a_lost_solo_game_comes_back_lost_with_alexis_its_winner(member_client: Client, group: Group) -> None:
    game = create_sheet_game(group, ALEXIS_WINS)
    before, winners = results(game), game.winners
    assert before == [("Ann", 10, 2)] and winners == ["Alexis"]
    file = bgsplay(member_client, f"/games/{game.pk}/play.bgsplay")
    game.delete()
    assert "1 play imported" in upload(member_client, group, file).content.decode()
    back = Game.objects.get(group=group)
    assert results(back) == before and back.winners == winners
    (stats,) = history(group).stats()
    assert (stats.players[0].plays, stats.players[0].wins) == (1, 0)


@pytest.mark.parametrize(
    ("rank", "winner", "placed", "winners"),
    [(0, False, 2, ("Alexis",)), (0, True, 1, ("Ann",)), (2, False, 2, ("Alexis",)), (1, True, 1, ("Ann",))],
)
def test_a_solo_play_of_small_islands_not_won_is_alexis_s(
    rank: int, winner: bool, placed: int, winners: tuple[str]
) -> None:
    solo = a_play({"Ann": "20"})
    solo["playerScores"][0] |= {"rank": rank, "winner": winner}
    (_number, play), *_rest = read_play_file(play_file(solo, games=SMALL_ISLANDS)).plays
    assert [(player.name, player.rank) for player in play.players] == [("Ann", placed)] and play.winners == winners


def test_a_solo_play_placed_third_is_refused() -> None:
    solo = a_play({"Ann": "20"})
    solo["playerScores"][0]["rank"] = 3
    file = read_play_file(play_file(solo, games=SMALL_ISLANDS))
    assert not file.plays and [refusal.reason for refusal in file.refused] == ["its ranks are not places from 1 to 2."]


BROKEN_PLAY = [
    ({"score": "many"}, "score is not a whole number"),
    ({"score": 10**40}, "is not between -9999 and 9999"),
    ({"score": "99999999999999999999"}, "score is not a whole number"),
    ({"score": None}, "score is not a whole number"),
    ({"rank": "1"}, "a rank is not a whole number"),
    ({"rank": 7}, "ranks are not places"),
    ({"winner": "yes"}, "winner not true or false"),
    ({"playerRefId": 99}, "not in the file"),
    ({"playerRefId": [1]}, "not in the file"),
]


@pytest.mark.parametrize(("change", "message"), BROKEN_PLAY)
def test_a_broken_play_is_refused_with_a_sentence_and_nothing_is_stored(
    member_client: Client, group: Group, change: dict[str, object], message: str
) -> None:
    file = play_file(a_play({"Ann": "40", "Ben": "38"}))
    for score in file["plays"][0]["playerScores"]:
        score |= change
    page = upload(member_client, group, file).content.decode()
    assert "0 plays imported" in page and message in page.replace("&#x27;", "'")
    assert not Game.objects.exists() and not Profile.objects.exists()


BROKEN_FILE: list[tuple[bytes | dict[str, Any], str]] = [
    (b'{"plays": [{"uuid": "A", "playDate": "2024-', "it is damaged or cut short. Export the plays"),
    (b"\xff\xfe not text", "cannot be read as a BG Stats play file (.bgsplay)"),
    (b"[1, 2]", "no list of plays"),
    ({"plays": "all"}, "no list of plays"),
    ({"plays": []}, "holds no play"),
    ({"plays": [{}], "games": {"1": "Okanagan"}}, "are not lists"),
    ({"plays": [{}] * 2001}, "at most 2000 plays"),
    ({"plays": [7]}, "it is not a play"),
    ({"plays": [{"gameRefId": 1}], "games": [{"id": 1, "bggId": 230089}]}, "it has no players"),
    ({"plays": [{"gameRefId": "1"}], "games": [{"id": 1, "bggId": 230089}]}, "its game is not in the file"),
    (play_file(a_play({})), "it has no players"),
    (play_file(a_play({"A": "1", "B": "1", "C": "1", "D": "1", "E": "1"})), "it has 5 players"),
    (play_file(a_play({"Ann": "1"}, date="2016-12-31 20:00:00")), "before the game was published (2017)"),
    (play_file(a_play({"Ann": "1"}, date="2999-01-01 20:00:00")), "in the future"),
    (play_file(a_play({"Ann": "1"}, date="17/05/2024")), "its date is not a date"),
    (play_file(a_play({"Ann": "1"}, uuid="X" * 65)), "at most 64 characters"),
    (play_file(a_play({"Ann": "1", "\u200b": "2"})), "\u200b"),
]


@pytest.mark.parametrize(("data", "message"), BROKEN_FILE)
def test_a_broken_file_gets_a_message_and_stores_nothing(
    member_client: Client, group: Group, data: bytes | dict[str, Any], message: str
) -> None:
    response = upload(member_client, group, data)
    assert response.status_code in (200, 422)
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Game.objects.exists() and not Profile.objects.exists()


@pytest.mark.parametrize("broken", [b'{"plays": [{"uuid": "A", "playDate": "2024-', b"\xff\xfe not text", b"{,}"])
def test_a_broken_file_is_not_answered_with_the_json_parser_s_words(
    member_client: Client, group: Group, broken: bytes
) -> None:
    page = upload(member_client, group, broken).content.decode().replace("&#x27;", "'")
    assert "cannot be read as a BG Stats play file (.bgsplay)" in page
    for parser_words in ("JSON", "Unterminated", "Expecting", "line 1, column", "UTF-8"):
        assert parser_words not in page.split("<form", 1)[1].split("</form>", 1)[0]


def test_a_file_over_its_size_is_refused(member_client: Client, group: Group) -> None:
    response = upload(member_client, group, b" " * 5_000_001)
    assert response.status_code == 422 and "at most 5 MB" in response.content.decode()


def test_the_reader_refuses_what_is_not_a_play_file() -> None:
    with pytest.raises(BadPlayFile):
        read_play_file({"plays": None})


def test_players_are_matched_by_name_and_new_ones_added(member_client: Client, group: Group) -> None:
    ann = group.profiles.create(name="Ann")
    upload(member_client, group, play_file(a_play({"  aNN ": "40", "Zoé": "38"})))
    game = Game.objects.get(group=group)
    seats = list(game.seats.order_by("position"))
    assert [(seat.name, seat.profile_id) for seat in seats][0] == ("Ann", ann.pk)
    assert seats[1].profile is not None and seats[1].profile.name == "Zoé"
    assert sorted(group.profiles.values_list("name", flat=True)) == ["Ann", "Zoé"]


def test_imported_plays_count_in_the_statistics_the_csv_and_the_backup_and_restore(
    member_client: Client, group: Group
) -> None:
    upload(member_client, group, play_file(a_play({"Ann": "40", "Ben": "38"}, uuid="ABC-1")))
    (okanagan,) = history(group).stats()
    assert [(player.name, player.plays, player.wins) for player in okanagan.players] == [("Ann", 1, 1), ("Ben", 1, 0)]
    csv = member_client.get(f"/groups/{group.pk}/plays.csv").getvalue().decode()
    assert ",2024-05-17,okanagan,finished,2,1,Ann,40,1,1" in csv and ",Ben,38,2,0" in csv
    body = "".join(backup(group))
    (entry,) = json.loads(body)["games"]
    assert entry["imported"] is True and entry["source_play_id"] == "ABC-1" and entry["document"] is None
    someone = User.objects.create_user("rita", password="pw-rita-123")
    client = Client()
    client.force_login(someone)
    client.post("/groups/restore/", {"backup": SimpleUploadedFile("backup.json", body.encode())})
    copy = Group.objects.get(owner=someone)
    restored = copy.games.get()
    assert restored.imported and restored.source_play_id == "ABC-1" and restored.winners == ["Ann"]
    assert results(restored) == [("Ann", 40, 1), ("Ben", 38, 2)]
    assert restored.finished == datetime(2024, 5, 17, 21, 30, tzinfo=UTC)
    assert summary(copy) == summary(group)
    assert json.loads("".join(backup(copy)))["games"] == json.loads(body)["games"]


def test_an_imported_play_in_a_backup_is_checked_as_a_file_s(owner_client: Client, group: Group) -> None:
    upload(owner_client, group, play_file(a_play({"Ann": "40", "Ben": "38"})))
    data = json.loads("".join(backup(group)))
    data["games"][0]["results"][0]["total"] = "lots"
    response = owner_client.post(
        "/groups/restore/", {"backup": SimpleUploadedFile("b.json", json.dumps(data).encode())}
    )
    assert response.status_code == 422 and "Game 1 cannot be restored" in response.content.decode()
    assert Group.objects.count() == 1


def test_strangers_get_404(stranger_client: Client, group: Group) -> None:
    assert stranger_client.get(f"/groups/{group.pk}/plays/import/").status_code == 404
    assert upload(stranger_client, group, play_file(a_play({"Ann": "1"}))).status_code == 404
    assert upload(Client(), group, play_file(a_play({"Ann": "1"}))).status_code == 404
    assert not Game.objects.exists()


def test_the_upload_page_is_linked_from_the_group_page(member_client: Client, group: Group) -> None:
    assert f'href="/groups/{group.pk}/plays/import/"' in member_client.get(f"/groups/{group.pk}/").content.decode()
    page = member_client.get(f"/groups/{group.pk}/plays/import/")
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.content.decode()
    assert "csrfmiddlewaretoken" in page.content.decode()


def test_the_pages_of_an_imported_play_answer(member_client: Client, group: Group) -> None:
    upload(member_client, group, play_file(a_play({"Ann": "40", "Ben": "38"})))
    game = Game.objects.get(group=group)
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Winner: Ann" in page and "Brought in from BG Stats" in page and "Correct the sheet" not in page
    for url in (
        f"/watch/{game.spectator_token}/",
        f"/watch/{game.spectator_token}/live/?view=watch",
        f"/watch/{game.spectator_token}/result.png",
        f"/games/{game.pk}/play.bgsplay",
        f"/games/{game.pk}/seats/",
        f"/groups/{group.pk}/",
        f"/groups/{group.pk}/stats/",
        f"/groups/{group.pk}/players/{group.profiles.get(name='Ann').pk}/",
        f"/groups/{group.pk}/plays.bgsplay",
        f"/games/{game.pk}/delete/",
    ):
        assert member_client.get(url).status_code == 200, url
    assert Client().get(f"/watch/{game.spectator_token}/").status_code == 200  # its public result
    link = member_client.get(f"/watch/{game.spectator_token}/live/?view=game")
    assert link.status_code == 200 and link["HX-Refresh"] == "true"
    for url in (f"/games/{game.pk}/record.json", f"/games/{game.pk}/finish/"):
        assert member_client.get(url).status_code == 404, url
    for url in (f"/games/{game.pk}/reopen/", f"/games/{game.pk}/sheet/correct/"):
        assert member_client.post(url).status_code == 404, url
    out = io.StringIO()
    call_command("check_data", stdout=out)
    assert "No problem found." in out.getvalue()


def test_an_imported_play_leaves_the_average_score_parts_as_they_were(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-dense-four-players")
    before = {player.name: player.average_parts() for player in history(group).stats()[0].players}
    names = game.players()
    upload(member_client, group, play_file(a_play(dict.fromkeys(names, "1"))))
    after = history(group).stats()[0].players
    assert {player.name: player.average_parts() for player in after} == before
    assert {player.plays for player in after} == {2}


def test_the_refusals_are_in_the_reader_s_language() -> None:
    with translation.override("fr"):
        read = read_play_file(play_file(a_play({"Ann": "many"})))
        assert str(read.refused[0]) == "Partie 1 (Okanagan: Valley of the Lakes, 2024-05-17 21:30:00) : " + (
            "le score de Ann n’est pas un nombre entier."
        )


def test_the_owner_s_quota_of_games_holds_and_then_nothing_is_stored(
    member_client: Client, group: Group, settings: Any
) -> None:
    settings.QUOTA_GAMES = 1
    file = play_file(a_play({"Ann": "1", "Ben": "2"}), a_play({"Ann": "3", "Ben": "4"}, date="2024-05-18 20:00:00"))
    response = upload(member_client, group, file)
    assert response.status_code == 422 and "may hold 1 games" in response.content.decode()
    assert not Game.objects.exists() and not Profile.objects.exists()
    upload(member_client, group, play_file(a_play({"Ann": "1", "Ben": "2"})))
    assert Game.objects.get().imported
    assert "from BG Stats" in member_client.get(f"/groups/{group.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_same_file_sent_three_times_at_once_brings_its_play_in_once(member_user: User, group: Group) -> None:
    file = play_file(a_play({"Ann": "40", "Ben": "38"}))
    clients = [logged_in(member_user) for _ in range(3)]
    answers = at_once(3, lambda number: upload(clients[number], group, file))
    assert [getattr(answer, "status_code", answer) for answer in answers] == [200] * 3
    assert Game.objects.filter(group=group).count() == 1
    assert group.profiles.count() == 2


def test_a_play_sent_from_here_that_comes_back_under_another_id_is_refused(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-dense-four-players")
    file = bgsplay(member_client, f"/games/{game.pk}/play.bgsplay")
    file["plays"][0]["uuid"] = "BG-STATS-OWN-ID"  # BG Stats' id for the play it took from the link
    page = upload(member_client, group, file).content.decode()
    assert "0 plays imported" in page and "in the group already" in page
