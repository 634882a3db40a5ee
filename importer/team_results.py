"""Importing the results of a team competition: one row a team match (its overall totals, a forfeit, or a fixture
not yet played), or one row a table of it (the pair of each team seated there and the table's totals), and byes.

A row that names a pair (``team_a_pair`` / ``team_b_pair``) or a table is a table's; a team match's table rows are
grouped by a match key, or by round, date and teams. Each team match goes through ``games.services``:
``create_team_match`` (the teams of the competition, its venue and date, and its tables' line-up when the rows
give one), then ``record_team_totals`` for overall totals (the web "team match totals" page's service: a race
ends at its target, a fixed match plays every game), or ``record_match_totals`` at each table (the team's
totals follow from its tables, as the settle task sums them), or ``record_team_forfeit``. A service's
``EntryError`` is the error of the row that gave the value, in the column that holds its field, and rolls back
that team match alone (a savepoint). Byes as ``importer.byes`` reads them.

What is the importer's own: reading the cells, finding the teams and pairs by name, grouping the table rows, and
refusing a file that would store a team match twice, a team twice in a round, or a result over one stored.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, cast

from django.db import DatabaseError
from django.utils import timezone

from games import services
from games.models import HAND_LEVEL, Match, TeamMatch
from importer.byes import ByeRow, bye_side, fixture_round, read_bye, store_file
from importer.cells import (
    CellError,
    check_length,
    db_max,
    name_key,
    normalise,
    parse_date,
    parse_int,
    parse_round,
    parse_side,
)
from importer.job import ImportJob
from importer.lookup import NotFound, PartnershipIndex
from importer.reading import Row
from importer.results import MAX_CHALKS, MAX_HANG_JACKS, _limited, _two_counts, parse_outcome
from league.models import Competition, Partnership, Round, Team

MAX_BULLSEYES = db_max(TeamMatch, "bullseyes_a")
VENUE_MAX = cast(int, TeamMatch._meta.get_field("venue").max_length)
DRAW_WORDS = {"draw", "drawn", "d", "tie", "tied", "level", "halved"}
SERVICE_COLUMNS = {"bullseyes_a": "games_a", "bullseyes_b": "games_b", "team_a": "side_a", "team_b": "side_b",
                   "tables": "table", "number": "games_a", "winner": "games_a", "team_match": "", "match": "",
                   "competition": "", "outcome": "outcome", "round": "round"}
TABLE_FIELD = re.compile(r"tables\[(\d+)\](?:\.side_([ab]))?")


@dataclass
class _Table:
    row: Row
    number: int
    pair_a: Partnership | None = None
    pair_b: Partnership | None = None
    totals: dict[str, Any] | None = None


@dataclass
class _TeamMatch:
    """One team match of the file: its first row, teams, round, date and venue, and either its overall totals or
    its tables (``by_tables``)."""

    row: Row
    by_tables: bool = False
    team_a: Team | None = None
    team_b: Team | None = None
    round: int | None = None
    date: date | None = None
    venue: str = ""
    totals: dict[str, Any] | None = None
    forfeit: str = ""
    forfeit_line: int = 0
    tables: list[_Table] = field(default_factory=list)
    bad: bool = False
    lines: list[int] = field(default_factory=list)

    @property
    def teams(self) -> str:
        assert self.team_a is not None and self.team_b is not None
        return f"{self.team_a.name} v {self.team_b.name}"


class _Teams:
    """The competition's teams by name, and each team's pairs."""

    def __init__(self, competition: Competition) -> None:
        self.competition = competition
        self.by_name = {name_key(team.name): team for team in Team.objects.filter(competition=competition)}
        self.pairs: dict[int, PartnershipIndex] = {}

    def find(self, text: str) -> Team:
        team = self.by_name.get(name_key(text))
        if team is None:
            raise NotFound(f"no team {text!r} in {self.competition.name}: import the teams first")
        return team

    def pair(self, team: Team, text: str) -> Partnership:
        if team.pk not in self.pairs:
            self.pairs[team.pk] = PartnershipIndex(team.partnerships.select_related("player_one", "player_two"),
                                                   f"in team {team.name}")
        return self.pairs[team.pk].find(text)


def import_team_results(job: ImportJob) -> None:
    competition = job.competition
    assert competition is not None and competition.entrant_kind == Competition.TEAMS
    teams = _Teams(competition)
    byes: list[ByeRow] = []
    matches = _read_rows(job, teams, _limited(job, job.rows), byes)
    _check_duplicates(job, matches, competition)
    store_file(job, competition, matches, byes, _store, _Failed)


# ----------------------------------------------------------------------------- reading
def _read_rows(job: ImportJob, teams: _Teams, rows: Any, byes: list[ByeRow]) -> list[_TeamMatch]:
    matches: list[_TeamMatch] = []
    groups: dict[Any, _TeamMatch] = {}
    for row in rows:
        key = bye_side(row)
        if key:
            bye = read_bye(job, row, key, lambda r, k: job.cell(r, k, teams.find))
            if bye is not None:
                byes.append(bye)
            continue
        if not any(row[k] for k in ("table", "team_a_pair", "team_b_pair")):
            match = _TeamMatch(row, lines=[row.line])
            _read_common(job, row, match, teams)
            _read_totals(job, row, match)
            matches.append(match)
            continue
        group_key = ("key", name_key(row["match"])) if row["match"] else \
            ("teams", row["round"], row["date"], name_key(row["side_a"]), name_key(row["side_b"]))
        grouped = groups.get(group_key)
        if grouped is None:
            match = groups[group_key] = _TeamMatch(row, by_tables=True)
            _read_common(job, row, match, teams)
            matches.append(match)
        else:
            match = grouped
            _same_match(job, row, match, teams)
        match.lines.append(row.line)
        _read_table(job, row, match, teams)
    for match in groups.values():
        _check_table_numbers(job, match)
    return matches


def _read_common(job: ImportJob, row: Row, match: _TeamMatch, teams: _Teams) -> None:
    match.round = job.cell(row, "round", lambda t: parse_round(t, maximum=db_max(Round, "number")))
    match.date = job.cell(row, "date", parse_date)
    match.venue = job.cell(row, "venue", lambda t: check_length(t, VENUE_MAX), "")
    for key in ("side_a", "side_b"):
        if job.required(row, key, f"team {key[-1].upper()}"):
            setattr(match, "team_" + key[-1], job.cell(row, key, teams.find))
    if match.team_a is None or match.team_b is None or (row["round"] and match.round is None) \
            or (row["date"] and match.date is None) or match.venue is None:
        match.bad = True


def _same_match(job: ImportJob, row: Row, match: _TeamMatch, teams: _Teams) -> None:
    """A later table row of a team match: the cells it fills must agree with the team match's first row."""
    first = match.row
    for key in ("side_a", "side_b"):
        if row[key] and match.team_a and match.team_b:
            team = job.cell(row, key, teams.find)
            if team is not None and team.pk != getattr(match, "team_" + key[-1]).pk:
                job.fail(row, key, f"the team match of line {first.line} is {match.teams}")
    for key in ("round", "date", "venue"):
        if row[key] and first[key] and row[key] != first[key]:
            job.fail(row, key, f"the team match's first row (line {first.line}) says {first[key]!r}")


