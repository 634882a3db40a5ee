"""CSV out: a competition's standings and its results, as its pages show them.

Files are UTF-8 with a byte-order mark, so that Excel opens names with accents correctly. The results file uses
the import's column names, so that it imports into another competition (as match totals) with the same results;
it leaves out the matches of draft rounds unless asked (``include_drafts``, for organisers). Every cell goes
through ``escape_cell``: a spreadsheet shows a name beginning with = + - @ as text instead of running it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any, TextIO

from django.db.models import F
from django.utils import timezone

from games.models import Match
from importer.cells import UTF8_BOM, escape_cell
from league.models import Competition, StandingRow
from league.permissions import published_round_filter
from standings.tables import exact_number

STANDINGS_COLUMNS = ("rank", "entrant", "played", "won", "drawn", "lost", "match_points", "bullseyes_for",
                     "bullseyes_against", "bullseye_difference", "chalks_for", "chalks_against", "chalk_difference",
                     "hang_jacks_for", "hang_jacks_against", "byes")
COVERED_METRICS = {*STANDINGS_COLUMNS, "wins", "draws", "losses", "withdrawn", "coarse"}  # metrics with a column
RESULTS_COLUMNS = ("round", "date", "table", "side_a", "side_b", "games_a", "games_b", "chalks_a", "chalks_b",
                   "hang_jacks_a", "hang_jacks_b", "level", "outcome", "status", "winner")


def write_rows(rows: Iterable[Iterable[Any]], out: TextIO | None = None, *, bom: bool = True) -> str:
    """Every CSV the app writes goes through here: each cell through ``escape_cell``."""
    buffer = out if out is not None else io.StringIO()
    if bom:
        buffer.write(UTF8_BOM)
    csv.writer(buffer, lineterminator="\r\n").writerows([escape_cell(cell) for cell in row] for row in rows)
    return "" if out is not None else buffer.getvalue()  # type: ignore[union-attr]


def _metric_text(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 4)
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True)
    return value


def _figure(value: Any) -> Any:
    """A standings figure exactly (34, 34.5); blank for chalks the club did not keep, as in the results."""
    return "" if value is None else exact_number(value)


def standings_table(competition: Competition) -> list[list[Any]]:
    """The standings as rows of cells, the header first: the common columns, each tiebreak metric of the
    competition not among them (from ``StandingRow.metrics``), then withdrawn and coarse."""
    rows = StandingRow.objects.filter(competition=competition, section="")  # not a team league's per-pair lines
    rows = list(rows.select_related("partnership__player_one", "partnership__player_two", "team", "player")
                .order_by("group", "division", "rank", "id"))
    tiebreaks = [key for key in (competition.tiebreaks or []) if isinstance(key, str)]
    metrics = [key for key in dict.fromkeys(tiebreaks) if key not in COVERED_METRICS]
    grouped, divided = any(row.group for row in rows), any(row.division for row in rows)
    header = ([*(["group"] if grouped else []), *(["division"] if divided else []), *STANDINGS_COLUMNS, *metrics,
               "withdrawn", "coarse"])
    table: list[list[Any]] = [header]
    for row in rows:
        entrant = row.entrant
        name = getattr(entrant, "display_name", None) or str(entrant or "")
        values = row.metrics if isinstance(row.metrics, dict) else {}
        table.append([
            *([row.group] if grouped else []), *([row.division] if divided else []), row.rank, name, row.played,
            row.won, row.drawn, row.lost,
            *(_figure(value) for value in (
                row.match_points, row.bullseyes_for, row.bullseyes_against, row.bullseye_difference, row.chalks_for,
                row.chalks_against, row.chalk_difference, row.hang_jacks_for, row.hang_jacks_against)), row.byes,
            *(_metric_text(values.get(key)) for key in metrics),
            "yes" if row.withdrawn else "no", "yes" if row.coarse else "no",
        ])
    return table


def results_table(competition: Competition, *, include_drafts: bool = False) -> list[list[Any]]:
    """Every match of the competition as rows of cells, the header first, with the import's column names. A
    match not yet played has blank scores; chalks are blank when they were not kept. Matches of draft rounds
    only with ``include_drafts`` (for the club's organisers)."""
    matches = Match.objects.filter(competition=competition)
    if not include_drafts:
        matches = matches.filter(published_round_filter())
    matches = matches.select_related("round").order_by(F("round__number").asc(nulls_last=True), "table_number", "id")
    table: list[list[Any]] = [list(RESULTS_COLUMNS)]
    for match in matches:
        played = match.status != Match.SCHEDULED or match.outcome != Match.PLAYED
        when = timezone.localdate(match.scheduled_at) if match.scheduled_at else \
            (match.round.starts_on if match.round else None)
        chalks = played and match.chalks_known
        table.append([
            match.round.number if match.round else "", when.isoformat() if when else "",
            match.table or (match.table_number or ""), match.side_a_name, match.side_b_name,
            match.games_a if played else "", match.games_b if played else "",
            match.chalks_a if chalks else "", match.chalks_b if chalks else "",
            match.hang_jacks_a if played else "", match.hang_jacks_b if played else "",
            match.result_level, match.outcome, match.status,
            match.side_name(match.winner) if match.winner in ("a", "b") else "",
        ])
    return table


def export_standings(competition: Competition, out: TextIO | None = None, *, bom: bool = True) -> str:
    return write_rows(standings_table(competition), out, bom=bom)


def export_results(competition: Competition, out: TextIO | None = None, *, bom: bool = True,
                   include_drafts: bool = False) -> str:
    return write_rows(results_table(competition, include_drafts=include_drafts), out, bom=bom)
