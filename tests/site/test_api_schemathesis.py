"""A bounded schemathesis run over the whole API, as an organiser, in-process.

The schema is read from ``/api/schema/`` on the Django WSGI app and every operation is called with
generated requests — valid ones and invalid ones — with the organiser's session (and its CSRF token), on
a database seeded with a club, a competition with entries, matches entered hand by hand, game by game and
as totals, and a team match. Every response must be something other than a server error, its status one the
operation documents, its content type the documented one, and its body the documented schema (an error's too:
the schema gives every operation's error statuses the error shape). Path ids that are whole numbers are mapped
onto the seeded objects, so that the operations reach real matches, hands and team matches rather than only 404s.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from games import services
from games.models import Game, Hand, Match, TeamMatch
from league.models import Competition, Entry, Team
from tests.factories import make_club, make_competition, make_match, make_organiser, make_partnership, sweep

DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
MAX_EXAMPLES = 50 if DEEP else 3
"""Generated requests per operation in the examples and fuzzing phases."""
CSRF_SECRET = "schemathesisCsrfSecretOf32Chars0"  # a CSRF cookie holds a 32-character secret; the header repeats it

# The coverage phase (every boundary and every invalid value of every field, several hundred requests for a hand's
# body: about 4 minutes of CPU for the whole API) runs with the deep profile (HYPOTHESIS_PROFILE=deep), as the
# deep Hypothesis runs do; the suite's run keeps to the examples and a bounded fuzzing of every operation.
schema = schemathesis.openapi.from_wsgi(
    "/api/schema/", application,
    config=SchemathesisConfig.from_dict({"phases": {"coverage": {"enabled": DEEP}}}))
pytestmark = pytest.mark.django_db(transaction=True)  # each request commits: the settle runs after it, as live


@pytest.fixture
def seeded() -> dict:
    """A club and its organiser; a best-of-3 competition with entries and matches kept at each level (hands
    with a correction, game results, totals), and a team competition with a team match at two tables."""
    club = make_club("Blue Dollar Bar")
    organiser = make_organiser(club)
    league = make_competition(club=club, match_format=Competition.BEST_OF, match_games=3, entrants=2)
    by_hand, by_game, by_totals = make_match(league), make_match(league), make_match(league)
    hands = [services.enter_hand(match=by_hand, number=n, mode=Hand.CHALK, entry=sweep(n % 2), author_label="t")
             for n in (1, 2)]
    services.correct_hand(hand=hands[0], mode=Hand.CHALK, entry=sweep(1), reason="Low went to B",
                          version=hands[0].version)
    services.settle_match(by_hand.pk)
    services.enter_game_result(by_game, number=1, winner="a", hang_jacks_a=1, score_a=14, score_b=9)
    services.settle_match(by_game.pk)
    services.record_match_totals(by_totals, games_a=2, games_b=1, hang_jacks_a=1, chalks_a=40, chalks_b=30)
    services.settle_match(by_totals.pk)

    teams = make_competition(club=club, ruleset={"target": 4})
    teams.entrant_kind, teams.team_tables, teams.team_target = Competition.TEAMS, 2, 3
    teams.save()
    sides = []
    for name in ("Blue", "Red"):
        team = Team.objects.create(competition=teams, club=club, name=name)
        team.partnerships.add(*[make_partnership(club=club, name=f"{name} {n}") for n in (1, 2)])
        Entry.objects.create(competition=teams, team=team)
        sides.append(team)
    tables = list(zip(sides[0].partnerships.order_by("id"), sides[1].partnerships.order_by("id"), strict=True))
    team_match = services.create_team_match(teams, sides[0], sides[1], tables=tables)
    table = team_match.table_matches.order_by("table_number").first()
    services.enter_game_result(table, number=1, winner="a", score_a=4, score_b=1)
    services.settle_match(table.pk)

    client = Client()
    client.force_login(organiser)
    return {
        "cookies": {"sessionid": client.cookies["sessionid"].value, "csrftoken": CSRF_SECRET},
        "ids": {
            "matches": list(Match.objects.values_list("pk", flat=True)),
            "team-matches": list(TeamMatch.objects.values_list("pk", flat=True)),
            "games": list(Game.objects.values_list("pk", flat=True)),
            "hands": list(Hand.objects.values_list("pk", flat=True)),
            "competitions": [league.pk, teams.pk],
            "clubs": [club.pk],
            "players": list(club.players.values_list("pk", flat=True)),
            "partnerships": list(club.partnerships.values_list("pk", flat=True)),
            "entry_id": list(Entry.objects.values_list("pk", flat=True)),
        },
    }


def _onto_seeded(case, ids: dict[str, list[int]]) -> None:
    """Small whole-number path ids become seeded objects' ids (others stay as generated: 404s, 400s, and ids too
    large for the database)."""
    resource = case.path.strip("/").split("/")[1]
    for name, value in (case.path_parameters or {}).items():
        known = ids.get(name) or (ids.get(resource) if name == "id" else None)
        if isinstance(value, str) and value.isascii() and value.isdigit():
            value = int(value)
        if known and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1000:
            case.path_parameters[name] = known[value % len(known)]


@pytest.mark.slow  # about a minute and a half of CPU for the whole API
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_answers_only_documented_statuses_in_their_schema_and_no_server_error(case, seeded):
    _onto_seeded(case, seeded["ids"])
    case.call_and_validate(cookies=seeded["cookies"], headers={"X-CSRFToken": CSRF_SECRET},
                           checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                   response_schema_conformance])


# ----------------------------------------------------------------------------- the error shape, also with DEBUG on
def errors_of(response) -> list[dict]:
    assert response["Content-Type"] == "application/json", response.content[:300]
    body = response.json()
    assert set(body) == {"errors"} and all(set(error) == {"field", "reason"} for error in body["errors"])
    return body["errors"]


@pytest.mark.parametrize("path", ["/api/no-such-thing/", "/api/matches/abc/", "/api/matches/1/no-such-action/",
                                  "/api/%E2%82%AC/\n/", "/api/matches/1/games/x/"])
def test_an_unknown_api_path_is_a_json_404_with_debug_on(client, settings, path):
    settings.DEBUG = True
    response = client.get(path)
    assert response.status_code == 404
    assert errors_of(response)[0]["field"] == "path"


def test_a_missing_slash_still_redirects(client, settings):
    settings.DEBUG = True
    response = client.get("/api/matches?limit=5")
    assert response.status_code == 301 and response["Location"] == "/api/matches/?limit=5"


@pytest.mark.parametrize("session", [False, True])
@pytest.mark.parametrize("path", ["/api/no-such-thing/", "/api/matches/1/no-such-action/"])
def test_a_post_to_an_unknown_api_path_is_a_json_404_not_the_csrf_page(path, session):
    client = Client(enforce_csrf_checks=True)  # as a browser or a script: no CSRF token sent
    if session:
        client.force_login(make_organiser(make_club()))
    response = client.post(path, data={"a": "1"}, content_type="application/json")
    assert response.status_code == 404
    assert errors_of(response)[0]["field"] == "path"


@pytest.mark.parametrize(("path", "status", "field"), [("/api/no-such-thing/", 404, "path"),
                                                     ("/api/matches/", 400, "body")])
@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary="])
def test_a_multipart_body_without_a_boundary_gets_the_error_shape(path, status, field, content_type):
    client = Client(enforce_csrf_checks=True)  # Django's CSRF check reads the form, as for a browser
    client.force_login(make_organiser(make_club()))
    client.cookies["csrftoken"] = CSRF_SECRET
    response = client.post(path, data=b"--x\r\n", content_type=content_type, headers={"X-CSRFToken": CSRF_SECRET})
    assert response.status_code == status
    assert errors_of(response)[0]["field"] == field


def test_a_request_django_refuses_before_any_view_gets_the_error_shape_under_the_api(client):
    response = client.get("/api/clubs/", headers={"Host": "not-this-server.example"})
    assert response.status_code == 400
    assert errors_of(response)[0]["field"] == "host"


def test_a_page_outside_the_api_keeps_django_s_own_400(client):
    response = client.get("/tables/", headers={"Host": "not-this-server.example"})
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")


def test_every_operation_documents_its_error_statuses_with_the_error_shape():
    components = schema.raw_schema["components"]["schemas"]

    def error_shaped(body: dict) -> bool:  # the error shape, or one that adds to it (a conflict's stored hand)
        return "errors" in components[body["$ref"].rsplit("/", 1)[1]]["properties"]

    for path, operations in schema.raw_schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            expected = {"400", "403"}
            if "{" in path:
                expected.add("404")
            if method in ("post", "put", "patch", "delete"):
                expected.add("409")
            if "requestBody" in operation:
                expected |= {"413", "415"}
            assert expected <= set(responses), (method, path, sorted(responses))
            for status in expected:
                assert error_shaped(responses[status]["content"]["application/json"]["schema"]), (method, path, status)
    assert "429" in schema.raw_schema["paths"]["/api/auth/token/"]["post"]["responses"]
    error = components["Error"]
    assert set(error["required"]) == {"field", "reason"}


@pytest.mark.parametrize(("method", "path"), [("delete", "/api/clubs/"), ("get", "/api/matches/1/undo/"),
                                              ("put", "/api/competitions/")])
def test_a_method_the_endpoint_has_not_is_a_json_405(client, settings, method, path):
    settings.DEBUG = True
    client.force_login(make_organiser(make_club()))
    response = getattr(client, method)(path)
    assert response.status_code == 405 and errors_of(response)


def test_a_bug_in_an_api_view_is_a_json_500_and_is_still_raised_in_tests(client, settings, monkeypatch):
    from games.api_matches import MatchViewSet

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    settings.DEBUG = True
    monkeypatch.setattr(MatchViewSet, "list", broken)
    with pytest.raises(RuntimeError):  # the test client re-raises what the server signals, as for any view
        client.get("/api/matches/")
    client.raise_request_exception = False
    response = client.get("/api/matches/")
    assert response.status_code == 500 and "logged" in errors_of(response)[0]["reason"]


def test_the_schema_declares_an_undecided_winner():
    spec = schema.raw_schema["components"]["schemas"]
    for name in ("Match", "Game", "TeamMatch"):
        choices = [ref["$ref"].rsplit("/", 1)[1] for ref in spec[name]["properties"]["winner"]["oneOf"]]
        assert "BlankEnum" in choices, name
    assert spec["ResultWinnerEnum"]["enum"] == ["a", "b", "d"] and spec["SideEnum"]["enum"] == ["a", "b"]