def _scores(job: ImportJob, row: Row) -> tuple[dict[str, Any] | None, bool]:
    """A row's bullseyes, chalks and hang jacks (``None`` when both bullseyes are blank: not played yet); the
    second value says whether every cell could be read."""
    games_a, games_b, ok = _two_counts(job, row, ("games_a", "games_b"), MAX_BULLSEYES)
    if ok and (games_a is None) != (games_b is None):
        job.fail(row, "games_a" if games_a is None else "games_b", "give the bullseyes for both teams or for neither")
        ok = False
    chalks_a, chalks_b, ok_chalks = _two_counts(job, row, ("chalks_a", "chalks_b"), MAX_CHALKS)
    hang_a = job.cell(row, "hang_jacks_a", lambda t: parse_int(t, maximum=MAX_HANG_JACKS), 0)
    hang_b = job.cell(row, "hang_jacks_b", lambda t: parse_int(t, maximum=MAX_HANG_JACKS), 0)
    if not ok or not ok_chalks or hang_a is None or hang_b is None:
        return None, False
    if games_a is None:
        if chalks_a is not None or chalks_b is not None or hang_a or hang_b:
            job.fail(row, "games_a", "the bullseyes are blank (not played yet) but chalks or hang jacks are given")
            return None, False
        return None, True
    if normalise(row["status"]) in ("scheduled", "in progress"):
        if games_a or games_b:
            job.report.notes.append(f"Line {row.line}: {row['status']}; imported without its unfinished score "
                                    f"({games_a}–{games_b}).")
        return None, True
    return {"a": games_a, "b": games_b, "hang_jacks_a": hang_a, "hang_jacks_b": hang_b, "chalks_a": chalks_a,
            "chalks_b": chalks_b}, True


