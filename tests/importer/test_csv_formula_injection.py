"""CSV exports neutralise formula injection. A name a spreadsheet would run as a formula
(``=cmd|' /C calc'!A0``, ``@SUM(…)``, ``+…``, ``-…``, or one beginning with a tab or a carriage return) goes out
with a leading single quote in every CSV the app writes — ``standings.csv``, ``results.csv``, ``manage.py
export_csv``, the import templates — while numbers stay numbers (a difference of -3 is still -3). The import
takes the quote off again, so an exported file imports back with the names it had."""

from __future__ import annotations

import csv
import io
from io import StringIO

import pytest
from django.core.management import call_command

from draw.models import Round
from games import services
from games.models import Match
from importer import csv_io
from league.models import Competition, Entry, Partnership
from standings.services import refresh_standings
from tests.factories import enter, make_club, make_organiser, make_player, make_user

pytestmark = pytest.mark.django_db

EVIL = {
    "equals": "=cmd|' /C calc'!A0",
    "at": "@SUM(1+1)*cmd|' /C calc'!A0",
    "plus": "+1+cmd|' /C calc'!A0",
    "minus": "-1+cmd|' /C calc'!A0",
    "tab": "\t=1+2",
    "carriage return": "\r=1+1",
}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))


def dangerous_cells(text: str) -> list[str]:
    """The cells a spreadsheet would read as a formula: text beginning with = + - @, a tab or a carriage return,
    that is not a plain number."""
    found = []
    for row in rows_of(text):
        for cell in row:
            try:
                float(cell)
            except ValueError:
                if cell.startswith(FORMULA_STARTS):
                    found.append(cell)
    return found


@pytest.fixture
def league(django_capture_on_commit_callbacks):
    """A published league of the club whose pairs and group have dangerous names, with results that give negative
    differences (chalks 14–3 and 14–11)."""
    club = make_club("Bamboo Corner Bar")
    club.organiser = make_organiser(club, make_user("olive"))
    competition = Competition.objects.create(club=club, name="Season League", slug="season-league", published=True)
    pairs = {key: Partnership.objects.create(name=name, club=club, player_one=make_player(f"{key} one", club=club),
                                             player_two=make_player(f"{key} two", club=club))
             for key, name in EVIL.items()}
    for partnership in pairs.values():
        Entry.objects.create(competition=competition, partnership=partnership, group="=HYPERLINK(\"x\")")
    round_ = Round.objects.create(competition=competition, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        first = services.create_match(competition=competition, side_a=pairs["equals"], side_b=pairs["at"],
                                      round=round_, table="1")
        services.record_match_totals(first, games_a=1, games_b=0, chalks_a=14, chalks_b=3)
        second = services.create_match(competition=competition, side_a=pairs["plus"], side_b=pairs["minus"],
                                       round=round_, table="2")
        services.record_match_totals(second, games_a=0, games_b=1, chalks_a=11, chalks_b=14)
        services.create_match(competition=competition, side_a=pairs["tab"], side_b=pairs["carriage return"],
                              round=round_, table="3")
    refresh_standings(competition.pk)
    competition.pairs = pairs
    return competition


def export_command(competition: Competition, what: str) -> str:
    out = StringIO()
    call_command("export_csv", "--club", competition.club.slug, "--competition", competition.slug, "--what", what,
                 stdout=out)
    return out.getvalue()


def every_export(client, competition: Competition) -> dict[str, str]:
    base = f"/clubs/{competition.club.slug}/{competition.slug}/"
    return {"standings.csv": client.get(base + "standings.csv").content.decode("utf-8"),
            "results.csv": client.get(base + "results.csv").content.decode("utf-8"),
            "export_csv standings": export_command(competition, "standings"),
            "export_csv results": export_command(competition, "results")}


def test_every_export_neutralises_formulas_and_keeps_numbers(client, league):
    exports = every_export(client, league)
    for name, text in exports.items():
        assert not dangerous_cells(text), (name, dangerous_cells(text))
        cells = {cell for row in rows_of(text) for cell in row}
        for evil in EVIL.values():
            assert "'" + evil in cells, (name, evil)  # the name is all there, behind a quote
    for name in ("standings.csv", "export_csv standings"):
        header, *rows = rows_of(exports[name])
        lines = {row[header.index("entrant")]: row for row in rows}
        loser = lines["'" + EVIL["at"]]
        assert loser[header.index("group")] == "'=HYPERLINK(\"x\")"
        assert loser[header.index("chalk_difference")] == "-11"  # a number stays a number
        assert loser[header.index("bullseye_difference")] == "-1"
        assert lines["'" + EVIL["plus"]][header.index("chalk_difference")] == "-3"


def test_every_csv_the_app_writes_goes_through_the_escape(client, league):
    for name in csv_io.TEMPLATES:
        response = client.get(f"/clubs/{league.club.slug}/import/{name}.csv")
        assert response.status_code == 200 and not dangerous_cells(response.content.decode())
    cells = ["=1", "+1", "-1", "@1", "\t1", "\r1", "'=1", "''+1", "-3", "'plain", "plain", "", "Ann & Bob"]
    written = csv_io.write_rows([[*cells, -3, 2.5, 0]], bom=False)
    assert rows_of(written) == [["'=1", "'+1", "'-1", "'@1", "'\t1", "'\r1", "''=1", "'''+1", "'-3", "'plain",
                                 "plain", "", "Ann & Bob", "-3", "2.5", "0"]]
    assert [csv_io.unescape_cell(cell) for cell in rows_of(written)[0][:13]] == cells  # each text comes back


def test_an_exported_results_file_imports_back_with_its_names(league, django_capture_on_commit_callbacks):
    # a name with a line break in it is refused where names are entered, and an import refuses a cell that
    # spans lines: the match of the pair made with one directly in the database stays out of this
    Match.objects.filter(competition=league, side_b=league.pairs["carriage return"]).delete()
    exported = csv_io.export_results(league)
    assert "'" + EVIL["equals"] in exported
    replay = Competition.objects.create(club=league.club, name="Replay", slug="replay")
    for partnership in league.pairs.values():
        enter(replay, partnership)
    with django_capture_on_commit_callbacks(execute=True):
        report = csv_io.import_csv(club=league.club, kind="results", data=exported.encode("utf-8-sig"),
                                   competition=replay)
    assert report.ok, report.errors
    replayed = {(m.side_a_id, m.side_b_id): m for m in Match.objects.filter(competition=replay)}
    for match in Match.objects.filter(competition=league):
        again = replayed[(match.side_a_id, match.side_b_id)]
        assert (again.side_a_name, again.side_b_name) == (match.side_a_name, match.side_b_name)
        assert (again.games_a, again.games_b, again.chalks_a, again.chalks_b, again.status) == \
            (match.games_a, match.games_b, match.chalks_a, match.chalks_b, match.status)

    def names_and_scores(text: str) -> list[list[str]]:
        level = csv_io.RESULTS_COLUMNS.index("level")
        return [row[:level] for row in rows_of(text)]

    assert names_and_scores(csv_io.export_results(replay)) == names_and_scores(exported)
