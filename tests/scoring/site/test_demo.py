"""``manage.py demo``, which ``make run`` calls: a demo group with six weeks of finished games played through the
engine, and a game in progress, so that a newcomer sees the history (ratings, records, insights, head-to-heads)."""

from __future__ import annotations

import html
from io import StringIO

from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from scoring.models import Game, Group


def test_the_demo_loads_once_and_says_how_to_log_in(db: None) -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    call_command("demo", stdout=out)
    assert "log in as 'demo' with the password 'okanagan-demo'" in out.getvalue()
    group = Group.objects.get()
    assert group.games.filter(status=Game.Status.PLAYING).count() == 1
    assert group.games.filter(finished__isnull=False).latest("finished").winners == ["Ann"]  # finished today
    client = Client()
    assert client.post("/accounts/login/", {"username": "demo", "password": "okanagan-demo"}).status_code == 302
    for game in group.games.order_by("-pk")[:3]:
        assert client.get(f"/games/{game.pk}/").status_code == 200


def test_the_demo_group_has_weeks_of_games_whose_scores_are_the_engine_s(db: None) -> None:
    call_command("demo", stdout=StringIO())
    finished = Group.objects.get().games.filter(status=Game.Status.FINISHED)
    days = sorted({game.finished.date() for game in finished})
    assert finished.count() >= 15 and (days[-1] - days[0]).days >= 5 * 7 and days[-1] == timezone.localdate()
    assert len({day.isocalendar()[:2] for day in days}) >= 6  # spread over the weeks, not one evening
    assert {len(game.players()) for game in finished} >= {2, 3, 4}
    out = StringIO()
    call_command("check_data", stdout=out)  # every stored result is a fresh replay's
    assert "No problem found." in out.getvalue()


def test_a_newcomer_sees_ratings_records_insights_and_head_to_heads(db: None) -> None:
    call_command("demo", stdout=StringIO())
    client = Client()
    client.post("/accounts/login/", {"username": "demo", "password": "okanagan-demo"})
    page = html.unescape(client.get(f"/groups/{Group.objects.get().pk}/stats/").content.decode())
    for heading in ("Rating", "Records", "Head to head", "What winners took", "Insights from the event log"):
        assert heading in page
    assert "a first guess after" in page or "still uncertain after" in page
    assert "Most gold nuggets" in page and "Longest winning streak" in page
    assert "Ben – Dee" in page or "Ben – Cy" in page
