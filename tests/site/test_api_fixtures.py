"""The API of a club's own fixture list: a competition's rounds (list, create with number, name, date and status;
change a round's date and name; publish a draft), a round's byes (list, give, take away), and fixtures with their
venue and time made through the matches' and team matches' create (round by id or by number; an entrant plays
once a round). Only the club's organisers write; a draft round is nobody else's; a refusal is a 400 naming the
field."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from draw.fixtures import add_bye, add_fixture, add_round
from draw.models import Bye, Round
from games.models import Match, TeamMatch
from games.results import record_match_totals
from league.models import Competition, Entry, Team
from tests.factories import make_club, make_organiser, make_partnership, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return make_club("Mayaro All Fours Club")


@pytest.fixture
def organiser(club):
    return make_organiser(club)


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_login(organiser)
    return client


@pytest.fixture
def league(club) -> Competition:
    competition = Competition.objects.create(club=club, name="Monday League", slug="monday", published=True,
                                             system=Competition.MANUAL)
    for n in range(1, 5):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {n}"))
    return competition


def entries(competition: Competition) -> list[Entry]:
    return list(competition.entries.order_by("id").select_related("partnership"))


def fields(response) -> list[str]:
    return [error["field"] for error in response.json()["errors"]]


def rounds_url(competition: Competition) -> str:
    return f"/api/competitions/{competition.pk}/rounds/"


def test_an_organiser_adds_rounds_lists_them_and_changes_a_date(api, league):
    made = api.post(rounds_url(league), {"name": "Week 1", "starts_on": "2026-01-05"}, format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert (body["number"], body["name"], body["starts_on"], body["status"]) == (1, "Week 1", "2026-01-05",
                                                                                 "published")
    assert body["published_at"] is not None
    draft = api.post(rounds_url(league), {"number": 3, "status": "draft"}, format="json").json()
    assert (draft["number"], draft["status"], draft["title"]) == (3, "draft", "Round 3")
    listed = api.get(rounds_url(league)).json()
    assert [r["number"] for r in listed["results"]] == [1, 3] and listed["count"] == 2
    changed = api.patch(f"/api/rounds/{body['id']}/", {"starts_on": "2026-01-12"}, format="json")
    assert changed.status_code == 200 and changed.json()["starts_on"] == "2026-01-12"
    assert changed.json()["name"] == "Week 1"
    assert api.put(f"/api/rounds/{body['id']}/", {"name": "x"}, format="json").status_code == 405


@pytest.mark.parametrize(("body", "field"), [({"number": 0}, "number"), ({"number": 1000}, "number"),
                                             ({"number": "one"}, "number"), ({"status": "secret"}, "status"),
                                             ({"starts_on": "someday"}, "starts_on"), ({"name": "x" * 61}, "name"),
                                             ({"name": "Week\n1"}, "name"), ({"number": 1}, "number")])
def test_a_bad_round_is_a_400_naming_the_field(api, league, body, field):
    add_round(league)
    response = api.post(rounds_url(league), body, format="json")
    assert response.status_code == 400 and fields(response) == [field], response.json()


def test_a_paired_competition_takes_no_round_by_hand(api, club):
    swiss = Competition.objects.create(club=club, name="Swiss", slug="swiss", system=Competition.SWISS)
    response = api.post(rounds_url(swiss), {}, format="json")
    assert response.status_code == 400 and fields(response) == ["system"]
    assert "made by pairing them" in response.json()["errors"][0]["reason"]


def test_byes_are_given_listed_refused_once_playing_and_taken_away(api, league):
    one, two, three, four = entries(league)
    round_ = add_round(league)
    add_fixture(round_, one, two)
    url = f"/api/rounds/{round_.pk}/byes/"
    made = api.post(url, {"entry": three.pk}, format="json")
    assert made.status_code == 201 and made.json()["entrant_name"] == "Pair 3"
    listed = api.get(url).json()
    assert [b["entry"] for b in listed["results"]] == [three.pk]
    for entry, reason in ((one, "already has the match"), (three, "already has a bye")):
        refused = api.post(url, {"entry": entry.pk}, format="json")
        assert refused.status_code == 400 and fields(refused) == ["entry"]
        assert reason in refused.json()["errors"][0]["reason"]
    stranger = Entry.objects.create(competition=Competition.objects.create(club=league.club, name="Other",
                                                                           slug="other"),
                                    partnership=make_partnership(club=league.club))
    for body in ({"entry": stranger.pk}, {"entry": "x"}, {}):
        refused = api.post(url, body, format="json")
        assert refused.status_code == 400 and fields(refused) == ["entry"]
    removed = api.delete(f"{url}{made.json()['id']}/")
    assert removed.status_code == 204 and not Bye.objects.exists()
    assert api.delete(f"{url}{made.json()['id']}/").status_code == 404


def test_a_fixture_with_its_venue_and_time_by_round_number_and_an_entrant_plays_once_a_round(api, league):
    one, two, three, _four = entries(league)
    add_round(league)
    body = {"competition": league.pk, "side_a": one.partnership_id, "side_b": two.partnership_id, "round_number": 1,
            "venue": "Mayaro Community Centre", "scheduled_at": "2026-01-05T19:30:00-04:00"}
    made = api.post("/api/matches/", body, format="json")
    assert made.status_code == 201, made.json()
    match = made.json()
    assert (match["venue"], match["round"]) == ("Mayaro Community Centre", Round.objects.get().pk)
    assert match["scheduled_at"].startswith("2026-01-05T19:30:00")
    again = api.post("/api/matches/", {**body, "side_a": three.partnership_id}, format="json")
    assert again.status_code == 400 and fields(again) == ["side_b"]
    assert "already has the match" in again.json()["errors"][0]["reason"]
    for change, field in (({"round_number": 9}, "round_number"), ({"venue": "x" * 81}, "venue"),
                          ({"round": Round.objects.get().pk}, "round_number")):
        refused = api.post("/api/matches/", {**body, **change}, format="json")
        assert refused.status_code == 400 and fields(refused) == [field], refused.json()
    assert Match.objects.count() == 1


def test_a_team_fixture_with_its_venue_by_round_id(api, club):
    competition = Competition.objects.create(club=club, name="Teams", slug="teams", published=True,
                                             system=Competition.MANUAL, entrant_kind=Competition.TEAMS, team_tables=2)
    teams = []
    for name in ("Blue", "Red", "Gold"):
        team = Team.objects.create(competition=competition, club=club, name=name)
        team.partnerships.add(*(make_partnership(club=club) for _ in range(2)))
        Entry.objects.create(competition=competition, team=team)
        teams.append(team)
    round_ = add_round(competition)
    body = {"competition": competition.pk, "team_a": teams[0].pk, "team_b": teams[1].pk, "round": round_.pk,
            "venue": "Sangre Grande", "scheduled_at": "2026-01-05T19:30:00-04:00"}
    made = api.post("/api/team-matches/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["venue"] == "Sangre Grande" and made.json()["table_matches"] == []
    again = api.post("/api/team-matches/", {**body, "team_b": teams[2].pk}, format="json")
    assert again.status_code == 400 and fields(again) == ["team_a"]
    assert TeamMatch.objects.count() == 1


def test_only_the_clubs_organisers_write(league):
    round_ = add_round(league)
    one = entries(league)[0]
    anonymous, stranger = APIClient(), APIClient()
    stranger.force_login(make_user("stranger"))
    other_organiser = APIClient()
    other_organiser.force_login(make_organiser(make_club("Other club")))
    for client, status in ((anonymous, 403), (stranger, 403), (other_organiser, 403)):
        assert client.post(rounds_url(league), {}, format="json").status_code in (401, status)
        assert client.patch(f"/api/rounds/{round_.pk}/", {"name": "x"}, format="json").status_code in (401, status)
        assert client.post(f"/api/rounds/{round_.pk}/byes/", {"entry": one.pk},
                           format="json").status_code in (401, status)
        assert client.get(f"/api/rounds/{round_.pk}/").status_code == 200  # reading a published round is public
    bye = add_bye(round_, one)
    assert anonymous.delete(f"/api/rounds/{round_.pk}/byes/{bye.pk}/").status_code in (401, 403)
    assert Round.objects.get().name == "" and Bye.objects.count() == 1 and Round.objects.count() == 1


def test_a_draft_round_is_the_organisers_alone_until_published(api, league):
    one, two, three, _ = entries(league)
    draft = add_round(league, draft=True, name="Secret week")
    add_fixture(draft, one, two, venue="Secret Bar")
    add_bye(draft, three)
    public = APIClient()
    assert public.get(rounds_url(league)).json()["count"] == 0
    assert public.get(f"/api/rounds/{draft.pk}/").status_code == 404
    assert public.get(f"/api/rounds/{draft.pk}/byes/").status_code == 404
    assert "Secret Bar" not in public.get(f"/api/competitions/{league.pk}/matches/").content.decode()
    assert api.get(rounds_url(league)).json()["count"] == 1
    assert api.get(f"/api/rounds/{draft.pk}/byes/").json()["count"] == 1
    published = api.post(f"/api/rounds/{draft.pk}/publish/")
    assert published.status_code == 200 and published.json()["status"] == "published"
    assert public.get(f"/api/rounds/{draft.pk}/").status_code == 200
    assert "Secret Bar" in public.get(f"/api/competitions/{league.pk}/matches/").content.decode()
    assert api.post(f"/api/rounds/{draft.pk}/publish/").status_code == 400  # already published


def test_an_unpublished_competitions_rounds_are_hidden_from_the_public(api, league):
    round_ = add_round(league)
    Competition.objects.filter(pk=league.pk).update(published=False)
    public = APIClient()
    assert public.get(rounds_url(league)).status_code == 404
    assert public.get(f"/api/rounds/{round_.pk}/").status_code == 404
    assert api.get(f"/api/rounds/{round_.pk}/").status_code == 200


def test_a_fixture_without_a_result_is_deleted_and_one_with_a_result_or_of_a_paired_competition_stays(api, league,
                                                                                                       club):
    one, two, three, four = entries(league)
    round_ = add_round(league)
    open_match, played = add_fixture(round_, one, two), add_fixture(round_, three, four)
    record_match_totals(played, games_a=1, games_b=0)
    stranger = APIClient()
    stranger.force_login(make_user("stranger"))
    assert stranger.delete(f"/api/matches/{open_match.pk}/").status_code == 403
    assert api.delete(f"/api/matches/{open_match.pk}/").status_code == 204
    refused = api.delete(f"/api/matches/{played.pk}/")
    assert refused.status_code == 400 and fields(refused) == ["match"]
    assert "a result of Pair 3 v Pair 4 was entered" in refused.json()["errors"][0]["reason"]
    assert list(Match.objects.values_list("pk", flat=True)) == [played.pk]
    paired = Competition.objects.create(club=club, name="Swiss", slug="swiss", published=True,
                                        system=Competition.SWISS)
    side_a, side_b = (Entry.objects.create(competition=paired, partnership=make_partnership(club=club)).partnership
                      for _ in range(2))
    other = Match.objects.create(competition=paired, side_a=side_a, side_b=side_b)
    refused = api.delete(f"/api/matches/{other.pk}/")
    assert refused.status_code == 400 and fields(refused) == ["system"]


def test_a_team_fixture_without_a_result_is_deleted(api, club):
    competition = Competition.objects.create(club=club, name="Teams", slug="teams", published=True,
                                             system=Competition.MANUAL, entrant_kind=Competition.TEAMS, team_tables=2)
    sides = []
    for name in ("Blue", "Red"):
        team = Team.objects.create(competition=competition, club=club, name=name)
        sides.append(Entry.objects.create(competition=competition, team=team))
    team_match = add_fixture(add_round(competition), *sides)
    assert api.delete(f"/api/team-matches/{team_match.pk}/").status_code == 204
    assert not TeamMatch.objects.exists()
