"""A team match's overall totals and forfeits while an online table plays one of its tables: the same
guard as a table's own entries (``games.signals.results_changing``). Totals are refused naming the online table —
through the service (``MatchHeldError``, field ``match``), the API (409) and the organiser's page (422, the reason
shown) — and nothing changes: the tables and the online table stay. A team forfeit goes through and finishes the
online table, saying why; once online play has ended, totals are refused in words (the closed table keeps its
record of the match), never with a 500."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Match, TeamMatch
from games.services import MatchHeldError
from games.teams import clear_team_forfeit, create_team_match, record_team_forfeit, record_team_totals
from league.models import Competition, Entry, Team
from tables import changes, dealing, fixtures
from tables.models import Table
from tests.factories import make_club, make_competition, make_organiser, make_partnership, make_user
from tests.tables.helpers import fresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene():
    club = make_club("Guarded Club")
    organiser = make_user("orga")
    make_organiser(club, organiser)
    competition = make_competition(club=club, ruleset={"target": 4})
    competition.entrant_kind = Competition.TEAMS
    competition.team_tables, competition.team_mode, competition.team_target = 2, Competition.TEAM_RACE, 3
    competition.save()
    teams = []
    for name in ("Blue", "Red"):
        team = Team.objects.create(competition=competition, club=club, name=name)
        team.partnerships.add(*[make_partnership(club=club, name=f"{name} {n}") for n in (1, 2)])
        Entry.objects.create(competition=competition, team=team)
        teams.append(team)
    pairs = [list(team.partnerships.order_by("id")) for team in teams]
    team_match = create_team_match(competition, *teams, tables=list(zip(pairs[0], pairs[1], strict=True)))
    first = team_match.table_matches.order_by("table_number").first()
    table = fixtures.open_fixture(first, organiser)
    return {"organiser": organiser, "team_match": team_match, "first": first, "table": table}


def state(team_match: TeamMatch) -> tuple:
    team_match = TeamMatch.objects.get(pk=team_match.pk)
    return (team_match.result_level, team_match.bullseyes_a, team_match.bullseyes_b, team_match.status,
            team_match.table_matches.count(), Table.objects.filter(match__team_match=team_match).count())


def test_the_team_totals_are_refused_while_an_online_table_plays_one_of_its_tables(scene):
    team_match, table = scene["team_match"], scene["table"]
    before = state(team_match)
    for online in (table, dealing.start(table)):  # waiting to start, then playing
        with pytest.raises(MatchHeldError) as refused:
            record_team_totals(team_match, 3, 1, user=scene["organiser"])
        assert refused.value.field == "match"
        assert f"being played online at table {online.pk}" in refused.value.reason
        assert state(team_match) == before  # the tables (and the online table) are still there
        assert fresh(table).status in changes.OPEN


def test_the_api_answers_409_and_the_page_shows_the_reason(client, scene):
    team_match, table = scene["team_match"], scene["table"]
    before = state(team_match)
    api = APIClient()
    api.force_authenticate(scene["organiser"])
    answer = api.post(f"/api/team-matches/{team_match.pk}/totals/", {"bullseyes_a": 3, "bullseyes_b": 1},
                      format="json")
    assert answer.status_code == 409, answer.content
    [error] = answer.json()["errors"]
    assert error["field"] == "match" and f"played online at table {table.pk}" in error["reason"]
    client.force_login(scene["organiser"])
    response = client.post(reverse("team_match_totals", args=[team_match.pk]),
                           {"bullseyes_a": "3", "bullseyes_b": "1", "hang_jacks_a": "0", "hang_jacks_b": "0"})
    assert response.status_code == 422
    assert f"this match is being played online at table {table.pk}" in html.unescape(response.content.decode())
    assert state(team_match) == before


def test_a_team_forfeit_finishes_the_online_table_and_clearing_it_waits_for_online_play(
        scene, django_capture_on_commit_callbacks):
    team_match, table = scene["team_match"], dealing.start(scene["table"])
    with django_capture_on_commit_callbacks(execute=True):
        record_team_forfeit(team_match, outcome=Match.FORFEIT_B, user=scene["organiser"])
    table = fresh(table)
    assert table.status == Table.FINISHED and table.deadline_at is None
    assert table.end_reason.startswith("The match is over: the organiser recorded a forfeit")
    assert TeamMatch.objects.get(pk=team_match.pk).outcome == Match.FORFEIT_B
    # the online table no longer holds the match: the forfeit is cleared as usual
    clear_team_forfeit(team_match, user=scene["organiser"])
    assert TeamMatch.objects.get(pk=team_match.pk).outcome == Match.PLAYED


def test_clearing_a_team_forfeit_is_refused_while_a_table_is_held(scene):
    team_match, table = scene["team_match"], scene["table"]
    TeamMatch.objects.filter(pk=team_match.pk).update(outcome=Match.FORFEIT_A)  # recorded before the table opened
    Match.objects.filter(team_match=team_match).update(outcome=Match.FORFEIT_A)
    with pytest.raises(MatchHeldError, match=f"played online at table {table.pk}"):
        clear_team_forfeit(team_match, user=scene["organiser"])
    assert TeamMatch.objects.get(pk=team_match.pk).outcome == Match.FORFEIT_A


def test_after_online_play_ended_the_totals_are_refused_in_words_not_a_500(client, scene):
    team_match, table = scene["team_match"], scene["table"]
    fixtures.end_fixture(table, scene["organiser"])
    before = state(team_match)
    client.force_login(scene["organiser"])
    response = client.post(reverse("team_match_totals", args=[team_match.pk]),
                           {"bullseyes_a": "3", "bullseyes_b": "1", "hang_jacks_a": "0", "hang_jacks_b": "0"})
    assert response.status_code == 422
    text = html.unescape(response.content.decode())
    assert f"its tables cannot be removed: Table {table.pk} (League fixture, 4 players) keeps a record" in text
    assert state(team_match) == before
