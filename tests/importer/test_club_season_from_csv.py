"""A real club's team season kept the way the club keeps it, from CSV files alone: 16 bars' teams in four
divisions, the club's own fixture list with byes, each team match's result as bullseyes and hang jacks per side (one
of them table by table), ranked by bullseyes for, then fewest against, then hang jacks for, then fewest hang jacks
against, a bye counted as a win at the race's target with the team's averages rounded down. Every row of the table
is checked against figures worked out by hand below; then the season's export is imported into an emptied
database and gives the same table.

The race is to 18 bullseyes at 3 tables. Rounds 1–3 are played, round 4 only fixed; Gold Cup and Tobago Tiger sit
out round 1, Palm Tree and Carnival round 2. A bye credits 18 bullseyes for and, for bullseyes against and hang
jacks for and against, the team's average over its two played matches, rounded down — e.g. Gold Cup played
18–15 and 18–16 (against 15 + 16 = 31, average 15½ → 15) with hang jacks 2 + 1 = 3 for (average 1½ → 1); each
bye team's figures are worked out in ``BYES``.
"""

from __future__ import annotations

import csv
import io

import pytest

from games.models import Match, TeamMatch
from importer import csv_io
from league.models import Club, Competition, Partnership, Player
from league.services import create_club, create_competition
from standings.models import StandingRow

pytestmark = pytest.mark.django_db

DIVISIONS = {
    "North": ("Blue Dollar", "Red House", "Green Lantern", "Gold Cup"),
    "South": ("Silver Star", "Bamboo Bar", "Coconut Grove", "Palm Tree"),
    "East": ("Sea Breeze", "Calypso", "Steel Pan", "Carnival"),
    "West": ("Pitch Lake", "Hummingbird", "Scarlet Ibis", "Tobago Tiger"),
}
DATES = {1: "07/03/2025", 2: "14/03/2025", 3: "21/03/2025", 4: "28/03/2025"}
# (home, away, bullseyes home, away, hang jacks home, away); the home team's bar is the venue
RESULTS = {
    1: [("Blue Dollar", "Red House", 18, 12, 2, 1), ("Green Lantern", "Silver Star", 15, 18, 1, 3),
        ("Bamboo Bar", "Coconut Grove", 18, 16, 0, 2), ("Palm Tree", "Sea Breeze", 18, 14, 4, 0),
        ("Calypso", "Steel Pan", 17, 18, 2, 2), ("Carnival", "Pitch Lake", 18, 15, 1, 1),
        ("Hummingbird", "Scarlet Ibis", 10, 18, 0, 3)],
    2: [("Red House", "Green Lantern", 18, 13, 3, 0),  # entered table by table: TABLES
        ("Gold Cup", "Blue Dollar", 18, 15, 2, 2), ("Silver Star", "Bamboo Bar", 18, 11, 1, 0),
        ("Coconut Grove", "Sea Breeze", 18, 17, 3, 1), ("Steel Pan", "Tobago Tiger", 12, 18, 0, 2),
        ("Pitch Lake", "Calypso", 18, 11, 2, 1), ("Scarlet Ibis", "Hummingbird", 18, 16, 1, 1)],
    3: [("Blue Dollar", "Green Lantern", 18, 14, 1, 2), ("Red House", "Gold Cup", 16, 18, 2, 1),
        ("Silver Star", "Palm Tree", 18, 16, 0, 1), ("Bamboo Bar", "Sea Breeze", 14, 18, 1, 0),
        ("Coconut Grove", "Calypso", 18, 13, 2, 3), ("Steel Pan", "Carnival", 18, 11, 1, 0),
        ("Pitch Lake", "Hummingbird", 11, 18, 1, 2), ("Scarlet Ibis", "Tobago Tiger", 18, 17, 2, 2)],
}
TABLES = [(1, 7, 4, 1, 0), (2, 6, 5, 2, 0), (3, 5, 4, 0, 0)]  # Red House v Green Lantern: 18–13, hang jacks 3–0
BYE_ROUNDS = {1: ("Gold Cup", "Tobago Tiger"), 2: ("Palm Tree", "Carnival")}
ROUND_4 = [("Gold Cup", "Green Lantern"), ("Blue Dollar", "Red House"), ("Palm Tree", "Bamboo Bar"),
           ("Coconut Grove", "Silver Star"), ("Carnival", "Calypso"), ("Sea Breeze", "Steel Pan"),
           ("Tobago Tiger", "Pitch Lake"), ("Hummingbird", "Scarlet Ibis")]

