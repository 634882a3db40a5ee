"""One settle task at a time per competition: hands committed while it waits in the queue queue no task of their
own, and the task settles every match with unsettled changes, a batch of matches per transaction."""

from __future__ import annotations

import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.db import DataError, OperationalError, connection, transaction
from django.utils import timezone

import games.settle
from games.clock import SETTLE_REQUEST_STALE, request_settle, take_settle_request
from games.entry import enter_hand
from games.models import Game, Hand, Match
from games.settle import SettleFailed, queue_settle, settle_backlog
from games.tasks import settle_match_task
from games.teams import create_team_match
from league import bulk, dispatch
from league.bulk import update_rows
from league.models import Competition, Entry, ResultsClock, Team
from standings.models import StandingRow
from tests.factories import make_club, make_competition, make_match, make_partnership, sweep

pytestmark = pytest.mark.django_db


def enter_sweep(match: Match, number: int, team: int = 0) -> Hand:
    return enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep(team), author_label="test")


def test_the_first_request_queues_a_task_and_the_next_ones_wait_for_it():
    competition = make_competition()
    assert request_settle(competition.pk) is True  # no clock row yet: created with the request
    assert request_settle(competition.pk) is False
    assert request_settle(competition.pk) is False
    take_settle_request(competition.pk)  # the task starts
    assert request_settle(competition.pk) is True
    assert ResultsClock.objects.get(pk=competition.pk).settle_requested_at is not None


def test_a_request_whose_task_never_started_is_taken_for_lost():
    competition = make_competition()
    assert request_settle(competition.pk) is True
    old = timezone.now() - timedelta(seconds=SETTLE_REQUEST_STALE + 1)
    ResultsClock.objects.filter(pk=competition.pk).update(settle_requested_at=old)
    assert request_settle(competition.pk) is True


def test_commits_while_a_task_waits_queue_nothing():
    competition = make_competition()
    one, two = make_match(competition), make_match(competition)
    with mock.patch("games.tasks.settle_match_task.apply_async") as send:
        queue_settle(competition.pk, one.pk, 1)
        queue_settle(competition.pk, two.pk, 1)
        queue_settle(competition.pk, one.pk, 2)
    assert send.call_args_list == [mock.call(args=(one.pk, 1, competition.pk), countdown=None, ignore_result=True,
                                                   retry_policy=dispatch.PUBLISH_RETRY_POLICY)]


def test_the_task_settles_every_match_with_unsettled_hands(django_capture_on_commit_callbacks):
    competition = make_competition()
    matches = [make_match(competition) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=False) as queued:  # three commits, no task run yet
        for number, match in enumerate(matches):
            for hand in range(1, number + 2):
                enter_sweep(match, hand, team=number % 2)
    assert len([queued_ for queued_ in queued if "mark_changed" in queued_.__qualname__]) == 6  # and live notices
    assert all(m.settled_version == 0 for m in Match.objects.filter(competition=competition))

    result = settle_match_task(matches[0].pk, 1)

    assert sorted(result["also_settled"]) == [matches[1].pk, matches[2].pk]
    for number, match in enumerate(matches):
        match.refresh_from_db()
        assert (match.version, match.settled_version, match.status) == (number + 1, number + 1, Match.IN_PROGRESS)
        game = Game.objects.get(match=match, number=1)
        chalks = 4 * (number + 1)
        assert (game.score_a, game.score_b) == ((chalks, 0) if number % 2 == 0 else (0, chalks))
    rows = {row.partnership_id: row.chalks_for for row in StandingRow.objects.filter(competition=competition)}
    assert rows[matches[2].side_a_id] == 12 and rows[matches[1].side_b_id] == 8
    assert ResultsClock.objects.get(pk=competition.pk).settle_requested_at is None


def test_a_task_for_a_match_already_settled_still_settles_the_rest(django_capture_on_commit_callbacks):
    competition = make_competition()
    one, two = make_match(competition), make_match(competition)
    with django_capture_on_commit_callbacks(execute=True):
        enter_sweep(one, 1)  # settled at once (eager)
    with django_capture_on_commit_callbacks(execute=False):
        enter_sweep(two, 1)  # its commit found a task queued: it queued none

    result = settle_match_task(one.pk, 1)  # the queued task of the first hand, late
    assert result["also_settled"] == [two.pk]
    assert Match.objects.get(pk=two.pk).settled_version == 1


