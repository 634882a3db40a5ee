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

The steps both results files take — the row limit, byes, a team match's round, date, venue and teams, grouping the
table rows, refusing a file that would store a team match twice, a team twice in a round, or a result over one
stored, storing each team match in a savepoint — are ``importer.result_file``'s. What is this importer's own:
finding the teams and their pairs by name, and reading a row's totals, forfeit or table into the team match's
result.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from draw.models import Round
from games import services
from games.models import HAND_LEVEL, Match, TeamMatch
from importer.cells import CellError, db_max, normalise, parse_int, parse_side
from importer.job import ImportJob
from importer.lookup import TeamIndex
from importer.reading import Row
from importer.result_file import (
    Fixture,
    FixtureFailed,
    ResultFile,
    RowTotals,
    fill_blanks,
    is_unfinished,
    parse_outcome,
    read_totals,
)
from league.models import Competition, Partnership, Team

MAX_BULLSEYES = db_max(TeamMatch, "bullseyes_a")
DRAW_WORDS = {"draw", "drawn", "d", "tie", "tied", "level", "halved"}
TABLE_FIELD = re.compile(r"tables\[(\d+)\](?:\.side_([ab]))?")


@dataclass
class _Table:
    row: Row
    number: int
    pair_a: Partnership | None = None
    pair_b: Partnership | None = None
    totals: dict[str, Any] | None = None

    def pairs(self) -> tuple[Partnership, Partnership]:
        """The pair of each team seated here, of a table of a good team match (a table missing one is bad)."""
        assert self.pair_a is not None and self.pair_b is not None
        return self.pair_a, self.pair_b


@dataclass
class _TeamMatch(Fixture):
    """One team match of the file: as any fixture, and either its overall totals or its tables (``by_tables``),
    or its forfeit (of the line that first gave it)."""

    side_a: Team | None = None
    side_b: Team | None = None
    by_tables: bool = False
    totals: dict[str, Any] | None = None
    forfeit: str = ""
    forfeit_line: int = 0
    tables: list[_Table] = field(default_factory=list)


def import_team_results(job: ImportJob) -> None:
    competition = job.competition
    assert competition is not None and competition.entrant_kind == Competition.TEAMS
    TeamResults(job, competition).run()


