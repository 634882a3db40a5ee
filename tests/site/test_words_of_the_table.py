"""Every message a person can see speaks the table's words: no rule ids ("R7–R9", "R21") in the engine's refusals,
the forms' and the API's errors, the pages or the scripts; rule ids stay in code, docstrings, comments and tests."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from engine import RecordError, Ruleset, score_chalk
from engine.hand import HandState

ROOT = Path(__file__).resolve().parents[2]
APPS = ("engine", "league", "games", "standings", "draw", "tables", "live", "importer", "pages", "config")
RULE_ID = re.compile(r"\bR\d{1,2}\b")
DOC_KEYWORDS = {"help_text", "description"}  # the admin's and the API schema's documentation
DOC_MODULES = {"engine/schema.py"}  # the JSON schema of hand records: documentation


def _docs_and_code_values(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are documentation (docstrings, schema descriptions) or bare codes."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))
        elif isinstance(node, ast.keyword) and node.arg in DOC_KEYWORDS:
            skipped.update(id(inner) for inner in ast.walk(node.value))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in DOC_KEYWORDS:
                    skipped.update(id(inner) for inner in ast.walk(value))
    return skipped


def rule_ids_in_python_messages() -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or str(path.relative_to(ROOT)) in DOC_MODULES:
                continue
            tree = ast.parse(path.read_text(), str(path))
            skipped = _docs_and_code_values(tree)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped
                        and " " in node.value.strip() and RULE_ID.search(node.value)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.strip()[:80]}")
    return found


def rule_ids_in_templates() -> list[str]:
    found = []
    for path in sorted([*(ROOT / "templates").rglob("*.html"), *ROOT.glob("*/templates/**/*.html")]):
        text = re.sub(r"\{#.*?#\}|<!--.*?-->|\{% comment %\}.*?\{% endcomment %\}", "", path.read_text(), flags=re.S)
        found += [f"{path.relative_to(ROOT)}: {line.strip()[:80]}" for line in text.splitlines()
                  if RULE_ID.search(line)]
    return found


def rule_ids_in_scripts() -> list[str]:
    found = []
    for path in sorted((ROOT / "static" / "js").glob("*.js")):
        for line in path.read_text().splitlines():
            code = re.sub(r"(^|\s)//.*$", "", line)
            for literal in re.findall(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`", code):
                if " " in literal and RULE_ID.search(literal):
                    found.append(f"{path.relative_to(ROOT)}: {literal[:80]}")
    return found


def test_no_message_in_the_python_sources_quotes_a_rule_id():
    assert rule_ids_in_python_messages() == []


def test_no_page_and_no_script_shows_a_rule_id():
    assert rule_ids_in_templates() == []
    assert rule_ids_in_scripts() == []


def test_the_engine_refusals_people_meet_most_say_no_rule_id():
    entry = {"players": 4, "dealer": 0, "kicks": ["5C"], "beg": "stand", "high": {"team": 0}, "low": {"team": 1},
             "jack": {"team": 0}, "game": {"team": 1}}
    reasons = []
    for change in ({"beg": None}, {"kicks": []}, {"game": None}, {"low": None}, {"jack": {"team": 0, "hang": 1}},
                   {"high": {"team": 0, "card": "AH"}}, {"beg": "give", "kicks": ["5C", "6C"]},
                   {"game": {"team": 0, "counts": [40, 40]}}):
        with pytest.raises(RecordError) as caught:
            score_chalk({**entry, **change})
        reasons.append(caught.value.reason)
    hand = HandState.deal(4, 0, random.Random(3), Ruleset(stand_needs_trump=True, give_one_needs_trump=True))
    reasons += [hand.why_illegal("give") or "", hand.why_illegal("run") or ""]
    assert [reason for reason in reasons if RULE_ID.search(reason)] == []


def test_no_beg_after_a_kick_that_did_not_win_says_the_kick_did_not_win():
    """The scorekeeper chose "No beg: a kick won", but the kick (5C, no points) left the score far from the target."""
    entry = {"players": 4, "dealer": 0, "kicks": ["5C"], "score_before": [3, 9], "high": {"team": 0},
             "low": {"team": 1}, "jack": {"team": 0}, "game": {"team": 1}}
    with pytest.raises(RecordError) as caught:
        score_chalk(entry)
    reason = caught.value.reason
    assert caught.value.field == "beg"
    assert "the kick did not win the game" in reason and "side A 3, side B 9" in reason and "14" in reason
    assert "stood" in reason and "gave one" in reason and "ran the pack" in reason
