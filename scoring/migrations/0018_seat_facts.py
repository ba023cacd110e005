"""The facts each finished Okanagan game gives the group's history (:mod:`scoring.history.facts`), stored on its
seats from now on as each game finishes, are counted here once for the games finished before: each game's log
replayed through ``rules``. A log the rules refuse (none should exist) leaves its seats without facts; an imported
play has no log and no facts."""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from rules import RECORD_FORMAT, RecordError, parse_record, score_record
from scoring.history.facts import game_facts


def seat_facts(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("scoring", "Game")
    Seat = apps.get_model("scoring", "Seat")
    alias = schema_editor.connection.alias
    games = Game.objects.using(alias).filter(status="finished", kind="okanagan", imported=False)
    for game in games.order_by("pk").prefetch_related("seats", "events").iterator(chunk_size=100):
        seats = sorted(game.seats.all(), key=lambda seat: seat.position)
        events = [event.data for event in sorted(game.events.all(), key=lambda event: event.index)]
        document = {"format": RECORD_FORMAT, "players": [seat.name for seat in seats], "options": game.options,
                    "events": events}  # fmt: skip
        try:
            record = parse_record(document)
            facts = game_facts(record.players, record.events, score_record(record).final)
        except RecordError:
            continue
        for seat, seat_facts in zip(seats, facts, strict=True):
            seat.facts = seat_facts
        Seat.objects.using(alias).bulk_update(seats, ["facts"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0017_history_ratings_facts_imports"),
    ]

    operations = [
        migrations.RunPython(seat_facts, migrations.RunPython.noop),
    ]
