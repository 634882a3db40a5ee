import django.db.models.deletion
import league.models
from django.db import migrations, models


class Migration(migrations.Migration):
    """Round and Bye, league's until now, become draw's: only Django's record of the models moves (the tables keep
    their names, ``league_round`` and ``league_bye``, and their rows); league's 0015 forgets its own."""

    initial = True

    dependencies = [
        ('league', '0016_stage_and_section_choices'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Round',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('name', models.CharField(blank=True, max_length=60, validators=[league.models.validate_plain_text])),
                        ('stage', models.CharField(blank=True, help_text="'group' or 'knockout' in a two-stage event", max_length=12)),
                        ('starts_on', models.DateField(blank=True, null=True)),
                        ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published')], default='published', max_length=10)),
                        ('published_at', models.DateTimeField(blank=True, null=True)),
                        ('pairing_state', models.CharField(blank=True, choices=[('', 'Not paired by the system'), ('queued', 'Queued'), ('running', 'Pairing'), ('done', 'Paired'), ('failed', 'Failed')], default='', max_length=10)),
                        ('pairing_progress', models.FloatField(default=0.0)),
                        ('pairing_message', models.CharField(blank=True, max_length=300)),
                        ('pairing_version', models.PositiveIntegerField(default=0, help_text='Bumped by each request to pair')),
                        ('pairing_heartbeat_at', models.DateTimeField(blank=True, help_text='When the pairing was asked for or last reported progress: one queued or running with no sign of life for long is taken for lost with its worker and asked for again', null=True)),
                        ('competition', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='league.competition')),
                    ],
                    options={
                        'db_table': 'league_round',
                        'ordering': ['number'],
                    },
                ),
                migrations.CreateModel(
                    name='Bye',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('flags', models.JSONField(blank=True, default=list, help_text='Why the pairing engine gave the bye')),
                        ('bracket_position', models.PositiveSmallIntegerField(blank=True, help_text="Knockout: the bye's place in its round (1, 2, …)", null=True)),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='byes', to='league.entry')),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='byes', to='draw.round')),
                    ],
                    options={
                        'db_table': 'league_bye',
                    },
                ),
                migrations.AddConstraint(
                    model_name='round',
                    constraint=models.UniqueConstraint(fields=('competition', 'number'), name='unique_round_number'),
                ),
                migrations.AddConstraint(
                    model_name='bye',
                    constraint=models.UniqueConstraint(fields=('round', 'entry'), name='unique_bye'),
                ),
            ],
            database_operations=[],  # the tables stay as they are (Meta.db_table)
        ),
    ]
