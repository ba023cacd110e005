"""``manage.py demo``, which ``make run`` calls: a demo group with a finished and an in-progress game."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command
from django.test import Client

from scoring.models import Game, Group


def test_the_demo_loads_once_and_says_how_to_log_in(db: None) -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    call_command("demo", stdout=out)
    assert "log in as 'demo' with the password 'okanagan-demo'" in out.getvalue()
    group = Group.objects.get()
    assert sorted(group.games.values_list("status", flat=True)) == ["finished", "playing"]
    assert group.games.get(status=Game.Status.FINISHED).winners == ["Ann"]
    client = Client()
    assert client.post("/accounts/login/", {"username": "demo", "password": "okanagan-demo"}).status_code == 302
    for game in group.games.all():
        assert client.get(f"/games/{game.pk}/").status_code == 200
