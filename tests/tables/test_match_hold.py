"""An online table's hold on its match is data on the match (``Match.held_by_table``): set when the fixture's
table opens, released on every way the table stops (ended by the organiser, the match played out, a forfeit, the
sheet changed behind its back, closed idle), so no stopped table keeps a hold; ``games`` refuses a change of a
held match's results unless the holding table makes it. The data migration holds the matches of the tables open
when it runs."""

from __future__ import annotations

import ast
import importlib
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.utils import timezone

from games.common import check_not_held
from games.models import Match
from games.services import MatchHeldError, record_forfeit
from league.models import Competition
from tables import closing, dealing, fixtures
from tables.changes import OPEN
from tables.models import Table
from tests.factories import make_scene, make_user
from tests.tables.helpers import fresh, play_out

pytestmark = pytest.mark.django_db
TABLES = Path(__file__).resolve().parents[2] / "tables"


@pytest.fixture
def scene():
    scene = make_scene("Hold", organiser="org_hold", scorekeeper="keeper_hold", match_format=Competition.BEST_OF,
                       match_games=1, ruleset={"target": 5})
    match = scene["match"]
    for player in (match.side_a.player_one, match.side_b.player_one, match.side_a.player_two,
                   match.side_b.player_two):
        player.user = make_user()
        player.save()
    return scene


def held_by(match: Match) -> int | None:
    return Match.objects.values_list("held_by_table", flat=True).get(pk=match.pk)


def assert_no_stopped_table_holds() -> None:
    stopped = Table.objects.exclude(status__in=OPEN).values("pk")
    assert not Match.objects.filter(held_by_table__in=stopped).exists()
    for table in Table.objects.filter(kind=Table.FIXTURE, status__in=OPEN):
        assert held_by(table.match) == table.pk


def test_opening_holds_the_match_and_ending_online_play_releases_it(scene):
    match = scene["match"]
    assert held_by(match) is None
    table = fixtures.open_fixture(match, scene["organiser"])
    assert held_by(match) == table.pk
    Match.objects.filter(pk=match.pk).update(held_by_table=None)  # a hold lost: opening again finds the table, holds
    assert fixtures.open_fixture(match, scene["organiser"]) == table and held_by(match) == table.pk
    fixtures.end_fixture(dealing.start(table), scene["organiser"])
    assert fresh(table).status == Table.CLOSED and held_by(match) is None
    assert_no_stopped_table_holds()
    again = fixtures.open_fixture(match, scene["organiser"])  # a new table holds it now
    assert again != table and held_by(match) == again.pk


def test_the_match_played_to_its_end_releases_it(scene):
    match = scene["match"]
    table = play_out(dealing.start(fixtures.open_fixture(match, scene["organiser"])))
    assert table.status == Table.FINISHED and held_by(match) is None
    assert_no_stopped_table_holds()


def test_a_forfeit_goes_through_the_hold_and_the_table_finishes_releasing_it(scene,
                                                                              django_capture_on_commit_callbacks):
    match = scene["match"]
    table = dealing.start(fixtures.open_fixture(match, scene["organiser"]))
    with django_capture_on_commit_callbacks(execute=True):
        record_forfeit(match, outcome=Match.FORFEIT_A, user=scene["organiser"])
    assert fresh(table).status == Table.FINISHED and held_by(match) is None
    assert_no_stopped_table_holds()


def test_a_sheet_changed_behind_the_tables_back_releases_it(scene):
    match = scene["match"]
    table = dealing.start(fixtures.open_fixture(match, scene["organiser"]))
    Match.objects.filter(pk=match.pk).update(outcome=Match.FORFEIT_A, winner="b", status=Match.COMPLETE)
    assert play_out(table).status == Table.FINISHED and held_by(match) is None
    assert_no_stopped_table_holds()


def test_closing_an_idle_table_releases_it(scene):
    match = scene["match"]
    table = fixtures.open_fixture(match, scene["organiser"])
    assert closing.close_idle(now=timezone.now() + timedelta(days=1)) == [table.pk]
    assert fresh(table).status == Table.CLOSED and held_by(match) is None
    assert_no_stopped_table_holds()


def test_only_the_holding_table_changes_a_held_matchs_results(scene):
    match = scene["match"]
    table = fixtures.open_fixture(match, scene["organiser"])
    locked = Match.objects.get(pk=match.pk)
    for holder in (None, table.pk + 1):
        with pytest.raises(MatchHeldError, match=f"being played online at table {table.pk}: ") as refused:
            check_not_held(locked, "hand", holder=holder)
        assert refused.value.field == "match" and refused.value.conflict
    check_not_held(locked, "hand", holder=table)  # the table itself
    check_not_held(locked, "hand", holder=table.pk)
    check_not_held(locked, "forfeit")  # the organiser's forfeit goes through (and ends the table after the commit)
    with pytest.raises(MatchHeldError):
        check_not_held(locked, "forfeit cleared")


def test_every_change_of_a_tables_status_out_of_the_open_ones_releases_its_match():
    """No path stops a table without ``tables.changes.leave_open`` (which releases the match): every assignment
    of a table's ``status`` elsewhere in the app sets an open status."""
    found = []
    for path in sorted(TABLES.glob("*.py")):
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                targets = node.targets if isinstance(node, ast.Assign) else []
                for target in targets:
                    if isinstance(target, ast.Attribute) and target.attr == "status":
                        value = ast.unparse(node.value)
                        found.append((path.name, function.name, value))
    outside = [(name, function, value) for name, function, value in found
               if (name, function) != ("changes.py", "leave_open")]
    assert outside and all(value in ("Table.PLAYING", "Table.LOBBY") for _, _, value in outside), outside
    assert ("changes.py", "leave_open", "status") in found
    update_calls = [path.name for path in TABLES.glob("*.py") if ".update(status" in path.read_text()]
    assert update_calls == []  # no queryset update changes a status behind leave_open's back


def test_the_data_migration_holds_the_matches_of_the_tables_open_when_it_runs(scene):
    match = scene["match"]
    table = fixtures.open_fixture(match, scene["organiser"])
    other = make_scene("Hold 2", organiser="org_hold2", scorekeeper="keeper_hold2")["match"]
    closed = Table.objects.create(kind=Table.FIXTURE, match=other, status=Table.CLOSED)
    Match.objects.update(held_by_table=None)
    migration = importlib.import_module("tables.migrations.0006_hold_matches_of_open_tables")
    migration.hold_matches_of_open_tables(django_apps, None)
    assert held_by(match) == table.pk and held_by(other) is None and closed.pk
    migration.release_all(django_apps, None)
    assert held_by(match) is None
