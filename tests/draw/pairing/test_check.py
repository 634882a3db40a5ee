"""check_pairings: every kind of broken rule in a hand-edited draft is caught, and a good draft is clean."""

from __future__ import annotations

import pytest

from draw.pairing import PairingError, PairingFatalError, check_pairings, pair


def swiss_spec(**extra) -> dict:
    entrants = [
        {"id": "P1", "club": "Blue Dollar", "score": 2}, {"id": "P2", "club": "Trinity", "score": 2},
        {"id": "P3", "club": "Blue Dollar", "score": 1}, {"id": "P4", "club": "Moruga", "score": 1},
        {"id": "P5", "club": "Trinity", "score": 1, "byes": 1}, {"id": "P6", "club": "Moruga", "score": 1},
        {"id": "P7", "club": "Blue Dollar", "score": 0},
    ]
    return {"system": "swiss", "round": 3, "avoid_same_club": True, "entrants": entrants,
            "history": [["P1", "P4"], ["P2", "P3"], ["P5", "P6"]], **extra}


def codes(warnings) -> list[str]:
    return [w["code"] for w in warnings]


def test_the_engines_own_draft_is_clean():
    for spec in (swiss_spec(), {"system": "round_robin", "entrants": [{"id": f"T{k}"} for k in range(5)]}):
        result = pair(spec)
        pairings = result["pairings"] if "pairings" in result else result["rounds"][0]
        bye = result["bye"] if "bye" in result else result["byes"][0]
        assert check_pairings(spec, pairings, bye) == []
    knockout = {"system": "knockout", "entrants": [{"id": f"S{k}"} for k in range(1, 7)]}
    result = pair(knockout)
    assert check_pairings(knockout, result["pairings"], result["byes"]) == []
    individual = {"system": "individual", "entrants": [{"id": f"X{k}"} for k in range(9)]}
    result = pair(individual)
    assert check_pairings(individual, result["tables"], result["sitting_out"]) == []


def test_missing_twice_and_unknown():
    warnings = check_pairings(swiss_spec(), [{"a": "P1", "b": "P2"}, {"a": "P3", "b": "P1"},
                                             {"a": "P9", "b": "P4"}, {"a": "P6", "b": "P6"}], "P7")
    assert codes(warnings) == ["unknown", "duplicate", "duplicate", "missing", "same_club"]
    by_code = {}
    for w in warnings:
        by_code.setdefault(w["code"], []).append(w)
    assert [w["entrants"] for w in by_code["unknown"]] == [["P9"]]
    assert sorted(w["entrants"][0] for w in by_code["duplicate"]) == ["P1", "P6"]
    assert [w["entrants"] for w in by_code["missing"]] == [["P5"]]
    assert [w["message"] for w in by_code["duplicate"]] == ["P1 appears 2 times: in pairings 1 and 2",
                                                            "P6 appears 2 times in pairing 4"]
    assert all(w["message"][0].isupper() for w in warnings)


def test_rematch_and_same_club():
    warnings = check_pairings(swiss_spec(), [{"a": "P1", "b": "P3"}, {"a": "P2", "b": "P4"},
                                             {"a": "P5", "b": "P6"}], "P7")
    assert ("same_club", ["P1", "P3"]) in [(w["code"], w["entrants"]) for w in warnings]
    assert ("rematch", ["P5", "P6"]) in [(w["code"], w["entrants"]) for w in warnings]
    assert check_pairings(swiss_spec(avoid_same_club=False), [{"a": "P1", "b": "P3"}, {"a": "P2", "b": "P4"},
                                                              {"a": "P5", "b": "P6"}], "P7") != []
    assert "same_club" not in codes(check_pairings(swiss_spec(avoid_same_club=False), [
        {"a": "P1", "b": "P3"}, {"a": "P2", "b": "P4"}, {"a": "P5", "b": "P6"}], "P7"))


