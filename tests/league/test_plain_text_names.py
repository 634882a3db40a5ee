"""Issue 9, points 4 and 11: a name is one line of plain text. A line break, a tab or another control character in a
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
def test_point4_the_api_refuses_a_name_with_a_control_character(name):
    club = make_club()
    api = APIClient()
    api.force_authenticate(make_organiser(club, make_user("names-org")))
    response = api.post("/api/players/", {"name": name, "home_club": club.pk}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {error["field"] for error in errors} == {"name"}
    assert any("one line of plain text" in error["reason"] or "Null characters" in error["reason"] for error in errors)
    assert not Player.objects.exists()  # (PostgreSQL cannot even look a NUL up: nothing was stored)


def test_point11_the_csv_import_refuses_a_name_with_a_control_character():
    club = make_club()
    report = csv_io.import_csv(club=club, kind="players", data="name,nickname\r\nAnn Lee,Big\tAnn\r\nBob Ray,\r\n")
    assert [(e["line"], e["column"]) for e in report.errors] == [(2, "nickname")]
    assert "one line of plain text" in report.errors[0]["reason"]
    assert not Player.objects.exists() and not Partnership.objects.exists()
