"""Stored states become JSON text (scoring.states) instead of pickles.

The pickled rows are deleted, never read: a missing state is rebuilt from the log when first read, so nothing
here unpickles what a row holds (whoever wrote it)."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def forget_pickles(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("scoring", "EventState").objects.using(schema_editor.connection.alias).all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0012_seats_follow_people"),
    ]

    operations = [
        migrations.RunPython(forget_pickles, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(model_name="eventstate", name="data", field=models.TextField()),
    ]
