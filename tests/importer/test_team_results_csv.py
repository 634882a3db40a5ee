"""A team competition's results by CSV: one row a team match (bullseyes, hang jacks, venue, date, a forfeit, a
fixture not yet played) or one row a table (the pairs seated there and the table's totals, the team's following),
byes of teams and of partnerships, the errors by line and column, and the round trip — the export of a team
competition imported into another with the same teams gives the same team matches, results and standings.

Each team match plays 2 tables, a race to 5 bullseyes (``record_team_totals``: the winner has exactly 5).
"""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.utils import timezone

from draw.fixtures import add_bye, get_or_add_round
from draw.models import Bye, Round
from games import services
from games.models import Match, TeamMatch
from importer import csv_io
from league.models import Competition, Entry, Team
from standings.models import StandingRow
from standings.services import refresh_standings
from tests.factories import make_club, make_competition, make_partnership

pytestmark = pytest.mark.django_db

TEAM_NAMES = ("Blue Dollar", "Red House", "Green Bar")


@pytest.fixture
def imported(django_capture_on_commit_callbacks):
    """``import_csv`` as a real commit runs it: the settle and standings tasks it queued run after it."""

    def run(**kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return csv_io.import_csv(**kwargs)

    return run


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    def do(function, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    return do


def team_league(club, slug: str = "bar-league", *, mode: str = Competition.TEAM_RACE) -> Competition:
    league = make_competition(club=club, published=True)
    league.slug, league.name = slug, slug.replace("-", " ").title()
    league.entrant_kind = Competition.TEAMS
    league.team_tables, league.team_mode, league.team_target, league.team_games_per_table = 2, mode, 5, 2
    league.save()
    return league


def add_teams(league: Competition, pairs: dict[str, list] | None = None) -> dict[str, Team]:
    """The three teams, each with two pairs ("Blue Dollar 1", "Blue Dollar 2"), or with the ``pairs`` given."""
    teams = {}
    for name in TEAM_NAMES:
        team = teams[name] = Team.objects.create(competition=league, club=league.club, name=name)
        chosen = pairs[name] if pairs else [make_partnership(club=league.club, name=f"{name} {n}") for n in (1, 2)]
        team.partnerships.add(*chosen)
        Entry.objects.create(competition=league, team=team)
    return teams


@pytest.fixture
def league():
    league = team_league(make_club("Inter-Bar Club"))
    league.teams_by_name = add_teams(league)
    return league


def standing(league: Competition, name: str) -> StandingRow:
    return StandingRow.objects.get(competition=league, section="", team__name=name)


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


# ----------------------------------------------------------------------------- one row a team match
def test_a_team_match_row_stores_bullseyes_hang_jacks_venue_and_date_through_the_team_totals(league, imported):
    data = ("Round,Date,Bar,Home Team,Away Team,Bullseyes Home,Bullseyes Away,HJ Home,HJ Away,Winner\r\n"
            "1,03/05/2025,Blue Dollar Bar,Blue Dollar,Red House,5,3,2,1,Blue Dollar\r\n"
            "1,03/05/2025,,Green Bar,BYE,,,,,\r\n"
            "2,10/05/2025,Green Bar,Green Bar,Blue Dollar,,,,,\r\n")
    report = imported(club=league.club, kind="results", competition=league, data=data)
    assert report.ok, report.errors
    assert report.level == csv_io.MATCH_LEVEL
    assert report.created == {"rounds": 2, "team matches": 2, "results": 1, "byes": 1}
    played = TeamMatch.objects.get(competition=league, round__number=1)
    assert (played.team_a_name, played.team_b_name, played.venue) == ("Blue Dollar", "Red House", "Blue Dollar Bar")
    assert (played.bullseyes_a, played.bullseyes_b, played.hang_jacks_a, played.hang_jacks_b) == (5, 3, 2, 1)
    assert (played.result_level, played.status, played.winner, played.chalks_known) == ("match", "complete", "a",
                                                                                         False)
    assert played.round.starts_on == dt.date(2025, 5, 3) and played.scheduled_at is None
    fixture = TeamMatch.objects.get(competition=league, round__number=2)
    assert (fixture.status, fixture.bullseyes_a + fixture.bullseyes_b, fixture.venue) == ("scheduled", 0, "Green Bar")
    assert not fixture.table_matches.exists()
    assert Bye.objects.get(round__competition=league).entry.team.name == "Green Bar"
    blue, red, green = (standing(league, name) for name in TEAM_NAMES)
    assert (blue.played, blue.won, blue.bullseyes_for, blue.bullseyes_against, blue.hang_jacks_for) == (1, 1, 5, 3, 2)
    assert (red.played, red.lost, red.hang_jacks_for) == (1, 1, 1)
    assert green.byes == 1  # credited as the competition's bye policy says


def test_a_fixture_row_without_scores_is_a_team_match_with_no_result(league, imported):
    report = imported(club=league.club, kind="results", competition=league,
                      data="round,team_a,team_b,games_a,games_b,venue\r\n3,Red House,Green Bar,,,Red House Bar\r\n")
    assert report.ok, report.errors
    assert report.created == {"rounds": 1, "team matches": 1}
    fixture = TeamMatch.objects.get(competition=league)
    assert (fixture.status, fixture.result_level, fixture.winner, fixture.venue) == ("scheduled", "hand", "",
                                                                                     "Red House Bar")
    assert not StandingRow.objects.filter(competition=league, played__gt=0).exists()


def test_a_team_forfeit_and_the_race_rule_of_the_totals(league, imported):
    bad = imported(club=league.club, kind="results", competition=league,
                   data="round,team_a,team_b,games_a,games_b\r\n1,Blue Dollar,Red House,4,3\r\n")
    assert [(e["line"], e["column"]) for e in bad.errors] == [(2, "games_a")]
    assert "4–3 is not the end of a race to 5" in bad.errors[0]["reason"]
    assert not TeamMatch.objects.exists()
    report = imported(club=league.club, kind="results", competition=league,
                      data="round,team_a,team_b,games_a,games_b,outcome,winner\r\n"
                           "1,Blue Dollar,Red House,,,forfeit_b,Blue Dollar\r\n")
    assert report.ok, report.errors
    forfeit = TeamMatch.objects.get(competition=league)
    assert (forfeit.outcome, forfeit.winner, forfeit.status) == ("forfeit_b", "a", "complete")
    assert standing(league, "Blue Dollar").won == 1


# ----------------------------------------------------------------------------- one row a table
def test_table_rows_seat_the_pairs_and_the_team_totals_follow_from_the_tables(league, imported):
    data = ("round,date,team_a,team_b,table,pair a,pair b,games_a,games_b,hang_jacks_a,hang_jacks_b,chalks_a,"
            "chalks_b\r\n"
            "1,2025-05-03,Blue Dollar,Red House,1,Blue Dollar 1,Red House 2,3,1,1,0,48,30\r\n"
            "1,2025-05-03,Blue Dollar,Red House,2,Blue Dollar 2,Red House 1,2,2,0,1,30,31\r\n")
    report = imported(club=league.club, kind="results", competition=league, data=data)
    assert report.ok, report.errors
    assert report.level == csv_io.TABLE_LEVEL
    assert report.created == {"rounds": 1, "team matches": 1, "results": 1, "table results": 2}
    team_match = TeamMatch.objects.get(competition=league)
    tables = list(team_match.table_matches.order_by("table_number"))
    assert [(t.side_a_name, t.side_b_name, t.games_a, t.games_b) for t in tables] == [
        ("Blue Dollar 1", "Red House 2", 3, 1), ("Blue Dollar 2", "Red House 1", 2, 2)]
    assert (team_match.bullseyes_a, team_match.bullseyes_b, team_match.hang_jacks_a, team_match.hang_jacks_b) == \
        (5, 3, 1, 1)
    assert (team_match.chalks_a, team_match.chalks_b, team_match.winner, team_match.status) == (78, 61, "a",
                                                                                               "complete")
    blue = standing(league, "Blue Dollar")
    assert (blue.won, blue.bullseyes_for, blue.chalks_for) == (1, 5, 78)


def test_a_tables_totals_follow_the_fixed_format_of_the_services(imported):
    league = team_league(make_club("Fixed Club"), mode=Competition.TEAM_FIXED)
    add_teams(league)
    data = ("round,team_a,team_b,table,team_a_pair,team_b_pair,games_a,games_b\r\n"
            "1,Blue Dollar,Red House,1,Blue Dollar 1,Red House 1,2,0\r\n"
            "1,Blue Dollar,Red House,2,Blue Dollar 2,Red House 2,2,1\r\n")
    report = imported(club=league.club, kind="results", competition=league, data=data)
    assert report.errors == [{"line": 3, "column": "games_a", "reason": "each table plays 2 games, not 2 + 1 = 3"}]
    assert not TeamMatch.objects.exists()


def test_a_table_row_names_pairs_of_its_own_team(league, imported):
    data = ("round,team_a,team_b,table,team_a_pair,team_b_pair,games_a,games_b\r\n"
            "1,Blue Dollar,Red House,1,Blue Dollar 1,Green Bar 1,3,1\r\n"
            "1,Blue Dollar,Red House,1,Blue Dollar 2,Red House 2,2,0\r\n")
    report = imported(club=league.club, kind="results", competition=league, data=data)
    assert report.sorted_errors() == [
        {"line": 2, "column": "team_b_pair", "reason": "no partnership 'Green Bar 1' in team Red House"},
        {"line": 3, "column": "table", "reason": "table 1 of this team match is already on line 2"},
    ]


# ----------------------------------------------------------------------------- byes of partnerships
def test_a_bye_row_of_a_partnership_competition_and_its_import_again(imported):
    club = make_club("Pairs Club")
    league = make_competition(club=club, published=True)
    ann, cy, eve = (make_partnership(club=club, name=name) for name in ("Ann and Bob", "Cy and Di", "Eve and Flo"))
    for pair in (ann, cy, eve):
        Entry.objects.create(competition=league, partnership=pair)
    data = ("round,date,side_a,side_b,games_a,games_b,venue\r\n"
            "1,2025-05-03,Ann and Bob,Cy and Di,1,0,Crossroads Bar\r\n"
            "1,2025-05-03,Eve and Flo,-bye-,,,\r\n")
    report = imported(club=club, kind="results", competition=league, data=data)
    assert report.ok, report.errors
    assert report.created == {"rounds": 1, "matches": 1, "results": 1, "byes": 1}
    assert Match.objects.get(competition=league).venue == "Crossroads Bar"
    assert Bye.objects.get(round__competition=league).entry.partnership == eve
    assert StandingRow.objects.get(competition=league, partnership=eve).byes == 1
    exported = csv_io.export_results(league)
    assert rows_of(exported)[0][:4] == ["round", "date", "venue", "table"]  # a venue is given: its column is there
    assert rows_of(exported)[1] == ["1", "2025-05-03", "", "", "Eve and Flo", "bye", *[""] * 8, "bye", ""]
    replay = make_competition(club=club)
    for pair in (ann, cy, eve):
        Entry.objects.create(competition=replay, partnership=pair)
    report = imported(club=club, kind="results", competition=replay, data=exported)
    assert report.ok and report.created == {"rounds": 1, "matches": 1, "results": 1, "byes": 1}, report.errors
    assert csv_io.export_results(replay) == exported
    assert StandingRow.objects.get(competition=replay, partnership=eve).byes == 1
    again = imported(club=club, kind="results", competition=league, data="round,side_a,side_b,games_a,games_b\r\n"
                                                                          "1,Eve and Flo,BYE,,\r\n")
    assert again.ok and again.created == {}, again.errors
    assert Bye.objects.filter(round__competition=league).count() == 1


# ----------------------------------------------------------------------------- errors by line and column
def test_errors_name_the_line_and_the_column(league, imported):
    data = ("round,date,team_a,team_b,games_a,games_b\r\n"
            "1,,Blue Dollar,Red House,five,3\r\n"                # 2: a bad number
            "1,,Green Bar,Purple Haze,,\r\n"                     # 3: an unknown team
            "2,,Blue Dollar,Red House,,\r\n"                     # 4
            "2,,Green Bar,Blue Dollar,,\r\n"                     # 5: Blue Dollar twice in round 2
            ",,Green Bar,bye,,\r\n"                              # 6: a bye without a round
            "3,,Red House,Green Bar,,\r\n"                       # 7
            "3,,Green Bar,bye,,\r\n"                             # 8: Green Bar already plays round 3
            "4,,Red House,Blue Dollar,,\r\n"                     # 9
            "4,,Blue Dollar,Red House,,\r\n")                    # 10: the same teams twice in a round
    report = imported(club=league.club, kind="results", competition=league, data=data)
    refused = report.sorted_errors()
    assert [(e["line"], e["column"]) for e in refused] == [
        (2, "games_a"), (3, "side_b"), (5, "side_b"), (6, "round"), (8, "side_a"), (10, "side_a")]
    says = ["got 'five'", "no team 'Purple Haze' in Bar League", "Blue Dollar already plays in round 2 on line 4",
            "a bye needs its round", "already has the match Red House v Green Bar in Round 3",
            "in round 4 is already on line 9"]
    for error, phrase in zip(refused, says, strict=True):
        assert phrase in error["reason"], error
    assert report.created == {} and not TeamMatch.objects.exists() and not Round.objects.exists()


def test_a_result_over_a_stored_result_is_refused_and_a_stored_bye_is_skipped(league, imported, commit):
    teams = league.teams_by_name
    round_one, _ = get_or_add_round(league, 1)
    commit(services.record_team_totals, services.create_team_match(
        league, teams["Blue Dollar"], teams["Red House"], round=round_one), 5, 2)
    add_bye(round_one, Entry.objects.get(team=teams["Green Bar"]))
    data = ("round,team_a,team_b,games_a,games_b\r\n"
            "1,Green Bar,bye,,\r\n"
            "1,Blue Dollar,Red House,5,1\r\n")
    report = imported(club=league.club, kind="results", competition=league, data=data)
    assert [(e["line"], e["column"]) for e in report.errors] == [(3, "side_a")]
    assert "in round 1 already has a result (5–2)" in report.errors[0]["reason"]
    report = imported(club=league.club, kind="results", competition=league, data=data.rsplit("1,Blue", 1)[0])
    assert report.ok and report.created == {}, report.errors


# ----------------------------------------------------------------------------- the round trip
def _season(league: Competition, commit) -> None:
    """Totals, tables, a fixture with its own date and venue, a forfeit, and byes — through the services."""
    teams = league.teams_by_name
    blue, red, green = (teams[name] for name in TEAM_NAMES)
    entry = {name: Entry.objects.get(team=team) for name, team in teams.items()}
    rounds = [get_or_add_round(league, n, starts_on=dt.date(2025, 5, 3) + dt.timedelta(weeks=n - 1))[0]
              for n in (1, 2, 3, 4)]
    totals = services.create_team_match(league, blue, red, round=rounds[0], venue="Blue Dollar Bar")
    commit(services.record_team_totals, totals, 5, 3, hang_jacks_a=2, hang_jacks_b=1, chalks_a=120, chalks_b=95)
    add_bye(rounds[0], entry["Green Bar"])
    pairs = {name: list(team.partnerships.order_by("name")) for name, team in teams.items()}
    tabled = services.create_team_match(league, red, green, round=rounds[1], venue="Red House Bar",
                                        tables=list(zip(pairs["Red House"], pairs["Green Bar"], strict=True)))
    first, second = tabled.table_matches.order_by("table_number")
    commit(services.record_match_totals, first, games_a=1, games_b=3, hang_jacks_b=1)
    commit(services.record_match_totals, second, games_a=2, games_b=2, hang_jacks_a=1)
    add_bye(rounds[1], entry["Blue Dollar"])
    services.create_team_match(league, green, blue, round=rounds[2], venue="Green Bar",
                               scheduled_at=timezone.make_aware(dt.datetime(2025, 5, 18)))
    add_bye(rounds[2], entry["Red House"])
    commit(services.record_team_forfeit, services.create_team_match(league, blue, red, round=rounds[3]),
           outcome=Match.FORFEIT_A)
    refresh_standings(league.pk)  # the byes' share: no settle follows a bye


def _team_matches(league: Competition) -> list[tuple]:
    return [(m.round.number, m.round.starts_on, m.scheduled_at, m.venue, m.team_a_name, m.team_b_name,
             m.bullseyes_a, m.bullseyes_b, m.chalks_a, m.chalks_b, m.chalks_known, m.hang_jacks_a, m.hang_jacks_b,
             m.result_level, m.outcome, m.status, m.winner,
             [(t.table_number, t.side_a_id, t.side_b_id, t.games_a, t.games_b, t.hang_jacks_a, t.hang_jacks_b,
               t.status, t.winner) for t in m.table_matches.order_by("table_number")])
            for m in TeamMatch.objects.filter(competition=league).select_related("round").order_by("round__number")]


def _standings(league: Competition) -> list[tuple]:
    rows = StandingRow.objects.filter(competition=league).select_related("team", "partnership")
    return sorted((row.section, row.team.name if row.team else row.partnership.name, row.rank, row.played, row.won,
                   row.drawn, row.lost, row.match_points, row.byes, row.bullseyes_for, row.bullseyes_against,
                   row.chalks_for, row.chalks_against, row.hang_jacks_for, row.hang_jacks_against) for row in rows)


def test_the_export_of_a_team_competition_imports_into_another_with_the_same_results_and_standings(league, imported,
                                                                                                   commit):
    _season(league, commit)
    exported = csv_io.export_results(league)
    table = rows_of(exported)
    assert table[0] == list(csv_io.TEAM_RESULTS_COLUMNS)
    assert [row[:8] for row in table[1:5]] == [
        ["1", "2025-05-03", "", "", "Green Bar", "bye", "", ""],
        ["1", "2025-05-03", "Blue Dollar Bar", "", "Blue Dollar", "Red House", "", ""],
        ["2", "2025-05-10", "", "", "Blue Dollar", "bye", "", ""],
        ["2", "2025-05-10", "Red House Bar", "1", "Red House", "Green Bar", "Red House 1", "Green Bar 1"],
    ]
    assert table[2][8:] == ["5", "3", "120", "95", "2", "1", "match", "played", "complete", "Blue Dollar"]
    assert table[5][8:] == ["2", "2", "", "", "1", "0", "match", "played", "complete", "draw"]

    replay = team_league(league.club, "replay-league")
    replay.teams_by_name = add_teams(replay, {name: list(team.partnerships.all())
                                              for name, team in league.teams_by_name.items()})
    report = imported(club=league.club, kind="results", competition=replay, data=exported.encode("utf-8-sig"))
    assert report.ok, report.errors
    assert report.created == {"rounds": 4, "team matches": 4, "results": 2, "table results": 2, "forfeits": 1,
                              "byes": 3}
    assert _team_matches(replay) == _team_matches(league)
    assert csv_io.export_results(replay) == exported
    assert _standings(replay) == _standings(league)
    assert {row[1] for row in _standings(league) if row[0] == ""} == set(TEAM_NAMES)
    assert standing(replay, "Green Bar").byes == 1


def test_the_template_and_the_columns_of_a_team_results_file():
    header = rows_of(csv_io.template_csv("results-teams"))[0]
    assert header == ["match", "round", "date", "venue", "side_a", "side_b", "table", "team_a_pair", "team_b_pair",
                      "games_a", "games_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b", "winner",
                      "outcome"]
    names = {name: column.key for column in csv_io.TEAM_COLUMNS for name in column.names()}
    assert [names[csv_io.normalise(h)] for h in ("Team A", "Home Team", "Pair A", "Home Pair", "Bar", "Location",
                                                  "Bullseyes A")] == \
        ["side_a", "side_a", "team_a_pair", "team_a_pair", "venue", "venue", "games_a"]
