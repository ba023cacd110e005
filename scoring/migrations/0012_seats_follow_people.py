"""Seats follow people, not browsers (issue 23): when a seat's phone was last heard from, when the seat last
changed phones and from which phone it was taken, the short code that moves it to another phone, and when
each entry in progress began."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.utils import timezone


def held_seats_seen_now(apps: StateApps, _schema_editor: BaseDatabaseSchemaEditor) -> None:
    """A seat held before this migration counts as heard from now: its phone is not taken for gone."""
    apps.get_model("scoring", "Seat").objects.exclude(phone="").update(seen=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_event_states"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="seen",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="moved_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="moved_from",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddField(
            model_name="seat",
            name="move_code",
            field=models.CharField(blank=True, default="", max_length=8),
        ),
        migrations.AddField(
            model_name="seat",
            name="move_code_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="draft",
            name="started",
            field=models.DateTimeField(default=timezone.now),
        ),
        migrations.RunPython(held_seats_seen_now, migrations.RunPython.noop),
    ]
