"""The REST API end to end: whole matches entered hand by hand (as chalk entries and as hand records),
corrections, undo, duplicate submissions, bad entries, and the OpenAPI schema and docs."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from config.api_schema import SchemaView
from engine import HandState, score_chalk
from games.models import Hand, Match
from league.models import Competition
from tests.factories import make_club, make_competition, make_match, make_organiser

# Tasks run on commit: a transactional test database lets the settle task run after each request.
pytestmark = pytest.mark.django_db(transaction=True)


def sweep(team: int) -> dict:
    """A chalk entry in which ``team`` takes High, Low, Jack and Game: 4 points, nothing to the other."""
    return {"kicks": ["5S"], "beg": "stand", "high": {"team": team}, "low": {"team": team},
            "jack": {"team": team}, "game": {"team": team}}


A, B = sweep(0), sweep(1)


@pytest.fixture
def organiser():
    return make_organiser(make_club())


@pytest.fixture
def client(organiser) -> APIClient:
    client = APIClient()
    client.force_login(organiser)
    return client


@pytest.fixture
def best_of_3(organiser) -> Competition:
    return make_competition(club=organiser.club_roles.get().club, match_format=Competition.BEST_OF, match_games=3)


@pytest.fixture
def match(best_of_3) -> Match:
    return make_match(best_of_3)


def sheet(client: APIClient, match: Match) -> dict:
    response = client.get(f"/api/matches/{match.pk}/")
    assert response.status_code == 200, response.json()
    return response.json()


def enter(client: APIClient, match: Match, entry: dict, mode: str = "chalk", number: int | None = None):
    """Post ``entry`` as the next hand (its number read from the match, unless given)."""
    if number is None:
        number = sheet(client, match)["next_hand"]["number"]
    return client.post(f"/api/matches/{match.pk}/hands/", {"number": number, "mode": mode, "entry": entry},
                       format="json")


def enter_ok(client: APIClient, match: Match, entry: dict, mode: str = "chalk") -> dict:
    response = enter(client, match, entry, mode)
    assert response.status_code == 201, response.json()
    return response.json()


def error_fields(response) -> list[str]:
    return [error["field"] for error in response.json()["errors"]]


# ----------------------------------------------------------------------------- a whole match as chalk
def test_best_of_three_entered_as_chalk_ends_with_winner_games_and_standings(client, match):
    for entry in [A] * 4 + [B] * 4 + [A] * 4:
        hand = enter_ok(client, match, entry)
        assert hand["result"]["points"] == ([4, 0] if entry is A else [0, 4])

    played = sheet(client, match)
    assert (played["status"], played["winner"], played["games_a"], played["games_b"]) == ("complete", "a", 2, 1)
    assert played["next_hand"] is None
    assert [(g["number"], g["winner"], g["score_a"], g["score_b"]) for g in played["games"]] == [
        (1, "a", 16, 0), (2, "b", 0, 16), (3, "a", 16, 0)]
    first_game = played["games"][0]
    assert [(h["score_a_after"], h["score_b_after"]) for h in first_game["hands"]] == [
        (4, 0), (8, 0), (12, 0), (16, 0)]
    assert [h["dealer"] for h in first_game["hands"]] == [0, 1, 2, 3]
    assert played["games"][1]["first_dealer"] == 0  # the deal passes on from game 1

    rows = client.get(f"/api/competitions/{match.competition_id}/standings/").json()
    by_side = {row["partnership"]: row for row in rows}
    winner, loser = by_side[match.side_a_id], by_side[match.side_b_id]
    assert (winner["rank"], winner["played"], winner["won"], winner["lost"]) == (1, 1, 1, 0)
    assert (loser["rank"], loser["played"], loser["won"], loser["lost"]) == (2, 1, 0, 1)
    assert (winner["bullseyes_for"], winner["bullseyes_against"], winner["bullseye_difference"]) == (2, 1, 1)
    assert (winner["chalks_for"], winner["chalks_against"], winner["chalk_difference"]) == (32, 16, 16)
    assert (loser["chalks_for"], loser["chalks_against"], loser["chalk_difference"]) == (16, 32, -16)
    assert winner["partnership_name"] == match.side_a_name


def test_a_finished_match_takes_no_more_hands(client, match):
    for entry in [A] * 8:
        enter_ok(client, match, entry)
    response = enter(client, match, A, number=1)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "match"


# ----------------------------------------------------------------------------- the same hands as records
def played_record(players: int, dealer: int, score: list[int], seed: int) -> dict:
    """A hand dealt and played out at random by the engine, as a hand record."""
    rng = random.Random(seed)
    hand = HandState.deal(players, dealer, rng, score=score)
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand.to_record()


def chalk_of(record: dict, result: dict) -> dict:
    """What a scorekeeper would have chalked for the hand of ``record``."""
    chalk: dict = {"kicks": [record["kick"], *(run["kick"] for run in record.get("runs", []))]}
    if "beg" in record:
        chalk["beg"] = record["beg"]
    for name in ("high", "low", "game"):
        if result[name] is not None:
            chalk[name] = dict(result[name])
    if result["jack"] is not None:
        chalk["jack"] = {"team": result["jack"]["team"], "hang": result["jack"]["hang"]}
    return chalk


def outcome(client: APIClient, match: Match) -> tuple:
    played = sheet(client, match)
    games = [(g["number"], g["winner"], g["score_a"], g["score_b"], g["first_dealer"],
              [(h["dealer"], h["points_a"], h["points_b"], h["score_a_after"], h["score_b_after"])
               for h in g["hands"]])
             for g in played["games"]]
    return played["status"], played["winner"], played["games_a"], played["games_b"], games


def test_the_same_hands_as_records_and_as_chalk_give_the_same_match(client, best_of_3):
    by_record, by_chalk = make_match(best_of_3), make_match(best_of_3)
    chalks = []
    for seed in range(200):
        upcoming = sheet(client, by_record)["next_hand"]
        if upcoming is None:
            break
        record = played_record(4, upcoming["dealer"], upcoming["score_before"], seed)
        hand = enter_ok(client, by_record, record, mode="record")
        chalks.append(chalk_of(record, hand["result"]))
    for chalk in chalks:
        enter_ok(client, by_chalk, chalk)

    status, winner, *_ = outcome(client, by_record)
    assert status == "complete" and winner in ("a", "b")
    assert outcome(client, by_record) == outcome(client, by_chalk)


def test_a_hand_record_result_is_the_engine_result(client, match):
    record = played_record(4, 0, [0, 0], seed=7)
    hand = enter_ok(client, match, record, mode="record")
    assert hand["entry"] == record
    assert (hand["points_a"], hand["points_b"]) == tuple(hand["result"]["points"])
    assert len(hand["result"]["tricks"]) in (0, 6)


# ----------------------------------------------------------------------------- corrections and undo
def test_a_correction_recomputes_later_hands_and_keeps_the_old_version(client, organiser, match):
    first = enter_ok(client, match, A)
    enter_ok(client, match, A)
    enter_ok(client, match, B)
    assert sheet(client, match)["score"] == {"game": 1, "a": 8, "b": 4}

    response = client.put(f"/api/hands/{first['id']}/",
                          {"mode": "chalk", "entry": B, "reason": "wrong side chalked", "version": 1}, format="json")
    assert response.status_code == 200, response.json()
    corrected = response.json()
    assert (corrected["version"], corrected["points_a"], corrected["points_b"]) == (2, 0, 4)

    played = sheet(client, match)
    hands = played["games"][0]["hands"]
    assert [(h["score_a_after"], h["score_b_after"]) for h in hands] == [(0, 4), (4, 4), (4, 8)]
    assert played["score"] == {"game": 1, "a": 4, "b": 8}
    assert (played["games"][0]["score_a"], played["games"][0]["score_b"]) == (4, 8)

    versions = client.get(f"/api/hands/{first['id']}/versions/").json()
    assert [(v["version"], v["author"], v["reason"]) for v in versions] == [
        (1, organiser.username, ""), (2, organiser.username, "wrong side chalked")]
    assert versions[0]["entry"] == A and versions[0]["result"]["points"] == [4, 0]
    assert versions[1]["entry"] == B and versions[1]["created_at"]


def test_patch_keeps_the_mode_and_needs_a_reason(client, match):
    hand = enter_ok(client, match, A)
    no_reason = client.patch(f"/api/hands/{hand['id']}/", {"entry": B, "version": 1}, format="json")
    assert no_reason.status_code == 400 and error_fields(no_reason) == ["reason"]
    response = client.patch(f"/api/hands/{hand['id']}/", {"entry": B, "reason": "misread", "version": 1},
                            format="json")
    assert response.status_code == 200
    assert (response.json()["mode"], response.json()["points_b"]) == ("chalk", 4)


def test_a_correction_that_wins_the_game_earlier_voids_the_later_hands(client, match):
    for entry in (A, A, A, B):
        enter_ok(client, match, entry)
    fourth = sheet(client, match)["games"][0]["hands"][3]
    enter_ok(client, match, B)
    third = sheet(client, match)["games"][0]["hands"][2]
    big = {**A, "kicks": ["JS"]}  # the dealer (seat 2, side A) kicks the jack: 3 more points
    response = client.put(f"/api/hands/{third['id']}/", {"entry": {**big, "jack": None}, "reason": "kick missed",
                                                         "version": third["version"]}, format="json")
    assert response.status_code == 200, response.json()
    played = sheet(client, match)
    assert played["games"][0]["winner"] == "a"
    voided = client.get(f"/api/hands/{fourth['id']}/").json()
    assert voided["void_reason"] and not voided["counts"]


def test_strike_out_a_hand_with_a_reason(client, match):
    hand = enter_ok(client, match, A)
    enter_ok(client, match, B)
    assert client.delete(f"/api/hands/{hand['id']}/").status_code == 400
    assert error_fields(client.delete(f"/api/hands/{hand['id']}/?reason=never+played")) == ["version"]
    response = client.delete(f"/api/hands/{hand['id']}/?reason=never+played&version=1")
    assert response.status_code == 200 and response.json()["deleted"] is True
    assert sheet(client, match)["score"] == {"game": 1, "a": 0, "b": 4}
    versions = client.get(f"/api/hands/{hand['id']}/versions/").json()
    assert (versions[-1]["deleted"], versions[-1]["reason"]) == (True, "never played")
    again = client.delete(f"/api/hands/{hand['id']}/", {"reason": "twice", "version": 2}, format="json")
    assert again.status_code == 400 and error_fields(again) == ["hand"]


def test_undo_strikes_out_the_last_hand(client, match):
    enter_ok(client, match, A)
    second = enter_ok(client, match, B)
    response = client.post(f"/api/matches/{match.pk}/undo/")
    assert response.status_code == 200
    assert (response.json()["id"], response.json()["deleted"]) == (second["id"], True)
    played = sheet(client, match)
    assert played["score"] == {"game": 1, "a": 4, "b": 0}
    assert played["next_hand"] == {"game": 1, "number": 2, "dealer": 1, "score_before": [4, 0]}  # its number again
    assert Hand.objects.filter(game__match=match).count() == 2


def test_undo_of_a_game_winning_hand_reopens_that_game(client, match):
    for entry in [A] * 4:
        enter_ok(client, match, entry)
    assert sheet(client, match)["next_hand"]["game"] == 2
    assert client.post(f"/api/matches/{match.pk}/undo/").status_code == 200
    played = sheet(client, match)
    assert [g["number"] for g in played["games"]] == [1]
    assert played["next_hand"] == {"game": 1, "number": 4, "dealer": 3, "score_before": [12, 0]}
    enter_ok(client, match, A)
    assert sheet(client, match)["games"][0]["winner"] == "a"


def test_undo_with_nothing_to_undo(client, match):
    response = client.post(f"/api/matches/{match.pk}/undo/")
    assert response.status_code == 400 and error_fields(response) == ["hand"]


# ----------------------------------------------------------------------------- duplicates and bad entries
def test_a_second_submission_of_the_same_hand_is_a_409_and_stores_nothing(client, organiser, match):
    assert enter(client, match, A, number=1).status_code == 201
    response = enter(client, match, B, number=1)
    assert response.status_code == 409
    [error] = response.json()["errors"]
    assert error["field"] == "number"
    assert "hand 1 of game 1 was already entered by " + organiser.username in error["reason"]
    assert Hand.objects.filter(game__match=match).count() == 1


@pytest.mark.parametrize(("entry", "field"), [
    ({**A, "high": None}, "low"),
    ({**A, "low": {"team": 3}}, "low.team"),
    ({**A, "kicks": []}, "kicks"),
    ({**A, "beg": "maybe"}, "beg"),
    ({**A, "dealer": 3}, "dealer"),
    ({**A, "colour": "red"}, "colour"),
])
def test_bad_chalk_entries_are_400_naming_the_engine_field(client, match, entry, field):
    response = enter(client, match, entry, number=1)
    assert response.status_code == 400
    assert error_fields(response) == [field]
    assert Hand.objects.filter(game__match=match).count() == 0


def test_a_bad_hand_record_names_the_field(client, match):
    record = played_record(4, 0, [0, 0], seed=3)
    record["hands"][1] = record["hands"][1][:5]
    response = enter(client, match, record, mode="record", number=1)
    assert response.status_code == 400
    assert error_fields(response) == ["hands[1]"]


@pytest.mark.parametrize(("body", "field"), [
    ({"number": 1, "mode": "photo", "entry": A}, "mode"),
    ({"number": 0, "mode": "chalk", "entry": A}, "number"),
    ({"number": 2, "mode": "chalk", "entry": A}, "number"),
    ({"number": 1, "mode": "chalk", "entry": ["5S"]}, "entry"),
    ({"mode": "chalk", "entry": A}, "number"),
])
def test_bad_hand_submissions_are_400_naming_the_field(client, match, body, field):
    response = client.post(f"/api/matches/{match.pk}/hands/", body, format="json")
    assert response.status_code == 400
    assert error_fields(response) == [field]


def test_a_body_that_is_not_json_is_a_400_in_json(client, match):
    response = client.post(f"/api/matches/{match.pk}/hands/", '{"number": 1,', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["reason"].startswith("JSON parse error")


def test_unknown_ids_and_bad_filters_are_json_errors(client):
    assert client.get("/api/matches/999/").status_code == 404
    assert client.get("/api/hands/999/").json()["errors"]
    response = client.get("/api/matches/?competition=abc")
    assert response.status_code == 400 and error_fields(response) == ["competition"]


# ----------------------------------------------------------------------------- organising through the API
def test_an_organiser_sets_up_a_competition_and_a_match(client, organiser):
    club = organiser.club_roles.get().club
    players = [client.post("/api/players/", {"name": name, "home_club": club.pk}, format="json").json()["id"]
               for name in ("Ann", "Bea", "Cal", "Dee", "Eve")]
    pairs = [client.post("/api/partnerships/", {"player_one": one, "player_two": two, "club": club.pk},
                         format="json").json()["id"] for one, two in ((players[0], players[1]),
                                                                      (players[2], players[3]))]
    response = client.post("/api/competitions/", {"club": club.pk, "name": "Tuesday League", "players": 4,
                                                  "match_format": "best_of", "match_games": 3,
                                                  "ruleset": {"target": 10}}, format="json")
    assert response.status_code == 201, response.json()
    competition = response.json()
    assert (competition["slug"], competition["ruleset"], competition["published"]) == ("tuesday-league",
                                                                                      {"target": 10}, False)
    for pair in pairs:
        assert client.post(f"/api/competitions/{competition['id']}/entries/", {"partnership": pair},
                           format="json").status_code == 201
    created = client.post("/api/matches/", {"competition": competition["id"], "side_a": pairs[0],
                                            "side_b": pairs[1], "first_dealer": 1}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["side_a_name"] == "Ann & Bea"
    match = Match.objects.get(pk=created.json()["id"])
    assert sheet(client, match)["next_hand"] == {"game": 1, "number": 1, "dealer": 1, "score_before": [0, 0]}
    listed = client.get(f"/api/matches/?competition={competition['id']}").json()
    assert [m["id"] for m in listed["results"]] == [match.pk]
    nested = client.get(f"/api/competitions/{competition['id']}/matches/").json()
    assert [m["id"] for m in nested["results"]] == [match.pk] and nested["count"] == 1


@pytest.mark.parametrize(("ruleset", "field"), [
    ({"bogus": 1}, "ruleset.bogus"),
    ({"target": 0}, "ruleset.target"),
    ({"kick_points": {"Z": 1}}, "ruleset.kick_points.Z"),
    (["target"], "ruleset"),
])
def test_a_bad_ruleset_is_a_400_naming_the_key(client, organiser, ruleset, field):
    club = organiser.club_roles.get().club
    response = client.post("/api/competitions/", {"club": club.pk, "name": "Cup", "ruleset": ruleset},
                           format="json")
    assert response.status_code == 400
    assert error_fields(response) == [field]


def test_competition_checks(client, organiser, best_of_3):
    club = organiser.club_roles.get().club
    even = client.post("/api/competitions/", {"club": club.pk, "name": "Cup", "match_format": "best_of",
                                              "match_games": 4}, format="json")
    assert even.status_code == 400 and error_fields(even) == ["match_games"]
    taken = client.post("/api/competitions/", {"club": club.pk, "name": "Cup", "slug": best_of_3.slug},
                        format="json")
    assert taken.status_code == 400 and error_fields(taken) == ["slug"]
    make_match(best_of_3)
    locked = client.patch(f"/api/competitions/{best_of_3.pk}/", {"players": 2}, format="json")
    assert locked.status_code == 400 and error_fields(locked) == ["players"]
    renamed = client.patch(f"/api/competitions/{best_of_3.pk}/", {"name": "Renamed"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Renamed"


def test_match_sides_must_be_entrants_of_the_right_size(client, best_of_3):
    two_player = make_competition(club=best_of_3.club, players=2, entrants=1)
    single = two_player.entries.get().partnership
    entered = make_match(best_of_3)
    outsider = make_match(make_competition(club=best_of_3.club)).side_a
    cases = [
        ({"side_a": entered.side_a_id, "side_b": outsider.pk}, "side_b"),
        ({"side_a": entered.side_a_id, "side_b": entered.side_a_id}, "side_b"),
        ({"side_a": entered.side_a_id, "side_b": entered.side_b_id, "first_dealer": 3, "competition": two_player.pk},
         "side_a"),
    ]
    for body, field in cases:
        response = client.post("/api/matches/", {"competition": best_of_3.pk, **body}, format="json")
        assert response.status_code == 400, body
        assert error_fields(response) == [field]
    response = client.post(f"/api/competitions/{best_of_3.pk}/entries/", {"partnership": single.pk}, format="json")
    assert response.status_code == 400 and error_fields(response) == ["partnership"]


def test_partners_must_differ(client, organiser):
    club = organiser.club_roles.get().club
    player = client.post("/api/players/", {"name": "Solo", "home_club": club.pk}, format="json").json()["id"]
    response = client.post("/api/partnerships/", {"player_one": player, "player_two": player, "club": club.pk},
                           format="json")
    assert response.status_code == 400 and error_fields(response) == ["player_two"]


# ----------------------------------------------------------------------------- schema and docs
def test_the_schema_is_a_valid_openapi_document(client):
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    validate_schema(schema)
    assert schema["openapi"].startswith("3.")
    for path in ("/api/matches/{id}/hands/", "/api/hands/{id}/versions/", "/api/competitions/{id}/standings/",
                 "/api/matches/{id}/link/", "/api/matches/{id}/scorekeepers/", "/api/matches/{id}/undo/"):
        assert path in schema["paths"]


def test_the_schema_is_built_once_and_served_in_each_format_asked(client, monkeypatch):
    monkeypatch.setattr(SchemaView, "_built", {})
    built = []
    original = SchemaGenerator.get_schema
    monkeypatch.setattr(SchemaGenerator, "get_schema", lambda self, *a, **k: built.append(1) or original(self, *a, **k))
    as_json = [client.get("/api/schema/?format=json") for _ in range(3)]
    as_yaml = client.get("/api/schema/")
    assert len(built) == 1
    assert all(response.json() == as_json[0].json() for response in as_json)
    assert as_yaml["Content-Type"].startswith("application/vnd.oai.openapi") and b"openapi: 3." in as_yaml.content
    assert as_yaml["Content-Disposition"].endswith('.yaml"') and as_json[0]["Content-Disposition"].endswith('.json"')


def test_the_docs_page_loads_with_local_assets():
    response = APIClient().get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger-ui" in response.content
    assert b"<script>" not in response.content and b"<style>" not in response.content  # the CSP allows neither
    script = APIClient().get("/api/docs/", {"script": ""})
    assert script.status_code == 200 and b"/api/schema/" in script.content


def test_a_chalk_entry_through_the_api_scores_like_the_engine(client, match):
    hand = enter_ok(client, match, A)
    expected = score_chalk({**A, "players": 4, "dealer": 0, "score_before": [0, 0]})
    assert hand["result"] == expected


def test_the_match_sheet_costs_the_same_queries_whatever_its_length(client, match):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            sheet(client, match)
        return len(captured)

    enter_ok(client, match, A)
    short = queries()
    for entry in [A] * 3 + [B] * 3:
        enter_ok(client, match, entry)
    assert queries() == short
