"""Team matches: two clubs' teams at K tables, counted in bullseyes.

A race to N decided by the order the games were won, fixed games a table with a draw, overall and per-table
totals, the membership checks of a line-up, a table that does not settle on its own, forfeits, the pages and
the API. The games are played to 4 chalks (``ruleset={"target": 4}``) so that one sweep (High, Low, Jack and
Game to one side) wins a game.
"""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.common import EntryError
from games.entry import correct_hand, enter_hand, next_hand
from games.models import Game, Hand, Match, TeamMatch
from games.results import enter_game_result, record_forfeit, record_match_totals
from games.selectors import TEAM_STANDINGS_FIELDS, team_results_for_standings
from games.settle import settle_match
from games.teams import (
    clear_team_forfeit,
    clear_team_totals,
    create_team_match,
    record_team_forfeit,
    record_team_totals,
    set_team_tables,
    settle_team_match,
)
from league.models import Competition, Entry, Team
from tests.factories import (
    committing,
    make_club,
    make_competition,
    make_organiser,
    make_partnership,
    make_user,
    sweep,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return committing(django_capture_on_commit_callbacks)


def team_competition(club, *, mode: str = Competition.TEAM_RACE, tables: int = 2, target: int = 3,
                     games_per_table: int = 2, published: bool = True) -> Competition:
    competition = make_competition(club=club, ruleset={"target": 4}, published=published)
    competition.entrant_kind = Competition.TEAMS
    competition.team_tables, competition.team_mode = tables, mode
    competition.team_target, competition.team_games_per_table = target, games_per_table
    competition.save()
    return competition


def make_team(competition: Competition, name: str, pairs: int = 3) -> Team:
    team = Team.objects.create(competition=competition, club=competition.club, name=name)
    team.partnerships.add(*[make_partnership(club=competition.club, name=f"{name} {n}") for n in range(1, pairs + 1)])
    Entry.objects.create(competition=competition, team=team)
    return team


@pytest.fixture
def world():
    club = make_club("Blue Dollar Bar")
    organiser = make_organiser(club, make_user("orla"))
    return {"club": club, "organiser": organiser}


def new_team_match(world, **options) -> TeamMatch:
    competition = team_competition(world["club"], **options)
    blue, red = make_team(competition, "Blue Dollar"), make_team(competition, "Red House")
    pairs_a, pairs_b = list(blue.partnerships.order_by("id")), list(red.partnerships.order_by("id"))
    tables = list(zip(pairs_a, pairs_b, strict=False))[:competition.team_tables]
    return create_team_match(competition, blue, red, tables=tables)


def tables_of(team_match: TeamMatch) -> list[Match]:
    return list(team_match.table_matches.order_by("table_number"))


def fresh(team_match: TeamMatch) -> TeamMatch:
    return TeamMatch.objects.get(pk=team_match.pk)


def play(commit, table: Match, team: str, *, settle: bool = True) -> Hand:
    """One hand at ``table`` that wins a game for ``team`` ("a": the team A pair). ``settle=False``: stored as
    an older release did, the settling left to a later task (the hand that wins a game is now settled in its
    own commit)."""
    target = next_hand(table)
    if settle:
        return commit(enter_hand, match=table, number=target.number, mode=Hand.CHALK,
                      entry=sweep(0 if team == "a" else 1), author_label="t")
    with mock.patch("games.entry.settle_in_commit"):
        return enter_hand(match=table, number=target.number, mode=Hand.CHALK,
                                   entry=sweep(0 if team == "a" else 1), author_label="t")


# ----------------------------------------------------------------------------- creating
def test_create_team_match_seats_a_pair_of_each_team_at_each_table(world):
    team_match = new_team_match(world, tables=3, target=22)
    assert (team_match.tables, team_match.mode, team_match.target) == (3, "race", 22)
    assert (team_match.team_a_name, team_match.team_b_name) == ("Blue Dollar", "Red House")
    tables = tables_of(team_match)
    assert [t.table_number for t in tables] == [1, 2, 3]
    assert all(t.side_a.teams.get() == team_match.team_a and t.side_b.teams.get() == team_match.team_b
               for t in tables)
    assert [t.side_a_name for t in tables] == ["Blue Dollar 1", "Blue Dollar 2", "Blue Dollar 3"]


def test_a_line_up_is_checked_against_the_teams(world):
    competition = team_competition(world["club"])
    blue, red = make_team(competition, "Blue Dollar"), make_team(competition, "Red House")
    a1, a2, _ = blue.partnerships.order_by("id")
    b1, b2, _ = red.partnerships.order_by("id")
    elsewhere = make_team(team_competition(world["club"]), "Elsewhere")

    def field(*args, **kwargs) -> str:
        with pytest.raises(EntryError) as caught:
            create_team_match(*args, **kwargs)
        return caught.value.field

    assert field(competition, blue, red, tables=[(b1, a1), (a2, b2)]) == "tables[0].side_a"  # a red pair for blue
    assert field(competition, blue, red, tables=[(a1, b1), (a2, a1)]) == "tables[1].side_b"
    assert field(competition, blue, red, tables=[(a1, b1), (a1, b2)]) == "tables[1].side_a"  # a pair twice
    assert field(competition, blue, red, tables=[(a1, b1)]) == "tables"  # 2 tables
    assert field(competition, blue, blue, tables=[]) == "team_b"
    assert field(competition, blue, elsewhere) == "team_b"
    assert field(make_competition(club=world["club"]), blue, red) == "competition"
    Entry.objects.filter(team=red).update(withdrawn=True)
    assert field(competition, blue, red) == "team_b"
    assert not TeamMatch.objects.exists()


def test_the_tables_can_be_seated_later(world):
    competition = team_competition(world["club"])
    blue, red = make_team(competition, "Blue Dollar"), make_team(competition, "Red House")
    team_match = create_team_match(competition, blue, red)
    assert not team_match.table_matches.exists()
    pairs = list(zip(blue.partnerships.order_by("id"), red.partnerships.order_by("id"), strict=False))[:2]
    set_team_tables(team_match, pairs)
    assert len(tables_of(team_match)) == 2
    with pytest.raises(EntryError):
        set_team_tables(team_match, pairs)


# ----------------------------------------------------------------------------- a race to N
def test_a_table_does_not_apply_the_pair_match_format_on_its_own(world, commit):
    """The competition's format is a single game, but a table of a race plays on until the team match is over."""
    team_match = new_team_match(world, target=3)
    one, _ = tables_of(team_match)
    play(commit, one, "a")
    one.refresh_from_db()
    assert (one.status, one.winner, one.games_a) == ("in_progress", "", 1)
    assert list(one.games.values_list("number", "winner")) == [(1, "a"), (2, "")]  # the next game is open
    assert (fresh(team_match).bullseyes_a, fresh(team_match).status) == (1, "in_progress")


def test_a_race_is_won_by_the_first_team_to_the_target_in_the_order_the_games_were_won(world, commit):
    team_match = new_team_match(world, target=3)
    one, two = tables_of(team_match)
    play(commit, one, "a")   # 1-0
    play(commit, two, "b")   # 1-1
    play(commit, two, "b")   # 1-2
    play(commit, one, "a")   # 2-2
    assert (fresh(team_match).bullseyes_a, fresh(team_match).bullseyes_b) == (2, 2)
    # both tables win a game before either is settled: table 2's hand is entered first, so Red House reaches 3
    late = play(commit, one, "a", settle=False)
    first = play(commit, two, "b", settle=False)
    now = timezone.now()
    Hand.objects.filter(pk=first.pk).update(created_at=now + dt.timedelta(seconds=1))
    Hand.objects.filter(pk=late.pk).update(created_at=now + dt.timedelta(seconds=2))
    settle_match(one.pk)   # settled in the "wrong" order: the order of winning still decides
    settle_match(two.pk)
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner) == ("complete", "b")
    assert (team_match.bullseyes_a, team_match.bullseyes_b) == (2, 3)  # Blue Dollar's late game does not count
    one, two = tables_of(team_match)
    assert (one.status, one.games_a, one.games_b, one.winner) == ("complete", 2, 0, "a")
    assert (two.status, two.games_a, two.games_b, two.winner) == ("complete", 0, 3, "b")
    assert one.chalks_a == 8  # the chalks of the games that count
    assert Game.objects.filter(match=one, winner="a").count() == 3  # the late game stays on the sheet
    with pytest.raises(EntryError) as caught:
        play(commit, one, "a")
    assert "team match" in caught.value.reason and "is over" in caught.value.reason
    row = team_results_for_standings(team_match.competition_id)[0]
    assert set(row) == set(TEAM_STANDINGS_FIELDS) and (row["winner"], row["bullseyes_b"]) == ("b", 3)


