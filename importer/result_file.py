"""The steps of a results file that both its importers take — ``importer.results`` (a competition of partnerships:
one row a match or a game) and ``importer.team_results`` (a team competition: one row a team match or a table).

:class:`ResultFile` runs them in order: the rows, at most ``MAX_RESULT_ROWS``; bye rows set aside
(``importer.byes``); each other row read into a fixture (the importer's own step: :meth:`ResultFile.read`), its
round, date, plain-text cells and sides read here (:meth:`ResultFile.read_fixture`), a fixture of several rows
grouped by its match key or its round and sides (:meth:`ResultFile.fixture_of`); fixtures the file gives twice, or
that clash with one stored (:meth:`ResultFile.check_duplicates`); then each good fixture stored in a savepoint of
its own (the importer's :meth:`ResultFile.store_fixture`, in the round :meth:`ResultFile.fixture_round` finds or
makes), a service's ``EntryError`` becoming the error of the row that gave the value (:meth:`ResultFile.blame`),
and the byes last. The report the organiser reads is the job's: nothing is kept unless the whole file is good.

An importer says what differs: its words ("side"/"match", "team"/"team match"), its stored model and the fields
of its sides and score, its plain-text cells, how a cell names a side, and how its rows become a result.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any, ClassVar, Generic, TypeVar

from django.db import DatabaseError, models, transaction
from django.utils import timezone

from draw.errors import RoundError
from draw.fixtures import get_or_add_round
from draw.models import Round
from games import services
from games.models import Match, TeamMatch
from importer.byes import ByeRow, bye_side, read_bye, round_dates, store_byes
from importer.cells import CellError, check_length, db_max, name_key, normalise, parse_date, parse_int, parse_round
from importer.job import ImportJob, refresh_after_commit
from importer.reading import Row
from league.models import Competition

MAX_RESULT_ROWS = 20_000  # a results file's rows at most: each match is stored through the services, one by one
# the database's ranges of a match's totals (a team's table is a match too); what the rules allow (engine/limits.py)
# is checked by the games services each row goes through
MAX_CHALKS = db_max(Match, "chalks_a")
MAX_HANG_JACKS = db_max(Match, "hang_jacks_a")


class FixtureFailed(Exception):  # noqa: N818 — rolls back the savepoint of one fixture
    pass


@dataclass
class Fixture:
    """One match (or team match) of a results file: its first row, its sides, round, date and plain-text cells,
    whether any of its rows is bad, and the lines it was read from. Each importer adds its result's fields."""

    row: Row
    side_a: Any = None
    side_b: Any = None
    round: int | None = None
    date: date | None = None
    venue: str = ""
    bad: bool = False
    lines: list[int] = field(default_factory=list)


F = TypeVar("F", bound=Fixture)


def limited_rows(job: ImportJob, rows: Iterable[Row]) -> Iterator[Row]:
    """The rows of a results file, up to ``MAX_RESULT_ROWS`` (a results file is held whole: a match's games may be
    on any of its rows)."""
    for n, row in enumerate(rows, start=1):
        if n > MAX_RESULT_ROWS:
            job.fail(row, "", f"a results file has at most {MAX_RESULT_ROWS:,} rows: split it into several files "
                              "(nothing after this line was read)")
            return
        yield row


def two_counts(job: ImportJob, row: Row, keys: tuple[str, str], maximum: int) -> tuple[int | None, int | None, bool]:
    """Two cells read as whole numbers within the database's range (blank: ``None``); the third value says whether
    both could be read. Whether one may be given without the other is the services' rule (``games.services``:
    both sides' chalks, or neither)."""
    a = job.cell(row, keys[0], lambda t: parse_int(t, maximum=maximum))
    b = job.cell(row, keys[1], lambda t: parse_int(t, maximum=maximum))
    return a, b, (a is not None or not row[keys[0]]) and (b is not None or not row[keys[1]])


def hang_jacks(text: str) -> int:
    """A hang jacks cell, within the database's range of a match's."""
    return parse_int(text, maximum=MAX_HANG_JACKS)


