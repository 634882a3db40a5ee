"""What an import did: its errors, each by line and column, or what it stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_LISTED_ERRORS = 1000  # errors kept and listed; more are counted


@dataclass
class ImportReport:
    """What an import did: its errors (each ``{"line", "column", "reason"}``) or what it created."""

    kind: str
    level: str = ""
    errors: list[dict[str, Any]] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    positions: dict[str, int] = field(default_factory=dict)
    ignored_columns: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rows: int = 0
    unlisted_errors: int = 0  # past MAX_LISTED_ERRORS: counted, not kept
    _seen: set[tuple[int, str, str]] = field(default_factory=set, repr=False)

    @property
    def ok(self) -> bool:
        return not self.errors

    def error(self, line: int, column: str, reason: str) -> None:
        key = (line, column, reason)
        if key in self._seen:
            return
        if len(self.errors) >= MAX_LISTED_ERRORS:
            self.unlisted_errors += 1
            return
        self._seen.add(key)
        self.errors.append({"line": line, "column": column, "reason": reason})

    def count(self, what: str, n: int = 1) -> None:
        self.created[what] = self.created.get(what, 0) + n

    def sorted_errors(self) -> list[dict[str, Any]]:
        order = {key: i for i, key in enumerate(self.positions)}
        return sorted(self.errors, key=lambda e: (e["line"], order.get(e["column"], -1)))

    def cell(self, error: dict[str, Any]) -> str:
        """The spreadsheet cell of an error, e.g. ``D7`` (blank when the column is not in the file)."""
        position = self.positions.get(error["column"])
        return "" if position is None else f"{column_letter(position)}{error['line']}"

    def error_lines(self) -> list[str]:
        """``line N, column C: reason`` for each error, as the command line prints them."""
        lines = [f"line {e['line']}, column {self.headers.get(e['column'], e['column']) or '-'}: {e['reason']}"
                 for e in self.sorted_errors()]
        if self.unlisted_errors:
            lines.append(self.unlisted_text())
        return lines

    def unlisted_text(self) -> str:
        return (f"… and {self.unlisted_errors:,} more error(s) after the first {MAX_LISTED_ERRORS:,}: correct these "
                "and import the file again")

    def summary(self) -> list[str]:
        """What was stored, e.g. ``["3 matches created", "2 results recorded"]``."""
        lines = []
        for what, n in self.created.items():
            one, many, verb = SUMMARY_WORDS.get(what, (what, what, "created"))
            lines.append(f"{n} {one if n == 1 else many} {verb}".rstrip())
        return lines or ["nothing to import: the file has no rows"]


SUMMARY_WORDS = {
    "players": ("player", "players", "created"), "partnerships": ("partnership", "partnerships", "created"),
    "teams": ("team", "teams", "created"), "team places": ("pair placed in a team", "pairs placed in teams", ""),
    "entries": ("entry", "entries", "created"), "rounds": ("round", "rounds", "created"),
    "matches": ("match", "matches", "created"), "results": ("result", "results", "recorded"),
    "games": ("game", "games", "entered"), "forfeits": ("forfeit", "forfeits", "recorded"),
    "team matches": ("team match", "team matches", "created"),
    "table results": ("table's result", "tables' results", "recorded"), "byes": ("bye", "byes", "added"),
}


def column_letter(index: int) -> str:
    """``0`` → ``A``, ``26`` → ``AA``: a column as a spreadsheet names it."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters

