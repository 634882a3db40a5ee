"""The pairing engine's flags with one spelling: ``same_club``, ``repeat_partner`` and ``repeat_opponent`` as
the pages and the byes already spelled them (the engine stored ``same-club``, ``repeat-partner`` and
``repeat-opponent`` on the matches it paired)."""

from django.db import migrations

HYPHENATED = {"same-club": "same_club", "repeat-partner": "repeat_partner", "repeat-opponent": "repeat_opponent"}
UNDERSCORED = {new: old for old, new in HYPHENATED.items()}


def respell(spelling):
    def run(apps, schema_editor):
        for name in ("Match", "TeamMatch"):
            model = apps.get_model("games", name)
            for holder in model.objects.exclude(pairing_flags=[]).only("pairing_flags").iterator():
                flags = holder.pairing_flags if isinstance(holder.pairing_flags, list) else []
                respelled = [spelling.get(flag, flag) if isinstance(flag, str) else flag for flag in flags]
                if respelled != flags:
                    model.objects.filter(pk=holder.pk).update(pairing_flags=respelled)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_side_names_of_two_long_player_names"),
    ]

    operations = [
        migrations.RunPython(respell(HYPHENATED), respell(UNDERSCORED), elidable=False),
    ]