class TeamResults(ResultFile[_TeamMatch]):
    """A results file of a team competition: one row a team match, or one row a table of it."""

    noun = "team match"
    side_word = "team"
    model = TeamMatch
    stored_sides = ("team_a", "team_b")
    stored_score = ("bullseyes_a", "bullseyes_b")
    text_cells = {"venue": cast(int, TeamMatch._meta.get_field("venue").max_length)}
    group_cells = ("round", "date")
    service_columns = {"bullseyes_a": "games_a", "bullseyes_b": "games_b", "team_a": "side_a", "team_b": "side_b",
                       "tables": "table", "number": "games_a", "winner": "games_a", "team_match": "", "match": "",
                       "competition": "", "outcome": "outcome", "round": "round"}
    once_a_round = True
    check_rows_of_bad_fixtures = True

    def __init__(self, job: ImportJob, competition: Competition) -> None:
        super().__init__(job, competition)
        self.teams = TeamIndex(competition)

    def find_side(self, row: Row, key: str) -> Team | None:
        return self.job.cell(row, key, self.teams.find)

    def side_name(self, side: Team) -> str:
        return side.name

    def other_sides(self, row: Row, fixture: Fixture) -> str:
        return f"the team match of line {fixture.row.line} is {self.vs(fixture)}"

    def has_result(self, stored: TeamMatch) -> bool:
        return stored.status != TeamMatch.SCHEDULED or stored.outcome != Match.PLAYED \
            or stored.result_level != HAND_LEVEL \
            or stored.table_matches.exclude(status=Match.SCHEDULED, result_level=HAND_LEVEL).exists()

    # ------------------------------------------------------------------------- reading
    def read(self, rows: Iterator[Row]) -> list[_TeamMatch]:
        matches: list[_TeamMatch] = []
        groups: dict[Any, _TeamMatch] = {}
        for row in rows:
            if not any(row[k] for k in ("table", "team_a_pair", "team_b_pair")):
                match = _TeamMatch(row, lines=[row.line])
                self.read_fixture(row, match)
                self._read_totals(row, match)
                matches.append(match)
                continue
            match, first = self.fixture_of(row, groups, functools.partial(_TeamMatch, by_tables=True))
            if first:
                matches.append(match)
            self._read_table(row, match)
        for match in groups.values():
            self.check_numbers(match, match.tables, "table")
        return matches

    def _scores(self, row: Row) -> tuple[RowTotals | None, bool]:
        """A row's bullseyes, chalks and hang jacks (``None`` when both bullseyes are blank: not played yet); the
        second value says whether every cell could be read."""
        job = self.job
        totals = read_totals(job, row, MAX_BULLSEYES, "bullseyes for both teams")
        if not totals.ok:
            return None, False
        if totals.games_a is None:
            if totals.chalks_a is not None or totals.chalks_b is not None or totals.hang_jacks_a \
                    or totals.hang_jacks_b:
                job.fail(row, "games_a", "the bullseyes are blank (not played yet) but chalks or hang jacks are "
                                         "given")
                return None, False
            return None, True
        if is_unfinished(row):
            if totals.games_a or totals.games_b:
                job.report.notes.append(f"Line {row.line}: {row['status']}; imported without its unfinished score "
                                        f"({totals.games_a}–{totals.games_b}).")
            return None, True
        return totals, True

    def _read_outcome(self, row: Row, match: _TeamMatch) -> bool:
        outcome = self.job.cell(row, "outcome", parse_outcome, Match.PLAYED)
        if outcome is None:
            return False
        if outcome == Match.PLAYED:
            return True
        if match.forfeit and match.forfeit != outcome:
            self.job.fail(row, "outcome", f"the team match is {match.forfeit} on line {match.forfeit_line}")
            return False
        match.forfeit, match.forfeit_line = outcome, match.forfeit_line or row.line
        return True

    def _read_totals(self, row: Row, match: _TeamMatch) -> None:
        totals, ok = self._scores(row)
        if not self._read_outcome(row, match) or not ok:
            match.bad = True
            return
        if match.bad:
            return
        if match.forfeit:
            if totals and (totals.games_a or totals.games_b):
                self.job.report.notes.append(f"Line {row.line}: a forfeit; its bullseyes ({totals.games_a}–"
                                             f"{totals.games_b}) are not imported.")
            if row["winner"]:
                won = services.FORFEIT_WINNER[match.forfeit]
                self._check_winner(row, match, won, f"the outcome is {match.forfeit}")
            return
        if totals is None:
            return
        assert totals.games_a is not None and totals.games_b is not None  # _scores: both bullseyes or no totals
        match.totals = totals.values("bullseyes")
        if row["winner"]:
            competition = self.competition
            shape = TeamMatch(mode=competition.team_mode, target=competition.team_target,
                              tables=competition.team_tables, games_per_table=competition.team_games_per_table)
            won = services.team_winner(shape, totals.games_a, totals.games_b, all_played=True)
            if won:  # no winner: totals that are not a result, which the service refuses with its reason
                self._check_winner(row, match, won, f"the bullseyes are {totals.games_a}–{totals.games_b}")

    def _read_table(self, row: Row, match: _TeamMatch) -> None:
        job = self.job
        competition = self.competition
        number = job.cell(row, "table", lambda t: parse_int(t, minimum=1, maximum=competition.team_tables,
                                                            what="a table number"), len(match.tables) + 1)
        table = _Table(row, number or 0)
        ok = number is not None
        for side, team in (("a", match.side_a), ("b", match.side_b)):
            key = f"team_{side}_pair"
            if not job.required(row, key, f"team {side.upper()}'s pair at the table"):
                ok = False
            elif team is not None:
                pair = job.cell(row, key, functools.partial(self.teams.pair, team))
                setattr(table, f"pair_{side}", pair)
                ok = ok and pair is not None
        totals, ok_scores = self._scores(row)
        if not self._read_outcome(row, match) or not ok_scores:
            ok = False
        if totals is not None and match.forfeit:
            job.report.notes.append(f"Line {row.line}: the team match is a forfeit; this table's bullseyes are not "
                                    "imported.")
            totals = None
        if totals is not None:
            table.totals = totals.values()
            if row["winner"] and ok and not match.bad:
                a, b = totals.games_a, totals.games_b
                assert a is not None and b is not None  # _scores: both bullseyes or no totals
                won = "a" if a > b else "b" if b > a else TeamMatch.DRAW
                self._check_winner(row, match, won, f"the table's bullseyes are {a}–{b}",
                                   pairs=(table.pair_a, table.pair_b))
        if not ok:
            match.bad = True
        match.tables.append(table)

    def _check_winner(self, row: Row, match: _TeamMatch, won: str, because: str,
                      pairs: tuple[Partnership | None, Partnership | None] = (None, None)) -> None:
        """The row's winner cell, when given, must be what the results make it (``won``: ``a``, ``b``, ``d`` for a
        draw, ``""`` for nobody); a table's winner may be named by its pair."""
        assert match.side_a is not None and match.side_b is not None
        text = row["winner"]
        names = {side: [team.name, *([pair.display_name, pair.name] if pair is not None else [])]
                 for side, team, pair in (("a", match.side_a, pairs[0]), ("b", match.side_b, pairs[1]))}
        try:
            said = TeamMatch.DRAW if normalise(text) in DRAW_WORDS else parse_side(text, names)
        except CellError:
            self.job.fail(row, "winner", f"must be A or B (or a team's name), or draw; got {text!r}")
            match.bad = True
            return
        if said != won:
            claim = "it was a draw" if said == TeamMatch.DRAW else \
                f"{(match.side_a if said == 'a' else match.side_b).name} won"
            self.job.fail(row, "winner", f"says {claim}, but {because}")
            match.bad = True

    # ------------------------------------------------------------------------- storing
    def store_fixture(self, match: _TeamMatch, stored: TeamMatch | None, round_: Round | None,
                      scheduled_at: datetime | None) -> None:
        """Create the team match (or fill the round's fixture already stored), seat its tables, and store its
        result through the services."""
        job = self.job
        assert match.side_a is not None and match.side_b is not None  # a fixture missing a side is bad, not stored
        line_up = [table.pairs() for table in match.tables] or None
        with self.blame(match, match.row):
            if stored is None:
                stored = services.create_team_match(self.competition, match.side_a, match.side_b, round=round_,
                                                    tables=line_up, venue=match.venue, scheduled_at=scheduled_at)
                job.report.count("team matches")
            else:
                fill_blanks(stored, venue=match.venue)
                if line_up:
                    self._seat(stored, match)
            if match.totals is not None:
                services.record_team_totals(stored, user=job.user, author_label=job.author_label, **match.totals)
                job.report.count("results")
            seated = {table.table_number: table for table in stored.table_matches.all()}
        recorded = 0
        for table in match.tables:
            if table.totals is not None:
                with self.blame(match, table.row):
                    services.record_match_totals(seated[table.number], user=job.user,
                                                 author_label=job.author_label, **table.totals)
                recorded += 1
        if recorded:
            job.report.count("results")
            job.report.count("table results", recorded)
        if match.forfeit:
            with self.blame(match, match.row):
                services.record_team_forfeit(stored, outcome=match.forfeit, user=job.user,
                                             author_label=job.author_label)
            job.report.count("forfeits")

    def _seat(self, stored: TeamMatch, match: _TeamMatch) -> None:
        """The file's line-up for a fixture already stored: seated when it has no tables, else the same pairs."""
        seated = list(stored.table_matches.order_by("table_number"))
        if not seated:
            services.set_team_tables(stored, [table.pairs() for table in match.tables])
            return
        by_number = {table.table_number: table for table in seated}
        for table in match.tables:
            there = by_number.get(table.number)
            pair_a, pair_b = table.pairs()
            if there is None or (there.side_a_id, there.side_b_id) != (pair_a.pk, pair_b.pk):
                what = f"{there.side_a_name} v {there.side_b_name}" if there else "not there"
                self.job.fail(table.row, "team_a_pair", f"the team match {stored} is stored with its tables: table "
                                                        f"{table.number} is {what}")
                raise FixtureFailed

    def error_place(self, match: _TeamMatch, row: Row, field_: str) -> tuple[Row, str]:
        """The row and column of a service's field: a table's pair on that table's row."""
        found = TABLE_FIELD.fullmatch(field_)
        if found and int(found.group(1)) < len(match.tables):
            table_row = match.tables[int(found.group(1))].row
            return table_row, f"team_{found.group(2)}_pair" if found.group(2) else "table"
        return super().error_place(match, row, field_)
