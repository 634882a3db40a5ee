"""Hand entry and settling on PostgreSQL with a real Celery worker on Redis.

Run with ``DATABASE_URL=postgres://… REDIS_URL=redis://…/15``; skipped without them (a failure under
``REQUIRE_SERVICES=1``). The matches are played by the engine's heuristic bots; ``tests.services.plan_match``
keeps its own score of them, independent of ``games.settle.settle_match``.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time

import pytest
from django.db import connection, models

from engine import score_chalk, score_record
from engine.game import next_dealer
from games.entry import DuplicateHandError, correct_hand, enter_hand, next_hand
from games.models import Game, Hand, HandVersion, Match
from games.settle import NO_LONGER_FITS, settle_match
from games.tasks import settle_match_task
from league.models import Competition
from standings.tasks import refresh_standings_task
from tests.factories import make_competition, make_match
from tests.services import (
    MARKER_ENV,
    SLOW_ENV,
    enter_planned,
    expected_standings,
    plan_for,
    snapshot,
    standings_of,
    wait_for,
    wait_settled,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def best_of_three() -> Competition:
    return make_competition(match_format=Competition.BEST_OF, match_games=3, ruleset={"target": 14})


def drain(match: Match) -> None:
    """Wait until the worker has run every task sent so far: one solo worker takes the queue in order, so
    once a new settle task's result is in, the tasks before it are done."""
    settle_match_task.delay(match.pk).get(timeout=60)
    refresh_standings_task.delay(match.competition_id).get(timeout=60)  # and one more refresh, behind it


def assert_match_as_planned(match: Match, plan) -> None:
    match.refresh_from_db()
    assert (match.status, match.winner, match.games_a, match.games_b) == (
        Match.COMPLETE, plan.winner, plan.games_a, plan.games_b)
    games = list(match.games.order_by("number"))
    assert [(g.score_a, g.score_b) for g in games] == plan.scores
    assert [(g.hang_jacks_a, g.hang_jacks_b) for g in games] == plan.hang_jacks
    assert [g.winner for g in games] == plan.game_winners
    assert [g.hands_counted for g in games] == [sum(h.game == g.number for h in plan.hands) for g in games]


def test_a_whole_match_entered_hand_by_hand_is_settled_by_the_worker(celery_worker_process):
    """Best of 3 to 14, chalked hand by hand, then the same hands as hand records: the worker settles both
    to the winner, games and standings that the engine's own play gives."""
    competition = best_of_three()
    plan = plan_for(competition, first_dealer=1, seed="pg-whole-match")
    assert len(plan.game_winners) in (2, 3) and len(plan.hands) >= 6
    by_chalk = make_match(competition, first_dealer=1)
    by_record = make_match(competition, first_dealer=1)

    enter_planned(by_chalk, plan.hands, mode=Hand.CHALK, after_game=wait_settled)
    enter_planned(by_record, plan.hands, mode=Hand.RECORD, after_game=wait_settled)

    for match in (by_chalk, by_record):
        wait_settled(match)
        assert_match_as_planned(match, plan)
    expected = {**expected_standings(by_chalk, plan), **expected_standings(by_record, plan)}

    def without_rank(rows):
        return {p: {k: v for k, v in row.items() if k != "rank"} for p, row in rows.items()}

    with contextlib.suppress(AssertionError):
        wait_for(lambda: without_rank(standings_of(competition)) == expected, what="the standings the plan gives")
    rows = standings_of(competition)
    assert without_rank(rows) == expected
    winners = {match.side_a_id if plan.winner == "a" else match.side_b_id for match in (by_chalk, by_record)}
    assert {rows[p]["rank"] for p in winners} == {1}
    assert {rows[p]["rank"] for p in set(rows) - winners} == {3}
    chalk_hands = snapshot(by_chalk)["hands"]
    record_hands = snapshot(by_record)["hands"]
    key = ("game__number", "number", "dealer", "points_a", "points_b", "score_a_after", "score_b_after")
    assert [[h[k] for k in key] for h in chalk_hands] == [[h[k] for k in key] for h in record_hands]
    assert [h["result"] for h in record_hands] == [planned.result for planned in plan.hands]
    assert not any(h["result"]["tricks"] for h in chalk_hands)


