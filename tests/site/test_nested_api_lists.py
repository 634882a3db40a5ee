"""The lists nested in a competition — ``/api/competitions/<id>/matches/`` and
``/entries/`` — come a capped page at a time like every other list of the API (``config.pagination``): ``limit``
1 to 500 (default 100) from ``offset``, anything else a 400 naming the parameter, and the schema says so."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Match
from league.models import Entry, Partnership, Player
from tests.factories import make_club, make_competition, make_organiser

pytestmark = pytest.mark.django_db
NESTED = ("matches", "entries")


@pytest.fixture
def season():
    """A published competition of 130 entries and 120 matches: more than a default page of either."""
    club = make_club("Blue Dollar Bar")
    competition = make_competition(club=club)
    players = Player.objects.bulk_create(Player(name=f"Player {n}", home_club=club) for n in range(260))
    pairs = Partnership.objects.bulk_create(
        Partnership(club=club, player_one=players[2 * n], player_two=players[2 * n + 1]) for n in range(130))
    Entry.objects.bulk_create(Entry(competition=competition, partnership=pair) for pair in pairs)
    Match.objects.bulk_create(Match(competition=competition, side_a=pairs[n], side_b=pairs[n + 1], first_dealer=0,
                                    side_a_name=f"A{n}", side_b_name=f"B{n}") for n in range(120))
    return {"club": club, "competition": competition, "organiser": make_organiser(club)}


@pytest.mark.parametrize("what", NESTED)
def test_a_competitions_matches_and_entries_come_a_capped_page_at_a_time(season, what):
    competition = season["competition"]
    url = f"/api/competitions/{competition.pk}/{what}/"
    total = (competition.matches if what == "matches" else competition.entries).count()
    anonymous = APIClient()
    first = anonymous.get(url).json()
    assert (first["count"], len(first["results"]), first["previous"]) == (total, 100, None)
    assert "limit=100" in first["next"] and "offset=100" in first["next"]
    rest = anonymous.get(first["next"]).json()
    ids = [row["id"] for row in first["results"] + rest["results"]]
    assert len(ids) == len(set(ids)) == total and rest["next"] is None  # every row once, in a stable order
    assert len(anonymous.get(url, {"limit": 500, "offset": 10}).json()["results"]) == total - 10
    for query, field in (({"limit": 501}, "limit"), ({"limit": "9999999999999999999"}, "limit"),
                         ({"limit": 0}, "limit"), ({"offset": -1}, "offset"), ({"limit": "²"}, "limit")):
        response = anonymous.get(url, query)
        assert response.status_code == 400, query
        assert [error["field"] for error in response.json()["errors"]] == [field]
    organiser = APIClient()
    organiser.force_login(season["organiser"])
    assert organiser.get(url, {"limit": 7}).json()["count"] == total


@pytest.mark.parametrize("what", NESTED)
def test_the_schema_says_the_nested_lists_are_paginated(what):
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"][f"/api/competitions/{{id}}/{what}/"]["get"]
    parameters = {p["name"]: p["schema"] for p in operation["parameters"] if p["in"] == "query"}
    assert parameters["limit"]["maximum"] == 500 and parameters["offset"]["minimum"] == 0
    page = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(schema["components"]["schemas"][page]["properties"]) == {"count", "next", "previous", "results"}
    assert "400" in operation["responses"]
