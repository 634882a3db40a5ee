"""Pairing flags and warning codes are enums (``draw.pairing.flags``) with one spelling each: the engine emits
them, the draft stores them, the organiser's page and the API read them with their descriptions; the stored
flags of the engine's older spelling (``same-club``) are respelled by a migration, and back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from draw.edits import swap_pairings
from draw.flag_words import explain
from draw.models import Bye
from draw.pairing import check_pairings, pair
from draw.pairing.flags import PairingFlag, PairingProblem
from league.models import Competition
from tests.draw.test_rounds import competition_of, manage_url, matches_of
from tests.draw.test_rounds import pair as pair_round
from tests.factories import make_club
from tests.migrating import at_older_schemas, migrate, older_schema

GOLDEN = Path(__file__).parent / "pairing" / "golden"
LEAGUE = ("league", "0014_competition_archived")  # the models the test makes, as they were then
BEFORE = [LEAGUE, ("games", "0011_side_names_of_two_long_player_names")]
AFTER = [LEAGUE, ("games", "0012_pairing_flag_spelling")]


def _emitted(result: dict) -> list[str]:
    """Every flag of an engine's answer: its pairings', its tables', its schedules' and its bye's."""
    schedules = [result] if isinstance(result.get("rounds"), list) else list(result.get("schedules") or [])
    pairings = list(result.get("pairings") or result.get("tables") or [])
    pairings += [p for schedule in schedules for round_ in schedule["rounds"] for p in round_]
    return [flag for p in pairings for flag in p["flags"]] + list(result.get("bye_flags") or [])


def test_every_flag_the_engine_emits_is_a_pairing_flag():
    four = [{"id": f"X{n}"} for n in range(1, 5)]
    everyone_met = [["X1", "X2"], ["X3", "X4"], ["X1", "X3"], ["X2", "X4"], ["X1", "X4"], ["X2", "X3"]]
    forced = [{"system": "swiss", "avoid_same_club": True, "history": [["P1", "P2"]],
               "entrants": [{"id": "P1", "club": "Oval", "score": 1}, {"id": "P2", "club": "Oval"}]},
              {"system": "individual", "entrants": four, "partners": everyone_met, "opponents": everyone_met}]
    emitted = set()
    for spec in [json.loads(f.read_text()) for f in sorted(GOLDEN.glob("*.input.json"))] + forced:
        emitted |= set(_emitted(pair(spec)))
    assert emitted <= {flag.value for flag in PairingFlag}
    assert {"rematch", "same_club", "float", "avoids_rematch", "repeat_partner", "repeat_opponent"} <= emitted


def test_every_warning_code_is_a_pairing_problem():
    spec = {"system": "swiss", "avoid_same_club": True, "history": [["P1", "P2"]],
            "entrants": [{"id": "P1", "club": "Blue Dollar", "score": 1}, {"id": "P2", "score": 1},
                         {"id": "P3", "club": "Blue Dollar"}, {"id": "P4"}, {"id": "P5", "byes": 1}]}
    warnings = check_pairings(spec, [{"a": "P1", "b": "P2"}, {"a": "P3", "b": "P1"}, {"a": "X", "b": "P4"}], "P5")
    codes = [PairingProblem(w["code"]) for w in warnings]
    assert PairingProblem.SAME_CLUB in codes and PairingProblem.SECOND_BYE in codes
    assert PairingProblem.SAME_CLUB == PairingFlag.SAME_CLUB  # a pairing's problem is spelled as its flag


def test_each_flag_and_problem_says_what_it_means():
    for member in [*PairingFlag, *PairingProblem]:
        assert member.description and member.description[0].isupper(), member
    assert PairingFlag.choices()[0] == ("rematch", PairingFlag.REMATCH.description)