def test_a_correction_recomputes_later_hands_and_totals(celery_worker_process):
    competition = best_of_three()
    plan = plan_for(competition, first_dealer=2, seed="pg-correction")
    game_one = [h for h in plan.hands if h.game == 1]
    # keep the dealers of the later hands: neither the hand corrected nor its replacement may be a redeal
    other = next(h for seed in range(50) for h in plan_for(competition, first_dealer=2, seed=f"other-{seed}").hands[:1]
                 if not h.result["redeal"] and h.result["points"] != game_one[0].result["points"])
    assert not game_one[0].result["redeal"]
    match = make_match(competition, first_dealer=2)
    enter_planned(match, game_one[:-1], mode=Hand.RECORD)
    before = wait_settled(match)
    totals_before = Game.objects.values_list("score_a", "score_b").get(match=match, number=1)
    first = Hand.objects.get(game__match=match, number=1)

    correct_hand(hand=first, mode=Hand.CHALK, entry=other.chalk, reason="chalked the wrong hand",
                          version=first.version, author_label="organiser")

    wait_for(lambda: Match.objects.get(pk=match.pk).settled_version > before.settled_version, what="the resettle")
    wait_settled(match)
    hands = list(Hand.objects.filter(game__match=match).order_by("number"))
    assert hands[0].version == 2 and hands[0].mode == Hand.CHALK
    assert [v.reason for v in HandVersion.objects.filter(hand=hands[0]).order_by("version")] == [
        "", "chalked the wrong hand"]
    # the engine's score of each entry after the correction, from the corrected score onward
    score, dealer, winner = (0, 0), 2, None
    for hand in hands:
        if winner is not None:
            assert hand.void_reason and not hand.counts
            continue
        context = {"players": 4, "dealer": dealer, "score_before": list(score), "ruleset": {"target": 14}}
        result = (score_chalk if hand.mode == Hand.CHALK else score_record)({**hand.entry, **context})
        assert (hand.dealer, hand.points_a, hand.points_b) == (dealer, *result["points"])
        assert (hand.score_a_after, hand.score_b_after) == tuple(result["score_after"])
        assert hand.result["score_after"] == result["score_after"]
        score, winner = tuple(result["score_after"]), result["winner"]
        dealer = next_dealer(4, dealer, result)
    game = Game.objects.get(match=match, number=1)
    assert (game.score_a, game.score_b) == score
    assert game.winner == ("" if winner is None else "ab"[winner])
    assert score != totals_before


def test_a_correction_that_moves_the_deal_voids_the_hands_that_no_longer_fit(celery_worker_process):
    """Correcting hand 1 into a misdeal (the same dealer deals again) changes who dealt the later hands: their
    records no longer replay, so they stop counting with the reason, and the task still settles the match.
    Correcting hand 1 back makes them count again."""
    competition = best_of_three()
    first_three = next(hands for seed in range(50)
                       for hands in [plan_for(competition, first_dealer=0, seed=f"pg-moved-deal-{seed}").hands[:3]]
                       if not any(h.result["redeal"] or h.result["winner"] is not None for h in hands))
    match = make_match(competition, first_dealer=0)
    enter_planned(match, first_three, mode=Hand.RECORD)
    wait_settled(match)
    hand_one = Hand.objects.get(game__match=match, number=1)

    correct_hand(hand=hand_one, mode=Hand.CHALK, entry={"penalty": {"kind": "misdeal"}},
                          reason="it was a misdeal", version=hand_one.version, author_label="organiser")
    settled = wait_settled(match)
    hands = list(Hand.objects.filter(game__match=match).order_by("number"))
    assert hands[0].result["redeal"] and hands[0].counts
    assert [h.void_reason.startswith(NO_LONGER_FITS) for h in hands[1:]] == [True, True]
    game = settled.games.get(number=1)
    assert (game.score_a, game.score_b, game.hands_counted) == (*hands[0].result["score_after"], 1)
    assert next_hand(settled).dealer == 0  # the misdealer deals again

    correct_hand(hand=hands[0], mode=Hand.RECORD, entry=first_three[0].record, reason="no, it was not",
                          version=hands[0].version, author_label="organiser")
    settled = wait_settled(match)
    hands = list(Hand.objects.filter(game__match=match).order_by("number"))
    assert [h.counts for h in hands] == [True, True, True]
    assert [h.result for h in hands] == [h.result for h in first_three]


