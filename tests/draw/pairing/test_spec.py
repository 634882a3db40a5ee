"""Validation of specs: every bad field raises PairingError naming the field, before anything is paired."""

from __future__ import annotations

import pytest

from draw.pairing import PairingError, pair

TWO = [{"id": "P1"}, {"id": "P2"}]


def swiss(**extra):
    return {"system": "swiss", "entrants": TWO, **extra}


@pytest.mark.parametrize("spec, field", [
    ([], "spec"),
    ("swiss", "spec"),
    ({"entrants": TWO}, "system"),
    ({"system": "dutch", "entrants": TWO}, "system"),
    ({"system": 4, "entrants": TWO}, "system"),
    (swiss(avoid_same_clubs=True), "avoid_same_clubs"),
    (swiss(double=True), "double"),
    (swiss(round=0), "round"),
    (swiss(round="4"), "round"),
    (swiss(round=True), "round"),
    (swiss(avoid_same_club="yes"), "avoid_same_club"),
    ({"system": "swiss"}, "entrants"),
    (swiss(entrants={"P1": {}}), "entrants"),
    (swiss(entrants=[{"id": "P1"}]), "entrants"),
    (swiss(entrants=[{"id": "P1"}, "P2"]), "entrants[1]"),
    (swiss(entrants=[{"id": "P1"}, {"name": "Ann"}]), "entrants[1].id"),
    (swiss(entrants=[{"id": "P1"}, {"id": ""}]), "entrants[1].id"),
    (swiss(entrants=[{"id": "P1"}, {"id": 2}]), "entrants[1].id"),
    (swiss(entrants=[{"id": "P1"}, {"id": "P1"}]), "entrants[1].id"),
    (swiss(entrants=[{"id": "P1"}, {"id": "P2", "team": "A"}]), "entrants[1].team"),
    (swiss(entrants=[{"id": "P1", "club": 3}, {"id": "P2"}]), "entrants[0].club"),
    (swiss(entrants=[{"id": "P1", "score": "3"}, {"id": "P2"}]), "entrants[0].score"),
    (swiss(entrants=[{"id": "P1", "score": True}, {"id": "P2"}]), "entrants[0].score"),
    (swiss(entrants=[{"id": "P1", "score": float("nan")}, {"id": "P2"}]), "entrants[0].score"),
    (swiss(entrants=[{"id": "P1", "score": float("inf")}, {"id": "P2"}]), "entrants[0].score"),
    (swiss(entrants=[{"id": "P1", "rating": "high"}, {"id": "P2"}]), "entrants[0].rating"),
    (swiss(entrants=[{"id": "P1"}, {"id": "P2", "byes": -1}]), "entrants[1].byes"),
    (swiss(entrants=[{"id": "P1"}, {"id": "P2", "byes": 1.5}]), "entrants[1].byes"),
    (swiss(entrants=[{"id": "P1"}, {"id": "P2", "name": 7}]), "entrants[1].name"),
    (swiss(history={"P1": "P2"}), "history"),
    (swiss(history=[["P1", "P2"], ["P1"]]), "history[1]"),
    (swiss(history=[["P1", "P2"], ["P1", "P2", "P3"]]), "history[1]"),
    (swiss(history=[["P1", "P1"]]), "history[0]"),
    (swiss(history=[[1, 2]]), "history[0]"),
    (swiss(history=["P1P2"]), "history[0]"),
    ({"system": "groups", "entrants": TWO}, "groups"),
    ({"system": "groups", "groups": 0, "entrants": TWO}, "groups"),
    ({"system": "groups", "groups": 2, "entrants": TWO + [{"id": "P3"}]}, "groups"),
    ({"system": "individual", "entrants": TWO + [{"id": "P3"}]}, "entrants"),
    ({"system": "individual", "entrants": TWO * 2}, "entrants[2].id"),
    ({"system": "individual", "entrants": [{"id": f"X{k}"} for k in range(4)], "partners": [["X1"]]}, "partners[0]"),
    ({"system": "individual", "entrants": [{"id": f"X{k}"} for k in range(4)], "opponents": "X1"}, "opponents"),
    ({"system": "round_robin", "entrants": [{"id": f"T{k}"} for k in range(1001)]}, "entrants"),
    ({"system": "knockout", "entrants": TWO, "third_place": True}, "third_place"),
])
def test_bad_field_is_named(spec, field):
    with pytest.raises(PairingError) as caught:
        pair(spec)
    error = caught.value
    assert error.field == field
    assert isinstance(error, ValueError)
    assert str(error) == f"{field}: {error.reason}"
    assert error.reason and "\n" not in str(error)


def test_messages_read_well():
    with pytest.raises(PairingError, match=r"^system: unknown system 'dutch'; one of: swiss, round_robin"):
        pair({"system": "dutch", "entrants": TWO})
    with pytest.raises(PairingError, match=r"^entrants\[1\].id: 'P1' is already the id of entrants\[0\]$"):
        pair(swiss(entrants=[{"id": "P1"}, {"id": "P1"}]))
    with pytest.raises(PairingError, match=r"^entrants: a swiss needs at least 2 entrants, got 1$"):
        pair(swiss(entrants=[{"id": "P1"}]))


def test_defaults_and_optional_fields():
    result = pair({"system": "swiss", "round": None, "avoid_same_club": None, "history": None, "entrants": [
        {"id": "P1", "score": None, "rating": None, "club": None, "byes": None, "name": "Ann"}, {"id": "P2"}]})
    assert result == {"pairings": [{"a": "P1", "b": "P2", "flags": []}], "bye": None, "bye_flags": []}
    assert pair(swiss(entrants=[{"id": "P1", "byes": 2.0}, {"id": "P2"}]))["bye"] is None  # 2.0 is a whole number
