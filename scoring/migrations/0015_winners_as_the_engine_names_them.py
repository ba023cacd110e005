"""A finished game's winners are stored as the engine names them (:mod:`scoring.standings`), the solo opponent card
among them when it wins or ties: every page, the result image and the BG Stats play say the winners from this one
store. Until now the store left the card out (the pages scored the sheet again to say it); the solo games of Small
Islands finished before are scored once here, through ``rules``, to put it back. A sheet the rules refuse (none
should exist) is left as it was."""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from rules import RulesError, score_sheet


def engine_winners(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("scoring", "Game")
    games = Game.objects.using(schema_editor.connection.alias).filter(status="finished", kind="small_islands")
    for game in games.order_by("pk").iterator(chunk_size=100):
        if not isinstance(game.sheet, dict) or "alexis" not in game.sheet:
            continue  # not a solo game: its winners are its players ranked first, as stored
        try:
            winners = list(score_sheet(game.sheet).winners)
        except RulesError:
            continue
        if winners != game.winners:
            game.winners = winners
            game.save(update_fields=["winners"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_start_token"),
    ]

    operations = [
        migrations.RunPython(engine_winners, migrations.RunPython.noop),
    ]
