"""CSV import and export (``importer.csv_io``, its pages and its commands).

A club moves over from its spreadsheet in order — players, partnerships, teams or entries, results — and
each file is checked whole before anything is stored: every bad row is reported by line (the header is line
1) and column, and a file with any error stores nothing. Results go through ``games.services``, so a score
the match format does not allow is refused as on the entry page. Exported results import into another
competition with the same results.

The sample files are in ``tests/importer/fixtures_csv/``. Settling runs on commit (``import_csv`` commits once):
``imported`` runs the captured callbacks as a real commit would.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError
from django.urls import reverse

from draw.models import Round
from games import services
from games.models import Game, Match
from importer import csv_io
from league.models import Competition, Entry, Partnership, Player, Team
from standings.models import StandingRow
from tests.factories import enter, make_club, make_competition, make_organiser, make_user

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent / "fixtures_csv"
PAIRS = ["Hang Jack Kings", "Bamboo Bullseye", "Sharon Charles & Dexter Mohammed", "Sweet Hand"]


def sample(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count()
            for model in (Player, Partnership, Team, Entry, Round, Match, Game, StandingRow)}


@pytest.fixture
def imported(django_capture_on_commit_callbacks):
    """``import_csv`` with the on-commit settle tasks run, as after a real commit."""

    def run(**kwargs) -> csv_io.ImportReport:
        with django_capture_on_commit_callbacks(execute=True):
            return csv_io.import_csv(**kwargs)

    return run


@pytest.fixture
def club():
    club = make_club("Bamboo Corner Bar")
    club.organiser = make_organiser(club, make_user("olive"))
    return club


@pytest.fixture
def league(club):
    """A published best-of-3 league of the club (pairs); nobody entered yet."""
    return Competition.objects.create(club=club, name="Season League", slug="season-league", published=True,
                                      match_format=Competition.BEST_OF, match_games=3)


@pytest.fixture
def pairs(club, imported):
    """The club's players and partnerships, imported from the sample files."""
    assert imported(club=club, kind="players", data=sample("players.csv")).ok
    assert imported(club=club, kind="partnerships", data=sample("partnerships.csv")).ok
    return {p.display_name: p for p in Partnership.objects.filter(club=club)}


@pytest.fixture
def entered(league, pairs, imported):
    assert imported(club=league.club, kind="entries", data=sample("entries.csv"), competition=league).ok
    return pairs


# ----------------------------------------------------------------------------- each kind
def test_players_import_with_nicknames_and_the_importing_club(club, imported):
    other = make_club("Pelican Sports Club")
    data = sample("players.csv") + f"Trevor Ali,Jack Man,{other.name}\r\n".encode()
    report = imported(club=club, kind="players", data=data)
    assert report.ok, report.errors
    assert report.created == {"players": 9}
    assert report.summary() == ["9 players created"]
    assert Player.objects.filter(home_club=club).count() == 8
    assert Player.objects.get(name="Anthony Joseph").nickname == "Tony Pan"
    assert Player.objects.get(name="Trevor Ali").home_club == other
    # on the page, another club's players are for that club's organisers
    report = imported(club=club, kind="players", data=f"name,club\r\nHayden Noel,{other.slug}\r\n",
                      user=club.organiser)
    assert [(e["line"], e["column"]) for e in report.errors] == [(2, "club")]
    assert "only organisers of Pelican Sports Club" in report.errors[0]["reason"]


def test_header_synonyms_never_clash_within_a_kind():
    for name, (_, columns) in [*csv_io.TEMPLATES.items(), ("results, as exported", (None, csv_io.MATCH_COLUMNS))]:
        seen: dict[str, str] = {}
        for column in columns:
            for header in column.names():
                assert seen.setdefault(header, column.key) == column.key, (name, header)
    assert csv_io.normalise(" Bullseyes (Home) ") == "bullseyes home"


