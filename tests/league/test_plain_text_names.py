"""A name is one line of plain text. A line break, a tab or another control character in a
name would run a printed sheet's row into the next, break a CSV file and feed a spreadsheet a formula (a name
beginning with a tab): the API, the pages' forms and the CSV import refuse it, naming the field and the reason."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from importer import csv_io
from league.models import Partnership, Player
from tests.factories import make_club, make_organiser, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["Ann\nLee", "Ann\tLee", "Bob\rRay", "Nul\x00l", "Esc\x1bape"])
def test_the_api_refuses_a_name_with_a_control_character(name):
    club = make_club()
    api = APIClient()
    api.force_authenticate(make_organiser(club, make_user("names-org")))
    response = api.post("/api/players/", {"name": name, "home_club": club.pk}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {error["field"] for error in errors} == {"name"}
    assert any("one line of plain text" in error["reason"] or "Null characters" in error["reason"] for error in errors)
    assert not Player.objects.exists()  # (PostgreSQL cannot even look a NUL up: nothing was stored)


def test_the_csv_import_refuses_a_name_with_a_control_character():
    club = make_club()
    report = csv_io.import_csv(club=club, kind="players", data="name,nickname\r\nAnn Lee,Big\tAnn\r\nBob Ray,\r\n")
    assert [(e["line"], e["column"]) for e in report.errors] == [(2, "nickname")]
    assert "one line of plain text" in report.errors[0]["reason"]
    assert not Player.objects.exists() and not Partnership.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["Reds\tY", "Two\nlines"])
def test_team_group_and_partnership_names_are_plain_text_in_the_services(bad):
    """The services the pages, the API and the CSV import share refuse a control character in a team's, a group's
    and a partnership's name, naming the field (the CSV import no longer needs a check of its own)."""
    from league import entries
    from league.models import Competition
    from league.partnerships import create_partnership, new_partnership
    from league.seeding import set_groups
    from league.setup_errors import SetupError
    from league.teams import create_team
    from tests.factories import make_club, make_competition, make_partnership, make_player

    club = make_club()
    teams = make_competition(club=club)
    Competition.objects.filter(pk=teams.pk).update(entrant_kind=Competition.TEAMS)
    teams.refresh_from_db()
    with pytest.raises(SetupError) as raised:
        create_team(competition=teams, name=bad, partnerships=[])
    assert raised.value.field == "name" and "plain text" in raised.value.reason
    pairs = make_competition(club=club)
    entry = entries.enter(competition=pairs, partnership=make_partnership(club=club))
    with pytest.raises(SetupError) as raised:
        set_groups(competition=pairs, groups={entry.pk: bad})
    assert "plain text" in raised.value.reason
    for make in (new_partnership, create_partnership):
        with pytest.raises(SetupError) as raised:
            make(club=club, player_one=make_player(club=club), player_two=make_player(club=club), name=bad)
        assert raised.value.field == "name" and "plain text" in raised.value.reason
