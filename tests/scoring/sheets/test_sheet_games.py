"""Small Islands and Cooper Island at the table: the players' names start the game, each player's line is filled in
(on their own phone or on one phone), a review, then "Score the game"; a correction; deleting any game."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game, Group
from scoring.sheets.lines import CountInput, line_form
from tests.scoring.test_fuzz_forms import ODD_TEXT

ANN = {"prestige": "34", "discoveries": "3 5", "ship_placed": "on", "ports": "4", "houses": "7"}
BEN = {"prestige": "30", "discoveries": "", "ports": "0", "houses": "8"}
CY = {"prestige": "12", "discoveries": "1", "ports": "0", "houses": "3"}
COOPER_ISLAND = {
    "format": "cooper-island-sheet/1",
    "players": [{"name": "Ann", "logbooks": 5, "spaces_past_logbook": [2, 3], "royal_orders": {"3": 6, "5": 4},
                 "buildings": 7, "leftovers": {"coins": 3, "resources": 4, "cartographer": 2, "tiles": 1},
                 "anchors": 2, "empty_spaces": 3}],
}  # fmt: skip
"""A scored sheet (``score-sheets.md``'s example)."""
COUNTS_CI = ("logbooks", "sailed_1", "sailed_2", "buildings", "coins", "resources", "cartographer", "tiles", "anchors",
             "empty_spaces")  # fmt: skip
ZERO_CI = dict.fromkeys(COUNTS_CI, "0")
ANN_CI = {**ZERO_CI, "logbooks": "5", "sailed_1": "2", "sailed_2": "3", "order_3": "6", "order_5": "4",
          "buildings": "7", "coins": "3", "resources": "4", "cartographer": "2", "tiles": "1", "anchors": "2",
          "empty_spaces": "3"}  # fmt: skip


def start(client: Client, group: Group, kind: str, *names: str) -> Game:
    data = {f"name_{n}": name for n, name in enumerate(names, start=1)}
    response = client.post(f"/groups/{group.pk}/sheets/new/{kind}/", data)
    game = Game.objects.latest("pk")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    return game


def line(client: Client, game: Game, position: int, values: dict[str, str], **action: str) -> Any:
    return client.post(f"/games/{game.pk}/sheet/{position}/", {**values, **(action or {"done": "1"})})


def score(client: Client, game: Game, **answer: str) -> Any:
    return client.post(f"/games/{game.pk}/sheet/score/", answer)


def test_starting_asks_only_the_names_and_the_game_waits_for_each_line(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben", "Cy")
    assert game.is_playing and game.players() == ("Ann", "Ben", "Cy") and game.sheet is None
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert game.table_code in page and "I am Ben" in page and "Waiting for the lines of Ann, Ben, and Cy." in page
    assert "Score the game" not in page
    french = member_client.get(f"/games/{game.pk}/", headers={"accept-language": "fr"}).content.decode()
    assert "Ann, Ben et Cy" in french  # names joined as the reader's language joins a list
    assert member_client.get(f"/games/{game.pk}/qr.svg").status_code == 200


def test_three_lines_then_the_review_then_the_score(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben", "Cy")
    # One phone fills in every line: each saved line leads to the next one still to fill in.
    assert line(member_client, game, 0, ANN)["Location"] == f"/games/{game.pk}/sheet/1/"
    assert line(member_client, game, 1, BEN)["Location"] == f"/games/{game.pk}/sheet/2/"
    assert line(member_client, game, 2, CY)["Location"] == f"/games/{game.pk}/"
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Check before scoring" in page and page.index(">Ann<") < page.index(">Ben<") < page.index(">Cy<")
    game.refresh_from_db()
    assert game.is_playing  # nothing is scored before "Score the game"
    assert score(member_client, game).status_code == 302
    game.refresh_from_db()
    assert not game.is_playing and game.winners == ["Ann"]
    assert game.sheet == {
        "format": "small-islands-sheet/1",
        "players": [
            {"name": "Ann", "prestige": 34, "discoveries": [3, 5], "ship_placed": True, "ports": 4, "houses": 7},
            {"name": "Ben", "prestige": 30, "discoveries": [], "ship_placed": False, "ports": 0, "houses": 8},
            {"name": "Cy", "prestige": 12, "discoveries": [1], "ship_placed": False, "ports": 0, "houses": 3},
        ],
    }
    assert [(seat.name, seat.total) for seat in game.seats.all()] == [("Ann", 46), ("Ben", 30), ("Cy", 13)]
    result = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Winner: Ann" in result and "Ann: 34 prestige + 8 from discoveries + 4 ports = 46." in result


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        ("prestige", "3-6", "Enter a whole number, such as 3."),
        ("prestige", "", "Enter a number (0 if none)."),
        ("ports", "40", "Enter at most 16."),
        ("houses", "-1", "Enter 0 or more."),
        ("discoveries", "3 x", "“x” is not a token value"),
    ],
)
def test_a_malformed_value_is_an_error_at_its_field_never_a_zero(
    member_client: Client, group: Group, field: str, typed: str, message: str
) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben")
    response = line(member_client, game, 0, {**ANN, field: typed})
    assert response.status_code == 422 and message in response.content.decode()
    seat = game.seats.get(position=0)
    assert not seat.line_done and seat.line.get(field, "") == typed  # kept as typed, to correct it


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({"name_2": "Ben"}, "Enter the first player's name."),
        ({"name_1": "A" * 41}, "A name has at most 40 characters."),
    ],
)
def test_the_players_form_refuses_in_its_own_words(
    member_client: Client, group: Group, names: dict[str, str], message: str
) -> None:
    response = member_client.post(f"/groups/{group.pk}/sheets/new/small_islands/", names)
    text = html.unescape(response.content.decode())
    assert response.status_code in (200, 422) and message in text
    assert "This field is required." not in text and "Ensure this value" not in text
    assert not Game.objects.exists()


