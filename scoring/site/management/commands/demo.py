"""``manage.py demo``: a demo account and group with one finished and one in-progress game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from scoring.creation import create_game
from scoring.log import finish
from scoring.models import Group

DEMO_USER = "demo"
DEMO_PASSWORD = "okanagan-demo"
RECORDS = Path(__file__).resolve().parents[2] / "demo"


class Command(BaseCommand):
    help = "Load a demo group (once) and say how to log in."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            if not User.objects.filter(username=DEMO_USER).exists():
                self.load()
        self.stdout.write(f"Demo: log in as '{DEMO_USER}' with the password '{DEMO_PASSWORD}'.")

    def load(self) -> None:
        user = User.objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
        group = Group.objects.create(name="Demo table", owner=user)
        group.members.add(user)
        for name in ("finished", "playing"):
            record = json.loads((RECORDS / f"{name}.json").read_text())
            game = create_game(
                group, tuple(record["players"]), record["options"], promos=False, events=record["events"]
            )
            if name == "finished":
                finish(game, game.revision)
        group.profiles.filter(name="Ann").update(user=user)