def _read_outcome(job: ImportJob, row: Row, match: _TeamMatch) -> bool:
    outcome = job.cell(row, "outcome", parse_outcome, Match.PLAYED)
    if outcome is None:
        return False
    if outcome == Match.PLAYED:
        return True
    if match.forfeit and match.forfeit != outcome:
        job.fail(row, "outcome", f"the team match is {match.forfeit} on line {match.forfeit_line}")
        return False
    match.forfeit, match.forfeit_line = outcome, match.forfeit_line or row.line
    return True


def _read_totals(job: ImportJob, row: Row, match: _TeamMatch) -> None:
    totals, ok = _scores(job, row)
    if not _read_outcome(job, row, match) or not ok:
        match.bad = True
        return
    if match.bad:
        return
    if match.forfeit:
        if totals and (totals["a"] or totals["b"]):
            job.report.notes.append(f"Line {row.line}: a forfeit; its bullseyes ({totals['a']}–{totals['b']}) are "
                                    "not imported.")
        if row["winner"]:
            won = services.FORFEIT_WINNER[match.forfeit]
            _check_winner(job, row, match, won, f"the outcome is {match.forfeit}")
        return
    if totals is None:
        return
    match.totals = {"bullseyes_a": totals["a"], "bullseyes_b": totals["b"], "hang_jacks_a": totals["hang_jacks_a"],
                    "hang_jacks_b": totals["hang_jacks_b"], "chalks_a": totals["chalks_a"],
                    "chalks_b": totals["chalks_b"]}
    if row["winner"]:
        competition = job.competition
        assert competition is not None
        shape = TeamMatch(mode=competition.team_mode, target=competition.team_target,
                          tables=competition.team_tables, games_per_table=competition.team_games_per_table)
        won = services.team_winner(shape, totals["a"], totals["b"], all_played=True)
        if won:  # no winner: totals that are not a result, which the service refuses with its reason
            _check_winner(job, row, match, won, f"the bullseyes are {totals['a']}–{totals['b']}")


def _read_table(job: ImportJob, row: Row, match: _TeamMatch, teams: _Teams) -> None:
    competition = job.competition
    assert competition is not None
    number = job.cell(row, "table", lambda t: parse_int(t, minimum=1, maximum=competition.team_tables,
                                                        what="a table number"), len(match.tables) + 1)
    table = _Table(row, number or 0)
    ok = number is not None
    for side, team in (("a", match.team_a), ("b", match.team_b)):
        key = f"team_{side}_pair"
        if not job.required(row, key, f"team {side.upper()}'s pair at the table"):
            ok = False
        elif team is not None:
            pair = job.cell(row, key, functools.partial(teams.pair, team))
            setattr(table, f"pair_{side}", pair)
            ok = ok and pair is not None
    totals, ok_scores = _scores(job, row)
    if not _read_outcome(job, row, match) or not ok_scores:
        ok = False
    if totals is not None and match.forfeit:
        job.report.notes.append(f"Line {row.line}: the team match is a forfeit; this table's bullseyes are not "
                                "imported.")
        totals = None
    if totals is not None:
        table.totals = {"games_a": totals["a"], "games_b": totals["b"], "hang_jacks_a": totals["hang_jacks_a"],
                        "hang_jacks_b": totals["hang_jacks_b"], "chalks_a": totals["chalks_a"],
                        "chalks_b": totals["chalks_b"]}
        if row["winner"] and ok and not match.bad:
            a, b = totals["a"], totals["b"]
            won = "a" if a > b else "b" if b > a else TeamMatch.DRAW
            _check_winner(job, row, match, won, f"the table's bullseyes are {a}–{b}",
                          pairs=(table.pair_a, table.pair_b))
    if not ok:
        match.bad = True
    match.tables.append(table)


def _check_table_numbers(job: ImportJob, match: _TeamMatch) -> None:
    seen: dict[int, int] = {}
    for table in match.tables:
        if table.number in seen:
            job.fail(table.row, "table", f"table {table.number} of this team match is already on line "
                                         f"{seen[table.number]}")
            match.bad = True
        seen.setdefault(table.number, table.row.line)
    match.tables.sort(key=lambda t: t.number)


