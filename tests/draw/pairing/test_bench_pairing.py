"""A fast smoke run of bench/bench_pairing.py on tiny fields: it runs, and reports sane figures."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def bench():
    return importlib.import_module("bench.bench_pairing")  # bench/ sits in the project root, on sys.path


def test_simulate_in_process(bench):
    result = bench.simulate(11, rounds=3)
    assert [r["round"] for r in result["rounds"]] == [1, 2, 3]
    assert result["worst_seconds"] >= result["median_seconds"] > 0
    assert result["all_optimal"] and result["peak_rss_mb"] > 0
    assert all(r["rematches"] == 0 for r in result["rounds"])


def test_fresh_process_and_report(bench):
    figures = bench.run_all([12], rounds=2, progress=lambda message: None)
    assert [f["name"] for f in figures] == ["swiss_12_seconds", "swiss_12_rss"]
    assert all(f["status"] == "info" and f["value"] > 0 for f in figures)
    report = bench.format_report(figures, 2)
    assert "Swiss 12: worst round" in report and "all targets met" in report
    assert bench.figure("x", "x", 11.0, "s", 10.0)["status"] == "FAIL"


def test_command_line_json():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_pairing.py"), "--sizes", "8,9", "--rounds",
                           "2", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["sizes"] == [8, 9] and report["passed"] and len(report["figures"]) == 4