def test_partnerships_by_name_nickname_and_name_with_nickname(club, pairs):
    assert sorted(pairs) == sorted(PAIRS)
    bamboo = pairs["Bamboo Bullseye"]
    assert (bamboo.player_one.name, bamboo.player_two.name) == ("Anthony Joseph", "Marlon Baptiste")
    assert pairs["Sharon Charles & Dexter Mohammed"].name == ""
    assert all(p.club == club for p in pairs.values())


def test_entries_by_partnership_name_or_players_in_any_order(league, entered):
    entries = {e.partnership.display_name: e for e in Entry.objects.filter(competition=league)}
    assert sorted(entries) == sorted(PAIRS)
    assert entries["Sharon Charles & Dexter Mohammed"].seed == 3
    assert entries["Hang Jack Kings"].seed == 1


def test_teams_with_their_pairs_and_entries(club, pairs, imported):
    cup = Competition.objects.create(club=club, name="Team Cup", slug="team-cup", entrant_kind=Competition.TEAMS)
    report = imported(club=club, kind="teams", data=sample("teams.csv"))
    assert report.ok, report.errors
    assert report.created == {"teams": 2, "team places": 4}
    assert report.summary() == ["2 teams created", "4 pairs placed in teams"]
    team_a = Team.objects.get(competition=cup, name="Bamboo A")
    assert {p.display_name for p in team_a.partnerships.all()} == {"Hang Jack Kings", "Bamboo Bullseye"}
    assert team_a.club == club
    assert Entry.objects.filter(competition=cup, team__isnull=False).count() == 2


def test_teams_refuse_a_pair_in_two_teams_and_a_competition_of_pairs(club, pairs, league, imported):
    Competition.objects.create(club=club, name="Team Cup", slug="team-cup", entrant_kind=Competition.TEAMS)
    data = (b"competition,team,partnership\r\nteam-cup,Bamboo A,Hang Jack Kings\r\n"
            b"team-cup,Bamboo B,Ravi Ramdass & Kwame Alexander\r\nseason-league,Bamboo C,Sweet Hand\r\n")
    before = counts()
    report = imported(club=club, kind="teams", data=data)
    assert [(e["line"], e["column"]) for e in report.sorted_errors()] == [(3, "partnership"), (4, "competition")]
    assert report.errors[0]["reason"] == "Hang Jack Kings already plays for Bamboo A (on line 2)"  # the service's
    assert counts() == before


def test_results_at_match_level_with_spreadsheet_headers(league, entered, imported):
    report = imported(club=league.club, kind="results", data=sample("results_match.csv"), competition=league,
                      user=league.club.organiser)
    assert report.ok, report.errors
    assert report.level == "match"
    assert report.created == {"rounds": 2, "matches": 3, "results": 2}
    assert report.ignored_columns == ["Notes"]
    first = Match.objects.get(side_a_name="Hang Jack Kings", round__number=1)
    assert (first.games_a, first.games_b, first.winner, first.status) == (2, 1, "a", Match.COMPLETE)
    assert (first.chalks_a, first.chalks_b, first.chalks_known) == (38, 30, True)
    assert (first.hang_jacks_a, first.hang_jacks_b, first.result_level, first.table) == (1, 0, "match", "1")
    second = Match.objects.get(side_b_name="Sweet Hand", round__number=1)
    assert (second.games_a, second.games_b, second.winner, second.chalks_known) == (0, 2, "b", False)
    fixture = Match.objects.get(round__number=2)
    assert fixture.status == Match.SCHEDULED
    assert str(Round.objects.get(competition=league, number=2).starts_on) == "2025-05-10"
    standings = {row.partnership.display_name: row for row in StandingRow.objects.filter(competition=league)}
    assert standings["Hang Jack Kings"].bullseyes_for == 2
    assert standings["Sweet Hand"].won == 1