def test_settling_the_race_again_in_any_order_changes_nothing(world, commit):
    team_match = new_team_match(world, target=2)
    one, two = tables_of(team_match)
    play(commit, one, "b")
    play(commit, two, "a")
    play(commit, two, "a")
    before = (fresh(team_match).winner, list(Match.objects.filter(team_match=team_match).values()))
    for pk in (two.pk, one.pk, two.pk):
        settle_match(pk)
    after = (fresh(team_match).winner, list(Match.objects.filter(team_match=team_match).values()))
    assert before[0] == "a" and [{k: v for k, v in m.items() if k != "updated_at"} for m in before[1]] == [
        {k: v for k, v in m.items() if k != "updated_at"} for m in after[1]]


def test_a_correction_that_undoes_the_deciding_game_reopens_the_race(world, commit):
    team_match = new_team_match(world, target=2)
    one, two = tables_of(team_match)
    play(commit, one, "a")
    deciding = play(commit, two, "a")
    assert fresh(team_match).status == "complete"
    assert not Game.objects.filter(match=one, winner="").exists()  # no next game at the stopped table
    commit(correct_hand, hand=deciding, mode=Hand.CHALK, entry=sweep(1), reason="it went to Red House",
           version=deciding.version)
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (
        "in_progress", "", 1, 1)
    one, two = tables_of(team_match)
    assert one.status == two.status == "in_progress"
    assert Game.objects.filter(match=one, winner="").exists() and Game.objects.filter(match=two, winner="").exists()


