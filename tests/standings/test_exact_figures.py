"""Standings figures shown exactly on the page, in the API and in the CSV: whole numbers whole, halves as .5
(never rounded to even), and chalks a club did not keep as "—" (blank in the CSV, null in the API), never 0;
and a bye's columns chosen on the competition's setup page."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from draw.models import Bye, Round
from games.results import record_match_totals
from league.models import Competition, Entry
from standings.models import StandingRow
from standings.services import refresh_standings
from tests.factories import make_club, make_competition, make_match, make_organiser, make_partnership, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    """Three pairs, best of 3, match totals only (no chalks): round 1 A beat B 2–1 (hang jacks 1–0), round 2 B
    beat C 2–1 (hang jacks 1–0), round 3 C beat A 2–0 and B had the bye, credited bullseyes against and hang
    jacks for as its exact averages: 1.5 and 0.5."""
    competition = make_competition(club=make_club(), match_format=Competition.BEST_OF, match_games=3)
    competition.result_level = "match"
    competition.bye_score = {"bullseyes_against": "average_exact", "hang_jacks_for": "average_exact"}
    competition.save()
    a, b, c = (make_partnership(club=competition.club, name=name) for name in ("Alpha", "Bravo", "Charlie"))
    for number, (one, two, games, hang) in enumerate([(a, b, (2, 1), (1, 0)), (b, c, (2, 1), (1, 0)),
                                                      (c, a, (2, 0), (0, 0))], start=1):
        round_ = Round.objects.create(competition=competition, number=number)
        match = make_match(competition, side_a=one, side_b=two)
        match.round = round_
        match.save(update_fields=["round"])
        record_match_totals(match, games_a=games[0], games_b=games[1], hang_jacks_a=hang[0], hang_jacks_b=hang[1])
    Bye.objects.create(round=Round.objects.get(competition=competition, number=3),
                       entry=Entry.objects.get(competition=competition, partnership=b))
    refresh_standings(competition.pk)
    return competition


def test_halves_are_stored_exactly(league):
    bravo = StandingRow.objects.get(competition=league, partnership__name="Bravo")
    # played: 1 + 2 bullseyes for, 2 + 1 against; the bye: 2 (the target) for, (2 + 1) / 2 against
    assert (bravo.played, bravo.won, bravo.byes) == (3, 2, 1)
    assert (bravo.bullseyes_for, bravo.bullseyes_against) == (5, 4.5)
    assert (bravo.hang_jacks_for, bravo.hang_jacks_against) == (1.5, 1)
    assert bravo.chalks_for is None and bravo.chalks_against is None and bravo.chalk_difference is None


def cells(page: str, name: str) -> list[str]:
    row = re.search(rf"<tr[^>]*>(?:(?!</tr>).)*{name}(?:(?!</tr>).)*</tr>", page, re.S).group(0)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_the_page_shows_halves_and_dashes(client, league):
    page = client.get(reverse("competition_standings", args=[league.club.slug, league.slug])).content.decode()
    row = cells(page, "Bravo")
    assert "4.5" in row and "1.5" in row and "5" in row
    assert row.count("—") >= 2 and "0" not in row[row.index("4.5") + 1:row.index("1.5")]  # chalks: —, not 0


def test_the_api_gives_exact_numbers_and_null_chalks(league):
    body = APIClient().get(f"/api/competitions/{league.pk}/standings/").json()
    rows = body["results"] if isinstance(body, dict) and "results" in body else body
    bravo = next(row for row in rows if row["entrant_name"] == "Bravo")
    assert bravo["bullseyes_against"] == 4.5 and bravo["bullseyes_for"] == 5 and isinstance(bravo["bullseyes_for"], int)
    assert bravo["bullseye_difference"] == 0.5 and bravo["hang_jacks_for"] == 1.5
    assert bravo["chalks_for"] is None and bravo["chalk_difference"] is None


def test_the_csv_gives_exact_numbers_and_blank_chalks(client, league):
    response = client.get(reverse("competition_standings_csv", args=[league.club.slug, league.slug]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    bravo = next(row for row in rows if row["entrant"] == "Bravo")
    assert (bravo["bullseyes_for"], bravo["bullseyes_against"], bravo["bullseye_difference"]) == ("5", "4.5", "0.5")
    assert (bravo["chalks_for"], bravo["chalks_against"], bravo["chalk_difference"]) == ("", "", "")


def test_a_half_is_not_rounded_to_even():
    competition = make_competition(club=make_club(), match_format=Competition.BEST_OF, match_games=3)
    competition.bye_policy = Competition.BYE_AVERAGE
    competition.save()
    pairs = [make_partnership(club=competition.club) for _ in range(2)]
    for number, games, chalks in ((1, (2, 1), (40, 25)), (2, (2, 0), (30, 10))):
        match = make_match(competition, side_a=pairs[0], side_b=pairs[1])
        match.round = Round.objects.create(competition=competition, number=number)
        match.save(update_fields=["round"])
        record_match_totals(match, games_a=games[0], games_b=games[1], chalks_a=chalks[0], chalks_b=chalks[1])
    Bye.objects.create(round=Round.objects.create(competition=competition, number=3),
                       entry=Entry.objects.get(competition=competition, partnership=pairs[1]))
    refresh_standings(competition.pk)
    row = StandingRow.objects.get(competition=competition, partnership=pairs[1])
    assert row.bullseyes_for == 1.5 and row.match_points == 0  # (1 + 0) / 2: 1.5, not 2 rounded to even
    assert row.chalks_for == 52.5 and row.chalks_against == 105  # 25 + 10 and their average; 40 + 30 + 35


def test_the_setup_page_sets_each_columns_rule(client):
    club = make_club()
    user = make_user()
    make_organiser(club, user)
    client.force_login(user)
    competition = make_competition(club=club)
    url = reverse("competition_edit", args=[club.slug, competition.slug])
    page = client.get(url).content.decode()
    assert 'name="bye_bullseyes_against_rule"' in page and "Its average, rounded down" in page
    form = form_data(page)
    form.update(bye_bullseyes_against_rule="average_down", bye_hang_jacks_for_rule="average_nearest",
                bye_chalks_for_rule="none", bye_chalks_against="3")
    response = client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:3000]
    competition.refresh_from_db()
    assert competition.bye_score == {"bullseyes_against": "average_down", "hang_jacks_for": "average_nearest",
                                     "chalks_for": "none", "chalks_against": 3}
    page = client.get(url).content.decode()
    assert re.search(r'<option value="average_down" selected>', page)
    public = client.get(reverse("competition", args=[club.slug, competition.slug])).content.decode()
    assert ("A win: bullseyes for 1 (the target); bullseyes against its average rounded down; chalks against 3; "
            "hang jacks for its average to the nearest.") in public


def test_a_number_with_a_rule_is_refused_next_to_the_field(client):
    club = make_club()
    user = make_user()
    make_organiser(club, user)
    client.force_login(user)
    competition = make_competition(club=club)
    url = reverse("competition_edit", args=[club.slug, competition.slug])
    form = form_data(client.get(url).content.decode())
    form.update(bye_hang_jacks_for_rule="average_down", bye_hang_jacks_for="2")
    response = client.post(url, form)
    assert response.status_code == 422  # the form again, the error by the field
    block = re.search(r'id="f-bye_hang_jacks_for".*?</div>', response.content.decode(), re.S).group(0)
    assert "leave it blank" in block
    competition.refresh_from_db()
    assert competition.bye_score == {}


def form_data(page: str) -> dict:
    """The values a browser would send from the page's competition form (inputs, selected options, textareas)."""
    form = next(form for form in re.findall(r"<form.*?</form>", page, re.S) if 'name="bye_' in form)
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if not name or (kind and kind.group(1) in ("checkbox", "radio") and "checked" not in tag):
            continue
        data[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body) or re.search(r'<option value="([^"]*)"', body)
        data[name] = chosen.group(1) if chosen else ""
    for name, body in re.findall(r'<textarea[^>]*name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S):
        data[name] = body.strip()
    return data


def test_the_api_takes_each_columns_rule_and_names_a_bad_one():
    club = make_club()
    organiser = make_organiser(club)
    api = APIClient()
    api.force_login(organiser)
    rules = {"bullseyes_against": "average_down", "hang_jacks_for": "average_down", "hang_jacks_against": 1}
    response = api.post("/api/competitions/", {"club": club.pk, "name": "Race League", "bye_score": rules},
                        format="json")
    assert response.status_code == 201, response.json()
    assert Competition.objects.get(pk=response.json()["id"]).bye_score == rules
    for bad, field in (({"chalks_for": "target"}, "bye_score.chalks_for"),
                       ({"hang_jacks_for": "mean"}, "bye_score.hang_jacks_for")):
        response = api.post("/api/competitions/", {"club": club.pk, "name": "Bad League", "bye_score": bad},
                            format="json")
        assert response.status_code == 400
        assert field in {error["field"] for error in response.json()["errors"]}, response.json()


def test_team_totals_without_chalks_show_a_dash_not_zero():
    from games.teams import create_team_match, record_team_totals
    from league.competition_options import update_competition
    from league.teams import create_team

    club = make_club()
    league = make_competition(club=club)
    update_competition(competition=league, entrant_kind=Competition.TEAMS, team_target=18)
    one, two, three = (create_team(competition=league, name=name) for name in ("Blue", "Gold", "Jade"))
    record_team_totals(create_team_match(league, one, two), 18, 11, hang_jacks_a=2)  # no chalks kept
    kept = record_team_totals(create_team_match(league, two, three), 18, 9, chalks_a=300, chalks_b=200)
    assert kept.chalks_known
    refresh_standings(league.pk)
    rows = {row.team.name: row for row in StandingRow.objects.filter(competition=league, section="")}
    assert rows["Blue"].chalks_for is None and rows["Blue"].hang_jacks_for == 2
    assert rows["Gold"].chalks_for == 300 and rows["Jade"].chalks_against == 300
    page = APIClient().get(f"/api/competitions/{league.pk}/standings/").json()
    lines = page["results"] if isinstance(page, dict) else page
    assert next(line for line in lines if line["entrant_name"] == "Blue")["chalks_for"] is None
