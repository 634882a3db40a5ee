"""A fast smoke run of bench/bench_standings.py with tiny sizes: the builders make sane leagues and the report runs."""

from __future__ import annotations

import importlib
import json

import pytest

from standings.metrics import compute_standings

pytestmark = pytest.mark.slow  # the standings benchmark

TINY = {"partnerships": 41, "rounds": 6, "players": 24, "repeats": 2}


@pytest.fixture(scope="module")
def bench():
    return importlib.import_module("bench.bench_standings")  # bench/ sits in the project root, on sys.path


def test_league_builder(bench):
    entrants, results, byes = bench.build_league(41, 6, seed=3)
    assert len(entrants) == 41 and any(entrant.withdrawn for entrant in entrants)
    assert byes and len({bye.round for bye in byes}) == len(byes)  # odd rounds: one bye each
    assert {result.round for result in results} == set(range(1, 7))
    assert any(not result.complete for result in results if result.round == 6)
    assert all(result.complete for result in results if result.round < 6)
    assert any(result.level == "match" and not result.chalks_known for result in results)
    assert (entrants, results, byes) == bench.build_league(41, 6, seed=3)
    lines = compute_standings(entrants, results, byes, bench.SWISS)
    assert len(lines) == 41 and sum(line.byes for line in lines) == len(byes)
    assert compute_standings(entrants, results, byes, bench.BOSTON)[0].rank == 1


def test_individual_builder(bench):
    entrants, results = bench.build_individual(26, 3)
    assert len(entrants) == 24 and len(results) == 18
    assert all(len(result.a) == len(result.b) == 2 for result in results)
    assert len(compute_standings(entrants, results)) == 24


def test_timing_and_memory(bench):
    timing = bench.time_runs(lambda: sum(range(1000)), repeats=3)
    assert len(timing["walls"]) == 3 and 0 < timing["best"] <= timing["median"]
    memory = bench.peak_memory(lambda: [0] * 10_000)
    assert memory["peak_bytes"] >= 80_000


def test_report_and_json(bench, monkeypatch, capsys):
    figures = bench.run_all(TINY, progress=lambda message: None)
    assert [f["name"] for f in figures] == ["league_seconds", "boston_seconds", "individual_seconds",
                                            "league_peak_mb"]
    assert all(f["status"] == "PASS" for f in figures)
    report = bench.format_report(figures, "tiny")
    assert "(a) standings, Swiss tiebreaks" in report and report.endswith("all targets met")
    failing = [bench.figure("x", "x", 2.0, "s", 1.0, "<")]
    assert failing[0]["status"] == "FAIL" and bench.format_report(failing, "tiny").endswith("targets missed: x")
    monkeypatch.setitem(bench.SIZES, "quick", TINY)
    assert bench.main(["--quick", "--json", "--repeats", "1", "--strict"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mode"] == "quick" and out["passed"] and out["figures"][0]["data"]["partnerships"] == 41