def test_results_game_by_game(league, entered, imported):
    report = imported(club=league.club, kind="results", data=sample("results_games.csv"), competition=league)
    assert report.ok, report.errors
    assert report.level == "game"
    assert report.created == {"rounds": 1, "matches": 2, "games": 5, "results": 2}
    match = Match.objects.get(side_a_name="Hang Jack Kings")
    assert (match.games_a, match.games_b, match.winner, match.result_level) == (2, 1, "a", "game")
    assert list(match.games.order_by("number").values_list("winner", "score_a", "score_b")) == [
        ("a", 14, 9), ("b", 11, 14), ("a", 14, 12)]
    assert (match.hang_jacks_a, match.hang_jacks_b, match.chalks_a, match.chalks_b) == (1, 1, 39, 35)
    other = Match.objects.get(side_b_name="Sweet Hand")
    assert (other.games_a, other.games_b, other.chalks_known) == (0, 2, False)


def test_results_game_by_game_with_a_match_key(league, entered, imported):
    data = ("match,side_a,side_b,game,winner\r\nM1,Hang Jack Kings,Sweet Hand,1,Sweet Hand\r\nM1,,,2,B\r\n"
            "M2,Bamboo Bullseye,Sweet Hand,1,A\r\nM2,,,2,A\r\n")
    report = imported(club=league.club, kind="results", data=data, competition=league)
    assert report.ok, report.errors
    assert sorted(Match.objects.values_list("side_a_name", "games_a", "games_b")) == [
        ("Bamboo Bullseye", 2, 0), ("Hang Jack Kings", 0, 2)]


def test_results_that_fill_fixtures_already_paired(league, entered, imported):
    round_one = Round.objects.create(competition=league, number=1)
    fixture = services.create_match(competition=league, side_a=entered["Hang Jack Kings"],
                                    side_b=entered["Bamboo Bullseye"], round=round_one)
    data = "round,side_a,side_b,games_a,games_b\r\n1,Hang Jack Kings,Bamboo Bullseye,0,2\r\n"
    report = imported(club=league.club, kind="results", data=data, competition=league)
    assert report.ok, report.errors
    assert report.created == {"results": 1}
    fixture.refresh_from_db()
    assert (fixture.games_a, fixture.games_b, fixture.winner) == (0, 2, "b")
    again = imported(club=league.club, kind="results", data=data, competition=league)
    assert [(e["line"], e["column"]) for e in again.errors] == [(2, "side_a")]
    assert "in round 1 already has a result (0–2)" in again.errors[0]["reason"]


def test_exported_unfinished_matches_and_forfeits_come_back_as_such(league, entered, imported):
    data = ("round,side_a,side_b,games_a,games_b,outcome,status\r\n"
            "1,Hang Jack Kings,Sweet Hand,1,0,played,in_progress\r\n"
            "1,Bamboo Bullseye,Sharon Charles & Dexter Mohammed,0,0,Side A forfeited (no-show),complete\r\n"
            "2,Bamboo Bullseye,Sweet Hand,,,walkover,\r\n")
    report = imported(club=league.club, kind="results", data=data, competition=league)
    assert [(e["line"], e["column"]) for e in report.errors] == [(4, "outcome")]
    assert "must be one of played" in report.errors[0]["reason"] and "got 'walkover'" in report.errors[0]["reason"]
    report = imported(club=league.club, kind="results", data=data.rsplit("2,", 1)[0], competition=league)
    assert report.ok, report.errors
    [note] = report.notes
    assert note.startswith("Line 2: ") and "imported as a fixture without its unfinished score (1–0)" in note
    unfinished, no_show = Match.objects.order_by("id")
    assert (unfinished.status, unfinished.games_a) == (Match.SCHEDULED, 0)
    assert (no_show.outcome, no_show.winner, no_show.status) == (Match.FORFEIT_A, "b", Match.COMPLETE)


