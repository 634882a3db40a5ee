"""The venue's tables: a club lists how many it has, names them and marks one unavailable; a round's matches sit at
the available tables in number order (nobody at an unavailable one), and the organiser moves a match to another
table (the match there takes its place)."""

from __future__ import annotations

import pytest
from django.test import Client

from draw.errors import RoundError
from draw.models import Round
from draw.request import request_pairing
from draw.table_moves import move_to_table
from games.models import Match
from league import venues
from league.models import Competition, Entry, VenueTable
from league.setup_errors import SetupError
from tests.factories import make_club, make_partnership, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def olive():
    return make_user("olive")


@pytest.fixture
def swiss(olive):
    club = make_club("Chaguanas Aces", organisers=[olive])
    competition = Competition.objects.create(club=club, name="Cup", slug="cup", published=True,
                                             system=Competition.SWISS, planned_rounds=3)
    for seed in range(1, 9):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {seed}"),
                             seed=seed)
    return competition


def drafted(commit, competition) -> Round:
    with commit(execute=True):
        round_ = request_pairing(competition, 1)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE
    return round_


def test_matches_sit_at_the_available_tables_in_number_order(swiss, django_capture_on_commit_callbacks):
    venues.set_table_count(club=swiss.club, count=6)
    venues.edit_table(table=VenueTable.objects.get(club=swiss.club, number=2), name="by the door", available=False)
    round_ = drafted(django_capture_on_commit_callbacks, swiss)
    assert sorted(Match.objects.filter(round=round_).values_list("table", flat=True), key=int) == ["1", "3", "4", "5"]


def test_a_club_without_tables_listed_numbers_its_matches_from_one(swiss, django_capture_on_commit_callbacks):
    round_ = drafted(django_capture_on_commit_callbacks, swiss)
    assert sorted(Match.objects.filter(round=round_).values_list("table", flat=True)) == ["1", "2", "3", "4"]


def test_more_matches_than_free_tables_leaves_the_last_without_a_table(swiss, django_capture_on_commit_callbacks):
    venues.set_table_count(club=swiss.club, count=3)
    round_ = drafted(django_capture_on_commit_callbacks, swiss)
    assert sorted(Match.objects.filter(round=round_).values_list("table", flat=True)) == ["", "1", "2", "3"]


def test_moving_a_match_to_an_occupied_table_swaps_the_two(swiss, django_capture_on_commit_callbacks):
    venues.set_table_count(club=swiss.club, count=6)
    round_ = drafted(django_capture_on_commit_callbacks, swiss)
    first, second = (Match.objects.get(round=round_, table=t) for t in ("1", "2"))
    move_to_table(round_, first, "2")
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table, second.table) == ("2", "1")
    move_to_table(round_, first, "6")  # a free table: nobody moves
    first.refresh_from_db()
    assert first.table == "6"


def test_a_move_to_an_unavailable_or_unknown_table_is_refused(swiss, django_capture_on_commit_callbacks):
    venues.set_table_count(club=swiss.club, count=6)
    venues.edit_table(table=VenueTable.objects.get(club=swiss.club, number=5), name="", available=False)
    round_ = drafted(django_capture_on_commit_callbacks, swiss)
    match = Match.objects.filter(round=round_).first()
    for table, reason in (("5", "Table 5 is marked unavailable"), ("9", "the venue has no table 9"),
                          ("x", "a table is a number")):
        with pytest.raises(RoundError, match=reason) as refused:
            move_to_table(round_, match, table)
        assert refused.value.field == "table"


def test_the_organiser_sets_the_tables_on_the_clubs_tables_page(swiss, olive):
    client = Client()
    client.force_login(olive)
    url = f"/clubs/{swiss.club.slug}/tables/"
    bad = client.post(url, {"count": "-1"})
    assert bad.status_code == 400 and 'id="f-count"' in bad.content.decode()
    assert client.post(url, {"count": "4"}).status_code == 302
    client.post(f"{url}3/", {"name": "by the bar", "available": ""})
    table = VenueTable.objects.get(club=swiss.club, number=3)
    assert (table.name, table.available) == ("by the bar", False)
    assert "Table 3" in client.get(url).content.decode()
    assert client.post(url, {"count": "2"}).status_code == 302
    assert list(VenueTable.objects.filter(club=swiss.club).values_list("number", flat=True)) == [1, 2]
    with pytest.raises(SetupError):
        venues.set_table_count(club=swiss.club, count=1000)
    other = Client()
    other.force_login(make_user("nobody"))
    assert other.get(url).status_code == 403


def test_the_round_page_moves_a_match_and_says_where_it_went(swiss, olive, django_capture_on_commit_callbacks):
    round_ = drafted(django_capture_on_commit_callbacks, swiss)
    match = Match.objects.get(round=round_, table="1")
    client = Client()
    client.force_login(olive)
    page = client.post(f"/clubs/{swiss.club.slug}/cup/rounds/1/move-table/", {"match": match.pk, "table": "3"},
                       follow=True).content.decode()
    assert "now at Table 3" in page
    refused = client.post(f"/clubs/{swiss.club.slug}/cup/rounds/1/move-table/", {"match": match.pk, "table": ""},
                          follow=True).content.decode()
    assert "Give the table to move it to." in refused


def test_a_rounds_team_matches_keep_their_tables_together_at_the_free_tables():
    from games.teams import create_team_match
    from tests.games.test_team_matches import make_team, team_competition

    club = make_club("Inter-bar League")
    venues.set_table_count(club=club, count=8)
    venues.edit_table(table=VenueTable.objects.get(club=club, number=3), name="", available=False)
    competition = team_competition(club, tables=2)
    teams = [make_team(competition, name) for name in ("Blue", "Red", "Green", "Gold")]
    round_ = Round.objects.create(competition=competition, number=1)
    first, second = (create_team_match(competition, a, b, round=round_,
                                       tables=[(a.partnerships.first(), b.partnerships.first()),
                                               (a.partnerships.last(), b.partnerships.last())])
                     for a, b in ((teams[0], teams[1]), (teams[2], teams[3])))
    assert list(first.table_matches.order_by("table_number").values_list("table", flat=True)) == ["1", "2"]
    assert list(second.table_matches.order_by("table_number").values_list("table", flat=True)) == ["4", "5"]
