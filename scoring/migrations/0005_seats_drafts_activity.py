"""Phones claim seats, drafts live on the server, a game counts its live changes, objective cards
entered for another player say so; and the stray players that group creation used to make go.

Creating a group used to add its owner's username as a player ("Maya7"), beside the name the table
then typed ("Maya"). Such a player, linked to its account, named exactly as the account and in no game,
is removed here; the account is linked again when its owner claims a seat.
"""

from __future__ import annotations

import django.db.models.deletion
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db import migrations, models


def remove_stray_players(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Profile = apps.get_model("scoring", "Profile")
    alias = schema_editor.connection.alias
    strays = Profile.objects.using(alias).filter(user__isnull=False, seats__isnull=True)
    for profile in strays.select_related("user"):
        if profile.name == profile.user.username[:40]:
            profile.delete()


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0004_username_unique_lower'),
    ]

    operations = [
        migrations.CreateModel(
            name='Draft',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('phone', models.CharField(max_length=32)),
                ('by', models.CharField(blank=True, default='', max_length=40)),
                ('kind', models.CharField(max_length=20)),
                ('editing', models.PositiveIntegerField(null=True)),
                ('data', models.JSONField(default=dict)),
                ('revision', models.PositiveIntegerField(default=0)),
                ('updated', models.DateTimeField(auto_now=True)),
            ],
            options={
                'ordering': ['updated'],
            },
        ),
        migrations.AddField(
            model_name='event',
            name='entered_for',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AddField(
            model_name='game',
            name='activity',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='seat',
            name='phone',
            field=models.CharField(blank=True, default='', max_length=32),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(condition=models.Q(('phone', ''), _negated=True), fields=('game', 'phone'), name='one_seat_per_phone'),
        ),
        migrations.AddField(
            model_name='draft',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='drafts', to='scoring.game'),
        ),
        migrations.AddConstraint(
            model_name='draft',
            constraint=models.UniqueConstraint(fields=('game', 'phone'), name='one_draft_per_phone'),
        ),
        migrations.RunPython(remove_stray_players, migrations.RunPython.noop),
    ]
