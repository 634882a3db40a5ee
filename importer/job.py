"""One import under way: the club and competition it is for, who runs it, its report, its rows, and how a row's
cell or a service's refusal becomes an error of the row.

Every kind's importer (``importer.people``, ``importer.entries``, ``importer.results``) reads its rows through an
:class:`ImportJob` and stores them through the services of the app that owns them; a service's error names a
field, which the job turns into the column of the file that holds it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from importer.cells import CellError, name_key
from importer.lookup import NotFound
from importer.reading import Row
from importer.report import ImportReport
from league import setup_errors
from league.models import Club, Competition
from standings.services import refresh_standings_after_commit


@dataclass
class ImportJob:
    club: Club
    competition: Competition | None
    user: Any
    report: ImportReport
    rows: Iterable[Row] = ()
    stored_by: dict[tuple[str, int], int] = field(default_factory=dict)  # (model, pk) → the line that stored it

    @property
    def author_label(self) -> str:
        """Who stored the results, for the services' log: the user, or the command line."""
        return "" if self.user is not None else "CSV import (command line)"

    def fail(self, row: Row | int, column: str, reason: str) -> None:
        self.report.error(row if isinstance(row, int) else row.line, column, reason)

    def cell(self, row: Row, key: str, parse: Callable[[str], Any], default: Any = None) -> Any:
        """The cell read by ``parse`` (blank → ``default``); an unreadable cell is an error of the row and
        gives ``None``."""
        text = row[key]
        if not text:
            return default
        try:
            return parse(text)
        except (CellError, NotFound) as error:
            self.fail(row, key, str(error))
            return None

    def required(self, row: Row, key: str, what: str) -> bool:
        if row[key]:
            return True
        self.fail(row, key, f"{what} is required")
        return False

    def competition_of(self, row: Row, competitions: dict[str, Competition]) -> Competition | None:
        """The row's competition: its ``competition`` cell, else the one the import is for."""
        text = row["competition"]
        if not text:
            if self.competition is None:
                self.fail(row, "competition", "which competition? Name it in a competition column or choose it "
                                              "for the import")
            return self.competition
        found = competitions.get(name_key(text))
        if found is None:
            self.fail(row, "competition", f"{self.club.name} has no competition {text!r}")
        elif self.competition is not None and found.pk != self.competition.pk:
            self.fail(row, "competition", f"this import is for {self.competition.name}, not {found.name}")
            return None
        return found

    def stored(self, obj: Any, row: Row) -> None:
        self.stored_by[(type(obj).__name__, obj.pk)] = row.line

    def setup_call(self, row: Row, columns: dict[str, str], call: Callable[[], Any]) -> Any:
        """A setup service (``league.entries``, ``league.teams``, ``league.partnerships``) for one row, in a
        savepoint: its ``SetupError`` becomes an error of the row, in the column ``columns`` maps its field to (see
        :meth:`setup_error`). Returns the call's value, or ``None`` after an error."""
        try:
            with transaction.atomic():
                return call()
        except setup_errors.SetupError as error:
            self.setup_error(row, self.column_for(error.field, columns), error)
            return None

    def setup_error(self, row: Row, column: str, error: setup_errors.SetupError) -> None:
        """The service's reason, as an error of ``row`` in ``column``, naming the line of this file that made the
        object it clashes with (``SetupError.clash``), if one did."""
        reason = error.reason
        clash = error.clash
        line = self.stored_by.get((type(clash).__name__, clash.pk)) if clash is not None else None
        if line is not None:
            reason += f" (on line {line})"
        self.fail(row, column, reason)

    def column_for(self, field_: str, columns: dict[str, str]) -> str:
        """The column of the file that holds the service's ``field_`` (blank when the file has no such column)."""
        column = columns.get(field_, field_)
        return column if column in self.report.positions else ""


def refresh_after_commit(competitions: Iterable[int]) -> None:
    """The standings of the competitions the import entered into, once each (the services were told not to)."""
    for competition_id in sorted(set(competitions)):
        refresh_standings_after_commit(competition_id)