def test_a_race_entered_game_by_game(world, commit):
    team_match = new_team_match(world, target=3)
    one, two = tables_of(team_match)
    for table, winner in ((one, "a"), (two, "b"), (one, "a"), (two, "a")):
        number = table.games.filter(entered=True).count() + 1
        commit(enter_game_result, table, number=number, winner=winner)
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (
        "complete", "a", 3, 1)
    assert team_match.result_level == "game"
    with pytest.raises(EntryError) as caught:
        enter_game_result(tables_of(team_match)[1], number=3, winner="b")
    assert caught.value.field == "number" and "race to 3 bullseyes is over" in caught.value.reason
    # a correction within the race is allowed; one that takes a team past the target is not
    commit(enter_game_result, tables_of(team_match)[1], number=2, winner="b")
    assert (fresh(team_match).bullseyes_a, fresh(team_match).status) == (2, "in_progress")


def test_per_table_totals_in_a_race(world, commit):
    team_match = new_team_match(world, target=5)
    one, two = tables_of(team_match)
    commit(record_match_totals, one, games_a=3, games_b=1, hang_jacks_a=2)
    assert fresh(team_match).status == "in_progress"
    assert APIClient().get(f"/api/matches/{one.pk}/").json()["next_hand"] is None  # no hands at this table
    assert not one.games.exists()
    with pytest.raises(EntryError) as caught:
        record_match_totals(two, games_a=3, games_b=0)
    assert caught.value.field == "games_a" and "race ends when a team reaches 5" in caught.value.reason
    commit(record_match_totals, two, games_a=2, games_b=2)
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (
        "complete", "a", 5, 3)
    assert (team_match.hang_jacks_a, team_match.result_level) == (2, "match")
    one, two = tables_of(team_match)
    assert (one.status, one.winner, two.winner) == ("complete", "a", "d")


