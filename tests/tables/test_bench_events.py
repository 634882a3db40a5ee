"""A smoke run of bench/bench_events.py: its sums (the delays between rounds, the tables stuck, the standings and the
knockout's winner compared, a team race decided again from its games), its figures and verdicts from made-up
results, and what its players read from a page or a frame (no services); and the whole benchmark at its quick size —
an 8-pair Swiss of 2 rounds and a 4-team knockout (two pairs a team, a tie at two tables) played to the end by bot
clients over real sockets — against PostgreSQL, Redis, daphne, gunicorn and a Celery worker (``services``)."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from bench.scenarios.events import player, team_readback
from bench.scenarios.events.timeline import (
    RoundTimes,
    TableTimes,
    round_delays,
    standings_differences,
    start_waits,
    stuck_tables,
)

ROOT = Path(__file__).resolve().parents[2]
bench = importlib.import_module("bench.bench_events")
T0 = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def rounds_of(competition: str, *decided_then_opened: tuple[float, float], matches: int = 4) -> list[RoundTimes]:
    """Rounds 1, 2, … of a competition, each given as (its last hand, its last table opened) in seconds."""
    return [RoundTimes(competition, number, matches, matches, at(decided), at(opened), at(opened - 0.1))
            for number, (decided, opened) in enumerate(decided_then_opened, start=1)]


def table(pk: int, status: str = "finished", started: float | None = 5, finished: float | None = 60,
          opened: float = 0) -> TableTimes:
    return TableTimes(pk, "swiss", 1, status, at(opened), None if started is None else at(started),
                      None if finished is None else at(finished))


LINE = (1, 7, Decimal("4.0000"), 2, 2, 0, Decimal("28.0000"), Decimal("11.0000"))


def result(delays: tuple[float, ...] = (1.5, 2.0, 2.5), stuck: bool = False, differ: bool = False,
           over: bool = True) -> dict:
    # round n's last hand at 100 n + 50; round n + 1's last table opened the delay after it
    swiss = [(50.0, 0.0)] + [(100 * n + 150, 100 * n + 50 + delay) for n, delay in enumerate(delays)]
    tables = [table(1), table(2, status="playing", finished=None, started=10) if stuck else table(2)]
    other = (2, *LINE[1:]) if differ else LINE
    return {
        "round_times": rounds_of("swiss", *swiss), "table_times": tables, "ended_at": at(2000),
        "sizes": {"stuck_after": 600.0}, "expected_rounds": {"swiss": 4}, "rounds": {"swiss": 4 if over else 3},
        "over": over, "wall_s": 300.0, "matches": {"swiss": 32}, "forfeits": 0, "hands": 250,
        "actions_by": {"player": 6000}, "stats": {"actions": 6000, "refused": {}, "closed": 0, "connect_failures": 0,
                                                  "resyncs": 0, "polls": 900, "poll_errors": 0},
        "client_failures": [], "standings": {"swiss": {"stored": [LINE], "from_hands": [other]}}, "poll": 1.5,
        "winners": {"knockout": {"stored": 7, "from_hands": 8 if differ else 7, "name": "Team 3"}},
        "servers": 2, "cpu_pct": {"daphne": 40.0, "gunicorn": 10.0, "worker": 5.0}, "bench_cpu_pct": 3.0,
        "load_start": "1.00/1.00/1.00", "load_end": "2.00/1.50/1.00",
    }


def by_name(figures: list[dict]) -> dict[str, dict]:
    return {f["name"]: f for f in figures}


# ---------------------------------------------------------------------------------------- the sums
def test_the_delay_runs_from_a_round_s_last_hand_to_the_next_round_s_last_table_opened():
    rounds = rounds_of("swiss", (100, 1), (200, 103.5), (300, 201.25)) + rounds_of("knockout", (50, 2), (90, 52))
    delays, unmeasured = round_delays(rounds)
    assert [(d.competition, d.after_round, d.seconds) for d in delays] == [
        ("knockout", 1, 2.0), ("swiss", 1, 3.5), ("swiss", 2, 1.25)]
    assert delays[1].published_after == pytest.approx(3.4)
    assert unmeasured == []


def test_a_next_round_with_a_table_missing_is_reported_not_measured():
    first, second = rounds_of("swiss", (100, 1), (200, 103.5))
    missing = RoundTimes("swiss", 2, 4, 3, second.decided_at, second.last_opened_at, second.published_at)
    delays, unmeasured = round_delays([first, missing])
    assert delays == [] and unmeasured == ["swiss round 2: 3 of 4 tables opened"]


def test_a_table_is_stuck_when_not_finished_within_the_limit_of_its_start():
    tables = [table(1, finished=60), table(2, finished=700), table(3, status="closed", finished=None),
              table(4, status="playing", finished=None, started=1500),  # young when the run ended: not stuck
              table(5, status="lobby", started=None, finished=None, opened=100),  # never started, long ago
              table(6, started=None, finished=20)]  # a forfeit: finished, never dealt
    stuck = stuck_tables(tables, limit=600, now=at(1800))
    assert [t.id for t in stuck] == [2, 3, 5]
    assert start_waits(tables) == [5, 5, 5, 1500]


def test_the_standings_are_compared_line_by_line_in_rank_order():
    assert standings_differences([LINE, (2, 8, *LINE[2:])], [LINE, (2, 8, *LINE[2:])]) == []
    swapped = standings_differences([LINE, (2, 8, *LINE[2:])], [(1, 8, *LINE[2:]), (2, 7, *LINE[2:])])
    assert len(swapped) == 2 and swapped[0].startswith("line 1: stored (1, 7,")
    assert standings_differences([LINE], []) == ["1 lines stored, 0 from the hands"]
    level = [(2, 11, *LINE[2:]), (2, 9, *LINE[2:])]  # a tie: the stored rows keep the order they were first written
    assert standings_differences(level, level[::-1]) == []


# ---------------------------------------------------------------------------------------- figures and verdicts
def test_the_delay_is_held_to_five_seconds_and_nothing_may_be_stuck_or_differ():
    figures = by_name(bench.all_figures(result()))
    assert figures["delay_p95"]["status"] == "PASS" and figures["delay_p95"]["target"] == 5.0
    assert figures["delay_p95"]["value"] == pytest.approx(2.45)
    assert figures["stuck"]["status"] == "PASS" and figures["standings"]["status"] == "PASS"
    assert figures["rounds"]["status"] == "PASS" and figures["rounds"]["value"] == 4
    assert {figures[name]["status"] for name in ("matches", "hands", "start_wait_p95", "clients", "cpu")} == {"info"}

    bad = by_name(bench.all_figures(result(delays=(1.0, 2.0, 5.5), stuck=True, differ=True, over=False)))
    assert bad["delay_p95"]["status"] == "FAIL"
    assert bad["stuck"]["status"] == "FAIL" and "table 2 (swiss round 1) playing" in bad["stuck"]["detail"]
    assert bad["standings"]["status"] == "FAIL" and "line 1" in bad["standings"]["detail"]
    assert bad["standings"]["value"] == 2, "a line and the winner differ"
    assert "knockout won by Team 3 (from the hands 8)" in bad["standings"]["detail"]
    assert "knockout won by Team 3;" not in figures["standings"]["detail"] and figures["standings"]["value"] == 0
    assert bad["rounds"]["status"] == "FAIL" and "NOT over" in bad["rounds"]["detail"]


def test_no_delay_measured_is_a_skip_not_a_pass():
    lone = result()
    lone["round_times"] = lone["round_times"][:1]
    assert by_name(bench.all_figures(lone))["delay_p95"]["status"] == "SKIP"


def test_the_report_prints_each_figure_beside_its_target():
    text = bench.format_report(bench.all_figures(result()), "full")
    assert "last hand → next round's tables open p95" in text and "2.45" in text and "<= 5.00" in text
    assert "load now" in text.splitlines()[0] and text.splitlines()[-1] == "all targets met"


def test_bad_sizes_are_refused_by_name(capsys):
    for argv, name in ((["--swiss-pairs", "7"], "--swiss-pairs"),
                       (["--swiss-rounds", "9", "--swiss-pairs", "8"], "--swiss-rounds"),
                       (["--knockout-teams", "1"], "--knockout-teams"),
                       (["--knockout-teams", "-2"], "--knockout-teams"),
                       (["--team-target", "0"], "--team-target"),
                       (["--knockout-pairs", "8"], "--knockout-pairs: the knockout is of teams")):
        with pytest.raises(SystemExit) as exited:
            bench.main(argv)
        assert exited.value.code == 2 and name in capsys.readouterr().err


# ---------------------------------------------------------------------------------------- a team race from its games
def test_a_team_race_counts_the_games_of_both_tables_in_the_order_they_were_won_up_to_its_target():
    class Tie:
        target = 2

    tables = {1: team_readback._Table(match=None), 2: team_readback._Table(match=None)}
    won = [team_readback._Game(1, 1, 11, "a", at(30), (5, 2), [1, 0]),
           team_readback._Game(2, 1, 21, "b", at(10), (3, 5)),
           team_readback._Game(2, 2, 22, "a", at(40), (5, 4)),  # won after the race was decided: not counted
           team_readback._Game(1, 2, 12, "a", at(35), (5, 0))]
    assert team_readback._race(Tie(), tables, won) == (2, 1, "a")
    assert (tables[1].games, tables[1].chalks, tables[1].hang) == ([2, 0], [10, 2], [1, 0])
    assert (tables[2].games, tables[2].chalks, tables[2].counted) == ([0, 1], [3, 5], 1)


# ---------------------------------------------------------------------------------------- what the players read
def test_a_player_finds_its_tables_in_the_your_tables_section_only():
    page = ('<section id="my-tables"><h2>Your tables</h2><ul><li><a href="/tables/12/">Table 12</a></li>'
            '<li><a href="/tables/9/">Table 9</a></li></ul></section>'
            '<section id="open-tables"><a href="/tables/40/">Table 40</a></section>')
    assert player.tables_listed(page) == [12, 9]
    assert player.tables_listed('<section id="open-tables"><a href="/tables/40/">x</a></section>') == []


def test_a_player_moves_only_on_a_frame_that_gives_its_seat_the_turn():
    client = player.Player(player.BenchPlayer("p", 1, "s", "swiss"), 1, 2, player.PlayerStats(), random.Random(1),
                           poll=1.0, stop=asyncio.Event())
    mine = {"view": {"seat": 2, "legal": ["play JH", "play 2C"]}, "table": {"status": "playing", "turn": 2}}
    assert client.my_move(mine) in ("play JH", "play 2C")
    assert client.my_move({**mine, "table": {"status": "playing", "turn": 1}}) is None
    assert client.my_move({**mine, "table": {"status": "finished", "turn": 2}}) is None
    assert client.my_move({"view": None, "table": {"status": "lobby"}}) is None
    assert player.lost_by([0, 1], 0) and player.lost_by([0, 1], 2) and not player.lost_by([0, 1], 3)
    assert not player.lost_by([1, 0], None)


def test_a_socket_sends_at_most_eighteen_actions_in_ten_seconds():
    async def sends() -> list[float]:
        window = player.SendWindow()
        loop = asyncio.get_running_loop()
        started = loop.time()
        window.times.extend([loop.time() - 9.8] * player.SENDS_PER_WINDOW)  # a full window, about to open
        await window.wait_turn()
        return [loop.time() - started]

    waited = asyncio.run(sends())
    assert 0.1 <= waited[0] < 2.0  # it waited for the oldest send to leave the window


# ---------------------------------------------------------------------------------------- the whole benchmark
@pytest.mark.services
@pytest.mark.slow
def test_a_swiss_and_a_team_knockout_played_online_to_the_end_against_daphne_a_worker_postgres_and_redis():
    import dj_database_url

    database = dj_database_url.parse(os.environ["DATABASE_URL"])
    server = f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}"
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    run = subprocess.run(
        [sys.executable, "bench/bench_events.py", "--quick", "--json", "--pg", server,
         "--database", f"{database['NAME']}_bench_events", "--redis", os.environ["REDIS_URL"]],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=540)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout)
    measured, figures = report["result"], {f["name"]: f for f in report["figures"]}
    assert measured["over"], run.stderr[-3000:]
    assert measured["rounds"] == {"swiss": 2, "knockout": 2} and measured["matches"] == {"swiss": 8, "knockout": 3}
    assert measured["tables"] == {"swiss": 8, "knockout": 6}  # each team match seated by itself at its two tables
    assert measured["forfeits"] == 0 and measured["hands"] >= 14
    assert set(measured["actions_by"]) == {"player"}  # every move a client's: no clock, no bot
    assert measured["stats"]["closed"] == 0 and measured["client_failures"] == []
    assert len(measured["table_times"]) == 14
    for name in ("rounds", "stuck", "standings"):
        assert figures[name]["status"] == "PASS", figures[name]
    assert figures["delay_p95"]["value"] > 0  # two delays measured: the Swiss's and the knockout's
    assert figures["delay_p95"]["status"] in ("PASS", "FAIL")  # its target is the full run's, on a quiet machine
    assert set(measured["standings"]) == {"swiss", "knockout", "knockout pairs"}
    assert [len(both["stored"]) for both in measured["standings"].values()] == [8, 4, 8]  # equal: figures["standings"]
    winner = measured["winners"]["knockout"]
    assert winner["stored"] is not None and winner["stored"] == winner["from_hands"]