def test_results_without_rounds_are_told_apart_by_date(league, entered, imported):
    data = ("date,side_a,side_b,games_a,games_b\r\n03/05/2025,Hang Jack Kings,Sweet Hand,2,0\r\n"
            "3 May 2025,Sweet Hand,Hang Jack Kings,2,1\r\n10/05/2025,Sweet Hand,Hang Jack Kings,2,1\r\n")
    report = imported(club=league.club, kind="results", data=data, competition=league)
    assert [(e["line"], e["column"]) for e in report.errors] == [(3, "side_a")]
    assert "on 03/05/2025 is already on line 2" in report.errors[0]["reason"]
    assert imported(club=league.club, kind="results", data=data.replace("3 May 2025", "04/05/2025"),
                    competition=league).ok
    assert sorted(str(m.scheduled_at.date()) for m in Match.objects.all()) == ["2025-05-03", "2025-05-04",
                                                                               "2025-05-10"]
    again = imported(club=league.club, kind="results", data=data.splitlines()[0] + "\r\n" + data.splitlines()[3],
                     competition=league)
    assert "on 10/05/2025 already has a result (2–1)" in again.errors[0]["reason"]


# ----------------------------------------------------------------------------- bad files store nothing
def test_bad_results_report_every_row_by_line_and_column_and_store_nothing(league, entered, imported):
    before = counts()
    report = imported(club=league.club, kind="results", data=sample("results_bad.csv"), competition=league)
    assert [(e["line"], e["column"]) for e in report.sorted_errors()] == [
        (3, "date"), (3, "side_b"), (4, "side_a"), (5, "games_a"), (6, "games_a"), (7, "side_b")]
    reasons = {(e["line"], e["column"]): e["reason"] for e in report.errors}
    assert reasons[(3, "date")].startswith("is not a date: '31/02/2025'")
    assert reasons[(3, "side_b")] == "no partnership 'Nobody Here' entered in Season League"
    assert "in round 1 is already on line 2" in reasons[(4, "side_a")]
    assert "3–1 is not a result of best of 3 games" in reasons[(5, "games_a")]  # from games.services
    assert reasons[(6, "games_a")] == "must be a whole number, got 'two'"
    assert reasons[(7, "side_b")] == "a side cannot play itself"
    assert report.created == {}
    assert counts() == before  # the good rows (line 2) were rolled back too


def test_bad_players_report_each_row_and_store_nothing(club, pairs, imported):
    long_name = "X" * 121
    data = (f"name,nickname,club\r\nRavi Ramdass,Doubles,\r\n,No Name,\r\nAnn Marie,AM,Nowhere Club\r\n"
            f"Ann Marie,,\r\n\r\nann  marie,Again,\r\n{long_name},,\r\nKeisha Noel,,\r\n")
    before = counts()
    report = imported(club=club, kind="players", data=data)
    refused = report.sorted_errors()
    assert [(e["line"], e["column"]) for e in refused] == [(2, "name"), (3, "name"), (4, "club"), (7, "name"),
                                                           (8, "name")]
    assert "already has a player called 'Ravi Ramdass'" in refused[0]["reason"]
    assert [e["reason"] for e in refused[1:]] == [
        "the player's name is required",
        "no club 'Nowhere Club'",
        "'ann  marie' is already on line 5",  # the blank line 6 counts
        "is 121 characters long; at most 120",
    ]
    assert report.error_lines()[0].startswith("line 2, column name: ")
    assert "already has a player called 'Ravi Ramdass'" in report.error_lines()[0]
    assert counts() == before


def test_bad_partnerships_and_entries(league, pairs, imported):
    club = league.club
    data = ("player_one,player_two,name\r\nRavi Ramdass,Ravi Ramdass,\r\nNobody,Kwame Alexander,\r\n"
            "Kwame Alexander,Ravi Ramdass,Again\r\nRavi Ramdass,Sharon Charles,Sweet Hand\r\n")
    report = imported(club=club, kind="partnerships", data=data)
    assert [(e["line"], e["column"]) for e in report.sorted_errors()] == [
        (2, "player_two"), (3, "player_one"), (4, "player_one"), (5, "name")]
    assert "no player 'Nobody' of Bamboo Corner Bar" in report.errors[1]["reason"]
    entries = "partnership,seed\r\nSweet Hand,1\r\nSweet Hand,2\r\nNo Such Pair,3\r\nHang Jack Kings,first\r\n"
    report = imported(club=club, kind="entries", data=entries, competition=league)
    assert [(e["line"], e["column"]) for e in report.sorted_errors()] == [
        (3, "partnership"), (4, "partnership"), (5, "seed")]
    assert not Entry.objects.filter(competition=league).exists()


