"""A result that cannot happen under the competition's format and ruleset is refused, and
the message says why — match totals, game results and team totals, at the API, the pages and the services; the
bounds are the engine's (``engine.limits``, tested with the rule ids in tests/engine/test_limits.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.checks import check_game_result, check_match_totals
from games.common import EntryError
from games.models import Game, Match
from games.results import enter_game_result, record_match_totals
from games.teams import create_team_match, record_team_totals
from league.models import Competition, Entry, Team
from standings.models import StandingRow
from tests.factories import committing, make_club, make_competition, make_match, make_organiser, make_partnership

pytestmark = pytest.mark.django_db


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return committing(django_capture_on_commit_callbacks)


@pytest.fixture
def organiser():
    return make_organiser(make_club("Belmont Sports Club"))


@pytest.fixture
def league(organiser) -> Competition:
    return make_competition(club=organiser.club_roles.get().club, match_format=Competition.BEST_OF, match_games=3)


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_login(organiser)
    return client


def refusal(function, *args, **kwargs) -> EntryError:
    with pytest.raises(EntryError) as caught:
        function(*args, **kwargs)
    return caught.value


# ----------------------------------------------------------------------------- match totals
def test_totals_2_0_with_chalks_3_40_are_refused_and_the_standings_do_not_move(api, league, commit):
    """An impossible result: side A cannot have won two games to 14 with 3 chalks (R24)."""
    played = make_match(league)
    commit(record_match_totals, played, games_a=2, games_b=1, chalks_a=35, chalks_b=30)
    leader = StandingRow.objects.get(competition=league, rank=1).partnership_id
    impossible = make_match(league)
    response = commit(api.post, f"/api/matches/{impossible.pk}/totals/",
                      {"games_a": 2, "games_b": 0, "chalks_a": 3, "chalks_b": 40}, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "chalks_a"
    assert "3 chalks for 2 games won" in error["reason"] and "at least 28" in error["reason"]
    impossible.refresh_from_db()
    assert impossible.result_level == "hand" and impossible.status == Match.SCHEDULED
    assert StandingRow.objects.get(competition=league, rank=1).partnership_id == leader


@pytest.mark.parametrize(("totals", "field", "says"), [
    ({"games_a": 2, "games_b": 1, "chalks_a": 28, "chalks_b": 61}, "chalks_b", "at most 20"),   # 3 games × 20
    ({"games_a": 2, "games_b": 1, "chalks_a": 27, "chalks_b": 14}, "chalks_a", "at least 28"),
    ({"games_a": 1, "games_b": 2, "hang_jacks_b": 16}, "hang_jacks_b", "in 3 games"),          # 5 a game
    ({"games_a": 2, "games_b": 0, "hang_jacks_a": 10, "chalks_a": 29, "chalks_b": 0}, "hang_jacks_a", "worth 30"),
    ({"games_a": 2, "games_b": 2}, "games_b", "is not a result of best of 3 games"),
])
def test_impossible_match_totals_name_the_field_and_the_reason(league, totals, field, says):
    error = refusal(record_match_totals, make_match(league), **totals)
    assert error.field == field and says in error.reason


def test_possible_totals_at_the_edge_are_kept(league, commit):
    match = make_match(league)
    commit(record_match_totals, match, games_a=2, games_b=1, hang_jacks_a=9, hang_jacks_b=1, chalks_a=60,
           chalks_b=60)
    match.refresh_from_db()
    assert (match.winner, match.chalks_a, match.chalks_b, match.hang_jacks_a) == ("a", 60, 60, 9)


def test_the_totals_page_says_why_impossible_totals_are_refused(client, organiser, league):
    match = make_match(league)
    client.force_login(organiser)
    response = client.post(reverse("match_match_totals", args=[match.pk]),
                           {"games_a": 2, "games_b": 0, "hang_jacks_a": 0, "hang_jacks_b": 0, "chalks_a": 3,
                            "chalks_b": 40})
    assert response.status_code == 422
    assert "at least 28" in str(response.context["form"].errors["chalks_a"])


# ----------------------------------------------------------------------------- game results
@pytest.mark.parametrize(("result", "field", "says"), [
    ({"winner": "a", "score_a": 14, "score_b": 21}, "score_b", "at most 20"),
    ({"winner": "b", "score_a": 40, "score_b": 14}, "score_a", "below 14 before the last hand"),
    ({"winner": "a", "hang_jacks_a": 6}, "hang_jacks_a", "at most 5"),
    ({"winner": "b", "hang_jacks_a": 1, "score_a": 2, "score_b": 14}, "hang_jacks_a", "worth 3 chalks"),
])
def test_impossible_game_results_name_the_field_and_the_reason(api, league, result, field, says):
    match = make_match(league)
    response = api.post(f"/api/matches/{match.pk}/games/", {"number": 1, **result}, format="json")
    assert response.status_code == 400
    errors = {error["field"]: error["reason"] for error in response.json()["errors"]}
    assert says in errors[field], errors
    assert not Game.objects.filter(match=match).exists()


def test_the_bounds_follow_the_competitions_ruleset(commit):
    """Hang Jack 6 to 10: 9 before the last hand, then High, Low, Hang Jack and Game and a renege point."""
    competition = make_competition(ruleset={"target": 10, "hang_jack_points": 6})
    commit(enter_game_result, make_match(competition), number=1, winner="a", score_a=19, score_b=9,
           hang_jacks_a=2)
    assert refusal(enter_game_result, make_match(competition), number=1, winner="a", score_a=20,
                   score_b=9).field == "score_a"
    assert refusal(enter_game_result, make_match(competition), number=1, winner="a",
                   hang_jacks_a=3).field == "hang_jacks_a"


def test_the_checks_run_without_a_database_for_imports():
    """The same checks, for a CSV import to run on each row before anything is stored."""
    from engine import Ruleset

    check_game_result(Ruleset(), winner="a", score_a=14, score_b=16, hang_jacks_b=1)
    with pytest.raises(EntryError) as caught:
        check_match_totals(Ruleset(), games_a=2, games_b=0, chalks_a=3, chalks_b=40)
    assert caught.value.field == "chalks_a"


# ----------------------------------------------------------------------------- team matches
@pytest.fixture
def team_match(organiser):
    club = organiser.club_roles.get().club
    competition = make_competition(club=club)
    competition.entrant_kind, competition.team_tables, competition.team_target = Competition.TEAMS, 2, 5
    competition.save()
    teams = []
    for name in ("Blue Dollar", "Red House"):
        team = Team.objects.create(competition=competition, club=club, name=name)
        team.partnerships.add(*[make_partnership(club=club) for _ in range(2)])
        Entry.objects.create(competition=competition, team=team)
        teams.append(team)
    return competition, teams


def test_impossible_team_totals_are_refused(team_match):
    competition, teams = team_match
    overall = create_team_match(competition, *teams)
    error = refusal(record_team_totals, overall, 5, 2, chalks_a=30, chalks_b=10)
    assert error.field == "chalks_a" and "at least 70" in error.reason
    error = refusal(record_team_totals, overall, 5, 2, hang_jacks_b=36)
    assert error.field == "hang_jacks_b" and "in 7 games" in error.reason
    record_team_totals(overall, 5, 2, hang_jacks_b=35, chalks_a=70, chalks_b=140)


def test_impossible_totals_at_a_table_are_refused(team_match):
    competition, teams = team_match
    tables = list(zip(teams[0].partnerships.order_by("id"), teams[1].partnerships.order_by("id"), strict=True))
    table = create_team_match(competition, *teams, tables=tables).table_matches.first()
    error = refusal(record_match_totals, table, games_a=3, games_b=1, chalks_a=10, chalks_b=14)
    assert error.field == "chalks_a" and "at least 42" in error.reason
    error = refusal(enter_game_result, table, number=1, winner="b", hang_jacks_b=40_000)
    assert error.field == "hang_jacks_b"