def test_float_where_the_best_draft_has_none_or_a_smaller_one():
    spec = {"system": "swiss", "entrants": [{"id": "A", "score": 2}, {"id": "B", "score": 2},
                                            {"id": "C", "score": 0}, {"id": "D", "score": 0}]}
    warnings = check_pairings(spec, [{"a": "A", "b": "C"}, {"a": "B", "b": "D"}], None)
    assert codes(warnings) == ["float", "float"]
    assert "score difference of 2" in warnings[0]["message"] and "0 is possible" in warnings[0]["message"]
    assert check_pairings(spec, [{"a": "A", "b": "B"}, {"a": "C", "b": "D"}], None) == []
    # 2, 1, 1, 0: two floats of 1 are needed; one float of 2 is larger than needed
    spec = {"system": "swiss", "entrants": [{"id": "A", "score": 2}, {"id": "B", "score": 1},
                                            {"id": "C", "score": 1}, {"id": "D", "score": 0}]}
    assert check_pairings(spec, [{"a": "A", "b": "B"}, {"a": "C", "b": "D"}], None) == []
    warnings = check_pairings(spec, [{"a": "A", "b": "D"}, {"a": "B", "b": "C"}], None)
    assert codes(warnings) == ["float"] and warnings[0]["entrants"] == ["A", "D"]


def test_float_not_blamed_when_the_draft_only_swaps_a_needed_float():
    spec = {"system": "swiss", "entrants": [{"id": "A", "score": 1}, {"id": "B", "score": 1},
                                            {"id": "C", "score": 1}, {"id": "D", "score": 0}]}
    assert check_pairings(spec, [{"a": "A", "b": "D"}, {"a": "B", "b": "C"}], None) == []


def test_byes():
    spec = swiss_spec()
    pairings = [{"a": "P1", "b": "P2"}, {"a": "P3", "b": "P4"}, {"a": "P6", "b": "P7"}]
    warnings = check_pairings(spec, pairings, "P5")
    # P5 has had a bye. Its pairings are as good as any with P5 out (P6 v P7 floats, but some pairing must):
    # the bye is no float; it goes by rank
    assert [(w["code"], w["entrants"]) for w in warnings] == [("second_bye", ["P5"])]
    assert "P5 has the bye with 1 bye already" in warnings[0]["message"]
    assert "P1, P2, P3, P4 and 2 others" in warnings[0]["message"]
    warnings = check_pairings(spec, pairings + [{"a": "P5", "b": "P5"}], None)
    assert "bye_missing" in codes(warnings)
    even = {"system": "swiss", "entrants": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}]}
    warnings = check_pairings(even, [{"a": "A", "b": "B"}], ["C", "D"])
    assert codes(warnings) == ["bye_not_needed", "bye_not_needed"]
    odd = {"system": "round_robin", "entrants": [{"id": "A"}, {"id": "B"}, {"id": "C"}]}
    assert codes(check_pairings(odd, [{"a": "A", "b": "B"}], ["C", "A"])) == ["duplicate", "bye_not_needed"]
    assert codes(check_pairings(odd, [{"a": "A", "b": "B"}], None)) == ["missing", "bye_missing"]


def test_a_bye_to_a_higher_pair_than_needed_is_warned():
    spec = swiss_spec()
    # P6 (1 point, no bye) has it where P7 (0, no bye) could: the others pair without a rematch either way
    pairings = [{"a": "P1", "b": "P2"}, {"a": "P3", "b": "P4"}, {"a": "P5", "b": "P7"}]
    warnings = check_pairings(spec, pairings, "P6")
    assert [(w["code"], w["entrants"]) for w in warnings] == [("bye_not_lowest", ["P6"])]
    assert "P6 has the bye, but P7 ranks lower" in warnings[0]["message"]
    # with P7 out, P6 could only meet P5 again (it has met everyone else): P6 is then the right bye
    history = spec["history"] + [["P6", "P1"], ["P6", "P2"], ["P6", "P3"], ["P6", "P4"]]
    moved = swiss_spec(history=history)
    result = pair(moved)
    assert (result["bye"], result["bye_flags"]) == ("P6", ["avoids_rematch"])
    assert "bye_not_lowest" not in codes(check_pairings(moved, result["pairings"], result["bye"]))
    assert codes(check_pairings(moved, [{"a": "P1", "b": "P2"}, {"a": "P3", "b": "P4"}, {"a": "P5", "b": "P6"}],
                                "P7")) == ["rematch"]  # the bye to P7 forces the rematch P5 v P6
    # among pairs that have all had a bye, the same rule
    for entrant in spec["entrants"]:
        entrant["byes"] = 1
    assert codes(check_pairings(spec, pairings, "P6")) == ["bye_not_lowest"]
    assert "has had as many (1)" in check_pairings(spec, pairings, "P6")[0]["message"]


