"""The final result at the table and shared (issue 13): one phone ends the game, the other phone shows the result
by rank within its poll; the spectator link is a public result page without login, with nothing else of the
group, 404 once a member turns it off; the result image; the print layout on one page.

Several browser contexts are several phones, in real Chromium at 390×844 against the live server.
"""

from __future__ import annotations

import re
import struct
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.log import change_log, finish
from scoring.models import Game
from tests.scoring.results.test_result_page import TIE_ON_TOKENS

from .test_play_on_a_phone import a_table, csp_violations, fits, tap
from .test_table_of_phones import a_phone, joined

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tied_table(phone: Any, base: str) -> Game:
    """Maya's phone (a member) at a game of Maya and Theo in which Theo wins the tie on VP by his tokens."""
    game = a_table(phone, base, "maya", ("Maya", "Theo"))
    change_log(game, game.revision, lambda events: list(TIE_ON_TOKENS))
    game.refresh_from_db()
    return game


def shared_link(phone: Any, base: str, game: Game) -> str:
    """The finished game's page on a member's phone: its share card's link, checked to copy in one tap, to go
    to the phone's share sheet in one tap, and to come with the result image and Print."""
    # This phone has a share sheet (the Web Share API), here one that keeps what it was given.
    phone.add_init_script("navigator.share = async (data) => { window.sharedWith = data; };")
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.goto(f"{base}/games/{game.pk}/")
    share = phone.locator("#share-result")
    expect(share).to_be_visible()
    link = share.locator("a.url").get_attribute("href")
    assert link == f"{base}/watch/{game.spectator_token}/"
    share.get_by_role("button", name="Copy: Result link").click()
    expect(share.get_by_role("button", name="Copy: Result link")).to_have_text("Copied")
    assert phone.evaluate("navigator.clipboard.readText()") == link
    share.get_by_role("button", name="Share: Result link").click()
    phone.wait_for_function("window.sharedWith !== undefined")
    assert phone.evaluate("window.sharedWith.url") == link
    expect(share.get_by_role("link", name="Result image (PNG)")).to_have_attribute("href", f"{link}result.png")
    expect(share.get_by_role("button", name="Print")).to_be_visible()
    return str(link)


def places(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("#final .player-result .player").all_inner_texts()]


def test_one_phone_ends_the_game_and_the_other_shows_the_result_by_rank(
    live_server: Any, phone: Any, browser: Any
) -> None:
    refused = csp_violations(phone)
    game = tied_table(phone, live_server.url)
    theo = joined(browser, live_server.url, game)
    tap(theo, "I am Theo")
    expect(theo.locator("header .me")).to_have_text("I am Theo")
    theo.evaluate("window.notReloaded = true")

    phone.goto(f"{live_server.url}/games/{game.pk}/finish/")
    phone.get_by_role("button", name=re.compile("End the game")).click()
    expect(phone.locator("#final")).to_be_visible()

    # Theo's phone, left alone, shows the result within its poll (every 1.5 s), without a reload.
    final = theo.locator("#final")
    expect(final).to_be_visible(timeout=5000)
    assert theo.evaluate("window.notReloaded") is True
    expect(final.locator(".winner").first).to_have_text("Winner: Theo")
    assert places(theo) == ["Theo", "Maya"]  # by rank, not in seat order
    expect(final.locator(".decider")).to_contain_text("Theo holds the most tokens")
    expect(final.locator(".objective-card")).to_have_count(2)
    expect(final.locator(".player-result").first.locator(".objective-card svg.token")).to_have_attribute(
        "aria-label", "green circle"
    )
    # The explanation is one tap away.
    why = final.locator("details#final-why")
    expect(why).not_to_have_attribute("open", "")
    why.locator("summary").click()
    expect(why.get_by_text("A token counts for every card it fits.")).to_be_visible()
    assert fits(theo) and fits(phone)
    assert not refused
    theo.context.close()


def test_the_share_link_is_a_public_result_page_until_a_member_turns_it_off(
    live_server: Any, phone: Any, browser: Any
) -> None:
    game = tied_table(phone, live_server.url)
    finish(game, game.revision)
    link = shared_link(phone, live_server.url, game)

    # Anyone with the link, without an account: the result, and nothing else of the group.
    visitor = a_phone(browser)
    response = visitor.goto(link)
    assert response is not None and response.status == 200
    expect(visitor.locator("#final .winner").first).to_have_text("Winner: Theo")
    assert places(visitor) == ["Theo", "Maya"]
    body = visitor.locator("body").inner_text()
    assert "maya's table" not in body and "Log out" not in body
    assert visitor.locator(f"a[href*='/groups/'], a[href*='/games/{game.pk}/']").count() == 0
    expect(visitor.get_by_role("button", name="Turn the public result off")).to_have_count(0)
    assert fits(visitor)

    # A member turns it off: the link is 404 for the visitor (the image too), and still works for members.
    tap(phone, "Turn the public result off")
    expect(phone.get_by_role("button", name="Make the result public")).to_be_visible()
    response = visitor.goto(link)
    assert response is not None and response.status == 404
    image = visitor.request.get(f"{link}result.png")
    assert image.status == 404
    response = phone.goto(link)
    assert response is not None and response.status == 200
    # On again: the visitor reads it again.
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    tap(phone, "Make the result public")
    response = visitor.goto(link)
    assert response is not None and response.status == 200
    visitor.context.close()


def test_the_result_image_and_the_print_layout(live_server: Any, phone: Any, browser: Any) -> None:
    game = tied_table(phone, live_server.url)
    finish(game, game.revision)
    visitor = a_phone(browser)
    visitor.goto(f"{live_server.url}/watch/{game.spectator_token}/")

    # The image a chat shows for the link: a PNG of 1200×630, of a sensible size.
    image_url = visitor.locator('meta[property="og:image"]').get_attribute("content")
    assert image_url == f"{live_server.url}/watch/{game.spectator_token}/result.png"
    image = visitor.request.get(image_url)
    assert image.status == 200 and image.headers["content-type"] == "image/png"
    body = image.body()
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", body[16:24]) == (1200, 630)
    assert 5_000 < len(body) < 300_000

    # Printed: the result alone (no menus, buttons, scoreboard or log), on one page.
    visitor.emulate_media(media="print")
    expect(visitor.locator("header.bar")).to_be_hidden()
    expect(visitor.locator("#share-result")).to_be_hidden()
    expect(visitor.locator("#scoreboard")).to_be_hidden()
    expect(visitor.locator("#final .player-result").first).to_be_visible()
    pdf = visitor.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
    visitor.context.close()