# ----------------------------------------------------------------------------- fixed games a table
def test_fixed_games_with_a_draw(world, commit):
    team_match = new_team_match(world, mode=Competition.TEAM_FIXED, games_per_table=2)
    one, two = tables_of(team_match)
    for table, winners in ((one, "ab"), (two, "b")):
        for number, winner in enumerate(winners, start=1):
            commit(enter_game_result, table, number=number, winner=winner, score_a=4 if winner == "a" else 1,
                   score_b=4 if winner == "b" else 2)
    team_match = fresh(team_match)
    assert team_match.status == "in_progress" and tables_of(team_match)[0].status == "complete"
    assert tables_of(team_match)[1].status == "in_progress"
    commit(enter_game_result, two, number=2, winner="a", score_a=4, score_b=3)
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (
        "complete", "d", 2, 2)
    assert (team_match.chalks_a, team_match.chalks_b) == (4 + 1 + 1 + 4, 2 + 4 + 4 + 3)
    assert [t.winner for t in tables_of(team_match)] == ["d", "d"]  # each table ended level
    with pytest.raises(EntryError) as caught:
        enter_game_result(one, number=3, winner="a")
    assert caught.value.field == "number" and "each table plays 2 games" in caught.value.reason


def test_a_fixed_table_played_hand_by_hand_stops_after_its_games(world, commit):
    team_match = new_team_match(world, mode=Competition.TEAM_FIXED, games_per_table=2)
    one, two = tables_of(team_match)
    play(commit, one, "a")
    play(commit, one, "a")
    one.refresh_from_db()
    assert (one.status, one.winner, one.games_a) == ("complete", "a", 2)
    assert list(one.games.values_list("number", flat=True)) == [1, 2]
    play(commit, two, "b")
    play(commit, two, "a")
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (
        "complete", "a", 3, 1)


def test_fixed_table_totals_are_all_its_games(world, commit):
    team_match = new_team_match(world, mode=Competition.TEAM_FIXED, games_per_table=3)
    one, two = tables_of(team_match)
    with pytest.raises(EntryError) as caught:
        record_match_totals(one, games_a=2, games_b=0)
    assert caught.value.field == "games_a" and "each table plays 3 games" in caught.value.reason
    commit(record_match_totals, one, games_a=2, games_b=1)
    commit(record_match_totals, two, games_a=0, games_b=3)
    assert (fresh(team_match).winner, fresh(team_match).bullseyes_b) == ("b", 4)


# ----------------------------------------------------------------------------- overall totals and forfeits
def test_overall_totals_only(world, commit):
    team_match = new_team_match(world, target=22, tables=3)

    def field(**kwargs) -> str:
        with pytest.raises(EntryError) as caught:
            record_team_totals(team_match, **kwargs)
        return caught.value.field

    assert field(bullseyes_a=23, bullseyes_b=4) == "bullseyes_a"
    assert field(bullseyes_a=21, bullseyes_b=17) == "bullseyes_a"
    assert field(bullseyes_a=22, bullseyes_b=22) == "bullseyes_b"
    assert field(bullseyes_a=17, bullseyes_b=22, hang_jacks_a=4, chalks_a=10, chalks_b=300) == "hang_jacks_a"
    commit(record_team_totals, team_match, 17, 22, hang_jacks_a=3, hang_jacks_b=5)
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner, team_match.result_level) == ("complete", "b", "match")
    assert (team_match.bullseyes_a, team_match.bullseyes_b, team_match.hang_jacks_b) == (17, 22, 5)
    assert not team_match.table_matches.exists()
    settle_team_match(team_match.pk)
    assert fresh(team_match).winner == "b"
    clear_team_totals(team_match)
    assert (fresh(team_match).status, fresh(team_match).winner) == ("scheduled", "")


def test_overall_totals_of_a_fixed_team_match_may_draw(world):
    team_match = new_team_match(world, mode=Competition.TEAM_FIXED, games_per_table=3)
    with pytest.raises(EntryError):
        record_team_totals(team_match, bullseyes_a=3, bullseyes_b=2)
    record_team_totals(team_match, bullseyes_a=3, bullseyes_b=3)
    assert fresh(team_match).winner == "d"