# Each bye team's two played matches and what its bye credits (18; bullseyes against, hang jacks for and
# against: the sum over the two played matches halved, rounded down):
BYES = {
    "Gold Cup": {"against": 15 + 16, "hj_for": 2 + 1, "hj_against": 2 + 2, "credit": (18, 15, 1, 2)},
    "Tobago Tiger": {"against": 12 + 18, "hj_for": 2 + 2, "hj_against": 0 + 2, "credit": (18, 15, 2, 1)},
    "Palm Tree": {"against": 14 + 18, "hj_for": 4 + 1, "hj_against": 0 + 0, "credit": (18, 16, 2, 0)},
    "Carnival": {"against": 15 + 18, "hj_for": 1 + 0, "hj_against": 1 + 1, "credit": (18, 16, 0, 1)},
}

# Worked out by hand from RESULTS and BYES: (team, played, won, lost, bullseyes for, against, hang jacks for,
# against, byes), in each division's order. Ties: Palm Tree and Coconut Grove level on 52, 48 and 7, Palm Tree
# ahead on fewest hang jacks against (0 to 4); Pitch Lake and Hummingbird level on 44 and 47, Pitch Lake ahead on
# hang jacks for (4 to 3).
BY_DIVISION = {
    "North": [("Gold Cup", 3, 3, 0, 54, 46, 4, 6, 1), ("Blue Dollar", 3, 2, 1, 51, 44, 5, 5, 0),
              ("Red House", 3, 1, 2, 46, 49, 6, 3, 0), ("Green Lantern", 3, 0, 3, 42, 54, 3, 7, 0)],
    "South": [("Silver Star", 3, 3, 0, 54, 42, 4, 2, 0), ("Palm Tree", 3, 2, 1, 52, 48, 7, 0, 1),
              ("Coconut Grove", 3, 2, 1, 52, 48, 7, 4, 0), ("Bamboo Bar", 3, 1, 2, 43, 52, 1, 3, 0)],
    "East": [("Sea Breeze", 3, 1, 2, 49, 50, 1, 8, 0), ("Steel Pan", 3, 2, 1, 48, 46, 3, 4, 0),
             ("Carnival", 3, 2, 1, 47, 49, 1, 3, 1), ("Calypso", 3, 0, 3, 41, 54, 6, 6, 0)],
    "West": [("Scarlet Ibis", 3, 3, 0, 54, 43, 6, 3, 0), ("Tobago Tiger", 3, 2, 1, 53, 45, 6, 3, 1),
             ("Pitch Lake", 3, 1, 2, 44, 47, 4, 4, 0), ("Hummingbird", 3, 1, 2, 44, 47, 3, 5, 0)],
}
OVERALL = ["Silver Star", "Scarlet Ibis", "Gold Cup", "Tobago Tiger", "Palm Tree", "Coconut Grove", "Blue Dollar",
           "Sea Breeze", "Steel Pan", "Carnival", "Red House", "Pitch Lake", "Hummingbird", "Bamboo Bar",
           "Green Lantern", "Calypso"]


