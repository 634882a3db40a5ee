"""The same players are one partnership.

Before the constraints, partnerships of the same players made twice (under two names) are merged into the
oldest: entries, matches, team places and standings rows move to it (a match keeps the side names it was
played under). Two of them entered in one competition cannot be merged: the migration stops and names them.
"""

import django.db.models.functions.comparison
from django.db import migrations, models


def merge_duplicates(apps, schema_editor):
    Partnership = apps.get_model("league", "Partnership")
    Entry = apps.get_model("league", "Entry")
    StandingRow = apps.get_model("league", "StandingRow")
    Team = apps.get_model("league", "Team")
    Match = apps.get_model("games", "Match")
    groups = {}
    for pk, one, two in Partnership.objects.order_by("id").values_list("id", "player_one_id", "player_two_id"):
        groups.setdefault((min(one, two or one), max(one, two or one), two is None), []).append(pk)
    for keep, *duplicates in (ids for ids in groups.values() if len(ids) > 1):
        ids = [keep, *duplicates]
        competitions = list(Entry.objects.filter(partnership_id__in=ids).values_list("competition_id", flat=True))
        if len(competitions) != len(set(competitions)):
            raise RuntimeError(f"partnerships {ids} are the same players, and two of them are entered in one "
                               "competition: remove one of those entries, then migrate again")
        Entry.objects.filter(partnership_id__in=duplicates).update(partnership_id=keep)
        Match.objects.filter(side_a_id__in=duplicates).update(side_a_id=keep)
        Match.objects.filter(side_b_id__in=duplicates).update(side_b_id=keep)
        places = Team.partnerships.through.objects
        for place in places.filter(partnership_id__in=duplicates):
            if places.filter(team_id=place.team_id, partnership_id=keep).exists():
                place.delete()
            else:
                places.filter(pk=place.pk).update(partnership_id=keep)
        kept = set(StandingRow.objects.filter(partnership_id=keep).values_list("competition_id", "section"))
        for row in StandingRow.objects.filter(partnership_id__in=duplicates):
            if (row.competition_id, row.section) in kept:
                row.delete()  # the standings are rewritten from the results at their next refresh
            else:
                kept.add((row.competition_id, row.section))
                StandingRow.objects.filter(pk=row.pk).update(partnership_id=keep)
        Partnership.objects.filter(pk__in=duplicates).delete()
    if schema_editor.connection.vendor == "postgresql":
        # the deferred foreign key checks of the updates must run before the table is altered
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0006_lost_work_sweep'),
        ('games', '0003_result_versions'),
    ]

    operations = [
        migrations.RunPython(merge_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='partnership',
            constraint=models.UniqueConstraint(django.db.models.functions.comparison.Least('player_one', 'player_two'), django.db.models.functions.comparison.Greatest('player_one', 'player_two'), condition=models.Q(('player_two__isnull', False)), name='unique_partners'),
        ),
        migrations.AddConstraint(
            model_name='partnership',
            constraint=models.UniqueConstraint(condition=models.Q(('player_two__isnull', True)), fields=('player_one',), name='unique_single_partner'),
        ),
    ]