def games_won(job: ImportJob, row: Row, maximum: int, what: str) -> tuple[int | None, int | None, bool]:
    """A row's games (or bullseyes) won by each side: both blank is a fixture not yet played, so one alone is an
    error ("give the ``what`` or for neither")."""
    a, b, ok = two_counts(job, row, ("games_a", "games_b"), maximum)
    if ok and (a is None) != (b is None):
        job.fail(row, "games_a" if a is None else "games_b", f"give the {what} or for neither")
        ok = False
    return a, b, ok


@dataclass
class RowTotals:
    """A row's totals as read: each side's games (or bullseyes), chalks and hang jacks (blank games or chalks:
    ``None``; blank hang jacks: 0), and whether every cell could be read."""

    games_a: int | None
    games_b: int | None
    chalks_a: int | None
    chalks_b: int | None
    hang_jacks_a: int | None
    hang_jacks_b: int | None
    ok: bool

    def values(self, games: str = "games") -> dict[str, Any]:
        """The totals as the services take them (``games``: ``bullseyes`` for a team match's)."""
        return {f"{games}_a": self.games_a, f"{games}_b": self.games_b, "hang_jacks_a": self.hang_jacks_a,
                "hang_jacks_b": self.hang_jacks_b, "chalks_a": self.chalks_a, "chalks_b": self.chalks_b}


def read_totals(job: ImportJob, row: Row, max_games: int, what: str) -> RowTotals:
    """A row's totals (``what``: how :func:`games_won` asks for both sides' games)."""
    games_a, games_b, ok_games = games_won(job, row, max_games, what)
    chalks_a, chalks_b, ok_chalks = two_counts(job, row, ("chalks_a", "chalks_b"), MAX_CHALKS)
    hang_a = job.cell(row, "hang_jacks_a", hang_jacks, 0)
    hang_b = job.cell(row, "hang_jacks_b", hang_jacks, 0)
    return RowTotals(games_a, games_b, chalks_a, chalks_b, hang_a, hang_b,
                     ok_games and ok_chalks and hang_a is not None and hang_b is not None)


def parse_outcome(text: str) -> str:
    """``played`` or a forfeit, by its key (``forfeit_a``) or its label ("Side A forfeited (no-show)")."""
    key = normalise(text)
    for value, label in Match.OUTCOMES:
        if key in (normalise(value), normalise(label)):
            return value
    raise CellError(f"must be one of {', '.join(value for value, _ in Match.OUTCOMES)}, got {text!r}")


def is_unfinished(row: Row) -> bool:
    """The row's status says the match was not over (an export of a match in play): its score is not a result."""
    return normalise(row["status"]) in ("scheduled", "in progress")


def fill_blanks(stored: models.Model, **values: str) -> None:
    """A fixture already stored takes the file's table and venue where it has none."""
    changed = [name for name, value in values.items() if value and not getattr(stored, name)]
    for name in changed:
        setattr(stored, name, values[name])
    if changed:
        stored.save(update_fields=[*changed, "updated_at"])


