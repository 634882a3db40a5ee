"""The steps both results files share, shown on a file of each: a competition of partnerships (one row a match or a
game) and a team competition (one row a team match or a table). Each step reports a bad row the same way, in
the words of the file's kind: "side"/"match" for partnerships, "team"/"team match" for teams."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from draw.fixtures import get_or_add_round
from games import services
from games.models import TeamMatch
from importer import csv_io, result_file
from league.models import Competition, Entry
from tests.factories import make_club, make_competition, make_partnership
from tests.importer.test_team_results_csv import add_teams, team_league

pytestmark = pytest.mark.django_db


@dataclass
class Kind:
    """A competition of one kind of entrant, its three entrants' names, and how to store a fixture in it."""

    competition: Competition
    names: tuple[str, str, str]
    entrants: dict[str, Any]
    noun: str  # what the errors call one fixture

    def store(self, a: str, b: str, *, round: int | None = None, on: dt.date | None = None) -> Any:
        round_ = get_or_add_round(self.competition, round, starts_on=on)[0] if round else None
        when = timezone.make_aware(dt.datetime.combine(on, dt.time())) if on and not round else None
        if self.competition.entrant_kind == Competition.TEAMS:
            return services.create_team_match(self.competition, self.entrants[a], self.entrants[b], round=round_,
                                               scheduled_at=when)
        return services.create_match(competition=self.competition, side_a=self.entrants[a], side_b=self.entrants[b],
                                     round=round_, scheduled_at=when)

    def imported(self, data: str) -> csv_io.ImportReport:
        return csv_io.import_csv(club=self.competition.club, kind="results", competition=self.competition, data=data)


def pairs_kind() -> Kind:
    club = make_club("Pairs Club")
    league = make_competition(club=club, published=True)
    names = ("Ann and Bob", "Cy and Di", "Eve and Flo")
    entrants = {name: make_partnership(club=club, name=name) for name in names}
    for pair in entrants.values():
        Entry.objects.create(competition=league, partnership=pair)
    return Kind(league, names, entrants, "match")


def teams_kind() -> Kind:
    league = team_league(make_club("Inter-Bar Club"))
    entrants = add_teams(league)
    return Kind(league, tuple(entrants), entrants, "team match")  # type: ignore[arg-type]


@pytest.fixture(params=["pairs", "teams"])
def kind(request) -> Kind:
    return pairs_kind() if request.param == "pairs" else teams_kind()


def test_the_same_sides_twice_in_a_round_or_on_a_date_are_reported_on_the_later_line(kind):
    a, b, _ = kind.names
    report = kind.imported(f"round,date,side_a,side_b,games_a,games_b\r\n1,,{a},{b},,\r\n1,,{b},{a},,\r\n"
                           f",03/05/2025,{a},{b},,\r\n,3 May 2025,{b},{a},,\r\n")
    assert report.sorted_errors() == [
        {"line": 3, "column": "side_a", "reason": f"{b} v {a} in round 1 is already on line 2"},
        {"line": 5, "column": "side_a", "reason": f"{b} v {a} on 03/05/2025 is already on line 4"},
    ]


def test_a_dated_row_of_a_fixture_stored_in_a_round_is_told_to_give_its_round(kind):
    a, b, c = kind.names
    kind.store(a, b, round=1, on=dt.date(2025, 5, 3))
    kind.store(a, c, on=dt.date(2025, 5, 10))
    report = kind.imported(f"date,side_a,side_b,games_a,games_b\r\n03/05/2025,{a},{b},,\r\n10/05/2025,{c},{a},,\r\n")
    refused = report.sorted_errors()
    assert [(e["line"], e["column"]) for e in refused] == [(2, "side_a"), (3, "side_a")]
    assert f"{a} v {b} on 03/05/2025 is already a fixture of Round 1" in refused[0]["reason"]
    assert f"{c} v {a} on 10/05/2025 is already a fixture without a round" in refused[1]["reason"]
    assert f"the {kind.noun} page" in refused[1]["reason"]


def test_a_stored_fixture_named_the_other_way_round_must_be_swapped(kind):
    a, b, _ = kind.names
    kind.store(a, b, round=1)
    report = kind.imported(f"round,side_a,side_b,games_a,games_b\r\n1,{b},{a},,\r\n")
    sides = "sides" if kind.noun == "match" else "teams"
    assert report.errors == [{"line": 2, "column": "side_a", "reason": f"round 1 has this {kind.noun} as {a} v {b}: "
                                                                       f"swap the {sides}"}]


