"""The game page and its fragments: scoreboard polling, undo and edit, finishing, export and import."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from rules.reference import FOREST_EXAMPLE
from scoring.log import change_log, finish
from scoring.models import Game, Group

FOREST = FOREST_EXAMPLE.record["events"][0]  # type: ignore[index]


def add_events(game: Game, *events: dict[str, object]) -> None:
    change_log(game, game.revision, lambda log: [*log, *events])


def test_the_game_page_shows_the_scoreboard_the_log_and_the_table_code(member_client: Client, game: Game) -> None:
    add_events(game, FOREST)
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Event 0: forest closed by Red" in page
    assert "Red draws a gold nugget card (15 left)." in page
    assert game.table_code in page and f"/games/{game.pk}/qr.svg" in page
    assert "okanagan.influence.tie" in page  # each step links to its rule


def test_the_game_page_is_not_stored_by_the_browser_so_back_asks_for_it_again(
    member_client: Client, game: Game
) -> None:
    assert member_client.get(f"/games/{game.pk}/")["Cache-Control"] == "no-store"


def test_the_qr_code_is_an_svg_of_the_join_link(member_client: Client, game: Game) -> None:
    response = member_client.get(f"/games/{game.pk}/qr.svg")
    assert response["Content-Type"] == "image/svg+xml"
    assert b'<svg xmlns="http://www.w3.org/2000/svg"' in response.content


def test_undo_removes_the_last_event_and_answers_a_fragment_to_htmx(member_client: Client, game: Game) -> None:
    add_events(game, FOREST, {"type": "round_end"})
    game.refresh_from_db()
    response = member_client.post(
        f"/games/{game.pk}/events/1/delete/", {"revision": game.revision}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="game"')
    assert [event.data["type"] for event in game.events.all()] == ["territory"]


def test_deleting_an_event_that_a_later_one_needs_is_refused_with_the_reason(member_client: Client, game: Game) -> None:
    trade = {"action": "trade", "with": "White", "give": "green-circle", "get": "green-square"}
    add_events(game, FOREST, {"type": "volcano", "player": "Yellow", "special_action": trade})
    game.refresh_from_db()
    response = member_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": game.revision}, follow=True)
    page = response.content.decode()
    assert "Event 0 cannot be deleted: Event 0: Yellow holds no green circle to give" in page
    assert game.events.count() == 2


def test_a_stale_phone_is_told_the_game_changed(member_client: Client, game: Game) -> None:
    add_events(game, FOREST)
    response = member_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": 0}, follow=True)
    assert "The game changed on another phone" in response.content.decode()
    assert game.events.count() == 1


def test_editing_an_event_replays_the_log(member_client: Client, game: Game) -> None:
    add_events(game, FOREST)
    game.refresh_from_db()
    url = f"/games/{game.pk}/events/0/"
    from support.entry import Entry

    entry = Entry(member_client, url)
    assert entry.stage == "confirm"
    assert 'data-stage="lone"' not in entry.html  # nobody is alone: no such step
    assert "Red draws a gold nugget card (15 left)." in entry.html
    entry.tap("reopen:action")
    entry.tap("action:new_tiles")
    assert entry.stage == "confirm"  # every later step still holds: the collection is kept
    entry.tap("save")
    assert entry.response.status_code == 302
    assert game.events.get().data["special_action"] == {"action": "new_tiles"}


def test_objective_cards_stay_hidden_from_a_phone_that_is_not_their_player(member_client: Client, game: Game) -> None:
    cards = [{"kind": "specific", "rewards": ["blue-circle"]}]
    add_events(game, {"type": "objectives", "player": "Red", "cards": cards})
    page = member_client.get(f"/games/{game.pk}/events/0/").content.decode()
    assert "These cards are secret" in page and "blue circle" not in page
    replacing = member_client.get(f"/games/{game.pk}/events/0/?for=1").content.decode()
    assert "card:remove:" not in replacing and "Specific reward" not in replacing  # new cards, the old unseen
    member_client.post(f"/games/{game.pk}/seats/", {"claim": "1"})  # this phone is Red
    shown = member_client.get(f"/games/{game.pk}/events/0/").content.decode()
    assert "blue circle" in shown  # the cards at Save


def test_finishing_shows_the_final_scores_and_the_winner(member_client: Client, game: Game, group: Group) -> None:
    add_events(game, FOREST)
    game.refresh_from_db()
    member_client.post(f"/games/{game.pk}/finish/", {"revision": game.revision})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winners == ["Red"]
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Final scores" in page and "Winner: Red" in page
    history = member_client.get(f"/groups/{group.pk}/").content.decode()
    assert "Red 10" in history and "★" in history


def test_a_record_exports_and_imports_into_an_identical_game(member_client: Client, game: Game, group: Group) -> None:
    add_events(game, FOREST)
    game.refresh_from_db()
    finish(game, game.revision)  # a game in progress exports without its cards (see test_hidden_cards)
    exported = member_client.get(f"/games/{game.pk}/record.json")
    assert exported["Content-Disposition"].startswith("attachment")
    upload = SimpleUploadedFile("game.json", exported.content, content_type="application/json")
    response = member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload, "finished": "on"})
    imported = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302
    assert imported.record() == json.loads(exported.content)
    assert imported.status == Game.Status.FINISHED and imported.winners == ["Red"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{oops", "This is not a JSON file"),
        (b'{"format": "okanagan-record/1", "players": ["A"], "events": []}', "there must be 2 to 4 players"),
        (
            json.dumps({"format": "okanagan-record/1", "players": ["A" * 41, "B"], "events": []}).encode(),
            "is longer than 40 characters",
        ),
        (b"\xff\xfe", "This is not a JSON file"),
        (
            json.dumps(
                {
                    "format": "okanagan-record/1",
                    "players": ["White", "Red", "Yellow"],
                    "events": [{**FOREST, "picks": {}}],
                }
            ).encode(),
            "White took 0 tokens but may take 4",
        ),
    ],
)
def test_a_bad_record_file_is_refused_with_a_message(
    member_client: Client, group: Group, content: bytes, message: str
) -> None:
    upload = SimpleUploadedFile("game.json", content)
    response = member_client.post(f"/groups/{group.pk}/games/import/", {"record": upload})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not group.games.exists()


def test_every_page_answers_a_full_page_and_htmx_its_fragment(member_client: Client, game: Game, group: Group) -> None:
    add_events(game, FOREST)
    fragments = {
        f"/games/{game.pk}/": '<div id="game"',
        f"/games/{game.pk}/events/new/territory/": '<form id="wizard"',
        f"/games/{game.pk}/events/0/": '<form id="wizard"',
        f"/watch/{game.spectator_token}/live/?view=game": '<div id="game"',
    }
    pages = [*fragments, "/", "/rules/", f"/groups/{group.pk}/", f"/groups/{group.pk}/games/new/", "/join/"]
    for url in pages:
        full = member_client.get(url).content.decode()
        assert full.startswith("<!doctype html>") or url in fragments and "/live/" in url, url
        fragment = member_client.get(url, HTTP_HX_REQUEST="true").content.decode()
        if url in fragments:
            assert fragment.lstrip().startswith(fragments[url]), url
            assert "<html" not in fragment, url


def test_the_log_shows_its_last_ten_events_and_the_rest_one_tap_away(member_client: Client, game: Game) -> None:
    """The game page's cost, and how far a phone scrolls, do not grow with the game: the last 10 events, then
    "Show the 2 earlier events", which shows them, and keeps showing them while the page polls."""
    notes = [{"type": "adjust", "player": "Red", "rewards": {}, "note": f"note {number}"} for number in range(12)]
    add_events(game, *notes)
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="event-11"' in page and 'id="event-2"' in page and 'id="event-1"' not in page
    assert 'href="?log=2#event-1"' in page and "Show the 2 earlier events" in page
    earlier = member_client.get(f"/games/{game.pk}/?log=2").content.decode()
    assert 'id="event-1"' in earlier and 'id="event-0"' in earlier and 'id="event-2"' not in earlier
    assert "Events 0–1 of 12" in earlier and "earlier event" not in earlier
    assert 'href="?log=12#event-11">Newer events' in earlier and "Older events" not in earlier
    assert 'href="?">Latest events' in earlier
    live = earlier[earlier.index('hx-get="') + 8 :].split('"')[0].replace("&amp;", "&")
    assert live.endswith("?view=game&log=2")
    first = member_client.get(live)
    assert 'id="event-0"' in first.content.decode()
    assert member_client.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    short = member_client.get(live.removesuffix("&log=2"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert short.status_code == 200 and 'id="event-0"' not in short.content.decode()  # another view: not the same
    add_events(game, {"type": "adjust", "player": "Red", "rewards": {}, "note": "one more"})
    assert "Show the 3 earlier events" in member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Show the 1 earlier event<" not in page


def test_the_earlier_events_are_50_a_page_newest_first(member_client: Client, game: Game) -> None:
    """At 120 events the game page shows 10 of them, and each page of earlier ones at most 50, with links to
    the newer and the older pages that work without JavaScript; a page stays the same while the game goes on."""
    notes = [{"type": "adjust", "player": "Red", "rewards": {}, "note": f"note {number}"} for number in range(120)]
    add_events(game, *notes)

    def shown(url: str) -> tuple[list[int], str]:
        page = member_client.get(url).content.decode()
        return [int(index) for index in re.findall(r'<details\s+class="card"\s+id="event-(\d+)"', page)], page

    events, page = shown(f"/games/{game.pk}/")
    assert events == list(range(119, 109, -1)) and 'href="?log=110#event-109"' in page
    events, page = shown(f"/games/{game.pk}/?log=110")
    assert events == list(range(109, 59, -1)) and "Events 60–109 of 120" in page
    assert 'href="?log=60#event-59">Older events' in page and 'href="?log=120#event-119">Newer events' in page
    assert page.count(">Undo<") == 0  # only the last event is undone; these are deleted
    events, page = shown(f"/watch/{game.spectator_token}/?log=110")  # the spectator's page too
    assert events == list(range(109, 59, -1)) and 'href="?log=60#event-59">Older events' in page
    events, page = shown(f"/games/{game.pk}/?log=60")
    assert events == list(range(59, 9, -1)) and 'href="?log=10#event-9">Older events' in page
    events, page = shown(f"/games/{game.pk}/?log=10")
    assert events == list(range(9, -1, -1)) and "Older events" not in page and "Events 0–9 of 120" in page
    add_events(game, {"type": "adjust", "player": "Red", "rewards": {}, "note": "one more"})
    assert shown(f"/games/{game.pk}/?log=110")[0] == list(range(109, 59, -1))
    for odd in ("0", "-3", "all", "9" * 30, "１２"):  # the first event at least, the last at most; else the last 10
        assert shown(f"/games/{game.pk}/?log={odd}")[0] in ([0], list(range(120, 110, -1)))