class ResultFile(Generic[F]):
    """The pipeline of one results file (see the module's docstring); a subclass fills in what its kind does,
    its fixtures of the type ``F``."""

    noun: ClassVar[str]  # one fixture, in the errors: "match", "team match"
    side_word: ClassVar[str]  # one side, in the errors: "side", "team"
    model: ClassVar[type[Match] | type[TeamMatch]]  # what a fixture is stored as
    stored_sides: ClassVar[tuple[str, str]]  # the model's fields of the two sides
    stored_score: ClassVar[tuple[str, str]]  # the model's fields of the score the errors quote
    text_cells: ClassVar[dict[str, int]]  # a fixture's plain-text cells (beside venue: table) and their lengths
    group_cells: ClassVar[tuple[str, ...]]  # beside the sides, what tells apart a grouped fixture without a key
    service_columns: ClassVar[dict[str, str]]  # a service's field → the file's column ("": the row's)
    once_a_round: ClassVar[bool] = False  # refuse a side in two fixtures of a round (else the services judge it)
    check_rows_of_bad_fixtures: ClassVar[bool] = False  # a bad fixture's later rows still checked against its first

    def __init__(self, job: ImportJob, competition: Competition) -> None:
        self.job = job
        self.competition = competition

    # ------------------------------------------------------------------------- what each importer says
    def find_side(self, row: Row, key: str) -> Any:
        """The side the cell ``key`` names, or ``None`` once its error is reported."""
        raise NotImplementedError

    def side_name(self, side: Any) -> str:
        raise NotImplementedError

    def read(self, rows: Iterator[Row]) -> list[Any]:
        """The file's fixtures, each with its result, read from its rows (byes already set aside)."""
        raise NotImplementedError

    def has_result(self, stored: Any) -> bool:
        raise NotImplementedError

    def store_fixture(self, fixture: Any, stored: Any, round_: Round | None, scheduled_at: datetime | None) -> None:
        """Store one good fixture (``stored``: the round's fixture already stored, or ``None``) through the
        services, each call within :meth:`blame`; raise ``FixtureFailed`` to roll it back alone."""
        raise NotImplementedError

    def other_sides(self, row: Row, fixture: Fixture) -> str:
        """Why a later row naming other sides than its fixture's first row is refused."""
        raise NotImplementedError

    # ------------------------------------------------------------------------- the pipeline
    def run(self) -> None:
        byes: list[ByeRow] = []
        fixtures = self.read(self.without_byes(limited_rows(self.job, self.job.rows), byes))
        self.check_duplicates(fixtures)
        self.store_all(fixtures, byes)

    def vs(self, fixture: Fixture) -> str:
        return f"{self.side_name(fixture.side_a)} v {self.side_name(fixture.side_b)}"

    def without_byes(self, rows: Iterable[Row], byes: list[ByeRow]) -> Iterator[Row]:
        """The rows that are not byes; each bye row is read into ``byes``."""
        for row in rows:
            key = bye_side(row)
            if not key:
                yield row
                continue
            bye = read_bye(self.job, row, key, self.find_side)
            if bye is not None:
                byes.append(bye)

    def read_fixture(self, row: Row, fixture: Fixture) -> None:
        """A fixture's first row: its round, date, plain-text cells and sides."""
        job = self.job
        fixture.round = job.cell(row, "round", lambda t: parse_round(t, maximum=db_max(Round, "number")))
        fixture.date = job.cell(row, "date", parse_date)
        for key, length in self.text_cells.items():
            setattr(fixture, key, job.cell(row, key, functools.partial(check_length, limit=length), ""))
        for key in ("side_a", "side_b"):
            if job.required(row, key, f"{self.side_word} {key[-1].upper()}"):
                setattr(fixture, key, self.find_side(row, key))
        if fixture.side_a is None or fixture.side_b is None or (row["round"] and fixture.round is None) \
                or (row["date"] and fixture.date is None) \
                or any(getattr(fixture, key) is None for key in self.text_cells):
            fixture.bad = True

    def fixture_of(self, row: Row, groups: dict[Any, F], new: Callable[[Row], F]) -> tuple[F, bool]:
        """The fixture of a row of several rows a fixture (games, tables), grouped by its match key, or by its
        round and sides; whether it is the fixture's first row (read with :meth:`read_fixture`; a later row must
        agree with it)."""
        key: Any = ("key", name_key(row["match"])) if row["match"] else \
            ("sides", *(row[cell] for cell in self.group_cells), name_key(row["side_a"]), name_key(row["side_b"]))
        fixture = groups.get(key)
        first = fixture is None
        if fixture is None:
            fixture = groups[key] = new(row)
            self.read_fixture(row, fixture)
        elif not fixture.bad or self.check_rows_of_bad_fixtures:
            self.check_same_fixture(row, fixture)
        fixture.lines.append(row.line)
        return fixture, first

    def check_same_fixture(self, row: Row, fixture: Fixture) -> None:
        """A later row of a fixture: the cells it fills must agree with the fixture's first row."""
        first = fixture.row
        for key in ("side_a", "side_b"):
            if row[key] and fixture.side_a and fixture.side_b:
                side = self.find_side(row, key)
                if side is not None and side.pk != getattr(fixture, key).pk:
                    self.job.fail(row, key, self.other_sides(row, fixture))
        for key in ("round", "date", *self.text_cells):
            if row[key] and first[key] and row[key] != first[key]:
                self.job.fail(row, key, f"the {self.noun}'s first row (line {first.line}) says {first[key]!r}")

    def check_numbers(self, fixture: Fixture, items: list[Any], column: str) -> None:
        """A fixture's games (or tables), each by its ``number`` in ``column``: no number twice; sorted by it, as
        the services store them in order."""
        seen: dict[int, int] = {}
        for item in items:
            if item.number in seen:
                self.job.fail(item.row, column, f"{column} {item.number} of this {self.noun} is already on line "
                                                f"{seen[item.number]}")
                fixture.bad = True
            seen.setdefault(item.number, item.row.line)
        items.sort(key=lambda item: item.number)

    # ------------------------------------------------------------------------- duplicates
    def check_duplicates(self, fixtures: list[Fixture]) -> None:
        """The same two sides twice in one round (or, without rounds, on one date) of the file; a round's fixture
        that already has a result; a fixture without a round on a date that already has one between the sides;
        with ``once_a_round``, a side in two fixtures of a round (of the file, or the file's and one stored)."""
        by_round: dict[tuple, Any] = {}
        by_date: dict[tuple, Any] = {}
        playing: dict[tuple[int, int], Any] = {}
        field_a, field_b = (f"{name}_id" for name in self.stored_sides)
        for existing in self.model.objects.filter(competition=self.competition).select_related("round"):
            sides = frozenset((getattr(existing, field_a), getattr(existing, field_b)))
            if existing.round is not None:
                by_round[(existing.round.number, sides)] = existing
                for side in sides:
                    playing[(existing.round.number, side)] = existing
            day = timezone.localdate(existing.scheduled_at) if existing.scheduled_at else \
                (existing.round.starts_on if existing.round else None)
            if day is not None:
                by_date[(day, sides)] = existing
        seen: dict[tuple, int] = {}
        in_round: dict[tuple[int, int], int] = {}
        for fixture in fixtures:
            if fixture.bad or (fixture.round is None and fixture.date is None):
                continue
            assert fixture.side_a is not None and fixture.side_b is not None
            sides = frozenset((fixture.side_a.pk, fixture.side_b.pk))
            key = (fixture.round, sides) if fixture.round is not None else (fixture.date, sides)
            when = f"in round {fixture.round}" if fixture.round is not None else f"on {fixture.date:%d/%m/%Y}"
            if key in seen:
                self.job.fail(fixture.row, "side_a", f"{self.vs(fixture)} {when} is already on line {seen[key]}")
                fixture.bad = True
                continue
            seen[key] = fixture.row.line
            stored = by_round.get(key) if fixture.round is not None else by_date.get(key)
            if self.once_a_round and fixture.round is not None \
                    and self._twice_in_round(fixture, stored, playing, in_round):
                fixture.bad = True
                continue
            if stored is not None:
                self._check_stored(fixture, stored, when)

    def _check_stored(self, fixture: Fixture, stored: Any, when: str) -> None:
        """The file's fixture is stored already (``stored``): its result may be added once, in its round."""
        score_a, score_b = (getattr(stored, name) for name in self.stored_score)
        if self.has_result(stored):
            reason = f"{self.vs(fixture)} {when} already has a result ({score_a}–{score_b})"
        elif fixture.round is None:
            hint = f"of {stored.round}: give its round" if stored.round else \
                f"without a round: enter its result on the {self.noun} page"
            reason = f"{self.vs(fixture)} {when} is already a fixture {hint}"
        elif getattr(stored, f"{self.stored_sides[0]}_id") != fixture.side_a.pk:
            reason = f"round {fixture.round} has this {self.noun} as {stored}: swap the {self.side_word}s"
        else:
            return
        self.job.fail(fixture.row, "side_a", reason)
        fixture.bad = True

    def _twice_in_round(self, fixture: Fixture, stored: Any, playing: dict[tuple[int, int], Any],
                        in_round: dict[tuple[int, int], int]) -> bool:
        """A side of ``fixture`` already plays another fixture of its round: on an earlier line, or stored."""
        twice = False
        for key, side in (("side_a", fixture.side_a), ("side_b", fixture.side_b)):
            assert side is not None and fixture.round is not None
            line = in_round.get((fixture.round, side.pk))
            other = playing.get((fixture.round, side.pk))
            if line is not None:
                self.job.fail(fixture.row, key, f"{self.side_name(side)} already plays in round {fixture.round} on "
                                                f"line {line}")
                twice = True
            elif other is not None and (stored is None or other.pk != stored.pk):
                self.job.fail(fixture.row, key, f"{self.side_name(side)} already plays {other} in round "
                                                f"{fixture.round}")
                twice = True
            in_round.setdefault((fixture.round, side.pk), fixture.row.line)
        return twice

    # ------------------------------------------------------------------------- storing
    def store_all(self, fixtures: list[Fixture], byes: list[ByeRow]) -> None:
        """Store the file's fixtures, each in a savepoint of its own, skipping those with an error, then its
        byes."""
        competition = self.competition
        bad_lines = {error["line"] for error in self.job.report.errors}
        rounds = {r.number: r for r in Round.objects.filter(competition=competition)}
        dates = round_dates(fixtures, byes)
        for fixture in fixtures:
            if fixture.bad or bad_lines.intersection(fixture.lines):
                continue
            try:
                with transaction.atomic():
                    self.store(fixture, rounds, dates)
            except FixtureFailed:
                rounds = {r.number: r for r in Round.objects.filter(competition=competition)}  # rolled back with it
        if store_byes(self.job, competition, byes, dates):
            refresh_after_commit([competition.pk])  # no settle follows a bye

    def store(self, fixture: Fixture, rounds: dict[int, Round], dates: dict[int, date]) -> None:
        """Create (or find, when the round already has the fixture) one fixture and store its result."""
        assert fixture.side_a is not None and fixture.side_b is not None
        round_, scheduled_at = self.fixture_round(fixture, rounds, dates)
        stored = None
        if round_ is not None and round_.pk:
            side_a, side_b = self.stored_sides
            stored = self.model.objects.filter(competition=self.competition, round=round_,
                                               **{side_a: fixture.side_a, side_b: fixture.side_b}).first()
        self.store_fixture(fixture, stored, round_, scheduled_at)

    def fixture_round(self, fixture: Fixture, rounds: dict[int, Round],
                      dates: dict[int, date]) -> tuple[Round | None, datetime | None]:
        """The round a fixture of the file goes in — made when the competition has no round of its number yet,
        dated by the file's first date for it (``dates``), and counted — and the fixture's own time when its date
        is not the round's. A round that cannot be made is the row's error."""
        round_ = None
        if fixture.round is not None:
            round_ = rounds.get(fixture.round)
            if round_ is None:
                try:
                    round_, made = get_or_add_round(self.competition, fixture.round, starts_on=dates.get(fixture.round))
                except RoundError as error:
                    self.job.fail(fixture.row, "round", error.reason)
                    raise FixtureFailed from None
                rounds[fixture.round] = round_
                if made:
                    self.job.report.count("rounds")
        scheduled_at = None
        if fixture.date is not None and (round_ is None or round_.starts_on != fixture.date):
            scheduled_at = timezone.make_aware(datetime.combine(fixture.date, time(0, 0)))
        return round_, scheduled_at

    @contextlib.contextmanager
    def blame(self, fixture: F, row: Row) -> Iterator[None]:
        """Calls of the services for ``row``: an ``EntryError`` is an error of that row, in the column of the file
        that holds its field, and a value the database refuses the row's error too (never a failed import); either
        rolls the fixture back (``FixtureFailed``)."""
        try:
            yield
        except services.EntryError as error:
            row, column = self.error_place(fixture, row, error.field)
            self.job.fail(row, column, error.reason if column or error.field in self.service_columns else
                          f"{error.field}: {error.reason}")
            raise FixtureFailed from None
        except DatabaseError as error:
            self.job.fail(row, "", f"could not be stored: {error}")
            raise FixtureFailed from None

    def error_place(self, fixture: F, row: Row, field_: str) -> tuple[Row, str]:
        """The row and column of a service's field (blank: the file has no such column)."""
        return row, self.job.column_for(field_, self.service_columns)
