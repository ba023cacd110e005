"""A finished game's result is public by its spectator link unless a member turns it off."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_bgstats_uuids")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="public_result",
            field=models.BooleanField(default=True, verbose_name="public result"),
        ),
    ]