def test_missing_and_doubled_columns_are_errors_of_the_header(league, entered, imported):
    report = imported(club=league.club, kind="results", competition=league,
                      data="Home,Sid B,Games A,Games B,Bullseyes A\r\nSweet Hand,Hang Jack Kings,2,0,2\r\n")
    refused = report.sorted_errors()
    assert [(e["line"], e["column"]) for e in refused] == [(1, "side_b"), (1, "games_a")]
    assert "no side_b column" in refused[0]["reason"] and "not recognised: 'Sid B'" in refused[0]["reason"]
    assert refused[1]["reason"] == "two columns hold games_a: 'Games A' and 'Bullseyes A'"
    assert not Match.objects.exists()


def test_a_workbook_or_an_empty_file_is_refused_whole(club):
    report = csv_io.import_csv(club=club, kind="players", data=b"PK\x03\x04rest-of-a-zip")
    assert report.errors[0]["line"] == 1 and "Excel workbook" in report.errors[0]["reason"]
    assert csv_io.import_csv(club=club, kind="players", data=b"\r\n\r\n").errors[0]["reason"].startswith(
        "the file is empty")


def test_a_comma_inside_an_unquoted_name_is_reported(club):
    report = csv_io.import_csv(club=club, kind="players", data="name,nickname\r\nBaptiste, Marlon,Bap\r\n")
    assert [(e["line"], e["column"]) for e in report.errors] == [(2, "")]
    assert "3 cells where the header has 2" in report.errors[0]["reason"]
    assert "a comma inside a name" in report.errors[0]["reason"]


# ----------------------------------------------------------------------------- encodings and delimiters
def test_excel_semicolons_with_a_byte_order_mark(club):
    data = sample("players_excel_semicolon_bom.csv")
    assert data.startswith(b"\xef\xbb\xbf")
    report = csv_io.import_csv(club=club, kind="players", data=data)
    assert report.ok, report.errors
    assert sorted(Player.objects.values_list("name", "nickname")) == [
        ("Baptiste; Marlon Jr", "Junior"), ("José Ramírez", "Pepe"), ("Khadija Ali-Hosein", "Dija")]
    assert report.headers == {"name": "Name", "nickname": "Nick Name", "club": "Club"}  # no BOM in the first header


def test_utf8_without_bom_windows_1252_and_excels_sep_line(club):
    assert csv_io.import_csv(club=club, kind="players", data="name\nJosé Ramírez\n".encode()).ok
    windows = "name;nickname\r\nRenée Joseph;Ren\r\n".encode("cp1252")
    refused = csv_io.import_csv(club=club, kind="players", data=windows)  # not guessed: declared
    assert not refused.ok and "the file is not UTF-8" in refused.errors[0]["reason"]
    report = csv_io.import_csv(club=club, kind="players", data=windows, encoding="cp1252")
    assert report.ok and "Windows-1252" in report.notes[0]
    report = csv_io.import_csv(club=club, kind="players", data=b"sep=;\r\nname;nickname\r\n;Nobody\r\n")
    assert report.errors == [{"line": 2, "column": "name", "reason": "the player's name is required"}]
    assert set(Player.objects.values_list("name", flat=True)) == {"José Ramírez", "Renée Joseph"}


# ----------------------------------------------------------------------------- export
def _standing(competition, partnership, **fields):
    return StandingRow.objects.create(competition=competition, partnership=partnership, **fields)