def test_round_robin_round_with_history_of_the_other_rounds():
    spec = {"system": "round_robin", "entrants": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}],
            "history": [["A", "B"], ["C", "D"]]}
    assert codes(check_pairings(spec, [{"a": "A", "b": "B"}, {"a": "C", "b": "D"}], None)) == ["rematch", "rematch"]


def test_knockout_byes_and_seeding():
    spec = {"system": "knockout", "entrants": [{"id": f"S{k}"} for k in range(1, 7)]}
    warnings = check_pairings(spec, [{"a": "S1", "b": "S4"}, {"a": "S3", "b": "S6"}], ["S2", "S5"])
    assert [(w["code"], w["entrants"]) for w in warnings] == [
        ("bye_not_top_seed", ["S5"]), ("not_seeded", ["S1", "S4"])]
    warnings = check_pairings(spec, [{"a": "S4", "b": "S5"}, {"a": "S3", "b": "S6"}, {"a": "S1", "b": "S2"}], [])
    assert codes(warnings) == ["bye_count", "not_seeded"]


def test_individual_tables():
    spec = {"system": "individual", "entrants": [{"id": f"X{k}", "byes": 1 if k == 9 else 0} for k in range(1, 10)],
            "partners": [["X1", "X2"]], "opponents": [["X1", "X3"]]}
    tables = [{"a": ["X1", "X2"], "b": ["X3", "X4"]}, {"a": ["X5", "X6"], "b": ["X7", "X1"]}]
    warnings = check_pairings(spec, tables, ["X9"])
    assert [(w["code"], w["entrants"]) for w in warnings] == [
        ("duplicate", ["X1"]), ("missing", ["X8"]), ("second_sit_out", ["X9"]), ("repeat_partner", ["X1", "X2"]),
        ("repeat_opponent", ["X1", "X3"])]
    assert warnings[0]["message"] == "X1 appears 2 times: in tables 1 and 2"
    warnings = check_pairings(spec, tables[:1] + [{"a": ["X5", "X6"], "b": ["X7", "X8"]}], ["X9", "X10"])
    assert codes(warnings) == ["unknown", "sit_out_count", "second_sit_out", "repeat_partner", "repeat_opponent"]


@pytest.mark.parametrize("pairings, bye, field", [
    ("P1", None, "pairings"), ([["P1", "P2"]], None, "pairings[0]"), ([{"a": "P1"}], None, "pairings[0].b"),
    ([{"a": "P1", "b": 2}], None, "pairings[0].b"), ([], 5, "bye"), ([], [5], "bye[0]"),
])
def test_malformed_drafts_are_the_callers_bug(pairings, bye, field):
    with pytest.raises(PairingFatalError) as caught:
        check_pairings(swiss_spec(), pairings, bye)
    assert caught.value.field == field


def test_malformed_spec_and_groups():
    with pytest.raises(PairingError) as caught:  # the organiser's: a field too small to pair
        check_pairings({"system": "swiss", "entrants": []}, [], None)
    assert caught.value.field == "entrants"
    with pytest.raises(PairingFatalError) as caught:
        check_pairings({"system": "groups", "groups": 1, "entrants": [{"id": "A"}, {"id": "B"}]}, [], None)
    assert caught.value.field == "system"
    with pytest.raises(PairingFatalError) as caught:
        check_pairings({"system": "individual", "entrants": [{"id": f"X{k}"} for k in range(4)]},
                       [{"a": ["X1"], "b": ["X2", "X3"]}], None)
    assert caught.value.field == "tables[0].a"