def test_a_stored_fixture_with_a_result_is_not_stored_again(kind):
    a, b, _ = kind.names
    stored = kind.store(a, b, round=1)
    if isinstance(stored, TeamMatch):
        services.record_team_totals(stored, 5, 2)
    else:
        services.record_match_totals(stored, games_a=1, games_b=0)
    report = kind.imported(f"round,side_a,side_b,games_a,games_b\r\n1,{a},{b},,\r\n")
    score = "5–2" if isinstance(stored, TeamMatch) else "1–0"
    assert report.errors == [{"line": 2, "column": "side_a", "reason": f"{a} v {b} in round 1 already has a result "
                                                                       f"({score})"}]


def test_a_score_given_for_one_side_only_is_refused(kind):
    a, b, _ = kind.names
    report = kind.imported(f"round,side_a,side_b,games_a,games_b\r\n1,{a},{b},,2\r\n")
    what = "games won for both sides" if kind.noun == "match" else "bullseyes for both teams"
    assert report.errors == [{"line": 2, "column": "games_a", "reason": f"give the {what} or for neither"}]


@pytest.mark.parametrize(("cells", "column", "reason"), [
    ("99999999999,{a},{b},,,,", "round", "must be a round number of at most 32,767, got '99999999999'"),
    ("1,{a},{b},3,1,99999999999,", "hang_jacks_a", "must be at most 2,147,483,647, got '99999999999'"),
    ("1,{a},{b},3,1,,x", "chalks_b", "must be a whole number, got 'x'"),
])
def test_a_cell_past_the_databases_range_or_unreadable_is_the_rows_error(kind, cells, column, reason):
    a, b, _ = kind.names
    report = kind.imported(f"round,side_a,side_b,games_a,games_b,hang_jacks_a,chalks_b\r\n"
                           f"{cells.format(a=a, b=b)}\r\n")
    assert [(e["line"], e["column"]) for e in report.errors] == [(2, column)]
    assert reason in report.errors[0]["reason"]


def test_a_side_is_required_and_found_by_name(kind):
    a, _, _ = kind.names
    report = kind.imported(f"round,side_a,side_b,games_a,games_b\r\n1,{a},,,\r\n1,,Nobody,,\r\n")
    word = "side" if kind.noun == "match" else "team"
    assert [(e["line"], e["column"]) for e in report.sorted_errors()] == [(2, "side_b"), (3, "side_a"), (3, "side_b")]
    assert report.sorted_errors()[0]["reason"] == f"{word} B is required"
    assert report.sorted_errors()[1]["reason"] == f"{word} A is required"


def test_a_bye_and_its_match_in_one_file_are_read_in_line_order(kind):
    a, b, c = kind.names
    report = kind.imported(f"round,side_a,side_b,games_a,games_b\r\n,{c},bye,,\r\n1,{a},{b},x,\r\n")
    assert [(e["line"], e["column"]) for e in report.errors] == [(2, "round"), (3, "games_a")]


def test_a_file_stops_at_the_row_limit_of_results(kind, monkeypatch):
    monkeypatch.setattr(result_file, "MAX_RESULT_ROWS", 2)
    a, b, c = kind.names
    report = kind.imported(f"round,side_a,side_b,games_a,games_b\r\n1,{a},{b},,\r\n2,{a},{c},,\r\n3,{b},{c},,\r\n")
    assert [(e["line"], e["column"]) for e in report.errors] == [(4, "")]
    assert "a results file has at most 2 rows" in report.errors[0]["reason"]


# ----------------------------------------------------------------------------- rows grouped into one fixture
def test_a_later_game_row_of_a_match_must_agree_with_its_first_row():
    kind = pairs_kind()
    a, b, c = kind.names
    report = kind.imported(f"match,round,side_a,side_b,game,winner\r\nM1,1,{a},{b},1,A\r\nM1,2,{a},{c},2,A\r\n"
                           "M1,,,,1,B\r\n")
    assert report.sorted_errors() == [
        {"line": 3, "column": "round", "reason": "the match's first row (line 2) says '1'"},
        {"line": 3, "column": "side_b", "reason": f"match 'M1' is {a} v {b} on line 2"},
        {"line": 4, "column": "game", "reason": "game 1 of this match is already on line 2"},
    ]


def test_a_later_table_row_of_a_team_match_must_agree_with_its_first_row():
    kind = teams_kind()
    a, b, c = kind.names
    report = kind.imported(f"match,round,team_a,team_b,table,team_a_pair,team_b_pair,games_a,games_b\r\n"
                           f"T1,1,{a},{b},1,{a} 1,{b} 1,,\r\nT1,2,{a},{c},2,{a} 2,{b} 2,,\r\n"
                           f"T1,,,,1,{a} 2,{b} 2,,\r\n")
    assert report.sorted_errors() == [
        {"line": 3, "column": "round", "reason": "the team match's first row (line 2) says '1'"},
        {"line": 3, "column": "side_b", "reason": f"the team match of line 2 is {a} v {b}"},
        {"line": 4, "column": "table", "reason": "table 1 of this team match is already on line 2"},
    ]
