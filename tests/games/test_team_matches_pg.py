"""A team match race played through the API on PostgreSQL with a real Celery worker on Redis.

Run with ``DATABASE_URL=postgres://… REDIS_URL=redis://…/15``; skipped without them (a failure under
``REQUIRE_SERVICES=1``). Two tables race to 3 bullseyes; games are played to 4 chalks, so one sweep (High,
Low, Jack and Game) wins a game. Each hand goes through ``POST /api/matches/<table>/hands/`` and the worker
settles the table and the team match in one task.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Match, TeamMatch
from games.teams import create_team_match
from league.models import Competition, Entry, Team
from standings.models import StandingRow
from tests.factories import make_club, make_competition, make_organiser, make_partnership, make_user
from tests.services import wait_for, wait_settled

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def sweep(team: int) -> dict:
    return {"kicks": ["5S"], "beg": "stand", "high": {"team": team}, "low": {"team": team},
            "jack": {"team": team}, "game": {"team": team}}


def race_to_three() -> TeamMatch:
    club = make_club("Blue Dollar Bar")
    competition = make_competition(club=club, ruleset={"target": 4})
    competition.entrant_kind = Competition.TEAMS
    competition.team_tables, competition.team_mode, competition.team_target = 2, Competition.TEAM_RACE, 3
    competition.save()
    teams = []
    for name in ("Blue Dollar", "Red House"):
        team = Team.objects.create(competition=competition, club=club, name=name)
        team.partnerships.add(*[make_partnership(club=club, name=f"{name} {n}") for n in (1, 2)])
        Entry.objects.create(competition=competition, team=team)
        teams.append(team)
    pairs = [list(team.partnerships.order_by("id")) for team in teams]
    return create_team_match(competition, *teams, tables=list(zip(*pairs, strict=True)))


def test_a_race_played_through_the_api_is_won_by_the_first_team_to_the_target(celery_worker_process):
    team_match = race_to_three()
    scorekeeper = make_user("table-phone")
    make_organiser(team_match.competition.club, scorekeeper)
    api = APIClient()
    api.force_login(scorekeeper)
    one, two = team_match.table_matches.order_by("table_number")

    def win(table: Match, team: str) -> None:
        """The next hand at ``table`` wins a game for ``team``; wait for the worker (the next game opens)."""
        detail = api.get(f"/api/matches/{table.pk}/").json()
        assert detail["next_hand"] is not None, detail
        response = api.post(f"/api/matches/{table.pk}/hands/", {
            "number": detail["next_hand"]["number"], "mode": "chalk", "entry": sweep(0 if team == "a" else 1)},
            format="json")
        assert response.status_code == 201, response.json()
        wait_settled(table)

    win(one, "a")   # Blue Dollar 1 – 0
    win(two, "b")   # 1 – 1
    win(two, "a")   # 2 – 1
    assert TeamMatch.objects.values_list("status", "bullseyes_a", "bullseyes_b").get(pk=team_match.pk) == (
        "in_progress", 2, 1)
    win(one, "a")   # 3 – 1: Blue Dollar wins the race

    team_match = TeamMatch.objects.get(pk=team_match.pk)
    assert (team_match.status, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (
        "complete", "a", 3, 1)
    tables = list(team_match.table_matches.order_by("table_number"))
    assert [(t.status, t.games_a, t.games_b, t.winner) for t in tables] == [
        ("complete", 2, 0, "a"), ("complete", 1, 1, "d")]
    # every table stops: no hand goes in any more
    response = api.post(f"/api/matches/{two.pk}/hands/", {"number": 2, "mode": "chalk", "entry": sweep(1)},
                        format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "match"
    detail = api.get(f"/api/team-matches/{team_match.pk}/").json()
    assert (detail["winner"], detail["bullseyes_a"], [t["status"] for t in detail["table_matches"]]) == (
        "a", 3, ["complete", "complete"])
    # the standings the worker wrote after the last settle count the team match
    wait_for(lambda: StandingRow.objects.filter(competition=team_match.competition, team=team_match.team_a,
                                                won=1).exists(), what="the team standings")