def test_more_matches_than_a_batch_are_all_settled(django_capture_on_commit_callbacks, monkeypatch):
    monkeypatch.setattr("games.settle.BACKLOG_LIMIT", 2)
    competition = make_competition()
    matches = [make_match(competition) for _ in range(5)]
    with django_capture_on_commit_callbacks(execute=False):
        for match in matches:
            enter_sweep(match, 1)
    settled = settle_backlog(competition.pk, matches[0].pk, 1)
    assert sorted(m.pk for m in settled.others) == [m.pk for m in matches[1:]]
    assert not Match.objects.filter(competition=competition, settled_version=0).exists()


def test_update_rows_writes_the_fields_of_many_rows_in_one_statement(django_assert_num_queries):
    competition = make_competition()
    matches = [make_match(competition) for _ in range(3)]
    for number, match in enumerate(matches):
        match.games_a, match.winner, match.chalks_known = number, "ab"[number % 2], number != 1
        match.updated_at = timezone.now()
    with django_assert_num_queries(1):
        assert update_rows(matches, ["games_a", "winner", "chalks_known", "updated_at"]) == 3
    assert list(Match.objects.filter(competition=competition).order_by("pk")
                .values_list("games_a", "winner", "chalks_known")) == [(0, "a", True), (1, "b", False), (2, "a", True)]
    assert update_rows([], ["games_a"]) == 0


def test_a_task_whose_match_was_deleted_settles_the_rest(django_capture_on_commit_callbacks):
    competition = make_competition()
    gone, kept = make_match(competition), make_match(competition)
    with django_capture_on_commit_callbacks(execute=False):
        enter_sweep(gone, 1)  # queues the task
        enter_sweep(kept, 1)  # finds it queued
    gone_pk = gone.pk
    gone.delete()

    result = settle_match_task(gone_pk, 1, competition.pk)
    assert result["status"] == "no such match" and result["also_settled"] == [kept.pk]
    assert Match.objects.get(pk=kept.pk).settled_version == 1


def test_when_the_broker_is_down_the_commit_settles_in_process(django_capture_on_commit_callbacks, with_a_broker):
    """The commits that found the request set while the send was failing count on it: all are settled."""
    competition = make_competition()
    one, two = make_match(competition), make_match(competition)

    def send(*args, **kwargs):
        queue_settle(competition.pk, two.pk, 1)  # a commit at another table meanwhile: queues nothing
        raise ConnectionError("broker down")

    with django_capture_on_commit_callbacks(execute=False):
        enter_sweep(one, 1)
        enter_sweep(two, 1)
    with mock.patch("games.tasks.settle_match_task.apply_async", side_effect=send) as delay:
        queue_settle(competition.pk, one.pk, 1)
    assert delay.call_count == 1
    assert [m.settled_version for m in Match.objects.filter(competition=competition).order_by("pk")] == [1, 1]
    assert ResultsClock.objects.get(pk=competition.pk).settle_requested_at is None
    assert StandingRow.objects.get(competition=competition, partnership=one.side_a).chalks_for == 4


def test_a_retry_after_the_settle_committed_still_refreshes_the_standings(django_capture_on_commit_callbacks):
    competition = make_competition()
    match = make_match(competition)
    with django_capture_on_commit_callbacks(execute=False):
        enter_sweep(match, 1)
    with (mock.patch("standings.receivers.refresh_standings", side_effect=OperationalError("connection lost")),
          pytest.raises(OperationalError)):
        settle_match_task.run(match.pk, 1, competition.pk)  # settled and ticked, then the refresh failed
    assert Match.objects.get(pk=match.pk).settled_version == 1

    settle_match_task.run(match.pk, 1, competition.pk)  # the retry: nothing left to settle

    clock = ResultsClock.objects.get(pk=competition.pk).version
    assert Competition.objects.get(pk=competition.pk).standings_version == clock
    assert StandingRow.objects.get(competition=competition, partnership=match.side_a).chalks_for == 4