def text(rows: list[list]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue()


def club_files() -> dict[str, str]:
    """The club's spreadsheets as CSV: players, partnerships, teams (three pairs each, with their division), the
    fixture list (dates, venues, byes) and the results."""
    teams = [(division, team) for division, names in DIVISIONS.items() for team in names]
    players = [["name"]] + [[f"{team} Player {n}"] for _, team in teams for n in range(1, 7)]
    pairs = [["player_one", "player_two", "name"]] + [
        [f"{team} Player {2 * n - 1}", f"{team} Player {2 * n}", f"{team} {n}"] for _, team in teams
        for n in (1, 2, 3)]
    team_rows = [["team", "partnership", "division"]] + [[team, f"{team} {n}", division] for division, team in teams
                                                          for n in (1, 2, 3)]
    fixtures = [["Week", "Date", "Venue", "Home Team", "Away Team", "Bullseyes Home", "Bullseyes Away"]]
    for number, matches in [*RESULTS.items(), (4, [(a, b, 0, 0, 0, 0) for a, b in ROUND_4])]:
        fixtures += [[number, DATES[number], f"{home} Bar", home, away, "", ""] for home, away, *_ in matches]
        fixtures += [[number, DATES[number], "", team, "BYE", "", ""] for team in BYE_ROUNDS.get(number, ())]
    results = [["round", "team_a", "team_b", "table", "team_a_pair", "team_b_pair", "games_a", "games_b",
                "hang_jacks_a", "hang_jacks_b"]]
    for number, matches in RESULTS.items():
        for home, away, *scores in matches:
            if (home, away) == ("Red House", "Green Lantern"):
                results += [[number, home, away, table, f"{home} {table}", f"{away} {table}", *figures]
                            for table, *figures in TABLES]
            else:
                results.append([number, home, away, "", "", "", *scores])
    return {"players": text(players), "partnerships": text(pairs), "teams": text(team_rows),
            "fixtures": text(fixtures), "results": text(results)}


def new_season(club: Club) -> Competition:
    return create_competition(
        club=club, name="Inter-Bar League", slug="inter-bar", season="2025", published=True,
        entrant_kind=Competition.TEAMS, system=Competition.MANUAL, team_tables=3, team_mode=Competition.TEAM_RACE,
        team_target=18, division_ranking="division",
        tiebreaks=["bullseyes_for", "bullseyes_against", "hang_jacks_for", "hang_jacks_against"],
        bye_policy=Competition.BYE_FIXED,
        bye_score={"bullseyes_for": "target", "bullseyes_against": "average_down", "hang_jacks_for": "average_down",
                   "hang_jacks_against": "average_down"})


KINDS = {"fixtures": "results"}  # the fixture list is a results file with no scores yet


def load(club: Club, competition: Competition, file: str, data: str, capture) -> dict:
    kind = KINDS.get(file, file)
    with capture(execute=True):  # the settle and standings tasks run after the import commits, as in production
        report = csv_io.import_csv(club=club, kind=kind, data=data,
                                   competition=competition if kind in ("teams", "results") else None)
    assert report.ok, (kind, report.errors)
    return report.created


def table_of(competition: Competition) -> dict[str, list[tuple]]:
    rows = (StandingRow.objects.filter(competition=competition, section="").select_related("team")
            .order_by("division", "rank"))
    out: dict[str, list[tuple]] = {}
    for row in rows:
        out.setdefault(row.division, []).append((row.rank, row.team.name, row.played, row.won, row.lost,
                                                 row.bullseyes_for, row.bullseyes_against, row.hang_jacks_for,
                                                 row.hang_jacks_against, row.byes, row.chalks_for))
    return out


def expected_by_division() -> dict[str, list[tuple]]:
    return {division: [(rank, *line[:8], line[8], None) for rank, line in enumerate(lines, start=1)]
            for division, lines in BY_DIVISION.items()}


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    club = create_club(name="Inter-Bar Club", slug="inter-bar-club")
    competition = new_season(club)
    files = club_files()
    created = {kind: load(club, competition, kind, files[kind], django_capture_on_commit_callbacks)
               for kind in ("players", "partnerships", "teams", "fixtures", "results")}
    return {"club": club, "competition": competition, "files": files, "created": created}


def test_the_byes_credits_are_the_averages_of_the_played_matches_rounded_down():
    for figures in BYES.values():
        assert figures["credit"] == (18, figures["against"] // 2, figures["hj_for"] // 2, figures["hj_against"] // 2)


def test_a_sixteen_team_season_from_csv_ranks_every_row_as_the_club_does(season):
    created = season["created"]
    assert created["teams"]["teams"] == 16 and created["fixtures"] == {"rounds": 4, "team matches": 30, "byes": 4}
    assert created["results"] == {"results": 22, "table results": 3}  # one team match entered table by table
    table = table_of(season["competition"])
    assert list(table) == ["East", "North", "South", "West"]
    assert table == expected_by_division()


def test_the_same_season_ranked_overall_keeps_its_divisions(season, django_capture_on_commit_callbacks):
    from standings.services import refresh_standings

    competition = season["competition"]
    Competition.objects.filter(pk=competition.pk).update(division_ranking="overall")
    refresh_standings(competition.pk)
    rows = StandingRow.objects.filter(competition=competition, section="").select_related("team").order_by("rank")
    assert [(row.rank, row.team.name) for row in rows] == list(enumerate(OVERALL, start=1))
    assert {row.team.name: row.division for row in rows}["Palm Tree"] == "South"


def test_the_export_imported_into_an_emptied_database_gives_the_same_table(season, django_capture_on_commit_callbacks):
    competition = season["competition"]
    standings_before, results_export = csv_io.export_standings(competition), csv_io.export_results(competition)
    table_before = table_of(competition)
    assert "\r\nbye," not in results_export and ",bye," in results_export  # the byes travel in the results file
    club_name = season["club"].name
    Match.objects.all().delete()  # protected by the competition and the sides: cleared in order
    TeamMatch.objects.all().delete()
    Competition.objects.all().delete()
    Partnership.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    assert not StandingRow.objects.exists()

    club = create_club(name=club_name, slug="inter-bar-club")
    again = new_season(club)
    files = season["files"]
    for kind in ("players", "partnerships", "teams"):
        load(club, again, kind, files[kind], django_capture_on_commit_callbacks)
    load(club, again, "results", results_export.removeprefix("\ufeff"), django_capture_on_commit_callbacks)
    assert table_of(again) == table_before == expected_by_division()
    assert csv_io.export_standings(again) == standings_before
    assert csv_io.export_results(again) == results_export
