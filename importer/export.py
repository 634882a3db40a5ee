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
from typing import Any, TextIO, cast

from django.db.models import F
from django.utils import timezone

from draw.models import Bye
from games.models import HAND_LEVEL, Match, TeamMatch
from importer.cells import UTF8_BOM, escape_cell
from league.models import Competition
from league.permissions import published_round_filter
from standings.columns import exact_number
from standings.models import StandingRow

STANDINGS_COLUMNS = ("rank", "entrant", "played", "won", "drawn", "lost", "match_points", "bullseyes_for",
                     "bullseyes_against", "bullseye_difference", "chalks_for", "chalks_against", "chalk_difference",
                     "hang_jacks_for", "hang_jacks_against", "byes")
COVERED_METRICS = {*STANDINGS_COLUMNS, "wins", "draws", "losses", "withdrawn", "coarse"}  # metrics with a column
RESULTS_COLUMNS = ("round", "date", "table", "side_a", "side_b", "games_a", "games_b", "chalks_a", "chalks_b",
                   "hang_jacks_a", "hang_jacks_b", "level", "outcome", "status", "winner")
TEAM_RESULTS_COLUMNS = ("round", "date", "venue", "table", "team_a", "team_b", "team_a_pair", "team_b_pair", "games_a",
                        "games_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b", "level", "outcome",
                        "status", "winner")
BYE_STATUS = "bye"