def _check_winner(job: ImportJob, row: Row, match: _TeamMatch, won: str, because: str,
                  pairs: tuple[Partnership | None, Partnership | None] = (None, None)) -> None:
    """The row's winner cell, when given, must be what the results make it (``won``: ``a``, ``b``, ``d`` for a
    draw, ``""`` for nobody); a table's winner may be named by its pair."""
    assert match.team_a is not None and match.team_b is not None
    text = row["winner"]
    names = {side: [team.name, *([pair.display_name, pair.name] if pair is not None else [])]
             for side, team, pair in (("a", match.team_a, pairs[0]), ("b", match.team_b, pairs[1]))}
    try:
        said = TeamMatch.DRAW if normalise(text) in DRAW_WORDS else parse_side(text, names)
    except CellError:
        job.fail(row, "winner", f"must be A or B (or a team's name), or draw; got {text!r}")
        match.bad = True
        return
    if said != won:
        claim = "it was a draw" if said == TeamMatch.DRAW else \
            f"{(match.team_a if said == 'a' else match.team_b).name} won"
        job.fail(row, "winner", f"says {claim}, but {because}")
        match.bad = True


# ----------------------------------------------------------------------------- duplicates
def _check_duplicates(job: ImportJob, matches: list[_TeamMatch], competition: Competition) -> None:
    """The same teams twice in one round (or, without rounds, on one date) of the file; a team in two team
    matches of a round (of the file, or the file's and one stored); a team match already stored with a result."""
    by_round: dict[tuple, TeamMatch] = {}
    by_date: dict[tuple, TeamMatch] = {}
    playing: dict[tuple[int, int], TeamMatch] = {}
    for existing in TeamMatch.objects.filter(competition=competition).select_related("round"):
        teams = frozenset((existing.team_a_id, existing.team_b_id))
        if existing.round is not None:
            by_round[(existing.round.number, teams)] = existing
            number = existing.round.number
            playing[(number, existing.team_a_id)] = playing[(number, existing.team_b_id)] = existing
        day = timezone.localdate(existing.scheduled_at) if existing.scheduled_at else \
            (existing.round.starts_on if existing.round else None)
        if day is not None:
            by_date[(day, teams)] = existing
    seen: dict[tuple, int] = {}
    in_round: dict[tuple[int, int], int] = {}
    for match in matches:
        if match.bad or (match.round is None and match.date is None):
            continue
        assert match.team_a is not None and match.team_b is not None
        teams = frozenset((match.team_a.pk, match.team_b.pk))
        key = (match.round, teams) if match.round is not None else (match.date, teams)
        when = f"in round {match.round}" if match.round is not None else f"on {match.date:%d/%m/%Y}"
        if key in seen:
            job.fail(match.row, "side_a", f"{match.teams} {when} is already on line {seen[key]}")
            match.bad = True
            continue
        seen[key] = match.row.line
        stored = by_round.get(key) if match.round is not None else by_date.get(key)
        if match.round is not None and _twice_in_round(job, match, stored, playing, in_round):
            match.bad = True
            continue
        if stored is None:
            continue
        if _has_result(stored):
            job.fail(match.row, "side_a", f"{match.teams} {when} already has a result "
                                          f"({stored.bullseyes_a}–{stored.bullseyes_b})")
            match.bad = True
        elif match.round is None:
            hint = f"of {stored.round}: give its round" if stored.round else \
                "without a round: enter its result on the team match page"
            job.fail(match.row, "side_a", f"{match.teams} {when} is already a fixture {hint}")
            match.bad = True
        elif stored.team_a_id != match.team_a.pk:
            job.fail(match.row, "side_a", f"round {match.round} has this team match as {stored}: swap the teams")
            match.bad = True


def _twice_in_round(job: ImportJob, match: _TeamMatch, stored: TeamMatch | None,
                    playing: dict[tuple[int, int], TeamMatch], in_round: dict[tuple[int, int], int]) -> bool:
    """A team of ``match`` already plays another team match of its round: on an earlier line, or stored."""
    twice = False
    for key, team in (("side_a", match.team_a), ("side_b", match.team_b)):
        assert team is not None and match.round is not None
        line = in_round.get((match.round, team.pk))
        other = playing.get((match.round, team.pk))
        if line is not None:
            job.fail(match.row, key, f"{team.name} already plays in round {match.round} on line {line}")
            twice = True
        elif other is not None and (stored is None or other.pk != stored.pk):
            job.fail(match.row, key, f"{team.name} already plays {other} in round {match.round}")
            twice = True
        in_round.setdefault((match.round, team.pk), match.row.line)
    return twice


