"""``manage.py demo``: a demo account and group with six weeks of finished games, the latest finished today, and one
game in progress: a newcomer sees ratings, records, insights and head-to-heads at once.

The weeks' games are records (``scoring/site/demo/weeks.json``, made by ``support/demo_games.py``) replayed through the
engine as a restore stores its games: their scores are the engine's, dated the given number of days before today."""

from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from rules import parse_record, score_record
from scoring.creation import NewGame, create_game, create_games
from scoring.log import finish
from scoring.models import Game, Group

DEMO_USER = "demo"
DEMO_PASSWORD = "okanagan-demo"
RECORDS = Path(__file__).resolve().parents[2] / "demo"
EVENING = time(20, 30)
"""When the weeks' games were played, on their day."""
PLAYING_TIME = timedelta(minutes=50)


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
        create_games(group, weeks_of_games())
        for name in ("finished", "playing"):
            record = json.loads((RECORDS / f"{name}.json").read_text())
            game = create_game(
                group, tuple(record["players"]), record["options"], promos=False, events=record["events"]
            )
            if name == "finished":
                finish(game, game.revision)
        group.profiles.filter(name="Ann").update(user=user)


def weeks_of_games() -> list[NewGame]:
    """The weeks' finished games, each replayed through the engine for its result, the oldest first."""
    today = timezone.localdate()
    games = []
    for entry in json.loads((RECORDS / "weeks.json").read_text()):
        record = parse_record(entry["record"])
        result = score_record(record)
        ended = timezone.make_aware(datetime.combine(today - timedelta(days=entry["days_ago"]), EVENING))
        games.append(
            NewGame(
                Game.Kind.OKANAGAN,
                record.players,
                record.options.to_json(),
                events=[event.to_json() for event in record.events],
                results=result.standings,
                winners=result.winners,
                created=ended - PLAYING_TIME,
                finished=ended,
            )
        )
    return games