def test_a_match_that_fails_to_settle_does_not_hold_up_the_others(django_capture_on_commit_callbacks, monkeypatch):
    competition = make_competition()
    bad, good = make_match(competition), make_match(competition)
    with django_capture_on_commit_callbacks(execute=False):
        enter_sweep(bad, 1)
        enter_sweep(good, 1)
    settle_one = games.settle._settle_one

    def failing(match, games, hands_of):
        if match.pk == bad.pk:
            raise ValueError("a bug in one match")
        return settle_one(match, games, hands_of)

    monkeypatch.setattr("games.settle._settle_one", failing)
    with pytest.raises(SettleFailed) as failure:
        settle_match_task.run(good.pk, 1, competition.pk)
    assert list(failure.value.failed) == [bad.pk]
    assert Match.objects.get(pk=good.pk).settled_version == 1
    assert Match.objects.get(pk=bad.pk).settled_version == 0
    assert StandingRow.objects.get(competition=competition, partnership=good.side_a).chalks_for == 4


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only (SQLite ignores them)")
def test_a_match_locked_while_the_task_reads_is_waited_for_not_skipped():
    """A double-submitted hand holds the match's row lock, then rolls back (its commit queues nothing): the task
    must wait for the lock and settle the match's earlier hand, which counted on this task."""
    competition = make_competition()
    one, two = make_match(competition), make_match(competition)
    with mock.patch("games.tasks.settle_match_task.apply_async") as delay:
        enter_sweep(one, 1)  # queues the task
        enter_sweep(two, 1)  # finds it queued
    assert delay.call_count == 1
    locked, release = threading.Event(), threading.Event()

    def duplicate_entry():
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=two.pk)
                locked.set()
                release.wait(10)
                raise RuntimeError("hand 1 was already entered")
        except RuntimeError:
            pass
        finally:
            connection.close()

    holder = threading.Thread(target=duplicate_entry)
    holder.start()
    assert locked.wait(10)
    threading.Timer(0.3, release.set).start()
    settle_match_task.run(one.pk, 1, competition.pk)
    holder.join(10)
    assert Match.objects.get(pk=two.pk).settled_version == 1


def test_the_team_match_completing_a_table_rebuilds_the_ratings(django_capture_on_commit_callbacks):
    club = make_club()
    competition = make_competition(club=club, ruleset={"target": 4})
    Competition.objects.filter(pk=competition.pk).update(
        entrant_kind=Competition.TEAMS, team_tables=2, team_mode=Competition.TEAM_RACE, team_target=1,
        team_games_per_table=2)
    competition.refresh_from_db()
    teams = []
    for name in ("A", "B"):
        team = Team.objects.create(competition=competition, club=club, name=name)
        team.partnerships.add(*[make_partnership(club=club, name=f"{name}{n}") for n in range(2)])
        Entry.objects.create(competition=competition, team=team)
        teams.append(team)
    pairs = [list(team.partnerships.order_by("id")) for team in teams]
    team_match = create_team_match(competition, teams[0], teams[1],
                                                 tables=list(zip(*pairs, strict=True)))
    table = team_match.table_matches.order_by("table_number").first()
    with (mock.patch("standings.receivers.schedule_ratings_rebuild") as rebuild,
          django_capture_on_commit_callbacks(execute=True)):
        enter_sweep(table, 1)  # wins the game, and with it the race to 1 bullseye: settled in its commit
    assert Match.objects.get(pk=table.pk).status == Match.COMPLETE
    assert rebuild.called


def test_update_rows_takes_nulls_json_and_many_rows_in_several_statements(monkeypatch, django_assert_num_queries):
    competition = make_competition()
    matches = [make_match(competition) for _ in range(5)]
    for number, match in enumerate(matches):
        match.pairing_flags = [{"flag": "float", "n": number}]
        match.scheduled_at = None if number % 2 else timezone.now()
        match.table = f"T{number}"
    monkeypatch.setattr(bulk, "MAX_PARAMETERS", 8)  # 4 columns: 2 rows a statement
    with django_assert_num_queries(3):
        assert update_rows(matches, ["pairing_flags", "scheduled_at", "table"]) == 5
    stored = list(Match.objects.filter(competition=competition).order_by("pk")
                  .values_list("pairing_flags", "scheduled_at", "table"))
    assert [(flags, at is None, table) for flags, at, table in stored] == [
        ([{"flag": "float", "n": n}], bool(n % 2), f"T{n}") for n in range(5)]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite does not enforce a column's length")
def test_update_rows_refuses_a_value_longer_than_its_column():
    match = make_match(make_competition())
    match.winner = "abc"
    with pytest.raises(DataError), transaction.atomic():
        update_rows([match], ["winner"])
