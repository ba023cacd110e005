"""Every game (a play) and every player of a group gets a stable UUID, its id outside the site (BG Stats):
exported twice, a play or a player is the same one.

Added in three steps, because a field added with ``default=uuid.uuid4`` gives every existing row the
same value: nullable, then one new UUID per row, then required.
"""

from __future__ import annotations

import uuid

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def give_uuids(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    for name in ("Game", "Profile"):
        model = apps.get_model("scoring", name)
        rows = list(model.objects.using(alias).only("pk"))
        for row in rows:
            row.uuid = uuid.uuid4()
        model.objects.using(alias).bulk_update(rows, ["uuid"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0005_seats_drafts_activity"),
    ]

    operations = [
        migrations.AddField(model_name="game", name="uuid", field=models.UUIDField(editable=False, null=True)),
        migrations.AddField(model_name="profile", name="uuid", field=models.UUIDField(editable=False, null=True)),
        migrations.RunPython(give_uuids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game", name="uuid", field=models.UUIDField(default=uuid.uuid4, editable=False)
        ),
        migrations.AlterField(
            model_name="profile", name="uuid", field=models.UUIDField(default=uuid.uuid4, editable=False)
        ),
    ]
