"""Each seat keeps its final rank and its score part by part, stored when its game finishes, so that the
statistics count from stored results and no page replays a game; the games finished before are replayed
once here, through ``rules``, to fill them in.

A finished game the rules no longer accept (none should exist: every change to a log is checked by replaying
it) is left without them, and the statistics leave it out rather than fail.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from rules import RulesError, score_document


def document(game: Any) -> object:
    """The game's record (Okanagan, rebuilt from its seats and events as the site does) or score sheet."""
    if game.kind != "okanagan":
        return game.sheet
    return {
        "format": "okanagan-record/1",
        "players": [seat.name for seat in sorted(game.seats.all(), key=lambda seat: seat.position)],
        "options": game.options,
        "events": [event.data for event in sorted(game.events.all(), key=lambda event: event.index)],
    }


def fill_seat_results(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("scoring", "Game")
    Seat = apps.get_model("scoring", "Seat")
    alias = schema_editor.connection.alias
    finished = Game.objects.using(alias).filter(status="finished").order_by("pk")
    for game in finished.prefetch_related("seats", "events").iterator(chunk_size=100):
        try:
            players = score_document(document(game)).to_json()["players"]
        except RulesError:
            continue
        assert isinstance(players, list)
        seats = sorted(game.seats.all(), key=lambda seat: seat.position)
        if len(players) != len(seats):
            continue
        for seat, row in zip(seats, players, strict=True):  # the result's players are in seat (or sheet) order
            seat.total, seat.rank = row["total"], row["rank"]
            seat.parts = {key: value for key, value in row.items() if key.endswith("_points")}
        Seat.objects.using(alias).bulk_update(seats, ["total", "rank", "parts"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0009_rule_search_words")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="rank",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="parts",
            field=models.JSONField(default=dict),
        ),
        migrations.RunPython(fill_seat_results, migrations.RunPython.noop),
    ]
