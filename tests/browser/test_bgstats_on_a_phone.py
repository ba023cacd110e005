"""BG Stats on a phone: a finished game's page has the "Send to BG Stats" links and the ``.bgsplay``
download; a game in progress, a spectator and a stranger have none of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.creation import create_game, create_sheet_game
from scoring.log import finish
from scoring.models import Game, Group

from .test_play_on_a_phone import csp_violations, fits, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parent.parent / "data"
SHARED = json.loads((DATA / "okanagan-shared-victory.json").read_text())


def a_phone(browser: Any) -> Any:
    return browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()


def carried(href: str) -> dict[str, Any]:
    """The play JSON in a BG Stats link's ``data``, encoded as ``encodeURIComponent`` would."""
    encoded = urlsplit(href).query.removeprefix("data=")
    text = unquote(encoded)
    assert quote(text, safe="") == encoded
    data: dict[str, Any] = json.loads(text)
    return data


def test_a_finished_game_sends_to_bg_stats_from_a_phone(live_server: Any, phone: Any, browser: Any) -> None:
    refused = csp_violations(phone)
    log_in(phone, live_server.url, "ann", "pw-ann-123")
    group = Group.objects.create(name="Lake house", owner=User.objects.get(username="ann"))
    group.members.add(group.owner)
    game = create_game(group, tuple(SHARED["players"]), {}, promos=False, events=SHARED["events"])

    guest = a_phone(browser)  # a phone of the table, without an account
    guest.goto(f"{live_server.url}/join/{game.table_code}/")
    guest.get_by_role("button", name="Join").click()
    expect(guest.get_by_role("heading", name="Okanagan · Ann, Ben, Cy, Dee")).to_be_visible()
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    for page in (phone, guest):  # in progress: nothing of BG Stats
        expect(page.locator("#bgstats")).to_have_count(0)
        expect(page.get_by_role("link", name="Send to BG Stats")).to_have_count(0)

    finish(game, game.revision)
    game.refresh_from_db()
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    send = phone.get_by_role("link", name="Send to BG Stats")
    expect(send).to_be_visible()
    app, web = send.get_attribute("href"), phone.get_by_role("link", name="BG Stats on the web").get_attribute("href")
    assert app.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    assert web.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = carried(app)
    assert carried(web) == data
    assert data["sourcePlayId"] == str(game.uuid).upper() and data["location"] == "Lake house"
    assert data["game"]["bggId"] == 230089 and data["game"]["sourceGameId"] == "okanagan"
    assert [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"]) for p in data["players"]] == [
        ("Ann", 10, 1, True, True),
        ("Ben", 10, 1, True, False),
        ("Cy", 10, 1, True, False),
        ("Dee", 10, 4, False, False),
    ]
    expect(phone.get_by_text("UTC: BG Stats may read it as local time")).to_be_visible()
    expect(phone.get_by_text("“Open in…”")).to_be_visible()
    bgg = phone.get_by_role("link", name="Okanagan: Valley of the Lakes on BoardGameGeek")
    assert bgg.get_attribute("href") == "https://boardgamegeek.com/boardgame/230089/okanagan-valley-of-the-lakes"
    for link in (send, bgg, phone.get_by_role("link", name="Download the play (.bgsplay)")):
        assert link.bounding_box()["height"] >= 44
    assert fits(phone)

    with phone.expect_download() as download_info:
        phone.get_by_role("link", name="Download the play (.bgsplay)").click()
    download = download_info.value
    assert download.suggested_filename == f"okanagan-{game.pk}.bgsplay"
    file = json.loads(Path(download.path()).read_text())
    assert file["plays"][0]["uuid"] == data["sourcePlayId"]
    assert [p["uuid"] for p in file["players"]] == [p["sourcePlayerId"] for p in data["players"]]
    assert [s["score"] for s in file["plays"][0]["playerScores"]] == ["10", "10", "10", "10"]

    guest.goto(f"{live_server.url}/games/{game.pk}/")  # the table's phone keeps the result, and the links
    expect(guest.get_by_role("link", name="Send to BG Stats")).to_have_attribute("href", app)
    with guest.expect_download() as download_info:
        guest.get_by_role("link", name="Download the play (.bgsplay)").click()
    assert json.loads(Path(download_info.value.path()).read_text())["plays"][0]["uuid"] == data["sourcePlayId"]

    spectator = a_phone(browser)
    spectator.goto(f"{live_server.url}/watch/{game.spectator_token}/")
    expect(spectator.get_by_role("heading", name="Final scores")).to_be_visible()
    expect(spectator.locator("#bgstats")).to_have_count(0)
    stranger = a_phone(browser)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/play.bgsplay", f"/groups/{group.pk}/plays.bgsplay"):
        assert stranger.goto(live_server.url + url).status == 404

    sheet = create_sheet_game(group, json.loads((DATA / "cooper-island-three-players-tie.json").read_text()))
    phone.goto(f"{live_server.url}/games/{sheet.pk}/")
    sheet_data = carried(phone.get_by_role("link", name="Send to BG Stats").get_attribute("href"))
    assert sheet_data["game"]["bggId"] == 269511 and [p["rank"] for p in sheet_data["players"]] == [1, 2, 2]
    assert fits(phone)

    phone.goto(f"{live_server.url}/groups/{group.pk}/")
    with phone.expect_download() as download_info:
        phone.get_by_role("link", name="All plays for BG Stats (.bgsplay)").click()
    whole = json.loads(Path(download_info.value.path()).read_text())
    assert [play["uuid"] for play in whole["plays"]] == [str(game.uuid).upper(), str(sheet.uuid).upper()]
    assert fits(phone)
    assert not refused, refused
    assert Game.objects.count() == 2
