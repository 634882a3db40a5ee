"""A smoke run of bench/bench_tables.py: its figures and verdicts from made-up results (no services), and the whole
benchmark on 2 tables for a few seconds against PostgreSQL, Redis and a real daphne (``services``)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
bench = importlib.import_module("bench.bench_tables")


def result(tables: int, p95: float, timeouts: int = 0, layer: str = "pubsub", **extra) -> dict:
    base = {"tables": tables, "layer": layer, "servers": 1, "p50": p95 / 2, "p95": p95, "p99": p95 * 1.2,
            "max": p95 * 2, "rate": float(tables), "actions": tables * 60, "measured_s": 60.0, "rematches": 0,
            "timeouts": timeouts, "refused": 0, "refusals": {}, "unexpected": 0, "connect_failures": 0,
            "resyncs": 0, "rss_before_kb": 100_000, "rss_first_minute_kb": 120_000, "rss_end_kb": 121_000,
            "mb_per_table": 0.2, "drift_pct": 0.8, "drift_window_s": 60.0, "server_cpu_pct": 50.0,
            "bench_cpu_pct": 10.0, "loop_lag_p95": 0.002, "load_start": "1.00/1.00/1.00",
            "load_end": "1.00/1.00/1.00"}
    return {**base, **extra}


def by_name(figures: list[dict]) -> dict[str, dict]:
    return {f["name"]: f for f in figures}


def test_the_first_count_is_held_to_50_ms_and_the_largest_count_holding_100_ms_is_reported():
    figures = by_name(bench.all_figures([result(100, 0.040), result(200, 0.090), result(500, 0.300)]))
    assert figures["p95_100_pubsub"]["status"] == "PASS" and figures["p95_100_pubsub"]["target"] == 0.050
    assert figures["p95_200_pubsub"]["status"] == "PASS" and figures["p95_200_pubsub"]["target"] == 0.100
    assert by_name(bench.all_figures([result(200, 0.090)]))["p95_200_pubsub"]["target"] == 0.100  # first, not 100
    assert figures["p95_500_pubsub"]["status"] == "FAIL"
    assert figures["largest_held"]["value"] == 200
    assert figures["memory_100_pubsub"]["status"] == "PASS" and figures["drift_100_pubsub"]["status"] == "PASS"
    assert "drift_200_pubsub" not in figures  # the soak is the first count's run


def test_a_count_with_timeouts_or_no_action_does_not_hold():
    assert not bench.held(result(200, 0.050, timeouts=1))
    assert not bench.held(result(200, float("nan"), actions=0))
    assert bench.held(result(200, 0.100))
    figures = by_name(bench.all_figures([result(100, 0.060, timeouts=3, mb_per_table=1.5, drift_pct=7.0)]))
    assert figures["p95_100_pubsub"]["status"] == "FAIL"
    assert figures["timeouts_100_pubsub"]["status"] == "FAIL"
    assert figures["memory_100_pubsub"]["status"] == "FAIL"
    assert figures["drift_100_pubsub"]["status"] == "FAIL"
    assert figures["largest_held"]["value"] == 0


def test_the_report_prints_each_figure_beside_its_target():
    text = bench.format_report(bench.all_figures([result(100, 0.0421, layer="core")]), "full")
    assert "100t/core action → 4 seats p95" in text and "42.1ms" in text and "<= 50.0ms" in text
    assert "load now" in text.splitlines()[0]


def test_bad_table_counts_are_refused_by_name(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--tables", "100,lots"])
    assert "--tables" in capsys.readouterr().err


@pytest.mark.services
@pytest.mark.slow
def test_two_tables_for_a_few_seconds_against_daphne_postgres_and_redis():
    import dj_database_url

    database = dj_database_url.parse(os.environ["DATABASE_URL"])
    server = f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}"
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    run = subprocess.run(
        [sys.executable, "bench/bench_tables.py", "--tables", "2", "--soak", "3", "--warmup", "1", "--no-worker",
         "--servers", "2",
         "--json", "--pg", server, "--database", f"{database['NAME']}_bench_tables", "--redis",
         os.environ["REDIS_URL"]],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout)
    (measured,) = report["results"]
    assert measured["tables"] == 2 and measured["sockets"] == 8
    assert measured["actions"] > 0 and measured["p95"] > 0, run.stderr[-3000:]
    assert measured["refused"] == 0 and measured["unexpected"] == 0 and measured["connect_failures"] == 0
    assert measured["rss_before_kb"] > 0 and measured["rss_samples"]
    names = {f["name"] for f in report["figures"]}
    # two daphne processes, a table on each: the figures are named for them
    assert measured["servers"] == 2
    assert {f"{name}_2_pubsub_2p" for name in ("p95", "timeouts", "memory", "drift")} | {"largest_held"} <= names
