"""Every input bounded, every 500 gone.

Query parameters (``limit``, ``offset``, ``competition``), the game results and totals of the API and the pages,
and the entries page's seeds: a number the game or the database cannot hold is a 400 (or a form error) naming
the field and saying why, never a 500 — and nothing is stored that would make a later settle fail.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game, Match
from league.models import Competition, Entry, Player
from tests.factories import (
    committing,
    make_club,
    make_competition,
    make_match,
    make_organiser,
    make_partnership,
    make_player,
)

pytestmark = pytest.mark.django_db
HUGE = "9999999999999999999"
LISTS = ["/api/clubs/", "/api/players/", "/api/partnerships/", "/api/competitions/", "/api/matches/",
         "/api/team-matches/"]


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return committing(django_capture_on_commit_callbacks)


@pytest.fixture
def organiser():
    return make_organiser(make_club("Blue Dollar Bar"))


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_login(organiser)
    return client


@pytest.fixture
def match(organiser) -> Match:
    club = organiser.club_roles.get().club
    return make_match(make_competition(club=club, match_format=Competition.BEST_OF, match_games=3))


def errors_of(response) -> dict[str, str]:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return {error["field"]: error["reason"] for error in response.json()["errors"]}


# ----------------------------------------------------------------------------- query parameters
@pytest.mark.parametrize("url", LISTS)
@pytest.mark.parametrize(("query", "field"), [
    (f"limit={HUGE}", "limit"), ("limit=100000", "limit"), ("limit=0", "limit"), ("limit=abc", "limit"),
    ("limit=-5", "limit"), (f"offset={HUGE}", "offset"), ("offset=-1", "offset"), ("offset=x", "offset"),
])
def test_a_bad_or_huge_limit_or_offset_is_a_400_naming_it(api, url, query, field):
    response = api.get(f"{url}?{query}")
    assert response.status_code == 400
    assert field in errors_of(response) and "whole number from" in errors_of(response)[field]


def test_lists_come_a_capped_page_at_a_time(api):
    club = make_club("Arima Social Club")
    for _ in range(120):
        make_player(club=club)
    page = api.get("/api/players/").json()
    assert page["count"] == Player.objects.count() and len(page["results"]) == 100 and "limit=100" in page["next"]
    assert len(api.get("/api/players/?limit=500&offset=20").json()["results"]) == 100
    assert api.get("/api/players/?limit=501").status_code == 400
    assert api.get(f"/api/players/?offset={2**31 - 1}").json()["results"] == []


@pytest.mark.parametrize("url", ["/api/matches/", "/api/team-matches/"])
def test_a_huge_competition_filter_is_a_400(api, url):
    response = api.get(f"{url}?competition={HUGE}99")
    assert response.status_code == 400 and "competition" in errors_of(response)
    assert api.get(f"{url}?competition={HUGE[:-1]}").json()["results"] == []


def test_the_schema_says_the_bounds_of_limit_and_offset(api):
    schema = api.get("/api/schema/?format=json").json()
    parameters = {p["name"]: p["schema"] for p in schema["paths"]["/api/matches/"]["get"]["parameters"]}
    assert parameters["limit"] == {"type": "integer", "minimum": 1, "maximum": 500}
    assert parameters["offset"] == {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}


# ----------------------------------------------------------------------------- game results and totals (API)
def test_a_game_with_40000_hang_jacks_is_refused_and_the_match_still_settles(api, match, commit):
    url = f"/api/matches/{match.pk}/games/"
    response = api.post(url, {"number": 1, "winner": "a", "hang_jacks_a": 40_000}, format="json")
    assert response.status_code == 400
    assert "at most 5" in errors_of(response)["hang_jacks_a"]
    assert not Game.objects.filter(match=match).exists()
    for number, winner in ((1, "a"), (2, "a")):
        response = commit(api.post, url, {"number": number, "winner": winner, "hang_jacks_a": 1}, format="json")
        assert response.status_code == 201, response.json()
    match.refresh_from_db()
    assert (match.status, match.winner, match.hang_jacks_a) == ("complete", "a", 2)


@pytest.mark.parametrize(("body", "field", "reason"), [
    ({"score_a": 3_000_000_000, "score_b": 9}, "score_a", "less than or equal to 2147483647"),
    ({"score_a": 2_000_000_000, "score_b": 9}, "score_a", "at most 20"),
    ({"score_a": 14, "score_b": 30_000}, "score_b", "at most 20"),
    ({"hang_jacks_b": 3_000_000_000}, "hang_jacks_b", "less than or equal to 2147483647"),
])
def test_game_chalks_and_hang_jacks_beyond_the_game_are_a_400(api, match, body, field, reason):
    response = api.post(f"/api/matches/{match.pk}/games/", {"number": 1, "winner": "a", **body}, format="json")
    assert response.status_code == 400 and reason in errors_of(response)[field]


@pytest.mark.parametrize(("body", "field"), [
    ({"hang_jacks_a": 40_000}, "hang_jacks_a"),
    ({"chalks_a": 3_000_000_000, "chalks_b": 20}, "chalks_a"),
    ({"chalks_a": 40, "chalks_b": 2_000_000_000}, "chalks_b"),
    ({"games_a": 99_999_999_999}, "games_a"),
])
def test_match_totals_beyond_the_game_are_a_400(api, match, body, field):
    response = api.post(f"/api/matches/{match.pk}/totals/", {"games_a": 2, "games_b": 1, **body}, format="json")
    assert response.status_code == 400 and field in errors_of(response)
    match.refresh_from_db()
    assert match.result_level == "hand" and match.hang_jacks_a == 0


def test_team_totals_beyond_the_game_are_a_400(api, organiser):
    from games.teams import create_team_match
    from league.models import Team

    club = organiser.club_roles.get().club
    competition = make_competition(club=club)
    competition.entrant_kind, competition.team_tables, competition.team_target = Competition.TEAMS, 1, 3
    competition.save()
    teams = []
    for name in ("Blue", "Red"):
        team = Team.objects.create(competition=competition, club=club, name=name)
        team.partnerships.add(make_partnership(club=club))
        Entry.objects.create(competition=competition, team=team)
        teams.append(team)
    team_match = create_team_match(competition, *teams)
    url = f"/api/team-matches/{team_match.pk}/totals/"
    for body, field in (({"hang_jacks_b": 40_000}, "hang_jacks_b"), ({"chalks_a": 3e9, "chalks_b": 3}, "chalks_a"),
                        ({"chalks_a": 50, "chalks_b": 2_000_000_000}, "chalks_b")):
        response = api.post(url, {"bullseyes_a": 3, "bullseyes_b": 1, **body}, format="json")
        assert response.status_code == 400 and field in errors_of(response), response.json()


# ----------------------------------------------------------------------------- the pages
def test_the_game_results_page_refuses_40000_hang_jacks_next_to_the_field(client, organiser, match):
    client.force_login(organiser)
    url = reverse("match_game_results", args=[match.pk])
    response = client.post(url, {"number": 1, "winner": "a", "hang_jacks_a": 40_000, "hang_jacks_b": 0})
    assert response.status_code == 422
    assert "at most 5" in str(response.context["form"].errors["hang_jacks_a"])
    response = client.post(url, {"number": 1, "winner": "a", "hang_jacks_a": 0, "score_a": 14, "score_b": 900})
    assert response.status_code == 422 and "at most 20" in str(response.context["form"].errors["score_b"])
    assert not Game.objects.filter(match=match).exists()


def test_a_huge_seed_on_the_entries_page_is_a_form_error(client, organiser):
    club = organiser.club_roles.get().club
    competition = make_competition(club=club, published=False, entrants=1)
    client.force_login(organiser)
    pair = make_partnership(club=club)
    add = reverse("competition_entry_add", args=[club.slug, competition.slug])
    response = client.post(add, {"partnership": pair.pk, "seed": "99999999999999999999999"})
    assert response.status_code == 422
    assert "from 1 to 10,000" in str(response.context["add_form"].errors["seed"])
    entry = competition.entries.get()
    arrange = reverse("competition_entries_arrange", args=[club.slug, competition.slug])
    response = client.post(arrange, {f"seed_{entry.pk}": "99999999999999999999999", f"group_{entry.pk}": ""})
    assert response.status_code == 422 and f"seed_{entry.pk}" in response.context["arrange_form"].errors
    assert competition.entries.count() == 1 and competition.entries.get().seed is None


def test_a_huge_seed_in_the_entries_api_is_a_400(api, organiser):
    club = organiser.club_roles.get().club
    competition = make_competition(club=club)
    response = api.post(f"/api/competitions/{competition.pk}/entries/",
                        {"partnership": make_partnership(club=club).pk, "seed": 99999999999999999999999},
                        format="json")
    assert response.status_code == 400 and "seed" in errors_of(response)
    assert not competition.entries.exists()


@pytest.mark.parametrize("where", ["token", "hands"])
def test_a_body_too_big_for_the_server_is_a_413_in_the_error_shape_not_a_500(where, caplog):
    body = '{"username": "' + "x" * (3 * 1024 * 1024) + '"}'
    client = APIClient()
    path = "/api/auth/token/"
    if where == "hands":
        match = make_match(make_competition())
        client.credentials(HTTP_X_ENTRY_TOKEN=match.entry_token)
        path = f"/api/matches/{match.pk}/hands/"
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == 413
    [error] = response.json()["errors"]
    assert error["field"] == "body" and "larger than the server takes" in error["reason"]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]  # nothing for the error log