def test_standings_csv_columns_tiebreak_metrics_and_marks(client, league, entered):
    league.tiebreaks = ["wins", "head_to_head", "buchholz", "bullseye_difference"]
    league.save()
    StandingRow.objects.filter(competition=league).delete()  # the entries' import refreshed them: made by hand here
    _standing(league, entered["Hang Jack Kings"], rank=1, played=2, won=2, match_points=4, bullseyes_for=4,
              bullseyes_against=1, chalks_for=70, chalks_against=41, hang_jacks_for=2,
              metrics={"head_to_head": 1, "buchholz": 2.5}, coarse=True)
    _standing(league, entered["Sweet Hand"], rank=2, played=2, lost=2, bullseyes_against=4, bullseyes_for=1,
              withdrawn=True, metrics={"buchholz": 4.0})
    response = client.get(reverse("competition_standings_csv", args=[league.club.slug, league.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{league.club.slug}-season-league-standings.csv"'
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    header, first, second = rows_of(text)
    assert header == ["rank", "entrant", "played", "won", "drawn", "lost", "match_points", "bullseyes_for",
                      "bullseyes_against", "bullseye_difference", "chalks_for", "chalks_against", "chalk_difference",
                      "hang_jacks_for", "hang_jacks_against", "byes", "head_to_head", "buchholz", "withdrawn",
                      "coarse"]
    assert first == ["1", "Hang Jack Kings", "2", "2", "0", "0", "4", "4", "1", "3", "70", "41", "29", "2", "0", "0",
                     "1", "2.5", "no", "yes"]
    assert second[:2] == ["2", "Sweet Hand"] and second[9] == "-3" and second[-4:] == ["", "4", "yes", "no"]


def test_results_csv_rows_and_draft_permissions(client, league, entered, imported):
    assert imported(club=league.club, kind="results", data=sample("results_match.csv"), competition=league).ok
    url = reverse("competition_results_csv", args=[league.club.slug, league.slug])
    response = client.get(url)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].endswith(f'filename="{league.club.slug}-season-league-results.csv"')
    table = rows_of(response.content.decode())
    assert table[0] == list(csv_io.RESULTS_COLUMNS)
    assert table[1:] == [
        ["1", "2025-05-03", "1", "Hang Jack Kings", "Bamboo Bullseye", "2", "1", "38", "30", "1", "0", "match",
         "played", "complete", "Hang Jack Kings"],
        ["1", "2025-05-03", "2", "Sharon Charles & Dexter Mohammed", "Sweet Hand", "0", "2", "", "", "0", "2",
         "match", "played", "complete", "Sweet Hand"],
        ["2", "2025-05-10", "1", "Hang Jack Kings", "Sweet Hand", "", "", "", "", "", "", "hand", "played",
         "scheduled", ""],
    ]
    league.published = False
    league.save()
    standings = reverse("competition_standings_csv", args=[league.club.slug, league.slug])
    assert client.get(url).status_code == 404
    assert client.get(standings).status_code == 404
    client.force_login(make_user("nosy"))
    assert client.get(url).status_code == 404
    client.force_login(league.club.organiser)
    assert client.get(url).status_code == 200
    assert client.get(standings).status_code == 200


def test_exported_results_import_into_a_new_competition_with_the_same_results(league, entered, imported,
                                                                              django_capture_on_commit_callbacks):
    hjk, bamboo, sharon, sweet = (entered[name] for name in PAIRS)
    with django_capture_on_commit_callbacks(execute=True):
        round_one = Round.objects.create(competition=league, number=1, starts_on="2025-05-03")
        round_two = Round.objects.create(competition=league, number=2, starts_on="2025-05-10")
        round_three = Round.objects.create(competition=league, number=3)
        totals = services.create_match(competition=league, side_a=hjk, side_b=bamboo, round=round_one, table="1")
        services.record_match_totals(totals, games_a=2, games_b=1, hang_jacks_a=1, chalks_a=38, chalks_b=30)
        by_game = services.create_match(competition=league, side_a=sharon, side_b=sweet, round=round_one, table="2")
        services.enter_game_result(by_game, number=1, winner="b", hang_jacks_b=1, score_a=6, score_b=14)
        services.enter_game_result(by_game, number=2, winner="a", score_a=14, score_b=13)
        services.enter_game_result(by_game, number=3, winner="b", score_a=9, score_b=14)
        no_show = services.create_match(competition=league, side_a=hjk, side_b=sharon, round=round_two)
        services.record_forfeit(no_show, outcome=Match.FORFEIT_B)
        services.create_match(competition=league, side_a=bamboo, side_b=sweet, round=round_two)
        late = services.create_match(competition=league, side_a=sweet, side_b=hjk, round=round_three,
                                     scheduled_at="2025-05-17T20:00:00-04:00")
        services.record_match_totals(late, games_a=0, games_b=2, hang_jacks_b=2)
    exported = csv_io.export_results(league)

    rematch = Competition.objects.create(club=league.club, name="Replay", slug="replay", match_format="best_of",
                                         match_games=3)
    for partnership in (hjk, bamboo, sharon, sweet):
        enter(rematch, partnership)
    report = imported(club=league.club, kind="results", data=exported.encode("utf-8-sig"), competition=rematch)
    assert report.ok, report.errors
    assert report.created == {"rounds": 3, "matches": 5, "results": 3, "forfeits": 1}

    def without_level(text: str) -> list[list[str]]:
        level = csv_io.RESULTS_COLUMNS.index("level")
        return [row[:level] + row[level + 1:] for row in rows_of(text)]

    assert without_level(csv_io.export_results(rematch)) == without_level(exported)
    assert len(rows_of(exported)) == 6
    replayed = Match.objects.get(competition=rematch, side_a=sharon)
    assert (replayed.games_a, replayed.games_b, replayed.chalks_a, replayed.chalks_b, replayed.hang_jacks_b) == \
        (1, 2, 29, 41, 1)


def test_templates_are_the_import_headers(client, club):
    response = client.get(reverse("club_import_template", args=[club.slug, "results-games"]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert rows_of(response.content.decode()) == [
        ["match", "round", "date", "table", "side_a", "side_b", "game", "winner", "hang_jacks_a", "hang_jacks_b",
         "score_a", "score_b"]]
    for name in csv_io.TEMPLATES:  # an empty template is a file with nothing to import, not an error
        report = csv_io.import_csv(club=club, kind=csv_io.TEMPLATES[name][0], data=csv_io.template_csv(name),
                                   competition=make_competition(club=club))
        assert report.ok and report.rows == 0, (name, report.errors)
    assert client.get(f"/clubs/{club.slug}/import/nothing.csv").status_code == 404


# ----------------------------------------------------------------------------- the import page
def test_import_page_is_for_the_clubs_organisers(client, club):
    url = reverse("club_import", args=[club.slug])
    upload = io.BytesIO(sample("players.csv"))
    upload.name = "players.csv"
    response = client.post(url, {"kind": "players", "file": upload})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.get(url).status_code == 302
    other_club_organiser = make_organiser(make_club())
    for user in (make_user("player"), other_club_organiser):
        client.force_login(user)
        upload.seek(0)
        assert client.post(url, {"kind": "players", "file": upload}).status_code == 403
        assert client.get(url).status_code == 403
    assert not Player.objects.exists()
    client.force_login(club.organiser)
    page = client.get(url).content.decode()
    for name in csv_io.TEMPLATES:
        assert reverse("club_import_template", args=[club.slug, name]) in page


def test_import_page_lists_errors_by_line_and_column_then_imports(client, league, entered):
    client.force_login(league.club.organiser)
    url = reverse("club_import", args=[league.club.slug])
    upload = io.BytesIO(sample("results_bad.csv"))
    upload.name = "results.csv"
    response = client.post(url, {"kind": "results", "competition": league.pk, "file": upload})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Nothing was stored: 6 problems in the file" in page
    assert "<td class=\"num\">7</td>" in page and "a side cannot play itself" in page and "<td>D7</td>" in page
    assert not Match.objects.exists()

    upload = io.BytesIO(sample("results_games.csv"))
    upload.name = "results.csv"
    response = client.post(url, {"kind": "results", "competition": league.pk, "file": upload})
    assert response.status_code == 200
    assert "5 games entered" in response.content.decode()
    assert Match.objects.filter(competition=league).count() == 2


def test_import_page_asks_for_the_competition_of_results(client, club):
    client.force_login(club.organiser)
    upload = io.BytesIO(b"side_a,side_b,games_a,games_b\r\n")
    upload.name = "results.csv"
    response = client.post(reverse("club_import", args=[club.slug]), {"kind": "results", "file": upload})
    assert response.status_code == 422
    assert "Choose the competition the results belong to." in response.content.decode()


# ----------------------------------------------------------------------------- the commands
@pytest.fixture
def keep_connection(monkeypatch):
    """``manage.py`` closes the database connections when a command ends (``run_from_argv``); inside a test's
    transaction on PostgreSQL that would drop the test's own connection."""
    monkeypatch.setattr("django.core.management.base.connections.close_all", lambda: None)


def test_import_command_prints_each_error_and_exits_2(league, entered, capsys, keep_connection):
    before = counts()
    with pytest.raises(SystemExit) as exit_:
        execute_from_command_line(["manage.py", "import_csv", "--club", league.club.slug, "--kind", "results",
                                   "--competition", league.slug, str(FIXTURES / "results_bad.csv")])
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [
        "line 3, column date", "line 3, column side_b", "line 4, column side_a", "line 5, column games_a",
        "line 6, column games_a", "line 7, column side_b"]
    says = ["is not a date: '31/02/2025'", "no partnership 'Nobody Here'", "is already on line 2",
            "3–1 is not a result of best of 3 games", "got 'two'", "a side cannot play itself"]
    for line, phrase in zip(lines, says, strict=True):
        assert phrase in line, line
    assert "Traceback" not in err and "nothing was stored: 6 error(s)" in out
    assert counts() == before


def test_import_command_names_the_files_headers_and_stores_a_good_file(league, entered, capsys, keep_connection,
                                                                         django_capture_on_commit_callbacks):
    with pytest.raises(SystemExit) as exit_:
        execute_from_command_line(["manage.py", "import_csv", "--club", league.club.slug, "--kind", "results",
                                   "--competition", "no-such-league", str(FIXTURES / "results_match.csv")])
    assert exit_.value.code == 2
    assert "has no competition with the slug 'no-such-league'" in capsys.readouterr().err
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_csv", "--club", league.club.slug, "--kind", "results", "--competition", league.slug,
                     str(FIXTURES / "results_match.csv"), stdout=io.StringIO())
    assert Match.objects.filter(competition=league, status=Match.COMPLETE).count() == 2
    bad = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("import_csv", "--club", league.club.slug, "--kind", "players", str(FIXTURES / "players.csv"),
                     stderr=bad, stdout=io.StringIO())
    first = bad.getvalue().splitlines()[0]
    assert first.startswith("line 2, column name: ") and "already has a player called 'Ravi Ramdass'" in first


def test_export_command_to_stdout_and_to_a_file(league, entered, imported, tmp_path):
    assert imported(club=league.club, kind="results", data=sample("results_match.csv"), competition=league).ok
    out = io.StringIO()
    call_command("export_csv", "--club", league.club.slug, "--competition", league.slug, "--what", "results",
                 stdout=out)
    assert rows_of(out.getvalue())[0] == list(csv_io.RESULTS_COLUMNS)
    assert not out.getvalue().startswith("\ufeff")
    target = tmp_path / "standings.csv"
    call_command("export_csv", "--club", league.club.slug, "--competition", league.slug, "--what", "standings",
                 str(target), stdout=io.StringIO())
    text = target.read_text(encoding="utf-8-sig")
    assert rows_of(text)[0][:3] == ["rank", "entrant", "played"] and len(rows_of(text)) == 5
    with pytest.raises(CommandError) as error:
        call_command("export_csv", "--club", league.club.slug, "--competition", "nope", "--what", "results")
    assert error.value.returncode == 2