def write_rows(rows: Iterable[Iterable[Any]], out: TextIO | None = None, *, bom: bool = True) -> str:
    """Every CSV the app writes goes through here: each cell through ``escape_cell``."""
    buffer = out if out is not None else io.StringIO()
    if bom:
        buffer.write(UTF8_BOM)
    csv.writer(buffer, lineterminator="\r\n").writerows([escape_cell(cell) for cell in row] for row in rows)
    return "" if out is not None else cast(io.StringIO, buffer).getvalue()


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
    lines = StandingRow.objects.filter(competition=competition, section="")  # not a team league's per-pair lines
    rows = list(lines.select_related("partnership__player_one", "partnership__player_two", "team", "player")
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
    """Every match of the competition, and every bye, as rows of cells, the header first, with the import's column
    names, so that the file imports into another competition of the same entrants with the same results. A match
    not yet played has blank scores; chalks are blank when they were not kept; a bye is a row whose side B is
    "bye". A team competition's team match is one row (its overall totals) or, when it has tables, one row a
    table (its pairs and the table's totals, from which the team's follow). The venue column is there when a
    match has a venue (always for team competitions). Draft rounds only with ``include_drafts`` (organisers)."""
    if competition.entrant_kind == Competition.TEAMS:
        return _team_results_table(competition, include_drafts=include_drafts)
    shown = Match.objects.filter(competition=competition, team_match__isnull=True)
    if not include_drafts:
        shown = shown.filter(published_round_filter())
    matches = list(shown.select_related("round")
                   .order_by(F("round__number").asc(nulls_last=True), "table_number", "id"))
    venues = any(match.venue for match in matches)
    rows: list[tuple[tuple, list[Any]]] = []
    for match in matches:
        played = match.status != Match.SCHEDULED or match.outcome != Match.PLAYED
        chalks = played and match.chalks_known
        rows.append((_order(match.round, 1), [
            match.round.number if match.round else "", _when(match), *([match.venue] if venues else []),
            match.table or (match.table_number or ""), match.side_a_name, match.side_b_name,
            match.games_a if played else "", match.games_b if played else "",
            match.chalks_a if chalks else "", match.chalks_b if chalks else "",
            match.hang_jacks_a if played else "", match.hang_jacks_b if played else "",
            match.result_level, match.outcome, match.status,
            match.side_name(match.winner) if match.winner in ("a", "b") else "",
        ]))
    for bye in _byes(competition, include_drafts):
        rows.append((_order(bye.round, 0), [bye.round.number, _iso(bye.round.starts_on), *([""] if venues else []),
                                            "", bye.entry.display_name, BYE_STATUS, *[""] * 8, BYE_STATUS, ""]))
    header = list(RESULTS_COLUMNS)
    if venues:
        header.insert(header.index("date") + 1, "venue")
    return [header, *(cells for _, cells in sorted(rows, key=lambda item: item[0]))]


def _order(round_: Any, kind: int) -> tuple:
    """Rows by round (those without one last), a round's byes before its matches (a bye's date is its round's:
    the import makes a round with the first date its rows give); stable within."""
    return (round_ is None, round_.number if round_ is not None else 0, kind)


def _iso(day: Any) -> str:
    return day.isoformat() if day else ""


def _when(match: Match | TeamMatch) -> str:
    when = timezone.localdate(match.scheduled_at) if match.scheduled_at else \
        (match.round.starts_on if match.round else None)
    return _iso(when)


def _byes(competition: Competition, include_drafts: bool) -> list[Bye]:
    byes = Bye.objects.filter(round__competition=competition)
    if not include_drafts:
        byes = byes.filter(published_round_filter())
    return list(byes.select_related("round", "entry__partnership__player_one", "entry__partnership__player_two",
                                    "entry__team", "entry__player").order_by("round__number", "id"))


def _team_results_table(competition: Competition, *, include_drafts: bool) -> list[list[Any]]:
    """A team competition's results: a team match without tables on one row (its overall totals, a forfeit, or
    blank scores), one with tables on a row a table (the team's totals follow from them on import)."""
    team_matches = TeamMatch.objects.filter(competition=competition)
    if not include_drafts:
        team_matches = team_matches.filter(published_round_filter())
    team_matches = (team_matches.select_related("round").prefetch_related("table_matches")
                    .order_by(F("round__number").asc(nulls_last=True), "id"))
    rows: list[tuple[tuple, list[Any]]] = []
    for team_match in team_matches:
        head = [team_match.round.number if team_match.round else "", _when(team_match), team_match.venue]
        tables = sorted(team_match.table_matches.all(), key=lambda t: (t.table_number or 0, t.id))
        if not tables:
            played = team_match.status != TeamMatch.SCHEDULED or team_match.outcome != Match.PLAYED
            chalks = played and team_match.chalks_known
            rows.append((_order(team_match.round, 1), [
                *head, "", team_match.team_a_name, team_match.team_b_name, "", "",
                *_figures(played, chalks, team_match.bullseyes_a, team_match.bullseyes_b, team_match.chalks_a,
                          team_match.chalks_b, team_match.hang_jacks_a, team_match.hang_jacks_b),
                team_match.result_level, team_match.outcome, team_match.status,
                _team_winner_name(team_match.winner, team_match.team_a_name, team_match.team_b_name),
            ]))
        for table in tables:
            scored = team_match.outcome == Match.PLAYED and (
                table.result_level != HAND_LEVEL or table.games_a + table.games_b > 0)
            rows.append((_order(team_match.round, 1), [
                *head, table.table_number or "", team_match.team_a_name, team_match.team_b_name, table.side_a_name,
                table.side_b_name,
                *_figures(scored, scored and table.chalks_known, table.games_a, table.games_b, table.chalks_a,
                          table.chalks_b, table.hang_jacks_a, table.hang_jacks_b),
                table.result_level, team_match.outcome, table.status,
                _team_winner_name(table.winner, table.side_a_name, table.side_b_name) if scored else "",
            ]))
    for bye in _byes(competition, include_drafts):
        rows.append((_order(bye.round, 0), [bye.round.number, _iso(bye.round.starts_on), "", "",
                                            bye.entry.display_name, BYE_STATUS, *[""] * 10, BYE_STATUS, ""]))
    return [list(TEAM_RESULTS_COLUMNS), *(cells for _, cells in sorted(rows, key=lambda item: item[0]))]


def _figures(played: bool, chalks: bool, games_a: int, games_b: int, chalks_a: int, chalks_b: int, hang_a: int,
             hang_b: int) -> list[Any]:
    """The score cells: games, chalks (blank when not kept), hang jacks — all blank when not played."""
    return [games_a if played else "", games_b if played else "", chalks_a if chalks else "",
            chalks_b if chalks else "", hang_a if played else "", hang_b if played else ""]


def _team_winner_name(winner: str, name_a: str, name_b: str) -> str:
    return {"a": name_a, "b": name_b, TeamMatch.DRAW: "draw"}.get(winner, "")


def export_standings(competition: Competition, out: TextIO | None = None, *, bom: bool = True) -> str:
    return write_rows(standings_table(competition), out, bom=bom)


def export_results(competition: Competition, out: TextIO | None = None, *, bom: bool = True,
                   include_drafts: bool = False) -> str:
    return write_rows(results_table(competition, include_drafts=include_drafts), out, bom=bom)