def _has_result(team_match: TeamMatch) -> bool:
    return team_match.status != TeamMatch.SCHEDULED or team_match.outcome != Match.PLAYED \
        or team_match.result_level != HAND_LEVEL \
        or team_match.table_matches.exclude(status=Match.SCHEDULED, result_level=HAND_LEVEL).exists()


# ----------------------------------------------------------------------------- storing
class _Failed(Exception):  # noqa: N818 — rolls back the savepoint of one team match
    pass


def _store(job: ImportJob, competition: Competition, match: _TeamMatch, rounds: dict[int, Round],
       dates: dict[int, date]) -> None:
    """Create (or find, when the round already has the fixture) one team match, seat its tables, and store its
    result through the services; an ``EntryError`` becomes an error of the row and rolls back this team match."""
    assert match.team_a is not None and match.team_b is not None
    round_, scheduled_at = fixture_round(job, competition, match.row, match.round, match.date, rounds, dates,
                                         _Failed)
    stored = None
    if round_ is not None:
        stored = TeamMatch.objects.filter(competition=competition, round=round_, team_a=match.team_a,
                                          team_b=match.team_b).first()
    line_up = _line_up(match) or None
    row = match.row
    try:
        if stored is None:
            stored = services.create_team_match(competition, match.team_a, match.team_b, round=round_,
                                                tables=line_up, venue=match.venue, scheduled_at=scheduled_at)
            job.report.count("team matches")
        else:
            if match.venue and not stored.venue:
                stored.venue = match.venue
                stored.save(update_fields=["venue", "updated_at"])
            if line_up:
                _seat(job, stored, match)
        if match.totals is not None:
            services.record_team_totals(stored, user=job.user, author_label=job.author_label, **match.totals)
            job.report.count("results")
        seated = {table.table_number: table for table in stored.table_matches.all()}
        recorded = 0
        for table in match.tables:
            if table.totals is not None:
                row = table.row
                services.record_match_totals(seated[table.number], user=job.user, author_label=job.author_label,
                                             **table.totals)
                recorded += 1
        if recorded:
            job.report.count("results")
            job.report.count("table results", recorded)
        if match.forfeit:
            row = match.row
            services.record_team_forfeit(stored, outcome=match.forfeit, user=job.user, author_label=job.author_label)
            job.report.count("forfeits")
    except services.EntryError as error:
        row, column = _error_place(job, match, row, error.field)
        job.fail(row, column, error.reason if column or error.field in SERVICE_COLUMNS else
                 f"{error.field}: {error.reason}")
        raise _Failed from None
    except DatabaseError as error:  # a value the database refuses: the row's error, never a failed import
        job.fail(row, "", f"could not be stored: {error}")
        raise _Failed from None


def _line_up(match: _TeamMatch) -> list[tuple[Partnership, Partnership]]:
    """The pairs at the match's tables: a table is stored with both its pairs (a row without one fails)."""
    return cast("list[tuple[Partnership, Partnership]]", [(table.pair_a, table.pair_b) for table in match.tables])


def _seat(job: ImportJob, stored: TeamMatch, match: _TeamMatch) -> None:
    """The file's line-up for a fixture already stored: seated when it has no tables, else the same pairs."""
    seated = list(stored.table_matches.order_by("table_number"))
    if not seated:
        services.set_team_tables(stored, _line_up(match))
        return
    by_number = {table.table_number: table for table in seated}
    for table in match.tables:
        there = by_number.get(table.number)
        assert table.pair_a is not None and table.pair_b is not None  # a table is stored with both its pairs
        if there is None or (there.side_a_id, there.side_b_id) != (table.pair_a.pk, table.pair_b.pk):
            what = f"{there.side_a_name} v {there.side_b_name}" if there else "not there"
            job.fail(table.row, "team_a_pair", f"the team match {stored} is stored with its tables: table "
                                               f"{table.number} is {what}")
            raise _Failed


def _error_place(job: ImportJob, match: _TeamMatch, row: Row, field_: str) -> tuple[Row, str]:
    """The row and column of a service's field: a table's pair on that table's row."""
    found = TABLE_FIELD.fullmatch(field_)
    if found and int(found.group(1)) < len(match.tables):
        table_row = match.tables[int(found.group(1))].row
        return table_row, f"team_{found.group(2)}_pair" if found.group(2) else "table"
    column = SERVICE_COLUMNS.get(field_, field_)
    return row, column if column in job.report.positions else ""