def test_overall_totals_are_refused_once_a_table_has_a_result(world, commit):
    team_match = new_team_match(world)
    play(commit, tables_of(team_match)[0], "a")
    with pytest.raises(EntryError) as caught:
        record_team_totals(team_match, bullseyes_a=3, bullseyes_b=0)
    assert caught.value.field == "team_match" and len(tables_of(team_match)) == 2


def test_a_team_forfeit_completes_every_table(world, commit):
    team_match = new_team_match(world)
    one, _ = tables_of(team_match)
    with pytest.raises(EntryError) as caught:
        record_forfeit(one, outcome="forfeit_a")
    assert "team match" in caught.value.reason
    commit(record_team_forfeit, team_match, outcome="forfeit_b")
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner, team_match.outcome) == ("complete", "a", "forfeit_b")
    assert [(t.status, t.winner, t.outcome) for t in tables_of(team_match)] == [("complete", "a", "forfeit_b")] * 2
    with pytest.raises(EntryError):
        play(commit, one, "a")
    commit(clear_team_forfeit, team_match)
    team_match = fresh(team_match)
    assert (team_match.status, team_match.winner) == ("scheduled", "")
    assert [t.status for t in tables_of(team_match)] == ["scheduled", "scheduled"]


# ----------------------------------------------------------------------------- pages
def page(response) -> str:
    return response.content.decode()


def test_team_match_page_shows_the_race_table_by_table(client, world, commit):
    team_match = new_team_match(world, target=3)
    one, two = tables_of(team_match)
    play(commit, one, "a")
    play(commit, two, "b")
    play(commit, two, "b")
    response = client.get(reverse("team_match", args=[team_match.pk]))
    assert response.status_code == 200
    html = page(response)
    assert "Blue Dollar 1</span> – <span" in html.replace("\n", "") or "Blue Dollar 1" in html
    assert 'aria-valuenow="1"' in html and 'aria-valuenow="2"' in html and 'aria-valuemax="3"' in html
    assert reverse("match_sheet", args=[one.pk]) in html and reverse("match_sheet", args=[two.pk]) in html
    assert 'id="table-2"' in html
    listing = page(client.get(reverse("team_matches", args=[world["club"].slug, team_match.competition.slug])))
    assert reverse("team_match", args=[team_match.pk]) in listing and "1 – 2" in listing


def test_team_match_page_of_a_draft_is_for_organisers(client, world):
    team_match = new_team_match(world, published=False)
    assert client.get(reverse("team_match", args=[team_match.pk])).status_code == 404
    client.force_login(world["organiser"])
    assert client.get(reverse("team_match", args=[team_match.pk])).status_code == 200


def test_create_page_is_for_organisers_and_shows_errors_next_to_the_table(client, world):
    competition = team_competition(world["club"])
    blue, red = make_team(competition, "Blue Dollar"), make_team(competition, "Red House")
    a1, a2, _ = blue.partnerships.order_by("id")
    b1, b2, _ = red.partnerships.order_by("id")
    url = reverse("team_match_new", args=[world["club"].slug, competition.slug])
    assert client.get(url).status_code == 302
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(world["organiser"])
    assert client.get(url).status_code == 200
    data = {"team_a": blue.pk, "team_b": red.pk, "table_1_a": a1.pk, "table_1_b": a2.pk, "table_2_a": b1.pk,
            "table_2_b": b2.pk}
    response = client.post(url, data)
    assert response.status_code == 422
    html = page(response)
    table_1_b = html[html.index('id="f-table_1_b"'):html.index('id="f-table_2_a"')]
    assert "is not a pair of Red House" in table_1_b
    response = client.post(url, {**data, "table_1_b": b1.pk, "table_2_a": a2.pk})
    team_match = TeamMatch.objects.get()
    assert response.status_code == 302 and response.url == reverse("team_match", args=[team_match.pk])
    assert [(t.side_a_id, t.side_b_id) for t in tables_of(team_match)] == [(a1.pk, b1.pk), (a2.pk, b2.pk)]


