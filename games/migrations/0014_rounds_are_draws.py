import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """A match's and a team match's round is draw's Round now (the same table, ``league_round``): only Django's
    record of the foreign keys changes, so the columns and their constraints stay as they are."""

    dependencies = [
        ('draw', '0001_initial'),
        ('games', '0013_choices_and_known_values'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='match',
                    name='round',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='matches', to='draw.round'),
                ),
                migrations.AlterField(
                    model_name='teammatch',
                    name='round',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='team_matches', to='draw.round'),
                ),
            ],
            database_operations=[],
        ),
    ]