def test_a_concurrent_double_entry_stores_one_hand(transactional_db):
    """Two scorekeepers submit the same hand at the same moment, each on its own connection: one hand is
    stored, the other submission gets DuplicateHandError."""
    competition = best_of_three()
    plan = plan_for(competition, seed="pg-double")
    match = make_match(competition)
    for planned in plan.hands[:3]:
        barrier = threading.Barrier(2)
        outcomes: list[object] = []

        def submit(label: str, planned=planned, barrier=barrier, outcomes=outcomes) -> None:
            try:
                barrier.wait(timeout=10)
                hand = enter_hand(match=match, number=planned.number, mode=Hand.RECORD,
                                           entry=planned.record, author_label=label)
                outcomes.append(hand)
            except Exception as error:  # the outcome is asserted below
                outcomes.append(error)
            finally:
                connection.close()

        threads = [threading.Thread(target=submit, args=(label,)) for label in ("table-phone", "organiser-laptop")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        stored = [o for o in outcomes if isinstance(o, Hand)]
        refused = [o for o in outcomes if isinstance(o, DuplicateHandError)]
        assert len(stored) == 1 and len(refused) == 1, outcomes
        assert f"hand {planned.number}" in refused[0].reason and stored[0].entered_by in refused[0].reason
        assert Hand.objects.filter(game__match=match, number=planned.number).count() == 1
    assert HandVersion.objects.filter(hand__game__match=match).count() == 3
    assert Match.objects.get(pk=match.pk).version == 3


@pytest.mark.slow
def test_a_killed_workers_task_is_delivered_again(celery_worker_process, tmp_path):
    """kill -9 while the settle task runs (unacknowledged: acks_late); a new worker gets it again once the
    visibility timeout has passed and settles the match."""
    from tests.conftest import WORKER_VISIBILITY_TIMEOUT

    competition = best_of_three()
    plan = plan_for(competition, seed="pg-killed")
    match = make_match(competition)
    marker = tmp_path / "settle-started"
    celery_worker_process.stop()
    celery_worker_process.start(**{SLOW_ENV: "120", MARKER_ENV: str(marker)})

    enter_hand(match=match, number=1, mode=Hand.RECORD, entry=plan.hands[0].record, author_label="t")
    wait_for(marker.exists, timeout=30, what="the slow worker to start the settle task")
    received = time.monotonic()
    celery_worker_process.kill()
    assert Match.objects.get(pk=match.pk).settled_version == 0

    # the new worker's first sweep of unacknowledged messages runs as it starts: start it once they are due
    time.sleep(max(0.0, WORKER_VISIBILITY_TIMEOUT + 1 - (time.monotonic() - received)))
    celery_worker_process.start()
    settled = wait_settled(match, timeout=WORKER_VISIBILITY_TIMEOUT + 30)
    assert settled.status == Match.IN_PROGRESS and settled.settled_version == 1
    game = settled.games.get(number=1)
    assert (game.score_a, game.score_b) == tuple(plan.hands[0].result["score_after"])
    assert game.hands_counted == 1


def test_settling_twice_or_out_of_order_changes_nothing(celery_worker_process):
    competition = best_of_three()
    plan = plan_for(competition, seed="pg-idempotent")
    first, second = make_match(competition), make_match(competition)
    enter_planned(first, plan.hands, mode=Hand.RECORD, after_game=wait_settled)
    # the second match's tasks pile up while the worker is away, then run late and in a burst
    celery_worker_process.stop()
    game_one = [h for h in plan.hands if h.game == 1]
    enter_planned(second, game_one, mode=Hand.RECORD)
    # the hand that ended game 1 settled the match in its own commit: the sheet needs no worker
    assert Match.objects.get(pk=second.pk).settled_version == len(game_one)
    celery_worker_process.start()
    drain(second)
    before = {m.pk: snapshot(m) for m in (first, second)}
    assert before[first.pk]["match"]["status"] == Match.COMPLETE
    assert before[second.pk]["match"]["status"] == Match.IN_PROGRESS
    assert before[second.pk]["match"]["settled_version"] == len(game_one)
    assert [g["winner"] for g in before[second.pk]["games"]] == [plan.game_winners[0], ""]
    assert len(before[first.pk]["standings"]) == 4

    results = [settle_match_task.delay(pk) for pk in (second.pk, first.pk, first.pk, second.pk)]
    assert [r.get(timeout=30)["match"] for r in results] == [second.pk, first.pk, first.pk, second.pk]
    settle_match(first.pk)
    settle_match(second.pk)

    assert {m.pk: snapshot(m) for m in (first, second)} == before
    assert_match_as_planned(first, plan)


def test_hands_committed_while_the_worker_is_away_wait_in_one_task(celery_worker_process):
    """A club night's burst: hands at three tables while the worker is down queue one settle task between them
    (the first commit queues it; the others find it queued), and that task settles all three tables and the
    standings once the worker is back."""
    import redis

    from league.models import ResultsClock
    from tests.conftest import TEST_QUEUE

    competition = best_of_three()
    plan = plan_for(competition, seed="pg-burst")
    tables = [make_match(competition) for _ in range(3)]
    game_one = [h for h in plan.hands if h.game == 1][:-1]  # the game stays open
    celery_worker_process.stop()
    for match in tables:
        enter_planned(match, game_one, mode=Hand.CHALK)
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        # The worker may hand back the delayed sweep it was holding when it stopped: count the settles.
        queued = [json.loads(m)["headers"]["task"] for m in client.lrange(TEST_QUEUE, 0, -1)]
    finally:
        client.close()
    assert queued.count("games.tasks.settle_match_task") == 1, queued
    assert ResultsClock.objects.get(pk=competition.pk).settle_requested_at is not None

    celery_worker_process.start()
    score = tuple(game_one[-1].result["score_after"])
    for match in tables:
        settled = wait_settled(match)
        assert settled.settled_version == len(game_one)
        assert (settled.chalks_a, settled.chalks_b) == score
    rows = wait_for(lambda: (r := standings_of(competition)) and all(
        r[m.side_a_id]["chalks_for"] == score[0] for m in tables) and r, what="the standings")
    assert all(rows[m.side_b_id]["chalks_for"] == score[1] for m in tables)
    assert ResultsClock.objects.get(pk=competition.pk).settle_requested_at is None


@pytest.mark.slow
def test_seed_demo_settles_in_process_with_a_broker_and_runs_once(transactional_db):
    """``manage.py seed_demo`` with REDIS_URL set (as under docker-compose) still settles each hand in-process,
    so the next game opens at once and nothing waits in the queue; a second run changes nothing."""
    import io

    import redis
    from django.core.management import call_command

    from config.celery import app
    from league.models import Club, Partnership, Player
    from standings.models import StandingRow

    app.conf.task_always_eager = False  # as in production: the command must not depend on the test default
    out = io.StringIO()
    started = time.perf_counter()
    call_command("seed_demo", stdout=out)
    took = time.perf_counter() - started
    print(f"seed_demo on PostgreSQL: {took:.1f} s")
    assert "Demo built" in out.getvalue() and "organiser / allfours-demo" in out.getvalue()
    assert app.conf.task_always_eager is False
    assert redis.Redis.from_url(app.conf.broker_url).llen(app.conf.task_default_queue) == 0
    assert (Club.objects.count(), Player.objects.count(), Partnership.objects.count()) == (3, 30, 15)
    league = Competition.objects.get(slug="inter-bar-league-2025")
    assert league.published and league.games_to_win() == 2
    matches = Match.objects.filter(competition=league)
    assert matches.filter(status=Match.COMPLETE).count() >= 12
    in_progress = matches.get(status=Match.IN_PROGRESS)
    assert list(in_progress.scorekeepers.values_list("username", flat=True)) == ["scorekeeper"]
    assert not matches.exclude(settled_version=models.F("version")).exists()
    assert StandingRow.objects.filter(competition=league).count() == 8
    hands, all_matches = Hand.objects.count(), Match.objects.count()
    assert_other_events(out.getvalue())

    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert "already in place" in out.getvalue()
    assert (Hand.objects.count(), Match.objects.count(), Player.objects.count()) == (hands, all_matches, 30)


def assert_other_events(output: str) -> None:
    """The Swiss night, the knockout and the team league of the demo, and everyone's ratings."""
    from draw.models import Bye, Round
    from games.models import TeamMatch
    from standings.models import PlayerRating

    swiss = Competition.objects.get(slug="friday-open-swiss")
    assert list(swiss.rounds.values_list("number", "status")) == [(1, Round.PUBLISHED), (2, Round.PUBLISHED),
                                                                   (3, Round.DRAFT)]
    assert Match.objects.filter(round__competition=swiss, round__number__lte=2, status=Match.COMPLETE).count() == 14
    assert Bye.objects.filter(round__competition=swiss).count() == 3  # fifteen pairs: one sits out each round
    knockout = Competition.objects.get(slug="christmas-knockout-2025")
    assert knockout.rounds.filter(status=Round.PUBLISHED).count() == 2
    assert TeamMatch.objects.filter(status=TeamMatch.COMPLETE, winner="a", bullseyes_a=22).count() == 1
    assert PlayerRating.objects.count() == 30 and "semi-finals paired" in output