def test_a_stored_flag_reads_as_its_words_and_an_unknown_one_as_itself():
    shown = explain(["float", "set by hand", "mystery_note", {"code": "same_club", "message": "Both of Oval"}])
    assert [(f.code, f.text) for f in shown] == [("float", "Float: paired outside its score group"),
                                                ("set by hand", "Set by hand"), ("mystery_note", "Mystery note"),
                                                ("same_club", "Both of Oval")]
    assert shown[0].description == PairingFlag.FLOAT.description


@pytest.mark.django_db
def test_the_round_page_says_what_each_flag_and_warning_means(client, organiser, django_capture_on_commit_callbacks):
    blue, red = make_club("Blue Dollar", organisers=[organiser]), make_club("Red House")
    competition = competition_of(blue, Competition.SWISS, 5, clubs=[blue, red], planned_rounds=3, avoid_same_club=True)
    round_one = pair_round(django_capture_on_commit_callbacks, competition)
    one, two = matches_of(round_one)
    same = "a" if two.side_a.club_id == one.side_a.club_id else "b"
    swap_pairings(round_one, one, "b", two, same)
    client.force_login(organiser)
    page = client.get(manage_url(competition, 1)).content.decode()
    assert f'title="{PairingProblem.SAME_CLUB.description}"' in page
    assert f'title="{PairingFlag.EDITED.description}"' in page
    assert 'id="flag-legend"' in page and f'<li data-flag="bye">{PairingFlag.BYE.description}</li>' in page
    bye = Bye.objects.get(round=round_one)
    client.force_login(organiser)
    listed = client.get(f"/api/rounds/{round_one.pk}/byes/").json()
    assert listed["results"][0]["flags"] == list(bye.flags) == ["bye"]


@pytest.mark.django_db
def test_the_api_schema_lists_the_pairing_flags():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    flags = schema["components"]["schemas"]["Bye"]["properties"]["flags"]
    enum = schema["components"]["schemas"][flags["items"]["$ref"].rsplit("/", 1)[-1]]["enum"]
    assert enum == [flag.value for flag in PairingFlag]


@pytest.mark.slow  # migrates the schema back and forth
@older_schema
def test_flags_stored_in_the_engines_older_spelling_are_respelled_and_back():
    with at_older_schemas():
        respell_forward_and_back()


def respell_forward_and_back() -> None:
    old = migrate(BEFORE)
    club = old.get_model("league", "Club").objects.create(name="Oval", slug="oval")
    competition = old.get_model("league", "Competition").objects.create(club=club, name="Cup", slug="cup")
    team_model = old.get_model("league", "Team")
    reds, blues = (team_model.objects.create(competition=competition, name=name) for name in ("Reds", "Blues"))
    player_model, partnership_model = old.get_model("league", "Player"), old.get_model("league", "Partnership")
    sides = [partnership_model.objects.create(player_one=player_model.objects.create(name=f"P{n}"),
                                              player_two=player_model.objects.create(name=f"Q{n}")) for n in (1, 2)]
    match = old.get_model("games", "Match").objects.create(
        competition=competition, side_a=sides[0], side_b=sides[1], side_a_name="A", side_b_name="B",
        pairing_flags=["same-club", "float", "repeat-partner", "repeat-opponent"])
    team_match = old.get_model("games", "TeamMatch").objects.create(
        competition=competition, team_a=reds, team_b=blues, team_a_name="Reds", team_b_name="Blues",
        pairing_flags=["rematch", "same-club", {"flag": "float"}])

    new = migrate(AFTER)
    assert new.get_model("games", "Match").objects.get(pk=match.pk).pairing_flags == [
        "same_club", "float", "repeat_partner", "repeat_opponent"]
    assert new.get_model("games", "TeamMatch").objects.get(pk=team_match.pk).pairing_flags == [
        "rematch", "same_club", {"flag": "float"}]

    old = migrate(BEFORE)
    assert old.get_model("games", "Match").objects.get(pk=match.pk).pairing_flags == [
        "same-club", "float", "repeat-partner", "repeat-opponent"]
    assert old.get_model("games", "TeamMatch").objects.get(pk=team_match.pk).pairing_flags == [
        "rematch", "same-club", {"flag": "float"}]
