"""A fast smoke run of bench/bench_web.py's data builders and helpers on the test database (SQLite by default):
the entry script plays whole matches through the API, the bulk-built league holds exactly the totals the settle
task computes, and the report helpers print sane figures. No gunicorn, Celery worker or PostgreSQL needed."""

from __future__ import annotations

import importlib
import json
import os
import sys

import pytest

from bench.report import quantile
from bench.scenarios.web.entry import Monitor
from bench.scenarios.web.league import build_league, game_scripts, round_robin
from bench.scenarios.web.page import count_queries, standings_path
from bench.support.entries import EntryMatch, build_entry_competition, enter_match, game_entries, match_winners
from bench.support.processes import free_port
from bench.support.readings import rss_kb
from engine import score_chalk
from engine.game import next_dealer

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def bench():
    return importlib.import_module("bench.bench_web")  # bench/ sits in the project root, on sys.path


@pytest.fixture(scope="module")
def scripts():
    return game_scripts(seed=3, per_bucket=1)


@pytest.mark.parametrize("winner", ["a", "b"])
def test_each_game_is_six_hands_won_at_14_by_the_chosen_side(winner):
    score, dealer = [0, 0], 1
    for number, entry in enumerate(game_entries(winner), start=1):
        result = score_chalk({**entry, "players": 4, "dealer": dealer, "score_before": score})
        assert result["kick_points"] == [0, 0] and sum(result["points"]) == 4  # every hand scores for both sides
        score, dealer = result["score_after"], next_dealer(4, dealer, result)
        assert (result["winner"] is not None) == (number == 6)
    assert score == ([14, 10] if winner == "a" else [10, 14])


def test_scorekeepers_enter_whole_matches_through_the_api(client, django_capture_on_commit_callbacks):
    from games.models import Hand, Match
    from standings.models import StandingRow

    competition, matches = build_entry_competition(2, slug="smoke-entry")
    monitor = Monitor(competition.pk, matches)

    def post(path, payload, headers):
        with django_capture_on_commit_callbacks(execute=True):  # the settle task runs as on a real commit
            response = client.post(path, json.dumps(payload), content_type="application/json", headers=headers)
        return response.status_code, response.content

    def wait_settled(match_id, version):
        monitor.poll_once()
        return monitor.wait_settled(match_id, version, timeout=0)

    runs = [enter_match(post, match, match_winners(i), expect=monitor.expect, wait_settled=wait_settled)
            for i, match in enumerate(matches)]
    monitor.poll_once()

    assert [run.errors for run in runs] == [[], []]
    assert [run.ok for run in runs] == [18, 12] and [run.sent for run in runs] == [18, 12]
    assert [tuple(run.games) for run in runs] == [match_winners(0), match_winners(1)]
    assert Hand.objects.filter(game__match__competition=competition).count() == 30
    assert list(Match.objects.filter(competition=competition).order_by("id").values_list("status", "winner")) == [
        ("complete", "a"), ("complete", "b")]
    rows = {r.partnership_id: (r.chalks_for, r.chalks_against) for r in StandingRow.objects.filter(
        competition=competition)}
    for match, run in zip(matches, runs, strict=True):
        assert rows[match.side_a] == run.chalks and rows[match.side_b] == run.chalks[::-1]
    assert monitor.outstanding() == 0 and len(monitor.to_settled) == len(monitor.to_standings) == 30
    assert all(latency >= 0 for latency in monitor.to_standings)


def test_a_refused_hand_is_an_error_of_the_run():
    match = EntryMatch(id=1, token="t", side_a=1, side_b=2)
    run = enter_match(lambda path, payload, headers: (409, b'{"errors": []}'), match, ("a", "a"))
    assert (run.sent, run.ok, len(run.errors)) == (1, 0, 1) and "HTTP 409" in run.errors[0]


