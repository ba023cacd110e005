"""The final result (issue 13): by rank on every page, with what decided; the public result page of the
spectator link, its image for a chat, and a member turning it off."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.test import Client
from django.utils.translation import get_language

from scoring.creation import create_game, create_sheet_game
from scoring.log import finish, reopen
from scoring.models import Game, Group
from scoring.results import image as result_image
from scoring.results.views import pages as results
from scoring.sheets.lifecycle import start_sheet_game
from scoring.standings import StoredResult

DATA = Path(__file__).resolve().parents[2] / "data"

TIE_ON_TOKENS = [
    # Seat order Maya, Theo; both 13 VP (10 for the shared nugget place, 3 for a specific card), Theo holding
    # more tokens: Theo first, by the tie-break.
    {"type": "adjust", "player": "Maya", "nuggets": 0, "rewards": {"blue-circle": 1}},
    {"type": "adjust", "player": "Theo", "nuggets": 0, "rewards": {"green-circle": 1, "green-square": 1}},
    {"type": "objectives", "player": "Maya", "cards": [{"kind": "specific", "rewards": ["blue-circle"]}]},
    {"type": "objectives", "player": "Theo", "cards": [{"kind": "specific", "rewards": ["green-circle"]}]},
]


def finished_game(group: Group, events: list[dict[str, object]] = TIE_ON_TOKENS) -> Game:
    game = create_game(group, ("Maya", "Theo"), {}, promos=False, events=events)
    finish(game, game.revision)
    game.refresh_from_db()
    return game


def order_of(page: str) -> list[str]:
    """The players' names in the order of the result's cards."""
    cards = page[page.index('<ol class="plain placed">') : page.index("</ol>", page.index('class="plain placed"'))]
    return re.findall(r'<strong class="player seat-\w+">([^<]+)</strong>', cards)


def test_the_result_is_by_rank_and_says_which_tie_break_decided(member_client: Client, group: Group) -> None:
    game = finished_game(group)
    for page in (
        member_client.get(f"/games/{game.pk}/").content.decode(),
        Client().get(f"/watch/{game.spectator_token}/").content.decode(),
    ):
        assert order_of(page) == ["Theo", "Maya"]
        assert "Winner: Theo" in page and 'data-decided-by="tokens"' in page
        assert "Tie-break:" in page and "Theo holds the most tokens" in page
        # The cards drawn as cards, with their rewards as tokens, the sets made and the points.
        assert page.count('class="objective-card kind-specific"') == 2
        assert 'aria-label="green circle"' in page and "1 set × 3" in page
        assert "Nugget ladder: place 1 with 0 nuggets, 10 VP" in page
        assert '<details id="final-why">' in page  # the explanation, one tap away


def test_a_plain_win_names_no_tie_break(member_client: Client, group: Group) -> None:
    game = finished_game(group, [{"type": "adjust", "player": "Theo", "nuggets": 1, "rewards": {}}])
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert order_of(page) == ["Theo", "Maya"] and "Tie-break:" not in page and 'data-decided-by="points"' in page


def test_the_public_result_page_shows_nothing_else_of_the_group(group: Group) -> None:
    game = finished_game(group)
    create_game(group, ("Other", "Game"), {}, promos=False)
    page = Client().get(f"/watch/{game.spectator_token}/").content.decode()
    assert "Winner: Theo" in page
    assert group.name not in page and f"/groups/{group.pk}/" not in page and "Other" not in page
    assert "Turn the public result off" not in page  # a visitor shares it, never changes it
    image = f"http://testserver/watch/{game.spectator_token}/result.png"
    assert f'<meta property="og:image" content="{image}">' in page
    assert '<meta property="og:description" content="Winner: Theo">' in page
    assert '<meta name="robots" content="noindex">' in page  # shared by its link, never found by a search


def test_the_result_image_is_a_png_for_chat_previews(group: Group) -> None:
    game = finished_game(group)
    response = Client().get(f"/watch/{game.spectator_token}/result.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    body = response.content
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", body[16:24]) == (1200, 630)
    assert 5_000 < len(body) < 300_000


def test_the_image_of_a_game_in_progress_is_404(group: Group) -> None:
    game = create_game(group, ("Maya", "Theo"), {}, promos=False)
    assert Client().get(f"/watch/{game.spectator_token}/result.png").status_code == 404


def test_a_member_turns_the_public_result_off_and_on(member_client: Client, group: Group) -> None:
    game = finished_game(group)
    visitor = Client()
    watch, image = f"/watch/{game.spectator_token}/", f"/watch/{game.spectator_token}/result.png"
    assert member_client.post(f"/games/{game.pk}/public/", {"public": "0"}).status_code == 302
    game.refresh_from_db()
    assert not game.public_result
    for url in (watch, image, f"{watch}live/?view=watch"):
        assert visitor.get(url).status_code == 404, url
        assert member_client.get(url).status_code == 200, url  # the members still see it
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Make the result public" in page and "works only for the group" in page
    member_client.post(f"/games/{game.pk}/public/", {"public": "1"})
    assert visitor.get(watch).status_code == 200 and visitor.get(image).status_code == 200


def test_only_a_member_may_turn_the_public_result_off(
    stranger_client: Client, guest_client: Client, group: Group, game: Game
) -> None:
    finished = finished_game(group)
    for client, target in ((stranger_client, finished), (guest_client, game)):
        assert client.post(f"/games/{target.pk}/public/", {"public": "0"}).status_code == 404
        target.refresh_from_db()
        assert target.public_result


def test_turning_it_off_changes_the_live_fragment(member_client: Client, group: Group) -> None:
    game = finished_game(group)
    url = f"/watch/{game.spectator_token}/live/?view=watch"
    etag = Client().get(url, HTTP_HX_REQUEST="true")["ETag"]
    member_client.post(f"/games/{game.pk}/public/", {"public": "0"})
    assert Client().get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_the_spectator_link_of_a_game_in_progress_ignores_the_setting(member_client: Client, group: Group) -> None:
    game = create_game(group, ("Maya", "Theo"), {}, promos=False)
    Game.objects.filter(pk=game.pk).update(public_result=False)
    assert Client().get(f"/watch/{game.spectator_token}/").status_code == 200


def test_a_sheet_game_lists_its_players_by_rank(member_client: Client, group: Group) -> None:
    sheet = json.loads((DATA / "cooper-island-three-players-tie.json").read_text())
    sheet["players"].reverse()  # the sheet's order is Cy, Ben, Ann; Ann is 1st, Ben and Cy share the 2nd place
    game = create_sheet_game(group, sheet)
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    header = re.search(r"<thead>(.*?)</thead>", page, re.S)
    assert header is not None, page
    assert re.findall(r'<th class="num[^"]*">([^<]+)</th>', header.group(1)) == ["Ann", "Cy", "Ben"]


def finished_sheet(group: Group, name: str) -> Game:
    game = create_sheet_game(group, json.loads((DATA / f"{name}.json").read_text()))
    assert not game.is_playing
    return game


def test_the_public_page_of_a_cooper_island_game_shows_the_result_by_rank_and_nothing_of_the_group(
    group: Group,
) -> None:
    game = finished_sheet(group, "cooper-island-three-players-tie")
    create_game(group, ("Other", "Game"), {}, promos=False)
    response = Client().get(f"/watch/{game.spectator_token}/")
    assert response.status_code == 200
    page = response.content.decode()
    header = re.search(r"<thead>(.*?)</thead>", page, re.S)
    # Ann first; Ben and Cy share the 2nd place, in sheet order.
    assert header is not None
    assert re.findall(r'<th class="num[^"]*">([^<]+)</th>', header.group(1)) == ["Ann", "Ben", "Cy"]
    assert "Winner: Ann" in page and "Logbooks" in page and "Total" in page
    assert '<details id="final-why">' in page  # the explanation, one tap away
    assert group.name not in page and f"/groups/{group.pk}/" not in page and "Other" not in page
    for member_only in ("Correct the sheet", "Delete this game", "Turn the public result off", "BG Stats"):
        assert member_only not in page
    assert "What happened" not in page  # no scoreboard nor log: a sheet has none
    assert '<meta name="robots" content="noindex">' in page
    assert f'<meta property="og:image" content="http://testserver/watch/{game.spectator_token}/result.png">' in page
    assert Client().get(f"/watch/{game.spectator_token}/live/?view=watch").status_code == 200


def test_a_sheet_game_says_which_tie_break_decided(member_client: Client, group: Group) -> None:
    game = finished_sheet(group, "small-islands-last-tile-decides")
    for page in (
        member_client.get(f"/games/{game.pk}/").content.decode(),
        Client().get(f"/watch/{game.spectator_token}/").content.decode(),
    ):
        assert "Winner: Ann" in page and "Tie-break:" in page and "who placed the last tile" in page
    plain = finished_sheet(group, "small-islands-spec-example")
    assert "Tie-break:" not in member_client.get(f"/games/{plain.pk}/").content.decode()


def test_a_finished_sheet_game_has_the_share_card(member_client: Client, group: Group) -> None:
    game = finished_sheet(group, "small-islands-spec-example")
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="share-result"' in page and f"http://testserver/watch/{game.spectator_token}/" in page
    assert 'download="small_islands-result.png"' in page and "data-print" in page and "data-share=" in page
    assert "Turn the public result off" in page


def test_a_sheet_game_public_result_is_404_when_off_or_not_scored(member_client: Client, group: Group) -> None:
    game = finished_sheet(group, "cooper-island-three-players-tie")
    watch, image = f"/watch/{game.spectator_token}/", f"/watch/{game.spectator_token}/result.png"
    assert member_client.post(f"/games/{game.pk}/public/", {"public": "0"}).status_code == 302
    for url in (watch, image, f"{watch}live/?view=watch"):
        assert Client().get(url).status_code == 404, url
        assert member_client.get(url).status_code == 200, url  # the members still see it
    assert "Make the result public" in member_client.get(f"/games/{game.pk}/").content.decode()
    member_client.post(f"/games/{game.pk}/public/", {"public": "1"})
    assert Client().get(watch).status_code == 200
    being_filled_in = start_sheet_game(group, "small_islands", ("Ann", "Ben"))
    for url in (f"/watch/{being_filled_in.spectator_token}/", f"/watch/{being_filled_in.spectator_token}/result.png"):
        assert Client().get(url).status_code == 404, url
        assert member_client.get(url).status_code == 404, url  # its page is the table, until it is scored


def test_the_result_image_of_a_small_islands_game(group: Group) -> None:
    game = finished_sheet(group, "small-islands-last-tile-decides")
    response = Client().get(f"/watch/{game.spectator_token}/result.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    body = response.content
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", body[16:24]) == (1200, 630)
    assert 5_000 < len(body) < 300_000


def test_the_result_image_is_drawn_once_a_revision_and_language_and_a_304_for_its_etag(
    group: Group, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = finished_game(group)
    drawn: list[str] = []

    def counted(game: Game, stored: StoredResult) -> bytes:
        drawn.append(get_language())
        return result_image.result_png(game, stored)

    monkeypatch.setattr(results, "result_png", counted)
    url, visitor = f"/watch/{game.spectator_token}/result.png", Client()
    first = visitor.get(url)
    assert first.status_code == 200 and first["ETag"] and drawn == ["en"]
    again = visitor.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again["ETag"] == first["ETag"] and not again.content
    assert Client().get(url).content == first.content and drawn == ["en"]  # another reader: from the cache
    french = Client().get(url, headers={"Accept-Language": "fr"})
    assert french["ETag"] != first["ETag"] and drawn == ["en", "fr"]
    reopen(game, game.revision)
    game.refresh_from_db()
    finish(game, game.revision)
    changed = visitor.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"] and drawn == ["en", "fr", "en"]


def test_the_etag_of_a_result_image_turned_private_is_no_way_in(member_client: Client, group: Group) -> None:
    game = finished_game(group)
    url, visitor = f"/watch/{game.spectator_token}/result.png", Client()
    etag = visitor.get(url)["ETag"]
    member_client.post(f"/games/{game.pk}/public/", {"public": "0"})
    assert visitor.get(url, headers={"If-None-Match": etag}).status_code == 404
