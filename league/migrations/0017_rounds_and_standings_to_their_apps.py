from django.db import migrations

MOVED = {'draw': ['round', 'bye'],
         'standings': ['standingrow', 'ratingsrebuild', 'playerrating', 'ratingpoint']}


def move_content_types(apps, schema_editor, *, backwards=False):
    """The moved models' content types follow them, and with them their permissions and admin history. A content
    type the target app already has (made by a later migrate) is left alone."""
    content_type = apps.get_model('contenttypes', 'ContentType')
    database = schema_editor.connection.alias
    for app_label, models in MOVED.items():
        source, target = (app_label, 'league') if backwards else ('league', app_label)
        for model in models:
            if not content_type.objects.using(database).filter(app_label=target, model=model).exists():
                content_type.objects.using(database).filter(app_label=source, model=model).update(app_label=target)
    content_type.objects.clear_cache()


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, backwards=True)


class Migration(migrations.Migration):
    """Round and Bye are draw's now, StandingRow, RatingsRebuild, PlayerRating and RatingPoint standings' (their
    0001 migrations took them over): league forgets them. Nothing changes in the database but the content types;
    the tables keep their names and rows."""

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('draw', '0001_initial'),
        ('games', '0014_rounds_are_draws'),
        ('league', '0016_stage_and_section_choices'),
        ('standings', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='Bye'),
                migrations.DeleteModel(name='Round'),
                migrations.DeleteModel(name='StandingRow'),
                migrations.DeleteModel(name='RatingsRebuild'),
                migrations.DeleteModel(name='PlayerRating'),
                migrations.DeleteModel(name='RatingPoint'),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