def test_a_count_out_of_its_bounds_is_refused_in_the_sheet_s_words(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "cooper_island", "Ann", "Ben")
    text = html.unescape(line(member_client, game, 0, {**ANN_CI, "logbooks": "1000", "anchors": "-2"}).content.decode())
    assert "Enter at most 999." in text and "Enter 0 or more." in text and "Ensure this value" not in text


def test_discovery_tokens_are_their_values_each_checked(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben")
    line(member_client, game, 0, {**ANN, "discoveries": " 3,5  2 "})
    line(member_client, game, 1, BEN)
    score(member_client, game)
    game.refresh_from_db()
    assert game.sheet["players"][0]["discoveries"] == [3, 5, 2]
    game = start(member_client, group, "small_islands", "Ann", "Ben")
    refused = line(member_client, game, 0, {**ANN, "discoveries": "3-6"})
    assert refused.status_code == 422 and "“3-6” is not a token value" in refused.content.decode()
    many = line(member_client, game, 0, {**ANN, "discoveries": "1 " * 13})
    assert "The box holds 12 discovery tokens." in many.content.decode()


def test_the_last_tile_is_asked_only_when_it_decides_naming_the_tied_players(
    member_client: Client, group: Group
) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben", "Cy")
    tied = {**ANN, "discoveries": "", "prestige": "42"}
    line(member_client, game, 0, ANN)
    line(member_client, game, 1, tied)
    line(member_client, game, 2, CY)
    question = score(member_client, game)
    text = question.content.decode()
    assert question.status_code == 200 and "Who placed the last tile?" in text
    assert 'value="Ann"' in text and 'value="Ben"' in text and 'value="Cy"' not in text and "Player 1" not in text
    game.refresh_from_db()
    assert game.is_playing
    score(member_client, game, last_tile_by="Ben")
    game.refresh_from_db()
    assert game.winners == ["Ben"] and game.sheet["last_tile_by"] == "Ben"


def test_an_untied_game_is_scored_without_the_question(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben")
    line(member_client, game, 0, ANN)
    line(member_client, game, 1, BEN)
    assert score(member_client, game)["Location"] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert not game.is_playing and "last_tile_by" not in game.sheet


def test_scoring_waits_for_every_line(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben")
    line(member_client, game, 0, ANN)
    score(member_client, game)
    game.refresh_from_db()
    assert game.is_playing
    assert "Not every line is done yet: Ben." in member_client.get(f"/games/{game.pk}/").content.decode()


def test_royal_orders_are_the_cards_in_play_and_a_card_taken_is_shown_taken(
    member_client: Client, group: Group
) -> None:
    game = start(member_client, group, "cooper_island", "Ann", "Ben")
    form = member_client.get(f"/games/{game.pk}/sheet/0/").content.decode()
    assert 'for="id_order_7">Card 7<' in form and "id_order_8" not in form  # card 8 is out with 2 players
    line(member_client, game, 0, ANN_CI)
    ben = member_client.get(f"/games/{game.pk}/sheet/1/").content.decode()
    assert "Taken by Ann" in ben
    refused = line(member_client, game, 1, {**ZERO_CI, "order_3": "2"})
    # The taken card's input is disabled in the page; a post for it anyway is refused at the card.
    assert (
        refused.status_code == 422 and "Card 3 holds one worker: it is already Ann&#x27;s." in refused.content.decode()
    )
    line(member_client, game, 1, {**ZERO_CI, "order_1": "2", "empty_spaces": "4"})
    score(member_client, game)
    game.refresh_from_db()
    assert game.sheet["players"][0]["royal_orders"] == {"3": 6, "5": 4}
    assert game.sheet["players"][1]["royal_orders"] == {"1": 2}
    assert [seat.total for seat in game.seats.all()] == [47, 2]


def test_a_royal_order_with_a_malformed_number_is_an_error_at_its_card(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "cooper_island", "Ann", "Ben", "Cy")
    response = line(member_client, game, 0, {**ANN_CI, "order_3": "3-6"})
    assert response.status_code == 422 and "Enter a whole number, such as 3." in response.content.decode()
    assert not game.seats.get(position=0).line_done


def test_a_guest_at_the_table_fills_in_their_own_line(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben")
    guest = Client()
    guest.post("/join/", {"code": game.table_code})
    claimed = guest.post(f"/games/{game.pk}/seats/", {"claim": "1"})
    assert claimed["Location"] == f"/games/{game.pk}/sheet/1/"  # "I am Ben" leads to Ben's line
    assert line(guest, game, 1, BEN)["Location"] == f"/games/{game.pk}/"  # their own: back to the game page
    assert game.seats.get(position=1).line_done
    page = member_client.get(live_url(game), headers={"HX-Request": "true"}).content.decode()
    assert page.strip().startswith('<div id="table"') and "✓ done" in page
    stranger = Client()
    assert stranger.get(f"/games/{game.pk}/sheet/0/").status_code == 404
    assert stranger.post(f"/games/{game.pk}/sheet/score/").status_code == 404


def test_a_solo_game_asks_for_the_alexis_card_on_the_line(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "small_islands", "Ann")
    assert "Alexis: base score" in member_client.get(f"/games/{game.pk}/sheet/0/").content.decode()
    line(member_client, game, 0, {**ANN, "alexis_base": "40", "alexis_per_house": "1", "alexis_houses": "6"})
    score(member_client, game)
    game.refresh_from_db()
    assert game.sheet["alexis"] == {"base": 40, "per_house": 1, "houses": 6} and game.winners == ["Ann"]


def a_scored_game(client: Client, group: Group) -> Game:
    game = start(client, group, "small_islands", "Ann", "Ben")
    line(client, game, 0, ANN)
    line(client, game, 1, BEN)
    score(client, game)
    game.refresh_from_db()
    return game


def test_a_member_corrects_a_scored_sheet_and_the_history_follows(member_client: Client, group: Group) -> None:
    game = a_scored_game(member_client, group)
    assert "Correct the sheet" in member_client.get(f"/games/{game.pk}/").content.decode()
    member_client.post(f"/games/{game.pk}/sheet/correct/")
    game.refresh_from_db()
    assert game.is_playing and all(seat.line_done and seat.total is None for seat in game.seats.all())
    assert all(seat.rank is None and seat.parts == {} for seat in game.seats.all())  # out of the statistics
    assert game.seats.get(position=0).line["discoveries"] == "3 5"
    assert "Check before scoring" in member_client.get(f"/games/{game.pk}/").content.decode()
    line(member_client, game, 1, {**BEN, "prestige": "60"})
    score(member_client, game)
    game.refresh_from_db()
    assert game.winners == ["Ben"] and [seat.total for seat in game.seats.all()] == [46, 60]
    assert [(seat.rank, seat.parts["prestige_points"]) for seat in game.seats.all()] == [(2, 34), (1, 60)]
    stats = member_client.get(f"/groups/{group.pk}/plays.csv").getvalue().decode()
    assert "Ben,60" in stats


def test_a_guest_cannot_correct_or_delete(member_client: Client, group: Group) -> None:
    game = a_scored_game(member_client, group)
    guest = Client()
    assert guest.post(f"/games/{game.pk}/sheet/correct/").status_code == 404
    assert guest.get(f"/games/{game.pk}/delete/").status_code == 404
    assert guest.post(f"/games/{game.pk}/delete/").status_code == 404
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_member_deletes_a_game_once_asked_and_it_leaves_the_statistics(
    member_client: Client, group: Group, game: Game
) -> None:
    sheet = a_scored_game(member_client, group)
    confirm = member_client.get(f"/games/{sheet.pk}/delete/").content.decode()
    assert "Delete this game?" in confirm and "Small Islands of" in confirm and "Ann and Ben" in confirm
    assert "Ann" in member_client.get(f"/groups/{group.pk}/plays.csv").getvalue().decode()
    response = member_client.post(f"/games/{sheet.pk}/delete/")
    assert response["Location"] == f"/groups/{group.pk}/"
    assert not Game.objects.filter(pk=sheet.pk).exists()
    assert "Ann" not in member_client.get(f"/groups/{group.pk}/plays.csv").getvalue().decode()
    backup = json.loads(member_client.get(f"/groups/{group.pk}/backup.json").getvalue())
    assert [entry["kind"] for entry in backup["games"]] == ["okanagan"]
    # Okanagan too, in progress or not.
    assert "Delete this game" in member_client.get(f"/games/{game.pk}/").content.decode()
    member_client.post(f"/games/{game.pk}/delete/")
    assert not Game.objects.filter(pk=game.pk).exists()


def test_a_sheet_exports_and_imports_and_a_backup_leaves_out_an_unscored_sheet(
    member_client: Client, group: Group
) -> None:
    game = a_scored_game(member_client, group)
    start(member_client, group, "cooper_island", "Ann", "Ben")  # not scored yet
    exported = member_client.get(f"/games/{game.pk}/record.json")
    assert json.loads(exported.content)["format"] == "small-islands-sheet/1"
    backup = json.loads(member_client.get(f"/groups/{group.pk}/backup.json").getvalue())
    assert [entry["kind"] for entry in backup["games"]] == ["small_islands"]
    upload = SimpleUploadedFile("sheet.json", exported.content)
    member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload})
    copy = Game.objects.filter(kind=Game.Kind.SMALL_ISLANDS).exclude(pk=game.pk).get()
    assert copy.sheet == game.sheet and copy.winners == ["Ann"]


def test_sheet_names_are_stored_in_normal_form_and_look_alikes_refused(member_client: Client, group: Group) -> None:
    game = start(member_client, group, "small_islands", "  Ann   Lee ", "Zoe\u0301")
    assert game.players() == ("Ann Lee", "Zoé")
    twins = member_client.post(f"/groups/{group.pk}/sheets/new/small_islands/", {"name_1": "Ann", "name_2": "ANN"})
    assert twins.status_code == 422 and "would be the same player" in twins.content.decode()
    nobody = member_client.post(f"/groups/{group.pk}/sheets/new/small_islands/", {})
    assert nobody.status_code == 422


LINE_KEYS = st.sampled_from([*ANN, *ANN_CI, "done", "alexis_base", "order_8", "last_tile_by"])


@pytest.mark.parametrize("kind", ["small_islands", "cooper_island"])
@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.dictionaries(LINE_KEYS, ODD_TEXT, max_size=8))
def test_odd_input_on_a_line_gets_an_answer_never_a_server_error(
    member_client: Client, group: Group, kind: str, data: dict[str, str]
) -> None:
    game = group.games.filter(kind=kind).first() or start(member_client, group, kind, "Ann", "Ben", "Cy")
    assert member_client.post(f"/games/{game.pk}/sheet/0/", data).status_code < 500
    assert member_client.post(f"/games/{game.pk}/sheet/score/", data).status_code < 500
    assert member_client.get(f"/games/{game.pk}/").status_code < 500


def live_url(game: Game) -> str:
    """The live part of a game's page at the table, that its phones poll (as an Okanagan game's)."""
    return f"/watch/{game.spectator_token}/live/?view=game"


def test_the_polled_lines_are_a_304_while_nothing_changes_and_a_refresh_once_scored(
    member_client: Client, group: Group
) -> None:
    game = start(member_client, group, "small_islands", "Ann", "Ben")
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    poller = re.search(r'hx-get="([^"]*)"[^>]* hx-headers=\'\{"If-None-Match": "(.*?)", ', page)
    assert poller is not None and poller[1] == live_url(game)
    poll = {"HX-Request": "true"}
    tag = json.loads(f'"{poller[2]}"')
    assert member_client.get(live_url(game), headers={**poll, "If-None-Match": tag}).status_code == 304
    line(member_client, game, 0, ANN)
    changed = member_client.get(live_url(game), headers={**poll, "If-None-Match": tag})
    assert changed.status_code == 200 and "✓ done" in changed.content.decode()
    line(member_client, game, 1, BEN)
    score(member_client, game)
    assert member_client.get(live_url(game), headers=poll)["HX-Refresh"] == "true"


def count_fields(game: Game, position: int) -> list[str]:
    """The number fields of a seat's line (its counts, and every royal order card in play)."""
    form = line_form(game, game.seats.get(position=position))
    return [name for name, field in form.fields.items() if isinstance(field.widget, CountInput)]


@pytest.mark.parametrize(
    ("kind", "names", "values"), [("small_islands", ("Ann",), ANN), ("cooper_island", ("Ann", "Ben", "Cy"), ANN_CI)]
)
def test_3_6_in_every_number_field_of_both_sheets_is_refused_next_to_that_field(
    member_client: Client, group: Group, kind: str, names: tuple[str, ...], values: dict[str, str]
) -> None:
    """Was: "3-6" in a Cooper Island royal order card was stored as no card (worth 0) and the line was done:
    the browser's number input sent it empty. Every count is now text with a number keyboard, checked here."""
    game = start(member_client, group, kind, *names)
    fields = count_fields(game, 0)
    assert len(fields) >= (6 if kind == "small_islands" else 14)  # the solo game's Alexis; Cooper's 4 cards
    response = line(member_client, game, 0, {**values, **dict.fromkeys(fields, "3-6")})
    page = response.content.decode()
    assert response.status_code == 422 and not game.seats.get(position=0).line_done
    for name in fields:
        row = re.search(
            rf'<div class="field stepper-row">(?:(?!stepper-row).)*id="id_{name}"(?:(?!stepper-row).)*', page, re.S
        )
        assert row and 'type="text"' in row.group() and "Enter a whole number, such as 3." in row.group(), name


def test_check_data_is_quiet_on_sheets_in_progress_and_names_a_finished_one_without_its_sheet(
    member_client: Client, group: Group
) -> None:
    """Was: every Small Islands or Cooper Island game still being filled in was reported as a problem (its sheet
    is stored only once it is scored)."""
    a_scored_game(member_client, group)
    start(member_client, group, "small_islands", "Ann", "Ben")
    in_progress = start(member_client, group, "cooper_island", "Ann", "Ben")
    line(member_client, in_progress, 0, ANN_CI)
    out = io.StringIO()
    call_command("check_data", stdout=out)
    assert out.getvalue() == "No problem found.\n"
    Game.objects.filter(pk=in_progress.pk).update(status=Game.Status.FINISHED)  # a database edited by hand
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_data", stdout=out)
    assert out.getvalue() == f"game {in_progress.pk}: finished without its score sheet\n"
