"""A scored Small Islands game shared like an Okanagan one (issue 13): the share card on its page (copy, the
phone's share sheet, the image, print), and its spectator link read by a visitor without login, with nothing
else of the group; printed on one page.

Real Chromium at 390×844 against the live server.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.creation import create_sheet_game
from scoring.models import Group
from tests.scoring.results.test_result_page import DATA

from .test_play_on_a_phone import csp_violations, fits, log_in
from .test_result_on_phones import shared_link
from .test_table_of_phones import a_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_small_islands_result_is_shared_and_read_without_login(live_server: Any, phone: Any, browser: Any) -> None:
    refused = csp_violations(phone)
    log_in(phone, live_server.url, "ann", "pw-ann-123")
    group = Group.objects.create(name="ann's table", owner=User.objects.get(username="ann"))
    group.members.add(group.owner)
    # Ann and Ben tie on score, houses and ports: who placed the last tile (Ann) decides.
    game = create_sheet_game(group, json.loads((DATA / "small-islands-last-tile-decides.json").read_text()))

    # The member's page: the share card, as for Okanagan.
    link = shared_link(phone, live_server.url, game)
    expect(phone.get_by_role("button", name="Turn the public result off")).to_be_visible()
    assert fits(phone)

    # A visitor without an account: the result by rank, the tie-break, the explanation one tap away; nothing
    # else of the group.
    visitor = a_phone(browser)
    response = visitor.goto(link)
    assert response is not None and response.status == 200
    final = visitor.locator("#final")
    expect(final.locator("p.winner")).to_have_text("Winner: Ann")
    expect(final.locator(".decider")).to_contain_text("who placed the last tile")
    assert [name.strip() for name in final.locator("thead th.num").all_inner_texts()][0] == "Ann"
    why = final.locator("details#final-why")
    expect(why).not_to_have_attribute("open", "")
    why.locator("summary").click()
    expect(why.locator("li").first).to_be_visible()
    body = visitor.locator("body").inner_text()
    assert "ann's table" not in body and "Log out" not in body and "Correct the sheet" not in body
    assert visitor.locator(f"a[href*='/groups/'], a[href*='/games/{game.pk}/']").count() == 0
    expect(visitor.get_by_role("button", name="Turn the public result off")).to_have_count(0)
    assert visitor.locator('meta[name="robots"]').get_attribute("content") == "noindex"
    image = visitor.request.get(f"{link}result.png")
    assert image.status == 200 and image.headers["content-type"] == "image/png"
    assert fits(visitor)

    # Printed: the result alone, on one page.
    visitor.emulate_media(media="print")
    expect(visitor.locator("header.bar")).to_be_hidden()
    expect(visitor.locator("#share-result")).to_be_hidden()
    expect(final.locator("table")).to_be_visible()
    pdf = visitor.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
    assert not refused
    visitor.context.close()
