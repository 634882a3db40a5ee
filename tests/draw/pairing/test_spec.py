"""Validation of specs: every bad field raises an error naming the field, before anything is paired — of the kind
decided at its raise (the caller's bug, or the organiser's error)."""

from __future__ import annotations

import pytest

from draw.pairing import PairingError, PairingFatalError, pair
from engine.errors import FieldError

TWO = [{"id": "P1"}, {"id": "P2"}]
FOUR = [{"id": f"X{k}"} for k in range(4)]


def swiss(**extra):
    return {"system": "swiss", "entrants": TWO, **extra}


# A spec that is not well formed is the caller's bug (PairingFatalError); a field that cannot be paired as it stands
# (too few or too many entrants, more groups than it fills) is the organiser's error (PairingError, a FieldError).
@pytest.mark.parametrize("spec, field, kind", [
    ([], "spec", PairingFatalError),
    ("swiss", "spec", PairingFatalError),
    ({"entrants": TWO}, "system", PairingFatalError),
    ({"system": "dutch", "entrants": TWO}, "system", PairingFatalError),
    ({"system": 4, "entrants": TWO}, "system", PairingFatalError),
    (swiss(avoid_same_clubs=True), "avoid_same_clubs", PairingFatalError),
    (swiss(double=True), "double", PairingFatalError),
    (swiss(round=0), "round", PairingFatalError),
    (swiss(round="4"), "round", PairingFatalError),
    (swiss(round=True), "round", PairingFatalError),
    (swiss(avoid_same_club="yes"), "avoid_same_club", PairingFatalError),
    ({"system": "swiss"}, "entrants", PairingFatalError),
    (swiss(entrants={"P1": {}}), "entrants", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}]), "entrants", PairingError),
    (swiss(entrants=[{"id": "P1"}, "P2"]), "entrants[1]", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}, {"name": "Ann"}]), "entrants[1].id", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}, {"id": ""}]), "entrants[1].id", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}, {"id": 2}]), "entrants[1].id", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}, {"id": "P1"}]), "entrants[1].id", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}, {"id": "P2", "team": "A"}]), "entrants[1].team", PairingFatalError),
    (swiss(entrants=[{"id": "P1", "club": 3}, {"id": "P2"}]), "entrants[0].club", PairingFatalError),
    (swiss(entrants=[{"id": "P1", "score": "3"}, {"id": "P2"}]), "entrants[0].score", PairingFatalError),
    (swiss(entrants=[{"id": "P1", "score": True}, {"id": "P2"}]), "entrants[0].score", PairingFatalError),
    (swiss(entrants=[{"id": "P1", "score": float("nan")}, {"id": "P2"}]), "entrants[0].score", PairingFatalError),
    (swiss(entrants=[{"id": "P1", "score": float("inf")}, {"id": "P2"}]), "entrants[0].score", PairingFatalError),
    (swiss(entrants=[{"id": "P1", "rating": "high"}, {"id": "P2"}]), "entrants[0].rating", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}, {"id": "P2", "byes": -1}]), "entrants[1].byes", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}, {"id": "P2", "byes": 1.5}]), "entrants[1].byes", PairingFatalError),
    (swiss(entrants=[{"id": "P1"}, {"id": "P2", "name": 7}]), "entrants[1].name", PairingFatalError),
    (swiss(history={"P1": "P2"}), "history", PairingFatalError),
    (swiss(history=[["P1", "P2"], ["P1"]]), "history[1]", PairingFatalError),
    (swiss(history=[["P1", "P2"], ["P1", "P2", "P3"]]), "history[1]", PairingFatalError),
    (swiss(history=[["P1", "P1"]]), "history[0]", PairingFatalError),
    (swiss(history=[[1, 2]]), "history[0]", PairingFatalError),
    (swiss(history=["P1P2"]), "history[0]", PairingFatalError),
    ({"system": "groups", "entrants": TWO}, "groups", PairingFatalError),
    ({"system": "groups", "groups": 0, "entrants": TWO}, "groups", PairingFatalError),
    ({"system": "groups", "groups": 2, "entrants": TWO + [{"id": "P3"}]}, "groups", PairingError),
    ({"system": "individual", "entrants": TWO + [{"id": "P3"}]}, "entrants", PairingError),
    ({"system": "individual", "entrants": TWO * 2}, "entrants[2].id", PairingFatalError),
    ({"system": "individual", "entrants": FOUR, "partners": [["X1"]]}, "partners[0]", PairingFatalError),
    ({"system": "individual", "entrants": FOUR, "opponents": "X1"}, "opponents", PairingFatalError),
    ({"system": "round_robin", "entrants": [{"id": f"T{k}"} for k in range(1001)]}, "entrants", PairingError),
    ({"system": "knockout", "entrants": TWO, "third_place": True}, "third_place", PairingFatalError),
])
def test_bad_field_is_named(spec, field, kind):
    with pytest.raises((PairingError, PairingFatalError)) as caught:
        pair(spec)
    error = caught.value
    assert type(error) is kind
    assert isinstance(error, FieldError) == (kind is PairingError)
    assert error.field == field
    assert isinstance(error, ValueError)
    assert str(error) == f"{field}: {error.reason}"
    assert error.reason and "\n" not in str(error)


def test_messages_read_well():
    with pytest.raises(PairingFatalError, match=r"^system: unknown system 'dutch'; one of: swiss, round_robin"):
        pair({"system": "dutch", "entrants": TWO})
    with pytest.raises(PairingFatalError, match=r"^entrants\[1\].id: 'P1' is already the id of entrants\[0\]$"):
        pair(swiss(entrants=[{"id": "P1"}, {"id": "P1"}]))
    with pytest.raises(PairingError, match=r"^entrants: a swiss needs at least 2 entrants, got 1$"):
        pair(swiss(entrants=[{"id": "P1"}]))


def test_defaults_and_optional_fields():
    result = pair({"system": "swiss", "round": None, "avoid_same_club": None, "history": None, "entrants": [
        {"id": "P1", "score": None, "rating": None, "club": None, "byes": None, "name": "Ann"}, {"id": "P2"}]})
    assert result == {"pairings": [{"a": "P1", "b": "P2", "flags": []}], "bye": None, "bye_flags": []}
    assert pair(swiss(entrants=[{"id": "P1", "byes": 2.0}, {"id": "P2"}]))["bye"] is None  # 2.0 is a whole number
