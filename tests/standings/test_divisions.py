"""Divisions (or conferences) of a league: entrants carry one (entries page, API, CSV import of entries and
teams); the standings rank the whole table or each division on its own, as the organiser chooses, and show
the lines grouped by division either way."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from importer import csv_io
from league import entries as setup
from league.competition_options import update_competition
from league.models import Competition, Entry
from standings.metrics import Entrant, Result, StandingsError, StandingsSettings, compute_standings
from standings.models import StandingRow
from standings.services import refresh_standings
from tests.factories import make_club, make_competition, make_match, make_organiser, make_partnership

# ------------------------------------------------------------------------------------------- no database
ENTRANTS = [Entrant("A", division="North"), Entrant("B", division="North"), Entrant("C", division="South"),
            Entrant("D", division="South")]
RESULTS = [Result(a=(a,), b=(b,), complete=True, winner="a", games_a=2, games_b=games_b)
           for a, b, games_b in (("A", "B", 0), ("A", "C", 1), ("C", "D", 0), ("B", "D", 1), ("C", "B", 1))]


def places(settings: StandingsSettings) -> list[tuple[str, str, int]]:
    return [(line.division, line.entrant, line.rank) for line in compute_standings(ENTRANTS, RESULTS, (), settings)]


def test_ranked_overall_each_line_names_its_division():
    # wins: A 2, C 2 (A beat C), B 1, D 0; bullseye difference breaks A (+3) over C (+2)
    assert places(StandingsSettings(tiebreaks=("wins", "bullseye_difference"))) == [
        ("North", "A", 1), ("South", "C", 2), ("North", "B", 3), ("South", "D", 4)]


def test_ranked_by_division_each_division_on_its_own():
    assert places(StandingsSettings(tiebreaks=("wins", "bullseye_difference"), division_ranking="division")) == [
        ("North", "A", 1), ("North", "B", 2), ("South", "C", 1), ("South", "D", 2)]


def test_a_bad_division_ranking_or_division_is_named():
    with pytest.raises(StandingsError) as caught:
        StandingsSettings(division_ranking="conference")
    assert caught.value.field == "division_ranking"
    with pytest.raises(StandingsError) as caught:
        compute_standings([Entrant("A", division=3)], [])
    assert caught.value.field == "entrants[0].division"


# ---------------------------------------------------------------------------------------------- database
@pytest.fixture
def league(db):
    """Four pairs in two divisions, each match won 1–0: Ann beat Bea, Ann beat Cal, Cal beat Dom, Bea beat Dom."""
    competition = make_competition(club=make_club())
    pairs = {}
    for name, division in (("Ann", "North"), ("Bea", "North"), ("Cal", "South"), ("Dom", "South")):
        pairs[name] = make_partnership(club=competition.club, name=name)
        setup.enter(competition=competition, partnership=pairs[name], division=division)
    for a, b in (("Ann", "Bea"), ("Ann", "Cal"), ("Cal", "Dom"), ("Bea", "Dom")):
        match = make_match(competition, side_a=pairs[a], side_b=pairs[b])
        match.games_a, match.games_b, match.winner, match.status = 1, 0, "a", "complete"
        match.save()
    refresh_standings(competition.pk)
    return competition


def rows(competition):
    return [(row.division, row.partnership.name, row.rank)
            for row in StandingRow.objects.filter(competition=competition).order_by("division", "rank")]


def group_titles(page: str) -> list[str]:
    return re.findall(r'<tr class="group"><th[^>]*>([^<]+)</th>', page)


def test_the_page_shows_the_whole_table_grouped_by_division(client, league):
    assert rows(league) == [("North", "Ann", 1), ("North", "Bea", 2), ("South", "Cal", 2), ("South", "Dom", 4)]
    page = client.get(reverse("competition_standings", args=[league.club.slug, league.slug])).content.decode()
    assert group_titles(page) == ["North", "South"]
    assert page.count(">=2<") == 2  # Bea and Cal share second place, across the divisions


def test_each_division_ranked_on_its_own(client, league):
    update_competition(competition=league, division_ranking=Competition.RANK_BY_DIVISION)
    refresh_standings(league.pk)
    assert rows(league) == [("North", "Ann", 1), ("North", "Bea", 2), ("South", "Cal", 1), ("South", "Dom", 2)]
    page = client.get(reverse("competition_standings", args=[league.club.slug, league.slug])).content.decode()
    assert group_titles(page) == ["North", "South"] and ">=" not in page
    body = APIClient().get(f"/api/competitions/{league.pk}/standings/").json()
    lines = body["results"] if isinstance(body, dict) else body
    assert [(line["division"], line["entrant_name"], line["rank"]) for line in lines][:2] == [
        ("North", "Ann", 1), ("North", "Bea", 2)]
    exported = client.get(reverse("competition_standings_csv", args=[league.club.slug, league.slug]))
    lines = exported.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("division,rank,entrant,") and lines[3].startswith("South,1,Cal,")


@pytest.mark.django_db
def test_the_api_and_the_entries_page_set_a_division(client):
    competition = make_competition(club=make_club())
    organiser = make_organiser(competition.club)
    api = APIClient()
    api.force_login(organiser)
    pair = make_partnership(club=competition.club)
    response = api.post(f"/api/competitions/{competition.pk}/entries/", {"partnership": pair.pk,
                                                                         "division": "Premier"}, format="json")
    assert response.status_code == 201 and response.json()["division"] == "Premier"
    response = api.post(f"/api/competitions/{competition.pk}/entries/",
                        {"partnership": make_partnership(club=competition.club).pk, "division": "x" * 41},
                        format="json")
    assert response.status_code == 400 and "division" in str(response.json())
    entry = Entry.objects.get(competition=competition, partnership=pair)
    client.force_login(organiser)
    url = reverse("competition_entries", args=[competition.club.slug, competition.slug])
    assert f'name="division_{entry.pk}"' in client.get(url).content.decode()
    slugs = [competition.club.slug, competition.slug]
    response = client.post(reverse("competition_entries_arrange", args=slugs), {
        f"seed_{entry.pk}": "", f"group_{entry.pk}": "", f"division_{entry.pk}": "Championship"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.division == "Championship"
    response = client.post(reverse("competition_entry_add", args=slugs), {
        "partnership": make_partnership(club=competition.club).pk, "division": "<b>Bad</b>\x00"})
    assert response.status_code == 422 and 'id="f-division"' in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_csv_import_of_entries_and_teams_sets_divisions():
    club = make_club("Arima Social Club")
    for name in ("Red", "Blue", "Gold", "Jade"):
        make_partnership(club=club, name=name)
    league = make_competition(club=club)
    report = csv_io.import_csv(club=club, kind="entries", competition=league,
                               data=b"partnership,division\r\nRed,North\r\nBlue,South\r\n")
    assert report.ok, report.errors
    assert dict(Entry.objects.filter(competition=league).values_list("partnership__name", "division")) == {
        "Red": "North", "Blue": "South"}
    teams = make_competition(club=club)
    teams.entrant_kind = Competition.TEAMS
    teams.save()
    data = (b"team,partnership,division\r\nBar One,Red,Premier\r\nBar One,Blue,\r\nBar Two,Gold,Championship\r\n"
            b"Bar Two,Jade,Premier\r\n")
    report = csv_io.import_csv(club=club, kind="teams", competition=teams, data=data)
    assert [(error["line"], error["column"]) for error in report.errors] == [(5, "division")]
    assert "Championship" in report.errors[0]["reason"]
    report = csv_io.import_csv(club=club, kind="teams", competition=teams, data=data.replace(b"Jade,Premier",
                                                                                               b"Jade,Championship"))
    assert report.ok, report.errors
    assert dict(Entry.objects.filter(competition=teams).values_list("team__name", "division")) == {
        "Bar One": "Premier", "Bar Two": "Championship"}