def test_team_totals_page_is_for_organisers(client, world, commit):
    team_match = new_team_match(world, target=5)
    url = reverse("team_match_totals", args=[team_match.pk])
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(world["organiser"])
    response = client.post(url, {"bullseyes_a": 6, "bullseyes_b": 2})
    assert response.status_code == 422 and "not the end of a race to 5" in page(response)
    assert commit(client.post, url, {"bullseyes_a": 5, "bullseyes_b": 2}).status_code == 302
    assert fresh(team_match).winner == "a"


def test_the_table_sheet_links_to_its_team_match(client, world, commit):
    team_match = new_team_match(world)
    one, _ = tables_of(team_match)
    html = page(client.get(reverse("match_sheet", args=[one.pk])))
    assert reverse("team_match", args=[team_match.pk]) in html and "Table 1 of the team match" in html
    printed = page(client.get(reverse("match_print", args=[one.pk]) + "?blank=1"))
    assert "race to 3 bullseyes" in printed and "Table 1" in printed


# ----------------------------------------------------------------------------- API
def errors(response) -> list[str]:
    return [error["field"] for error in response.json()["errors"]]


def test_api_team_matches(world, commit):
    competition = team_competition(world["club"], target=2)
    blue, red = make_team(competition, "Blue Dollar"), make_team(competition, "Red House")
    a1, a2, _ = blue.partnerships.order_by("id")
    b1, b2, _ = red.partnerships.order_by("id")
    body = {"competition": competition.pk, "team_a": blue.pk, "team_b": red.pk,
            "tables": [[a1.pk, b1.pk], [a2.pk, b2.pk]]}
    stranger = APIClient()
    stranger.force_login(make_user("stranger"))
    assert stranger.post("/api/team-matches/", body, format="json").status_code == 403
    api = APIClient()
    api.force_login(world["organiser"])
    response = api.post("/api/team-matches/", {**body, "tables": [[b1.pk, a1.pk], [a2.pk, b2.pk]]}, format="json")
    assert response.status_code == 400 and errors(response) == ["tables[0].side_a"]
    response = api.post("/api/team-matches/", {**body, "tables": [[a1.pk]]}, format="json")
    assert response.status_code == 400 and errors(response)[0].startswith("tables")
    response = api.post("/api/team-matches/", body, format="json")
    assert response.status_code == 201
    created = response.json()
    assert [t["table_number"] for t in created["table_matches"]] == [1, 2]
    assert APIClient().get(f"/api/team-matches/{created['id']}/").json()["mode"] == "race"
    listed = APIClient().get(f"/api/team-matches/?competition={competition.pk}").json()
    assert [row["id"] for row in listed["results"] if "results" in listed] or listed
    response = commit(api.post, f"/api/team-matches/{created['id']}/totals/", {"bullseyes_a": 3, "bullseyes_b": 0},
                      format="json")
    assert response.status_code == 400 and errors(response) == ["bullseyes_a"]
    response = commit(api.post, f"/api/team-matches/{created['id']}/totals/", {"bullseyes_a": 2, "bullseyes_b": 1},
                      format="json")
    assert response.status_code == 200 and (response.json()["winner"], response.json()["table_matches"]) == ("a", [])
    assert commit(stranger.post, f"/api/team-matches/{created['id']}/forfeit/", {"outcome": "forfeit_a"},
                  format="json").status_code == 403


def test_a_team_match_made_on_the_page_without_line_ups(client, world):
    """The form takes no line-ups (set later, or never when only totals are kept), but not half of one."""
    competition = team_competition(world["club"])
    blue, red = make_team(competition, "Blue Dollar"), make_team(competition, "Red House")
    url = reverse("team_match_new", args=[world["club"].slug, competition.slug])
    client.force_login(world["organiser"])
    response = client.post(url, {"team_a": blue.pk, "team_b": red.pk, "table_1_a": blue.partnerships.first().pk})
    assert response.status_code == 422
    html = page(response)
    assert "leave every table blank" in html[html.index('id="f-table_1_b"'):html.index('id="f-table_2_a"')]
    assert not TeamMatch.objects.exists()
    response = client.post(url, {"team_a": blue.pk, "team_b": red.pk})
    team_match = TeamMatch.objects.get()
    assert response.status_code == 302 and not tables_of(team_match)
