import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """StandingRow, RatingsRebuild, PlayerRating and RatingPoint, league's until now, become standings': only Django's
    record of the models moves (the tables keep their ``league_…`` names and their rows); league's 0015 forgets its own."""

    initial = True

    dependencies = [
        ('league', '0016_stage_and_section_choices'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='RatingsRebuild',
                    fields=[
                        ('id', models.PositiveSmallIntegerField(default=1, primary_key=True, serialize=False)),
                        ('requested_at', models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        'db_table': 'league_ratingsrebuild',
                    },
                ),
                migrations.CreateModel(
                    name='PlayerRating',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('mu', models.FloatField()),
                        ('sigma', models.FloatField()),
                        ('ordinal', models.FloatField(help_text='The displayed rating: a conservative estimate, mu - 3 sigma, scaled')),
                        ('matches', models.PositiveIntegerField(default=0)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='rating', to='league.player')),
                    ],
                    options={
                        'db_table': 'league_playerrating',
                        'ordering': ['-ordinal'],
                    },
                ),
                migrations.CreateModel(
                    name='RatingPoint',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('sequence', models.PositiveIntegerField(help_text='Position of the match in the history')),
                        ('match_id', models.PositiveIntegerField(help_text='games.Match id (kept as a number: league does not import games)')),
                        ('label', models.CharField(max_length=200)),
                        ('played_at', models.DateTimeField()),
                        ('mu', models.FloatField()),
                        ('sigma', models.FloatField()),
                        ('ordinal', models.FloatField()),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_points', to='league.player')),
                    ],
                    options={
                        'db_table': 'league_ratingpoint',
                        'ordering': ['player_id', 'sequence'],
                        'constraints': [models.UniqueConstraint(fields=('player', 'sequence'), name='unique_rating_point')],
                    },
                ),
                migrations.CreateModel(
                    name='StandingRow',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('group', models.CharField(blank=True, max_length=20)),
                        ('division', models.CharField(blank=True, max_length=40)),
                        ('section', models.CharField(blank=True, help_text="'' for the ranking; 'pairs' for per-pair statistics of a team league", max_length=8)),
                        ('rank', models.PositiveIntegerField(default=0)),
                        ('played', models.PositiveIntegerField(default=0)),
                        ('won', models.PositiveIntegerField(default=0)),
                        ('drawn', models.PositiveIntegerField(default=0)),
                        ('lost', models.PositiveIntegerField(default=0)),
                        ('match_points', models.DecimalField(decimal_places=4, default=0, max_digits=12)),
                        ('byes', models.PositiveIntegerField(default=0)),
                        ('withdrawn', models.BooleanField(default=False)),
                        ('coarse', models.BooleanField(default=False, help_text='Some results were entered as game or match totals')),
                        ('metrics', models.JSONField(blank=True, default=dict)),
                        ('bullseyes_for', models.DecimalField(decimal_places=4, default=0, max_digits=12)),
                        ('bullseyes_against', models.DecimalField(decimal_places=4, default=0, max_digits=12)),
                        ('chalks_for', models.DecimalField(blank=True, decimal_places=4, default=0, max_digits=12, null=True)),
                        ('chalks_against', models.DecimalField(blank=True, decimal_places=4, default=0, max_digits=12, null=True)),
                        ('hang_jacks_for', models.DecimalField(decimal_places=4, default=0, max_digits=12)),
                        ('hang_jacks_against', models.DecimalField(decimal_places=4, default=0, max_digits=12)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('competition', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='league.competition')),
                        ('partnership', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='league.partnership')),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='league.player')),
                        ('team', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='league.team')),
                    ],
                    options={
                        'db_table': 'league_standingrow',
                        'ordering': ['section', 'group', 'rank', 'id'],
                        'constraints': [models.UniqueConstraint(fields=('competition', 'partnership'), name='unique_standing_row'), models.UniqueConstraint(fields=('competition', 'team'), name='unique_team_standing_row'), models.UniqueConstraint(fields=('competition', 'player'), name='unique_player_standing_row')],
                    },
                ),
            ],
            database_operations=[],  # the tables stay as they are (Meta.db_table)
        ),
    ]
