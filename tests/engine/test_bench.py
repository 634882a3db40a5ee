"""A fast smoke run of bench/bench_engine.py's functions with tiny sizes: they run and report sane figures."""

from __future__ import annotations

import importlib
import json

import pytest

from engine.record import score_record

pytestmark = pytest.mark.slow  # the engine benchmark

TINY = {"hands": 30, "repeats": 2, "records": 40, "score_repeats": 1, "mc_decisions": 2, "states": 10}


@pytest.fixture(scope="module")
def bench():
    return importlib.import_module("bench.bench_engine")  # bench/ sits in the project root, on sys.path


@pytest.mark.parametrize("players", [4, 2])
def test_random_hands(bench, players):
    result = bench.bench_random_hands(players, hands=20, repeats=3)
    assert len(result["rates"]) == 3
    assert result["best"] >= result["median"] > 0
    hand = bench.play_random_hand(players, 0, __import__("random").Random(5))
    assert hand.is_over


def test_generated_records_are_valid_and_varied(bench):
    lines = bench.generate_records(120, seed=2)
    records = [json.loads(line) for line in lines]
    for record in records:
        score_record(record)
    assert {r["players"] for r in records} == {2, 4}
    assert {r.get("beg") for r in records} >= {"stand", "give", "run"}
    assert lines == bench.generate_records(120, seed=2)


def test_score_in_process_and_subprocess(bench, tmp_path):
    lines = bench.generate_records(25)
    inproc = bench.bench_score_inprocess(lines, repeats=2)
    assert inproc["records"] == 25 and inproc["best"] > 0
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(lines) + "\n")
    sub = bench.bench_score_subprocess(str(path), 25, repeats=1)
    assert sub["best"] > 0 and len(sub["walls"]) == 1
    with pytest.raises(RuntimeError):
        bench.bench_score_subprocess(str(path), 26, repeats=1)  # the output check notices a missing line


def test_public_api_and_simulate_against_the_playout(bench):
    result = bench.bench_public_api(hands=40, repeats=2, rounds=2)
    assert len(result["runs"]) == 2 and result["games"] == 2 * (20 // bench.HANDS_PER_GAME)  # 2 rounds of 20 hands
    for run in result["runs"]:
        assert all(run[name]["hands"] > 0 and run[name]["cpu_rate"] > 0 for name in ("playout", "public", "simulate"))
    assert result["public_share"] > 0 and result["simulate_share"] > 0
    share = {f["name"]: f for f in bench.public_api_figures(result)}["public_api_share"]
    assert share["unit"] == "%" and share["target"] == 50.0 and share["status"] in ("PASS", "FAIL")
    assert bench.play_public_games(3, __import__("random").Random(4)) >= 3


def test_montecarlo_decisions_or_skip(bench):
    result = bench.bench_montecarlo(decisions=2)
    if "skipped" in result:
        assert "montecarlo" in result["skipped"]
    else:
        assert result["decisions"] == 2
        assert 0 < result["median"] <= result["p90"] <= result["max"]


def test_state_size_and_memory(bench):
    result = bench.bench_states(8, isolated=False)
    assert result["states"] == 8
    assert 100 < result["json_bytes_median"] <= result["json_bytes_max"]
    assert result["tracemalloc_bytes"] > 0
    game = bench.game_in_progress(3)
    assert not game.is_over and game.history
    child = bench.bench_states(3, isolated=True)
    assert child["states"] == 3 and child["json_bytes_max"] > 0


def test_run_all_and_report(bench):
    messages: list[str] = []
    figures = bench.run_all(TINY, progress=messages.append)
    names = {f["name"] for f in figures}
    assert {"random_hands_4p", "random_hands_2p", "score_subprocess", "score_inprocess", "montecarlo_median",
            "state_json_bytes", "state_rss_mb", "state_tracemalloc_mb", "public_playout_4p", "public_api_4p",
            "public_api_share", "simulate_random", "simulate_share"} <= names
    assert all(f["status"] in ("PASS", "FAIL", "info", "SKIP") for f in figures)
    report = bench.format_report(figures, "tiny")
    for figure in figures:
        assert figure["label"] in report
    assert messages and json.dumps(figures)


def test_figure_status(bench):
    assert bench.figure("x", "x", 30_000, "hands/s", 25_000, ">=")["status"] == "PASS"
    assert bench.figure("x", "x", 0.3, "s", 0.2, "<=")["status"] == "FAIL"
    assert bench.figure("x", "x", 5.0, "MB", 100.0, "<")["status"] == "PASS"
    assert bench.figure("x", "x", 5.0, "MB")["status"] == "info"
    assert bench.figure("x", "x", None, "s", 0.2, "<=")["status"] == "SKIP"


def test_child_mode_prints_json(bench, capsys):
    assert bench.main(["--measure-states", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["states"] == 2
