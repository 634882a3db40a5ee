"""A competition copied into a new season: its format, tiebreaks, bye rules, rule variants, team settings and
entrants (seeds, groups, divisions; a team league's teams with their pairs), as a draft with no round; by the
setup page and the API; the player's page then shows both seasons."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import entries as setup
from league.competition_options import set_published, update_competition
from league.models import Competition, Entry, Team
from league.services import copy_to_new_season
from league.teams import create_team
from tests.factories import make_club, make_competition, make_match, make_organiser, make_partnership

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    club = make_club("Arima Social Club")
    league = make_competition(club=club, match_format=Competition.BEST_OF, match_games=3, ruleset={"target": 10})
    update_competition(competition=league, season="2026", tiebreaks=["bullseyes_for", "hang_jacks_for"],
                       bye_score={"bullseyes_against": "average_down"}, division_ranking="division")
    pairs = [make_partnership(club=club, name=name) for name in ("Red", "Blue", "Gold")]
    for pair, (seed, division) in zip(pairs, ((1, "North"), (2, "South"), (None, "North")), strict=True):
        setup.enter(competition=league, partnership=pair, seed=seed, division=division)
    setup.withdraw(entry=Entry.objects.get(competition=league, partnership=pairs[2]))
    make_match(league, side_a=pairs[0], side_b=pairs[1])
    league.refresh_from_db()
    return league


def test_the_new_season_keeps_the_format_and_the_entrants_not_the_matches(season):
    new = copy_to_new_season(competition=season, season="2027")
    assert (new.club_id, new.name, new.season, new.published) == (season.club_id, season.name, "2027", False)
    assert new.slug != season.slug
    for field in ("match_format", "match_games", "ruleset", "tiebreaks", "bye_score", "division_ranking",
                  "entrant_kind", "system"):
        assert getattr(new, field) == getattr(season, field), field
    assert sorted(new.entries.values_list("partnership__name", "seed", "division")) == [
        ("Blue", 2, "South"), ("Red", 1, "North")]  # Gold had withdrawn
    assert not new.matches.exists() and not new.rounds.exists()
    empty = copy_to_new_season(competition=season, season="2028", name="Spring Cup", entrants=False)
    assert empty.name == "Spring Cup" and not empty.entries.exists()


def test_a_team_league_copies_its_teams_with_their_pairs():
    club = make_club()
    league = make_competition(club=club)
    league.entrant_kind = Competition.TEAMS
    league.save()
    pairs = [make_partnership(club=club) for _ in range(2)]
    create_team(competition=league, name="Smokey's", partnerships=pairs, division="Premier")
    new = copy_to_new_season(competition=league, season="2027")
    team = Team.objects.get(competition=new)
    assert team.name == "Smokey's" and set(team.partnerships.all()) == set(pairs)
    assert Entry.objects.get(competition=new).team == team and Entry.objects.get(competition=new).division == "Premier"


def test_the_page_makes_the_new_season_and_names_a_bad_field(client, season):
    client.force_login(make_organiser(season.club))
    url = reverse("competition_copy", args=[season.club.slug, season.slug])
    assert "With the same entrants" in client.get(url).content.decode()
    response = client.post(url, {"season": "", "entrants": "on"})
    assert response.status_code == 422 and 'id="f-season"' in response.content.decode()
    response = client.post(url, {"season": "2026", "entrants": "on"})  # the season it already has
    assert response.status_code == 422 and "already has" in response.content.decode()
    response = client.post(url, {"season": "2027", "entrants": "on"})
    new = Competition.objects.get(club=season.club, season="2027")
    assert response.status_code == 302 and response.url == reverse("competition_edit", args=[season.club.slug,
                                                                                              new.slug])
    assert new.entries.count() == 2


def test_the_api_copies_for_organisers_only(season):
    api = APIClient()
    assert api.post(f"/api/competitions/{season.pk}/copy/", {"season": "2027"}, format="json").status_code in (401,
                                                                                                              403)
    api.force_login(make_organiser(season.club))
    response = api.post(f"/api/competitions/{season.pk}/copy/", {"season": "2027", "entrants": False}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["season"] == "2027" and response.json()["tiebreaks"] == ["bullseyes_for", "hang_jacks_for"]
    response = api.post(f"/api/competitions/{season.pk}/copy/", {"season": "x" * 61}, format="json")
    assert response.status_code == 400 and "season" in str(response.json())


def test_the_players_page_shows_every_season(client, season):
    new = copy_to_new_season(competition=season, season="2027")
    set_published(competition=new, published=True)
    set_published(competition=season, published=True)
    red = Entry.objects.get(competition=season, partnership__name="Red").partnership.player_one
    page = client.get(reverse("player", args=[red.pk])).content.decode()
    assert "· 2026 ·" in page and "· 2027 ·" in page
