"""The token of the "Start the game" form stored with the game it started, unique in the group (issue 24): the
same form posted twice starts one game."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0013_event_states_json'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='start_token',
            field=models.CharField(blank=True, default='', max_length=32),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.UniqueConstraint(condition=models.Q(('start_token', ''), _negated=True), fields=('group', 'start_token'), name='one_game_per_start_form'),
        ),
    ]
