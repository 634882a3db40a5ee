"""One settle task at a time per competition: hands committed while it waits in the queue queue no task of their
own, and the task settles every match with unsettled changes, a batch of matches per transaction."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Hand, Match
from league.bulk import update_rows
from league.models import ResultsClock, StandingRow
from league.services import SETTLE_REQUEST_STALE, request_settle, take_settle_request
from tests.web.factories import make_competition, make_match, sweep

pytestmark = pytest.mark.django_db


def enter_sweep(match: Match, number: int, team: int = 0) -> Hand:
    return services.enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep(team), author_label="test")


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


def test_commits_while_a_task_waits_queue_nothing_and_a_failed_send_queues_again():
    competition = make_competition()
    one, two = make_match(competition), make_match(competition)
    with mock.patch("games.tasks.settle_match_task.delay") as delay:
        services.queue_settle(competition.pk, one.pk, 1)
        services.queue_settle(competition.pk, two.pk, 1)
        services.queue_settle(competition.pk, one.pk, 2)
    assert delay.call_args_list == [mock.call(one.pk, 1, competition.pk)]

    take_settle_request(competition.pk)
    with (mock.patch("games.tasks.settle_match_task.delay", side_effect=ConnectionError("broker down")),
          pytest.raises(ConnectionError)):
        services.queue_settle(competition.pk, one.pk, 3)
    assert ResultsClock.objects.get(pk=competition.pk).settle_requested_at is None  # the next commit tries again


def test_the_task_settles_every_match_with_unsettled_hands(django_capture_on_commit_callbacks):
    competition = make_competition()
    matches = [make_match(competition) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=False) as queued:  # three commits, no task run yet
        for number, match in enumerate(matches):
            for hand in range(1, number + 2):
                enter_sweep(match, hand, team=number % 2)
    assert len(queued) == 6
    assert all(m.settled_version == 0 for m in Match.objects.filter(competition=competition))

    from games.tasks import settle_match_task

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

    from games.tasks import settle_match_task

    result = settle_match_task(one.pk, 1)  # the queued task of the first hand, late
    assert result["also_settled"] == [two.pk]
    assert Match.objects.get(pk=two.pk).settled_version == 1


def test_more_matches_than_a_batch_are_all_settled(django_capture_on_commit_callbacks, monkeypatch):
    monkeypatch.setattr(services, "BACKLOG_LIMIT", 2)
    competition = make_competition()
    matches = [make_match(competition) for _ in range(5)]
    with django_capture_on_commit_callbacks(execute=False):
        for match in matches:
            enter_sweep(match, 1)
    settled = services.settle_backlog(competition.pk, matches[0].pk, 1)
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

    from games.tasks import settle_match_task

    result = settle_match_task(gone_pk, 1, competition.pk)
    assert result["status"] == "no such match" and result["also_settled"] == [kept.pk]
    assert Match.objects.get(pk=kept.pk).settled_version == 1
