"""Round robin by the circle method, and groups by snake seeding: every pair meets once (or twice, once each
way), everyone plays once a round, byes in odd fields, sides balanced."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing import pair

PROPERTY = settings(deadline=None)


def spec(n: int, double: bool = False) -> dict:
    return {"system": "round_robin", "double": double, "entrants": [{"id": f"T{k}"} for k in range(1, n + 1)]}


@PROPERTY
@given(st.integers(2, 40), st.booleans())
def test_every_pair_meets_once_and_everyone_plays_once_a_round(n, double):
    result = pair(spec(n, double))
    ids = [f"T{k}" for k in range(1, n + 1)]
    rounds, byes = result["rounds"], result["byes"]
    per_leg = n - 1 if n % 2 == 0 else n
    assert len(rounds) == len(byes) == per_leg * (2 if double else 1)
    for games, bye in zip(rounds, byes, strict=True):
        seen = [x for g in games for x in (g["a"], g["b"])] + ([bye] if bye else [])
        assert sorted(seen) == sorted(ids)  # everyone once: a match or the bye
        assert (bye is not None) == (n % 2 == 1)
        assert all(g["flags"] == [] for g in games)
    ordered = Counter((g["a"], g["b"]) for games in rounds for g in games)
    unordered = Counter(frozenset(pair_) for pair_ in ordered.elements())
    assert set(unordered) == {frozenset((a, b)) for k, a in enumerate(ids) for b in ids[k + 1:]}
    if double:
        assert set(unordered.values()) == {2}
        assert all(ordered[(a, b)] == 1 and ordered[(b, a)] == 1 for a, b in ordered)  # once each way
        assert rounds[per_leg:] == [[{"a": g["b"], "b": g["a"], "flags": []} for g in games]
                                    for games in rounds[:per_leg]]
    else:
        assert set(unordered.values()) == {1}
    if n % 2:
        assert Counter(byes) == Counter({i: 2 if double else 1 for i in ids})
    # sides: each entrant is "a" in half its matches (one more or fewer when it plays an odd number)
    first = Counter(g["a"] for games in rounds[:per_leg] for g in games)
    played = Counter(x for games in rounds[:per_leg] for g in games for x in (g["a"], g["b"]))
    for i in ids:
        assert abs(2 * first[i] - played[i]) <= 1


def test_round_one_is_the_classic_berger_round():
    result = pair(spec(6))
    assert [(g["a"], g["b"]) for g in result["rounds"][0]] == [("T6", "T1"), ("T5", "T2"), ("T3", "T4")]
    assert pair(spec(6)) == result  # the same every time: round N of the schedule is stable


def test_odd_field_bye_rotates():
    result = pair(spec(5))
    assert result["byes"] == ["T1", "T4", "T2", "T5", "T3"]
    assert all(len(games) == 2 for games in result["rounds"])


def test_groups_snake_and_their_schedules():
    result = pair({"system": "groups", "groups": 3, "entrants": [{"id": f"P{k}"} for k in range(1, 11)]})
    assert result["groups"] == [["P1", "P6", "P7"], ["P2", "P5", "P8"], ["P3", "P4", "P9", "P10"]]
    assert len(result["schedules"]) == 3
    assert result["schedules"][2] == pair({"system": "round_robin", "entrants": [
        {"id": i} for i in ["P3", "P4", "P9", "P10"]]})
    double = pair({"system": "groups", "groups": 2, "double": True, "entrants": [{"id": f"P{k}"} for k in range(6)]})
    assert all(len(s["rounds"]) == 6 for s in double["schedules"])


@PROPERTY
@given(st.integers(1, 8), st.integers(0, 30))
def test_groups_are_balanced_and_hold_everyone(groups, extra):
    n = 2 * groups + extra
    result = pair({"system": "groups", "groups": groups, "entrants": [{"id": f"P{k}"} for k in range(n)]})
    sizes = [len(g) for g in result["groups"]]
    assert max(sizes) - min(sizes) <= 1 and sum(sizes) == n
    assert sorted(x for g in result["groups"] for x in g) == sorted(f"P{k}" for k in range(n))
    # the top seeds are spread: seeds 1..G in different groups
    tops = [next(k for k, g in enumerate(result["groups"]) if f"P{s}" in g) for s in range(groups)]
    assert len(set(tops)) == groups
