"""CSV in and out: how a club moves over from its spreadsheet, and how standings and results leave again.

Import — ``import_csv(club=…, kind=…, data=…, competition=…, user=…)`` — reads one file of one kind:

========================  =================================================================================
kind                      columns (``*`` required; headers match case-insensitively, with synonyms)
========================  =================================================================================
``players``               name*, nickname, club (a club's name or slug; blank: the importing club;
                          another club's players only by that club's organisers)
``partnerships``          player_one*, player_two (blank: a one-player side for All Twos), name
``teams``                 team*, partnership (a name, or "Ann & Bob") or player_one + player_two,
                          club (the team's club; blank: the importing club), competition (slug or name)
``entries``               partnership / player_one + player_two (pairs), team (teams) or player
                          (individuals); seed, group, competition
``results`` (match level) side_a*, side_b*, games_a*, games_b*, round, date, table, hang_jacks_a,
                          hang_jacks_b, chalks_a, chalks_b, winner, outcome — one row a match
``results`` (game level)  side_a*, side_b*, game*, winner*, round, date, table, match, hang_jacks_a,
                          hang_jacks_b, score_a, score_b — one row a game; a file is game level when
                          it has a ``game`` column
``results`` (teams)       side_a* (team A; header team_a, home team …), side_b*, games_a*, games_b*
                          (bullseyes), round, date, venue, chalks_a, chalks_b, hang_jacks_a,
                          hang_jacks_b, winner (or draw), outcome — one row a team match; with
                          table, team_a_pair, team_b_pair one row a table (``importer.team_results``)
any ``results``           venue (bar, where, location); a row whose side_b is "bye" and whose scores
                          are blank is a bye of side_a in its round (``importer.byes``)
========================  =================================================================================

References are by name, never by id, and must already be stored: players of the importing club (by
name, nickname, or "Name (Nickname)"), partnerships of the club (by name or by their players, "Ann &
Bob" in either order; a row giving both names one partnership twice) among those the club's pages offer
(another club's partnership only once it is public: a draft's are its club's), the competition's teams
and entries. A club moving over imports players, then partnerships, then teams or entries, then results
— one file each. Players' names are unique within a club, so that later files can name them.

The import runs in one transaction, rolled back when there is any error at all: nothing is stored unless the
whole file is good. Each row is read — types, required cells, numbers within what the database holds,
references by name — and stored through the same service as on the pages, which checks it, so that no rule is
written twice: entries through ``league.entries.enter`` (late entries, a player in one partnership, seeds,
groups), teams through ``create_team``, partnerships through ``new_partnership``, results through
``games.services`` (``create_match``, then ``record_match_totals``, ``enter_game_result`` or
``record_forfeit``; a winner cell is checked against the winner they derive). A value a service checks is
handed to it as read (a seed, a group's or a partnership name's length, a game's number, one side's chalks),
so that a row is refused with the page's reason; what no service checks (a player's name, plain text in a
name, a team name's length) the importer does. A service's error (``SetupError``,
``EntryError``) becomes an error of the row, ``{"line": n, "column": "side_b", "reason": "…"}``, naming the
line of the file that made what it clashes with; lines are numbered as a spreadsheet numbers its rows (the
header is line 1). Rows after a bad one are still checked and stored (in savepoints), so that one upload
reports every problem (the first ``MAX_LISTED_ERRORS``; more are counted).

The file is read as a stream, a row at a time (players are written in batches), so memory does not grow with
it, up to ``MAX_IMPORT_BYTES`` (20 MB; a results file: ``MAX_RESULT_ROWS`` rows, as its matches are grouped
first). Files are UTF-8 with or without a byte-order mark (Excel's "CSV UTF-8"), or UTF-16 with its mark; a
file in another encoding is refused unless the organiser declares it (``encoding=``: Windows-1252, Latin-1,
Mac Roman) and it reads in it whole — a guess would store names garbled. A quote that is not closed on its
line, a cell over 128 KB and a header of more than ``MAX_COLUMNS`` cells are errors of their line. The
delimiter is sniffed from the header (comma, semicolon as Excel writes in many locales, or tab), and Excel's
``sep=;`` first line is understood. Dates are ``2025-05-03``, ``03/05/2025`` (day first, as in Trinidad) or
``3 May 2025``.

Export — ``export_standings`` and ``export_results`` (``importer.export``) — writes UTF-8 with a byte-order
mark, so that Excel opens names with accents correctly. The results export uses the import's column names: a
results file exported from one competition imports into another (as match totals) with the same
results; it leaves out the matches of draft rounds unless asked (``include_drafts``, for organisers).
Every cell the app writes goes through ``escape_cell``: text beginning with = + - @, a tab or a carriage
return gets a leading single quote, so that a spreadsheet shows it instead of running it as a formula
(numbers stay numbers); the import takes that quote off again (``unescape_cell``).

This module is the public surface; the work is done in modules of one job each:

- ``importer.reading``: the file — its encoding, delimiter, header and records, a row at a time;
- ``importer.cells``: one cell — compared, parsed into a value, escaped for a spreadsheet;
- ``importer.columns``: the kinds of file and their columns; ``importer.report``: what an import did;
- ``importer.lookup``: finding players, partnerships, clubs and competitions by name;
- ``importer.job``: one import under way, and a service's error as an error of the row;
- ``importer.people`` (players, partnerships), ``importer.entries`` (teams, entries), ``importer.results``
  (matches, games, forfeits), ``importer.team_results`` (team matches, tables): each kind through the services
  of the app that owns it; the two results files through the steps of ``importer.result_file``, and their byes
  through ``importer.byes``;
- ``importer.export``: standings and results out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction

from importer.cells import CellError, escape_cell, normalise, unescape_cell
from importer.columns import (
    COLUMNS,
    ENTRIES,
    GAME_COLUMNS,
    GAME_HEADERS,
    GAME_LEVEL,
    KIND_LABELS,
    KINDS,
    MATCH_COLUMNS,
    MATCH_LEVEL,
    PAIR_HEADERS,
    PARTNERSHIPS,
    PLAYERS,
    RESULTS,
    TABLE_LEVEL,
    TEAM_COLUMNS,
    TEAMS,
    TEMPLATES,
    Column,
    template_csv,
)
from importer.entries import import_entries, import_teams
from importer.export import (
    RESULTS_COLUMNS,
    STANDINGS_COLUMNS,
    TEAM_RESULTS_COLUMNS,
    export_results,
    export_standings,
    results_table,
    standings_table,
    write_rows,
)
from importer.job import ImportJob
from importer.people import import_partnerships, import_players
from importer.reading import (
    ENCODINGS,
    HEADER_LINE,
    MAX_IMPORT_BYTES,
    FileError,
    Source,
    map_header,
    read_table,
    table_rows,
)
from importer.report import MAX_LISTED_ERRORS, ImportReport
from importer.result_file import MAX_RESULT_ROWS
from importer.results import import_results
from importer.team_results import import_team_results
from league.models import Club, Competition

__all__ = [
    "COLUMNS", "ENCODINGS", "ENTRIES", "GAME_COLUMNS", "GAME_LEVEL", "IMPORTERS", "KINDS", "KIND_LABELS",
    "MATCH_COLUMNS", "MATCH_LEVEL", "MAX_IMPORT_BYTES", "MAX_LISTED_ERRORS", "MAX_RESULT_ROWS", "PARTNERSHIPS",
    "PLAYERS", "RESULTS", "RESULTS_COLUMNS", "STANDINGS_COLUMNS", "TABLE_LEVEL", "TEAMS", "TEAM_COLUMNS",
    "TEAM_RESULTS_COLUMNS", "TEMPLATES", "CellError", "Column",
    "FileError", "ImportReport", "escape_cell", "export_results", "export_standings", "import_csv", "normalise",
    "results_table", "standings_table", "template_csv", "unescape_cell", "write_rows",
]

def _of_teams(competition: Competition | None) -> bool:
    return competition is not None and competition.entrant_kind == Competition.TEAMS


def _import_results(job: ImportJob) -> None:
    """A team competition's results by team match or by table; any other's by match or by game."""
    (import_team_results if _of_teams(job.competition) else import_results)(job)


IMPORTERS: dict[str, Callable[[ImportJob], None]] = {
    PLAYERS: import_players, PARTNERSHIPS: import_partnerships, TEAMS: import_teams, ENTRIES: import_entries,
    RESULTS: _import_results,
}


class _RollBack(Exception):  # noqa: N818 — not an error: undoes the transaction of a file with errors
    pass


def import_csv(*, club: Club, kind: str, data: Source, competition: Competition | None = None,
               user: Any = None, encoding: str = "") -> ImportReport:
    """Check every row of a file of ``kind`` and store them in one transaction — or nothing when any row is bad.
    The report lists each error by line and column, or what was created. ``data`` is the file's bytes, an open
    binary file (read as a stream, never whole) or text; ``encoding`` is the one the organiser declared for a
    file that is not UTF-8 (a key of ``ENCODINGS``)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    report = ImportReport(kind)
    if competition is not None and competition.club_id != club.pk:
        report.error(HEADER_LINE, "competition", f"{competition.name} is not a competition of {club.name}")
        return report
    try:
        table = read_table(data, encoding)
    except FileError as error:
        report.error(error.line, "", str(error))
        return report
    report.notes.extend(table.notes)
    if table.encoding != "UTF-8":
        report.notes.append(f"The file was read as {table.encoding}; CSV UTF-8 is the safest format.")
    if table.delimiter != ",":
        report.notes.append(f"Cells are separated by {'tabs' if table.delimiter == chr(9) else table.delimiter!r}.")
    if kind == RESULTS and _of_teams(competition):
        if any(normalise(h) in GAME_HEADERS for h in table.header):
            report.error(table.header_line, "", "game-by-game results are imported for competitions of partnerships; "
                                                "for a team competition give each team match's totals, or each "
                                                "table's (columns table, team_a_pair, team_b_pair, games_a, games_b)")
            return report
        report.level = TABLE_LEVEL if any(normalise(h) in PAIR_HEADERS for h in table.header) else MATCH_LEVEL
        columns: tuple[Column, ...] = TEAM_COLUMNS
    elif kind == RESULTS:
        report.level = GAME_LEVEL if any(normalise(h) in GAME_HEADERS for h in table.header) else MATCH_LEVEL
        columns = GAME_COLUMNS if report.level == GAME_LEVEL else MATCH_COLUMNS
    else:
        columns = COLUMNS[kind]
    index = map_header(table, columns, report)
    if report.errors:
        return report
    job = ImportJob(club, competition, user, report, table_rows(table, index, report))
    try:
        with transaction.atomic():
            IMPORTERS[kind](job)
            if report.errors or report.unlisted_errors:
                raise _RollBack
    except _RollBack:
        report.created.clear()
    except IntegrityError as error:  # a row stored by someone else between the check and the store
        report.created.clear()
        report.error(HEADER_LINE, "", f"the file clashed with data stored meanwhile ({error}); nothing was "
                                      "stored — import it again")
    return report