def snapshot():
    from games.models import Game, Hand, Match

    return (list(Match.objects.order_by("id").values("id", "status", "games_a", "games_b", "winner", "version",
                                                     "settled_version", "chalks_a", "chalks_b", "hang_jacks_a",
                                                     "hang_jacks_b")),
            list(Game.objects.order_by("id").values("match_id", "number", "first_dealer", "score_a", "score_b",
                                                    "hang_jacks_a", "hang_jacks_b", "winner", "next_dealer",
                                                    "hands_counted")),
            list(Hand.objects.order_by("id").values("game_id", "number", "dealer", "result", "points_a", "points_b",
                                                    "score_a_after", "score_b_after", "void_reason", "deleted")))


def test_the_bulk_league_holds_what_the_settle_task_computes(scripts):
    from games import services
    from games.models import Hand, HandVersion, Match
    from league.models import Entry
    from standings.models import StandingRow
    from standings.services import refresh_standings, standings_rows

    league = build_league(6, 15, slug="smoke-league", scripts=scripts, chunk=4)
    competition = league["competition"]
    assert league["matches"] == 15 and league["hands"] == Hand.objects.count() == HandVersion.objects.count()
    assert Entry.objects.filter(competition=competition).count() == 6
    statuses = list(Match.objects.filter(competition=competition).values_list("status", flat=True))
    assert statuses.count("complete") == 13 and statuses.count("in_progress") == 1 and statuses.count("scheduled") == 1
    needed = competition.games_to_win()
    for match in Match.objects.filter(competition=competition, status="complete"):
        assert max(match.games_a, match.games_b) == needed > min(match.games_a, match.games_b)

    before = snapshot()
    for match_id in Match.objects.values_list("id", flat=True):
        services.settle_match(match_id)
    assert snapshot() == before  # nothing for the settle task to change: the totals are consistent

    assert refresh_standings(competition.pk) == 6
    rows = list(StandingRow.objects.filter(competition=competition).values("played", "won", "lost", "bullseyes_for",
                                                                           "bullseyes_against", "chalks_for",
                                                                           "chalks_against"))
    assert sum(r["played"] for r in rows) == 2 * 13 and sum(r["won"] for r in rows) == 13
    assert sum(r["bullseyes_for"] for r in rows) == sum(r["bullseyes_against"] for r in rows)
    assert sum(r["chalks_for"] for r in rows) == sum(r["chalks_against"] for r in rows) > 0
    assert len(standings_rows(competition.pk)) == 6

    path = standings_path(competition)
    queries, status = count_queries(path)
    assert status == 200 and 0 < queries < 20


def test_game_scripts_cover_every_dealer_and_winner(scripts):
    assert set(scripts) == {(d, w) for d in range(4) for w in "ab"}
    for (dealer, winner), games in scripts.items():
        for game in games:
            assert game.first_dealer == dealer == game.hands[0][0] and game.winner == winner
            assert max(game.score) >= 14 and all(r["winner"] is None for _, _, r in game.hands[:-1])


def test_round_robin_pairs_everyone_once():
    rounds = round_robin(8)
    assert len(rounds) == 7 and all(sorted(x for pair in r for x in pair) == list(range(8)) for r in rounds)
    pairs = {frozenset(pair) for r in rounds for pair in r}
    assert len(pairs) == 28


def test_report_helpers(bench):
    assert quantile([3.0, 1.0, 2.0], 0.5) == 2.0 and quantile([1.0, 2.0], 0.95) == pytest.approx(1.95)
    ok = bench.figure("x", "x", 0.1, "ms", 0.15, "<")
    bad = bench.figure("y", "y", 2, "hands", 0, "==")
    info = bench.figure("z", "z", 12.0, "entries/s")
    assert (ok["status"], bad["status"], info["status"]) == ("PASS", "FAIL", "info")
    assert bench.figure("n", "n", float("nan"), "ms", 1.0)["status"] == "SKIP"
    report = bench.format_report([ok, bad, info], "smoke")
    assert "PASS" in report and "FAIL" in report and "targets missed: y" in report
    assert 1024 <= free_port() <= 65535
    if sys.platform.startswith("linux"):
        assert rss_kb(os.getpid()) > 1000
    assert rss_kb(2**22 + 12345) is None
