"""``TABLES_BOT_PACE``: the seconds a bot waits before it moves, about 1 by default. A new table takes
it as its ``bot_pace`` (a casual table made in the lobby, a fixture's table), which the clock honours: a bot's
move is due that long after its turn starts, and not before. A bad value stops the settings with the reason."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from league.models import Competition
from tables import clock, dealing, fixtures, seating
from tables.models import Table
from tests.factories import make_scene, make_user
from tests.tables.helpers import fresh

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_the_default_pace_is_about_a_second():
    if "TABLES_BOT_PACE" not in os.environ:
        assert settings.TABLES_BOT_PACE == 1.0
    assert Table._meta.get_field("bot_pace").get_default() == settings.TABLES_BOT_PACE


@override_settings(TABLES_BOT_PACE=0.4)
def test_a_table_made_in_the_lobby_is_paced_by_the_setting_and_its_bots_move_on_time(client):
    user = make_user("pacer")
    client.force_login(user)
    client.post(reverse("tables_lobby"), {"players": "2", "visibility": "public", "seat": "0", "bot_1": "random"})
    table = Table.objects.get()
    assert table.bot_pace == 0.4
    seating.leave_seat(table, 0, user)  # a bot in the creator's seat too: every move is a bot's
    seating.add_bot(table, 0, "random")
    table = dealing.start(table)
    for _ in range(3):  # the bots' turns: each due exactly bot_pace after it started
        table = fresh(table)
        if table.status != Table.PLAYING:
            break
        assert table.deadline_at == table.turn_started_at + timedelta(seconds=0.4)
        assert clock.play_due(table.pk, now=table.deadline_at - timedelta(seconds=0.01)) is None  # not yet
        assert clock.play_due(table.pk, now=table.deadline_at) is not None


@override_settings(TABLES_BOT_PACE=0.25)
def test_a_table_made_by_the_service_takes_the_setting_unless_given_its_own():
    assert seating.create_table(make_user()).bot_pace == 0.25
    assert seating.create_table(make_user(), bot_pace=3).bot_pace == 3.0


@override_settings(TABLES_BOT_PACE=2.5)
def test_a_fixtures_table_takes_the_setting_too():
    scene = make_scene("Paced", organiser="p-org", scorekeeper="p-keeper", match_format=Competition.SINGLE)
    table = fixtures.open_fixture(scene["match"], scene["organiser"])
    assert table.bot_pace == 2.5  # the pace of a bot covering a player away or out of time


@pytest.mark.parametrize(("value", "words"), [("fast", "is not a number of seconds"),
                                              ("90", "is not from 0 to 60 seconds")])
def test_a_bad_pace_stops_the_settings_with_the_reason(value, words):
    done = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
                                          "TABLES_BOT_PACE": value})
    assert done.returncode != 0 and f"TABLES_BOT_PACE: '{value}' {words}" in done.stderr
