"""The statistics page on a phone (issue 32): its jump list leads to each part, a folded one opening as it is
followed; no sideways scroll. In real Chromium at 390×844 against the live server."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.models import Group
from tests.scoring.history.test_insights import a_finished_game

from .test_play_on_a_phone import fits
from .test_seats_on_phones import logged_in_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_jump_list_opens_the_folded_parts_it_leads_to(live_server: Any, browser: Any) -> None:
    user = User.objects.create_user("lena", password="pw-lena-123")
    group = Group.objects.create(name="Friday table", owner=user)
    group.members.add(user)
    a_finished_game(group)
    a_finished_game(group)
    page = logged_in_phone(browser, live_server.url, "lena")
    page.goto(f"{live_server.url}/groups/{group.pk}/stats/")
    insights = page.get_by_role("region", name="Insights from the event log")
    players = page.get_by_role("region", name="Statistics · Okanagan")
    expect(page.get_by_role("heading", name="Records")).to_be_in_viewport()  # what a group talks about, first
    expect(insights).to_be_hidden()
    expect(players).to_be_hidden()
    jumps = page.get_by_role("navigation", name="On this page")
    jumps.get_by_role("link", name="Insights from the event log").click()
    expect(insights).to_be_visible()
    expect(insights).to_be_in_viewport()
    jumps.get_by_role("link", name="Plays, wins and scores").click()
    expect(players).to_be_visible()
    expect(players).to_be_in_viewport()
    assert fits(page)
    page.context.close()
