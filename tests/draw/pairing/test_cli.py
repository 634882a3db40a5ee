"""``python -m draw.pairing`` run as a user runs it: in a subprocess, JSON on stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SPEC = {"system": "swiss", "round": 2, "avoid_same_club": True,
        "entrants": [{"id": "P1", "club": "Blue Dollar", "score": 1}, {"id": "P2", "club": "Trinity", "score": 1},
                     {"id": "P3", "club": "Blue Dollar"}, {"id": "P4", "club": "Trinity"}, {"id": "P5"}],
        "history": [["P1", "P3"], ["P2", "P4"]]}


def run(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    environment.pop("DJANGO_SETTINGS_MODULE", None)  # the engine needs no Django
    return subprocess.run([sys.executable, "-m", "draw.pairing", *args], cwd=ROOT, env=environment,
                          input=stdin, capture_output=True, text=True, timeout=120)


def test_good_input_prints_the_pairings():
    done = run(stdin=json.dumps(SPEC))
    assert done.returncode == 0 and done.stderr == ""
    result = json.loads(done.stdout)
    assert done.stdout.count("\n") == 1
    assert result["bye"] == "P5"
    assert {frozenset((p["a"], p["b"])) for p in result["pairings"]} == {frozenset(("P1", "P2")),
                                                                         frozenset(("P3", "P4"))}


def test_other_systems_and_indent():
    done = run("--indent", "2", stdin=json.dumps({"system": "round_robin", "entrants": [{"id": "A"}, {"id": "B"}]}))
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"rounds": [[{"a": "B", "b": "A", "flags": []}]], "byes": [None]}
    assert "\n  " in done.stdout


@pytest.mark.parametrize("stdin, start", [
    ('{"system": "swiss", "entrants": [', "error: spec: is not valid JSON: "),
    ("", "error: spec: is empty"),
    ("[1, 2]", "error: spec: must be a JSON object"),
    ('{"system": "swiss", "entrants": [{"id": "P1", "score": "x"}, {"id": "P2"}]}',
     "error: entrants[0].score: must be a number"),
    ('{"system": "swiss", "entrants": [{"id": "P1"}, {"id": "P2"}], "history": [["P1"]]}', "error: history[0]: "),
    ('{"system": "chess"}', "error: system: unknown system 'chess'"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(stdin, start):
    done = run(stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(start)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_help_and_bad_option():
    done = run("--help")
    assert done.returncode == 0 and "--check FILE" in done.stdout and "Exit codes" in done.stdout
    done = run("--frobnicate")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "unrecognized arguments" in done.stderr


def test_check_a_draft(tmp_path):
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({"pairings": [{"a": "P1", "b": "P3"}, {"a": "P2", "b": "P4"}], "bye": "P5"}))
    done = run("--check", str(draft), stdin=json.dumps(SPEC))
    assert done.returncode == 1, done.stderr
    warnings = json.loads(done.stdout)["warnings"]
    assert [w["code"] for w in warnings] == ["rematch", "same_club", "rematch", "same_club", "float", "float"]
    draft.write_text(json.dumps({"pairings": [{"a": "P1", "b": "P2"}, {"a": "P3", "b": "P4"}], "bye": "P5"}))
    done = run("--check", str(draft), stdin=json.dumps(SPEC))
    assert done.returncode == 0 and json.loads(done.stdout) == {"warnings": []}


def test_check_bad_draft_file(tmp_path):
    done = run("--check", str(tmp_path / "nope.json"), stdin=json.dumps(SPEC))
    assert done.returncode == 2 and done.stderr.startswith("error: --check: cannot read ")
    draft = tmp_path / "draft.json"
    draft.write_text('{"pairings": [{"a": "P1"}]}')
    done = run("--check", str(draft), stdin=json.dumps(SPEC))
    assert done.returncode == 2 and done.stderr == 'error: pairings[0].b: must be a text id, got null\n'
    draft.write_text('{"bye": null}')
    done = run("--check", str(draft), stdin=json.dumps(SPEC))
    assert done.returncode == 2 and done.stderr == "error: draft.pairings: is missing\n"


def test_progress_goes_to_stderr():
    done = run("--progress", stdin=json.dumps(SPEC))
    assert done.returncode == 0
    lines = done.stderr.splitlines()
    assert len(lines) >= 3 and lines[0].strip().startswith("0.0%") and lines[-1].strip().startswith("100.0%")
    json.loads(done.stdout)


def test_the_engine_never_imports_django():
    code = ("import sys, json; from draw.pairing import pair; "
            "pair({'system': 'swiss', 'entrants': [{'id': 'a'}, {'id': 'b'}]}); "
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework'))))")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_the_cli_gives_the_bye_by_rank_flags_why_and_warns_of_a_higher_bye(tmp_path):
    # P6 is the lowest-ranked without a bye (P7 has had one); P5 has met everyone but P6, so with P6 out it could
    # only have a rematch: P5 has the bye, flagged. A draft giving it to P4 (higher, no more byes) is warned.
    spec = {"system": "swiss", "round": 3,
            "entrants": [{"id": f"P{k}", "score": s} for k, s in enumerate([2, 2, 1, 1, 0, 0, 0], start=1)],
            "history": [["P5", "P1"], ["P5", "P2"], ["P3", "P5"], ["P4", "P5"], ["P7", "P5"]]}
    spec["entrants"][6]["byes"] = 1
    done = run(stdin=json.dumps(spec))
    assert done.returncode == 0 and done.stderr == ""
    result = json.loads(done.stdout)
    assert (result["bye"], result["bye_flags"]) == ("P5", ["avoids_rematch"])
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({"pairings": result["pairings"], "bye": result["bye"]}))
    done = run("--check", str(draft), stdin=json.dumps(spec))
    assert done.returncode == 0 and json.loads(done.stdout) == {"warnings": []}
    draft.write_text(json.dumps({"pairings": [{"a": "P1", "b": "P2"}, {"a": "P3", "b": "P7"},
                                              {"a": "P5", "b": "P6"}], "bye": "P4"}))
    done = run("--check", str(draft), stdin=json.dumps(spec))
    assert done.returncode == 1, done.stderr
    warnings = json.loads(done.stdout)["warnings"]
    assert [(w["code"], w["entrants"]) for w in warnings] == [("bye_not_lowest", ["P4"])]
    assert warnings[0]["message"].startswith("P4 has the bye, but P5 ranks lower and has not had one either")
