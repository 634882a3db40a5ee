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
========================  =================================================================================

References are by name, never by id, and must already be stored: players of the importing club (by
name, nickname, or "Name (Nickname)"), partnerships of the club (by name or by their players, "Ann &
Bob" in either order), the competition's teams and entries. A club moving over imports players, then
partnerships, then teams or entries, then results — one file each. Players' names are unique within a
club, so that later files can name them.

The import runs in one transaction, rolled back when there is any error at all: nothing is stored unless the
whole file is good. Each row is read and checked — types, required cells, numbers within what the database
holds, references by name — and stored through the same service as on the pages, so that no rule is written
twice: entries through ``league.entries.enter`` (late entries, a player in one partnership, seeds, groups),
teams through ``create_team``, partnerships through ``new_partnership``, results through ``games.services``
(``create_match``, then ``record_match_totals`` or ``enter_game_result``). A service's error (``SetupError``,
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

Export — ``export_standings`` and ``export_results`` — writes UTF-8 with a byte-order mark, so that
Excel opens names with accents correctly. The results export uses the import's column names: a
results file exported from one competition imports into another (as match totals) with the same
results; it leaves out the matches of draft rounds unless asked (``include_drafts``, for organisers).
Every cell the app writes goes through ``escape_cell``: text beginning with = + - @, a tab or a carriage
return gets a leading single quote, so that a spreadsheet shows it instead of running it as a formula
(numbers stay numbers); the import takes that quote off again (``unescape_cell``).
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import functools
import hashlib
import io
import itertools
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any, BinaryIO, TextIO

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import DatabaseError, IntegrityError, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import F, Q
from django.utils import timezone

from games import services
from games.models import Match
from league import entries as setup
from league.models import Club, Competition, Entry, Partnership, Player, Round, StandingRow, Team, validate_plain_text
from league.permissions import is_organiser, published_round_filter
from standings.services import refresh_standings_after_commit

PLAYERS, PARTNERSHIPS, TEAMS, ENTRIES, RESULTS = "players", "partnerships", "teams", "entries", "results"
KINDS = (PLAYERS, PARTNERSHIPS, TEAMS, ENTRIES, RESULTS)
MATCH_LEVEL, GAME_LEVEL = "match", "game"
KIND_LABELS = {PLAYERS: "Players", PARTNERSHIPS: "Partnerships", TEAMS: "Teams (team competitions)",
               ENTRIES: "Entries of a competition", RESULTS: "Past results (match totals or game by game)"}
UTF8_BOM = "\ufeff"
HEADER_LINE = 1
MAX_IMPORT_BYTES = 20 * 1024 * 1024  # a file at most (a club's whole history is far smaller); read as a stream
MAX_COLUMNS = 100  # cells of the header at most
MAX_LISTED_ERRORS = 1000  # errors kept and listed; more are counted
STORE_BATCH = 2000  # rows written at once when a kind is stored in bulk (players)
ENCODINGS = {  # what an organiser may declare for a file that is not UTF-8: codec → its name for people
    "cp1252": "Windows-1252 (Excel's plain CSV on Windows)",
    "latin-1": "ISO-8859-1 (Latin-1)",
    "mac_roman": "Mac Roman (Excel's CSV on an old Mac)",
    "utf-16": "UTF-16",
}


# ----------------------------------------------------------------------------- columns and their headers
def normalise(text: str) -> str:
    """A header or a name as compared: case-folded, punctuation as spaces, spaces collapsed.

    >>> normalise("  Bullseyes (A) ")
    'bullseyes a'
    >>> normalise("Game #")
    'game no'
    """
    text = unicodedata.normalize("NFKC", text).casefold().replace("#", " no ")
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def name_key(text: str) -> str:
    """A person's or a side's name as compared: case and spacing ignored, punctuation kept."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


SIDE_WORDS = {
    "a": ("a", "side a", "team a", "pair a", "partnership a", "home", "home side", "home team", "home pair",
          "side 1", "team 1", "pair 1"),
    "b": ("b", "side b", "team b", "pair b", "partnership b", "away", "away side", "away team", "away pair",
          "side 2", "team 2", "pair 2"),
}
GAMES_WORDS = ("games", "games won", "bullseyes", "bullseye", "bulls", "be", "bullseyes won")
HANG_JACK_WORDS = ("hang jacks", "hang jack", "hangjacks", "hung jacks", "hj", "hjs")
CHALK_WORDS = ("chalks", "chalk", "points", "pts", "chalks scored")
SCORE_WORDS = ("score", "scores", *CHALK_WORDS)


def _per_side(side: str, words: Iterable[str]) -> tuple[str, ...]:
    out = []
    for word in words:
        for label in SIDE_WORDS[side]:
            out += [f"{word} {label}", f"{label} {word}", f"{word} for {label}"]
    return tuple(out)


@dataclass(frozen=True)
class Column:
    """A column a kind of file may have: its key (the canonical header), what it holds, and the other
    headers spreadsheets use for it."""

    key: str
    help: str
    required: bool = False
    synonyms: tuple[str, ...] = ()

    def names(self) -> set[str]:
        return {normalise(self.key), *(normalise(name) for name in self.synonyms)}


PLAYER_ONE = Column("player_one", "first player's name", synonyms=(
    "player one", "player 1", "player1", "first player", "partner 1", "partner one", "player a"))
PLAYER_TWO = Column("player_two", "second player's name (blank: a one-player side)", synonyms=(
    "player two", "player 2", "player2", "second player", "partner 2", "partner two", "player b"))
COMPETITION = Column("competition", "competition's slug or name (blank: the one chosen for the import)",
                     synonyms=("competition slug", "competition name", "league", "event", "tournament"))
PARTNERSHIP = Column("partnership", "partnership's name, or its players as \"Ann & Bob\"", synonyms=(
    "partnership name", "pair", "pair name", "pairs", "partners"))
ROUND = Column("round", "round number (blank: no round)", synonyms=(
    "round number", "round no", "rd", "week", "week no", "matchday", "fixture round"))
DATE = Column("date", "date played: 2025-05-03, 03/05/2025 (day first) or 3 May 2025", synonyms=(
    "played on", "day", "match date", "date played"))
TABLE = Column("table", "table", synonyms=("table number", "table no", "tbl"))
SIDE_A = Column("side_a", "side A: partnership's name or \"Ann & Bob\"", True, SIDE_WORDS["a"])
SIDE_B = Column("side_b", "side B: partnership's name or \"Ann & Bob\"", True, SIDE_WORDS["b"])
HANG_A = Column("hang_jacks_a", "hang jacks won by side A (blank: 0)", synonyms=_per_side("a", HANG_JACK_WORDS))
HANG_B = Column("hang_jacks_b", "hang jacks won by side B (blank: 0)", synonyms=_per_side("b", HANG_JACK_WORDS))
WINNER_WORDS = ("won by", "winning side", "winners", "game winner", "match winner")

COLUMNS: dict[str, tuple[Column, ...]] = {
    PLAYERS: (
        Column("name", "player's full name, unique in the club", True,
               ("player", "player name", "full name", "names")),
        Column("nickname", "nickname", synonyms=("nick", "nick name", "alias", "known as", "aka")),
        Column("club", "club's name or slug (blank: the importing club)", synonyms=("home club", "club name")),
    ),
    PARTNERSHIPS: (
        Column("player_one", PLAYER_ONE.help, True, PLAYER_ONE.synonyms),
        PLAYER_TWO,
        Column("name", "partnership's name (blank: known by its players' names)",
               synonyms=("partnership", "partnership name", "pair name", "pair")),
    ),
    TEAMS: (
        COMPETITION,
        Column("team", "team's name", True, ("team name", "side")),
        PARTNERSHIP, PLAYER_ONE, PLAYER_TWO,
        Column("club", "team's club, name or slug (blank: the importing club)", synonyms=("team club", "club name")),
    ),
    ENTRIES: (
        COMPETITION, PARTNERSHIP, PLAYER_ONE, PLAYER_TWO,
        Column("team", "team's name (team competitions)", synonyms=("team name",)),
        Column("player", "player's name (individual competitions)", synonyms=("player name", "name")),
        Column("seed", "seed, 1 the strongest (blank: none)", synonyms=("seeding", "seed no", "seed number")),
        Column("group", "group (two-stage events)", synonyms=("pool", "section")),
    ),
}
MATCH_COLUMNS = (
    ROUND, DATE, TABLE, SIDE_A, SIDE_B,
    Column("games_a", "games (bullseyes) won by side A; blank with games_b: a fixture not yet played", True,
           _per_side("a", GAMES_WORDS)),
    Column("games_b", "games (bullseyes) won by side B", True, _per_side("b", GAMES_WORDS)),
    Column("chalks_a", "chalks (points) of side A over all games (blank: not kept)", synonyms=_per_side(
        "a", CHALK_WORDS)),
    Column("chalks_b", "chalks of side B over all games", synonyms=_per_side("b", CHALK_WORDS)),
    HANG_A, HANG_B,
    Column("winner", "A or B or a side's name (optional: checked against the games)", synonyms=WINNER_WORDS),
    Column("outcome", "played (blank), or a no-show: forfeit_a, forfeit_b, double_forfeit", synonyms=(
        "result type", "forfeit")),
    # written by the export, read back by the import:
    Column("level", "as exported; not read", synonyms=("result level",)),
    Column("status", "as exported: a match scheduled or in progress is imported as a fixture", synonyms=(
        "match status",)),
)
GAME_COLUMNS = (
    Column("match", "a key that groups the rows of one match (blank: round and sides)", synonyms=(
        "match key", "match id", "match no", "match number", "fixture", "fixture no")),
    ROUND, DATE, TABLE,
    Column("side_a", SIDE_A.help + " (may be blank after a match's first row when a match key is given)",
           True, SIDE_A.synonyms),
    Column("side_b", SIDE_B.help, True, SIDE_B.synonyms),
    Column("game", "game number in the match: 1, 2, 3, …", True, ("game number", "game no", "g", "game nr")),
    Column("winner", "game's winner: A or B or a side's name", True, WINNER_WORDS),
    HANG_A, HANG_B,
    Column("score_a", "side A's chalks in the game (blank: not kept)", synonyms=_per_side("a", SCORE_WORDS)),
    Column("score_b", "side B's chalks in the game", synonyms=_per_side("b", SCORE_WORDS)),
)
GAME_HEADERS = GAME_COLUMNS[6].names()

TEMPLATES: dict[str, tuple[str, tuple[Column, ...]]] = {
    PLAYERS: (PLAYERS, COLUMNS[PLAYERS]),
    PARTNERSHIPS: (PARTNERSHIPS, COLUMNS[PARTNERSHIPS]),
    TEAMS: (TEAMS, COLUMNS[TEAMS]),
    ENTRIES: (ENTRIES, COLUMNS[ENTRIES]),
    "results": (RESULTS, MATCH_COLUMNS[:-2]),
    "results-games": (RESULTS, GAME_COLUMNS),
}


def template_csv(name: str) -> str:
    """An empty file of one kind: its header row (``name`` is a key of ``TEMPLATES``)."""
    _, columns = TEMPLATES[name]
    return _write([[column.key for column in columns]])


# ----------------------------------------------------------------------------- the report
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
}


def column_letter(index: int) -> str:
    """``0`` → ``A``, ``26`` → ``AA``: a column as a spreadsheet names it."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


class FileError(ValueError):
    """The file as a whole cannot be read (not text, not CSV, empty, too large, in an encoding not declared);
    ``line`` is where the reading stopped, when it is known."""

    def __init__(self, reason: str, line: int = HEADER_LINE) -> None:
        super().__init__(reason)
        self.line = line


class _RollBack(Exception):  # noqa: N818 — not an error: undoes the transaction of a file with errors
    pass


# ----------------------------------------------------------------------------- reading the file
@dataclass
class Row:
    line: int
    values: dict[str, str]

    def __getitem__(self, key: str) -> str:
        return self.values.get(key, "")


@dataclass
class Table:
    """A file's header, and its records read one at a time (``records`` is an iterator: the file is never held
    whole). A record that cannot be read ends the iteration after it is reported (``read_error``)."""

    header_line: int
    header: list[str]
    records: Iterator[tuple[int, list[str]]]
    delimiter: str
    encoding: str
    notes: list[str] = field(default_factory=list)
    read_error: tuple[int, str] | None = None


Source = bytes | str | BinaryIO


def _binary(data: Source) -> BinaryIO:
    if isinstance(data, bytes | bytearray | memoryview):
        return io.BytesIO(data)
    if isinstance(data, File):  # an upload: its file itself (a BytesIO, or a temporary file on disk)
        data = data.file
    if hasattr(data, "seek") and hasattr(data, "read"):
        data.seek(0)
        return data  # type: ignore[return-value]
    raise TypeError("data must be bytes, str or a binary file")


def _size(binary: BinaryIO) -> int:
    binary.seek(0, io.SEEK_END)
    size = binary.tell()
    binary.seek(0)
    return size


def _scan(binary: BinaryIO, codec: str) -> tuple[int, int] | None:
    """Decode the whole file in chunks; ``None`` when it is all ``codec``, else (line, byte) of the first byte
    that is not."""
    decoder = codecs.getincrementaldecoder(codec)()
    line, chunk_size = 1, 1 << 20
    binary.seek(0)
    while True:
        chunk = binary.read(chunk_size)
        try:
            decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as error:
            return line + chunk.count(b"\n", 0, error.start), chunk[error.start] if error.start < len(chunk) else 0
        if not chunk:
            return None
        line += chunk.count(b"\n")


def _encoding(binary: BinaryIO, declared: str) -> tuple[str, str, list[str]]:
    """The codec to read the file with, its name for people, and notes for the report. UTF-8 (with or without
    a byte-order mark) and UTF-16 with its mark read themselves; any other encoding must be declared, and the
    whole file must read in it: a guess would store names garbled."""
    head = binary.read(4)
    binary.seek(0)
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        bad = _scan(binary, "utf-16")
        if bad is not None:
            raise FileError("the file starts as UTF-16 but cannot be read as UTF-16 here", bad[0])
        return "utf-16", "UTF-16", []
    bad = _scan(binary, "utf-8")
    if bad is None:
        notes = [f"The file was chosen as {ENCODINGS[declared].split(' (')[0]} but is UTF-8: it was read as UTF-8."] \
            if declared in ENCODINGS and declared != "utf-16" and _non_ascii(binary) else []
        return "utf-8-sig", "UTF-8", notes
    if not declared or declared == "utf-8":
        line, byte = bad
        raise FileError(f"the file is not UTF-8 (this line has the byte 0x{byte:02X}, which UTF-8 cannot read): save "
                        "it as CSV UTF-8 (in Excel: File › Save As › CSV UTF-8), or choose the encoding it was saved "
                        "in, e.g. Windows-1252 for Excel's plain CSV on Windows; nothing was read", line)
    if declared not in ENCODINGS:
        raise FileError(f"encoding must be one of utf-8, {', '.join(ENCODINGS)}; got {declared!r}")
    bad = _scan(binary, declared)
    if bad is not None:
        line, byte = bad
        raise FileError(f"the byte 0x{byte:02X} on this line cannot be read as {ENCODINGS[declared]}: choose the "
                        "encoding the file was saved in, or save it as CSV UTF-8; nothing was read", line)
    return declared, ENCODINGS[declared].split(" (")[0], []


def _non_ascii(binary: BinaryIO) -> bool:
    binary.seek(0)
    found = any(max(chunk, default=0) > 127 for chunk in iter(lambda: binary.read(1 << 20), b""))
    binary.seek(0)
    return found


def _refuse_workbook(binary: BinaryIO) -> None:
    head = binary.read(4)
    binary.seek(0)
    if head.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise FileError("this is an Excel workbook, not a CSV file: in Excel choose File › Save As › "
                        "CSV UTF-8 (comma delimited)")


def sniff_delimiter(text: str) -> tuple[str, bool]:
    """The delimiter (``,`` ``;`` or tab) that splits the header into the most cells, and whether the first
    line is Excel's ``sep=`` line.

    >>> sniff_delimiter("Name;Nickname;Club\\r\\nAnn;Annie;\\r\\n")
    (';', False)
    >>> sniff_delimiter("sep=;\\nname;nickname\\n")
    (';', True)
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    match = re.fullmatch(r'"?sep=(.)"?', first.strip(), flags=re.IGNORECASE)
    if match:
        return match.group(1), True
    best, cells = ",", 1
    for delimiter in (",", ";", "\t"):
        try:
            n = len(next(csv.reader([first], delimiter=delimiter), []))
        except csv.Error:  # a cell over the field limit: the record's reading reports it
            continue
        if n > cells:
            best, cells = delimiter, n
    return best, False


CELL_LIMIT = csv.field_size_limit()


def _record_error(error: csv.Error) -> str:
    text = str(error)
    if "field larger than field limit" in text:
        return (f"a cell is longer than {CELL_LIMIT:,} characters: is a quote (\") opened and never closed? "
                "Nothing after this line was read")
    if "unexpected end of data" in text:
        return "a quote (\") opened in this row is never closed: close it, or remove it"
    return f"this row is not CSV ({text}): a quote (\") inside a cell must be doubled (\"\"); nothing after this " \
           "line was read"


def _lines(text: TextIO) -> tuple[list[str], Iterator[str]]:
    """The file's first lines up to the first one that is not blank (read to sniff the delimiter), and an
    iterator over every line from the start."""
    first: list[str] = []
    for line in text:
        first.append(line)
        if line.strip():
            break
    return first, itertools.chain(first, text)


def read_table(data: Source, encoding: str = "") -> Table:
    """The header and an iterator over the records after it (blank ones skipped), each with its line as a
    spreadsheet numbers it; the file is read as it is iterated. Raises :class:`FileError` for a file that
    cannot be read at all."""
    notes: list[str] = []
    if isinstance(data, str):
        text: TextIO = io.StringIO(data.removeprefix(UTF8_BOM), newline="")
        name = "UTF-8"
    else:
        binary = _binary(data)
        size = _size(binary)
        if size > MAX_IMPORT_BYTES:
            raise FileError(f"the file is {size / 1024 / 1024:.1f} MB; at most {MAX_IMPORT_BYTES // 1024 // 1024} MB "
                            "can be imported at once: split it into several files")
        _refuse_workbook(binary)
        codec, name, notes = _encoding(binary, encoding)
        binary.seek(0)
        text = _KeepOpenText(binary, encoding=codec, newline="")
    first, lines = _lines(text)
    delimiter, sep_line = sniff_delimiter("".join(first))
    table = Table(0, [], iter(()), delimiter, name, notes)
    records = _records(table, lines, delimiter, sep_line)
    for line, cells in records:
        table.header, table.header_line = [cell.strip() for cell in cells], line
        break
    else:
        if table.read_error is not None:
            raise FileError(table.read_error[1], table.read_error[0])
        raise FileError("the file is empty: the first line should be the header")
    if len(table.header) > MAX_COLUMNS:
        raise FileError(f"the header has {len(table.header):,} cells; a file has at most {MAX_COLUMNS} columns")
    table.records = records
    return table


class _KeepOpenText(io.TextIOWrapper):
    """A text stream that leaves its binary file open when it goes (an upload, a file the caller opened)."""

    def __del__(self) -> None:
        with contextlib.suppress(ValueError):  # already detached
            self.detach()


def _records(table: Table, lines: Iterable[str], delimiter: str, sep_line: bool) -> Iterator[tuple[int, list[str]]]:
    """``(line, cells)`` of each record that is not blank, numbered as a spreadsheet numbers its rows (Excel's
    ``sep=`` line is line 0). A record that cannot be read ends the reading: ``table.read_error`` says where and
    why."""
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    line = -1 if sep_line else 0
    while True:
        line += 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            table.read_error = (line, _record_error(error))
            return
        if line == 0 or not any(cell.strip() for cell in cells):
            continue
        if any("\x00" in cell for cell in cells):
            table.read_error = (line, "the file is not text (it has NUL bytes): save it as CSV UTF-8")
            return
        yield line, cells


def _map_header(table: Table, columns: tuple[Column, ...], report: ImportReport) -> dict[str, int]:
    """Each known column's position in the file; unknown headers are ignored (and listed)."""
    by_name = {name: column for column in columns for name in column.names()}
    index: dict[str, int] = {}
    for position, text in enumerate(table.header):
        if not text:
            continue
        column = by_name.get(normalise(text))
        if column is None:
            report.ignored_columns.append(_shown_header(text))
        elif column.key in index:
            report.error(table.header_line, column.key,
                         f"two columns hold {column.key}: {report.headers[column.key]!r} and {text!r}")
        else:
            index[column.key] = position
            report.headers[column.key] = text
    report.positions = dict(sorted(index.items(), key=lambda item: item[1]))
    for column in columns:
        if column.required and column.key not in index:
            report.error(table.header_line, column.key, _missing_column(column, report))
    return index


def _shown_header(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "…"


def _missing_column(column: Column, report: ImportReport) -> str:
    reason = f"no {column.key} column: the header needs one ({column.help})"
    if report.ignored_columns:
        shown = report.ignored_columns[:10]
        more = len(report.ignored_columns) - len(shown)
        reason += f"; headers not recognised: {', '.join(repr(h) for h in shown)}"
        if more:
            reason += f" and {more} more"
    return reason


def _rows(table: Table, index: dict[str, int], report: ImportReport) -> Iterator[Row]:
    """The records as rows of the known columns, read as they are wanted; rows that cannot be rows (a broken
    quote, too many cells) are reported and skipped."""
    width = len(table.header)
    while width and not table.header[width - 1]:
        width -= 1
    for line, cells in table.records:
        report.rows += 1
        if any("\n" in cell or "\r" in cell for cell in cells):  # no name or number of ours spans lines
            report.error(line, "", "a quote (\") opened in this row is not closed on its line, so the row runs "
                                   "into the lines after it: close the quote, or remove it")
            continue
        extra = [cell for cell in cells[width:] if cell.strip()]
        if extra:
            report.error(line, "", f"{len(cells)} cells where the header has {width}: a comma inside a name needs "
                                   "the cell in quotes")
        yield Row(line, {key: unescape_cell(cells[i].strip()).strip() if i < len(cells) else ""
                         for key, i in index.items()})
    if table.read_error is not None:
        report.error(table.read_error[0], "", table.read_error[1])


# ----------------------------------------------------------------------------- cells
class CellError(ValueError):
    """A cell that cannot be read; the message is the reason shown to the organiser."""


def parse_int(text: str, *, minimum: int = 0, maximum: int | None = None, what: str = "a whole number") -> int:
    """``"3"``, ``" 3 "``, ``"3.0"`` → 3; from ``minimum`` to ``maximum``.

    >>> parse_int("3.0")
    3
    >>> parse_int("40000", maximum=32767)
    Traceback (most recent call last):
    ...
    importer.csv_io.CellError: must be at most 32,767, got '40000'
    """
    cleaned = text.replace(" ", "")
    if len(cleaned) <= 40 and re.fullmatch(r"\+?\d+(\.0*)?", cleaned):
        value = int(cleaned.split(".")[0])
        if value < minimum:
            raise CellError(f"must be {minimum} or more, got {text!r}")
        if maximum is not None and value > maximum:
            raise CellError(f"must be at most {maximum:,}, got {text!r}")
        return value
    raise CellError(f"must be {what}, got {_shown(text)!r}")


def _shown(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "…"


def db_max(model: type, name: str) -> int:
    """The largest value the database stores in an integer field, on every backend Django supports (SQLite itself
    would take more: the bound is PostgreSQL's)."""
    return BaseDatabaseOperations.integer_field_ranges[model._meta.get_field(name).get_internal_type()][1]


def parse_optional_int(text: str, **kwargs: Any) -> int | None:
    return parse_int(text, **kwargs) if text else None


DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y", "%d-%m-%Y", "%d.%m.%Y", "%d %b %Y", "%d %B %Y", "%d-%b-%Y",
                "%d-%b-%y", "%d %b %y", "%a %d %b %Y", "%A %d %B %Y")


def parse_date(text: str) -> date:
    """``2025-05-03``, ``03/05/2025`` (day first), ``3 May 2025``, ``03-May-25``; a time after it is ignored.

    >>> parse_date("3/5/2025"), parse_date("2025-05-03 00:00:00")
    (datetime.date(2025, 5, 3), datetime.date(2025, 5, 3))
    """
    cleaned = " ".join(text.replace(",", " ").split())
    if re.fullmatch(r"\d{4}-\d\d-\d\d[ T].*", cleaned):
        cleaned = cleaned[:10]
    for pattern in DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, pattern).date()
        except ValueError:
            continue
    raise CellError(f"is not a date: {text!r} (write 2025-05-03 or 03/05/2025, day first)")


def parse_round(text: str, maximum: int | None = None) -> int | None:
    """``"3"``, ``"Round 3"``, ``"R3"``, ``"Week 3"`` → 3; blank → ``None``."""
    if not text:
        return None
    match = re.fullmatch(r"(?:round|rd|r|week|wk)?\s*\.?\s*(\d{1,40})(?:\.0*)?", text.strip(), flags=re.IGNORECASE)
    if not match or int(match.group(1)) < 1:
        raise CellError(f"must be a round number (1 or more), got {_shown(text)!r}")
    if maximum is not None and int(match.group(1)) > maximum:
        raise CellError(f"must be a round number of at most {maximum:,}, got {text!r}")
    return int(match.group(1))


def check_length(text: str, limit: int) -> str:
    """A name's cell: one line of plain text of at most ``limit`` characters."""
    if len(text) > limit:
        raise CellError(f"is {len(text)} characters long; at most {limit}")
    try:
        validate_plain_text(text)
    except ValidationError as error:
        raise CellError(error.messages[0]) from None
    return text


SIDE_VALUES = {"a": {"a", "side a", "home", "team a", "pair a", "1"}, "b": {"b", "side b", "away", "team b",
                                                                               "pair b", "2"}}


def parse_side(text: str, names: dict[str, Iterable[str]]) -> str:
    """``"A"``/``"home"``/side A's name → ``"a"``; the same for B. ``names`` maps each side to its names."""
    key = normalise(text)
    for side in ("a", "b"):
        if key in SIDE_VALUES[side] or name_key(text) in {name_key(n) for n in names.get(side, ())}:
            return side
    raise CellError(f"must be A or B (or a side's name), got {text!r}")


# ----------------------------------------------------------------------------- looking names up
class LookupError_(ValueError):  # noqa: N801
    pass


def _split_nickname(text: str) -> tuple[str, str]:
    match = re.fullmatch(r"(.*?)\s*\((.+)\)\s*", text)
    return (match.group(1), match.group(2)) if match else (text, "")


class PlayerIndex:
    """Players found by name, by nickname, or by "Name (Nickname)"."""

    def __init__(self, players: Iterable[Player], where: str) -> None:
        self.where = where
        self.by_name: dict[str, list[Player]] = defaultdict(list)
        self.by_nickname: dict[str, list[Player]] = defaultdict(list)
        for player in players:
            self.by_name[name_key(player.name)].append(player)
            if player.nickname:
                self.by_nickname[name_key(player.nickname)].append(player)

    def find(self, text: str) -> Player:
        name, nickname = _split_nickname(text)
        found = self.by_name.get(name_key(text)) or self.by_name.get(name_key(name), [])
        if nickname and len(found) > 1:
            found = [p for p in found if name_key(p.nickname) == name_key(nickname)]
        if not found:
            found = self.by_nickname.get(name_key(text), [])
        if len(found) == 1:
            return found[0]
        if found:
            raise LookupError_(f"{len(found)} players {self.where} are called {text!r}: write \"Name (Nickname)\"")
        raise LookupError_(f"no player {text!r} {self.where}: import the players first")


PAIR_SEPARATORS = re.compile(r"\s*(?:&|\+|/|\band\b)\s*", flags=re.IGNORECASE)


class PartnershipIndex:
    """Partnerships found by name, or by their players' names ("Ann & Bob", "Bob and Ann", "Ann / Bob")."""

    def __init__(self, partnerships: Iterable[Partnership], where: str) -> None:
        self.where = where
        self.by_name: dict[str, dict[int, Partnership]] = defaultdict(dict)
        self.by_players: dict[frozenset[str], dict[int, Partnership]] = defaultdict(dict)
        for partnership in partnerships:
            for text in {partnership.name, partnership.display_name} - {""}:
                self.by_name[name_key(text)][partnership.pk] = partnership
            players = [partnership.player_one] + ([partnership.player_two] if partnership.player_two_id else [])
            for key in _player_keys(players):
                self.by_players[key][partnership.pk] = partnership

    def find(self, text: str) -> Partnership:
        found = list(self.by_name.get(name_key(text), {}).values())
        if not found:
            names = [part for part in PAIR_SEPARATORS.split(text.strip()) if part]
            if 1 <= len(names) <= 2:
                found = list(self.by_players.get(frozenset(name_key(n) for n in names), {}).values())
        if len(found) == 1:
            return found[0]
        if found:
            raise LookupError_(f"{len(found)} partnerships {self.where} match {text!r}: use the partnership's name")
        raise LookupError_(f"no partnership {text!r} {self.where}")


def _player_keys(players: list[Player]) -> list[frozenset[str]]:
    """The keys a side is found by: its players' names, or nicknames, in any order."""
    keys = {frozenset(name_key(p.name) for p in players)}
    if all(p.nickname for p in players):
        keys.add(frozenset(name_key(p.nickname) for p in players))
    return list(keys)


def _club_partnerships(club: Club):
    return (Partnership.objects.filter(Q(club=club) | Q(club__isnull=True, player_one__home_club=club))
            .select_related("player_one", "player_two"))


class ClubIndex:
    def __init__(self) -> None:
        self.clubs: dict[str, Club] = {}
        for club in Club.objects.all():
            self.clubs[name_key(club.name)] = club
            self.clubs[name_key(club.slug)] = club

    def find(self, text: str) -> Club:
        club = self.clubs.get(name_key(text))
        if club is None:
            raise LookupError_(f"no club {text!r}")
        return club


# ----------------------------------------------------------------------------- the import
@dataclass
class _Import:
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
        except (CellError, LookupError_) as error:
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
        """A service of ``league.entries`` for one row, in a savepoint: its ``SetupError`` becomes an error of the
        row, in the column ``columns`` maps its field to, naming the line of this file that made the object it
        clashes with. Returns the call's value, or ``None`` after an error."""
        try:
            with transaction.atomic():
                return call()
        except setup.SetupError as error:
            reason = error.reason
            clash = error.clash
            line = self.stored_by.get((type(clash).__name__, clash.pk)) if clash is not None else None
            if line is not None:
                reason += f" (on line {line})"
            self.fail(row, self.column_for(error.field, columns), reason)
            return None

    def column_for(self, field_: str, columns: dict[str, str]) -> str:
        column = columns.get(field_, field_)
        return column if column in self.report.positions else ""


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
    if kind == RESULTS:
        report.level = GAME_LEVEL if any(normalise(h) in GAME_HEADERS for h in table.header) else MATCH_LEVEL
        columns = GAME_COLUMNS if report.level == GAME_LEVEL else MATCH_COLUMNS
    else:
        columns = COLUMNS[kind]
    index = _map_header(table, columns, report)
    if report.errors:
        return report
    job = _Import(club, competition, user, report, _rows(table, index, report))
    try:
        with transaction.atomic():
            IMPORTERS[kind](job, index)
            if report.errors or report.unlisted_errors:
                raise _RollBack
    except _RollBack:
        report.created.clear()
    except IntegrityError as error:  # a row stored by someone else between the check and the store
        report.created.clear()
        report.error(HEADER_LINE, "", f"the file clashed with data stored meanwhile ({error}); nothing was "
                                      "stored — import it again")
    return report


# ----------------------------------------------------------------------------- players
class _NameLines:
    """The line of each player's name seen so far (0: stored before the import), by club. The keys are 64-bit
    digests of the compared names, so that a file of hundreds of thousands of names stays small in memory
    (two different names share a digest with a chance of about 1 in 10^8 at a million names)."""

    def __init__(self) -> None:
        self.lines: dict[int, int] = {}
        self.clubs: set[int] = set()

    @staticmethod
    def key(club_id: int, name: str) -> int:
        digest = hashlib.blake2b(f"{club_id}\x00{name_key(name)}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def line_of(self, club: Club, name: str) -> int | None:
        if club.pk not in self.clubs:
            self.clubs.add(club.pk)
            for stored in Player.objects.filter(home_club=club).values_list("name", flat=True).iterator(5000):
                self.lines.setdefault(self.key(club.pk, stored), 0)
        return self.lines.get(self.key(club.pk, name))

    def add(self, club: Club, name: str, line: int) -> None:
        self.lines[self.key(club.pk, name)] = line


def _import_players(job: _Import, index: dict[str, int]) -> None:
    """Players are not made by a service of their own: checked here (a name unique in its club, so that later
    files can name them) and written in batches as the file is read."""
    clubs = ClubIndex()
    names = _NameLines()
    batch: list[Player] = []

    def flush() -> None:
        if batch and not job.report.errors:  # once the file has an error nothing is kept: only check the rest
            Player.objects.bulk_create(batch)
            job.report.count("players", len(batch))
        batch.clear()

    for row in job.rows:
        if not job.required(row, "name", "the player's name"):
            continue
        name = job.cell(row, "name", lambda t: check_length(t, NAME_MAX))
        nickname = job.cell(row, "nickname", lambda t: check_length(t, NICKNAME_MAX), "")
        club = job.cell(row, "club", clubs.find, job.club)
        if name is None or nickname is None or club is None:
            continue
        if club.pk != job.club.pk and job.user is not None and not is_organiser(job.user, club):
            job.fail(row, "club", f"only organisers of {club.name} can add its players")
            continue
        line = names.line_of(club, name)
        if line:
            job.fail(row, "name", f"{name!r} is already on line {line}")
        elif line == 0:
            job.fail(row, "name", f"{club.name} already has a player called {name!r}")
        else:
            names.add(club, name, row.line)
            batch.append(Player(name=name, nickname=nickname, home_club=club))
            if len(batch) >= STORE_BATCH:
                flush()
    flush()


NAME_MAX = Player._meta.get_field("name").max_length
NICKNAME_MAX = Player._meta.get_field("nickname").max_length


# ----------------------------------------------------------------------------- partnerships
PARTNERSHIP_FIELDS = {"player_one": "player_one", "player_two": "player_two", "name": "name"}


def _import_partnerships(job: _Import, index: dict[str, int]) -> None:
    """Each row through ``league.entries.new_partnership``, the rules of a new partnership."""
    players = PlayerIndex(Player.objects.filter(home_club=job.club), f"of {job.club.name}")
    for row in job.rows:
        if not job.required(row, "player_one", "the first player"):
            continue
        one = job.cell(row, "player_one", players.find)
        two = job.cell(row, "player_two", players.find)
        name = job.cell(row, "name", lambda t: check_length(t, setup.PARTNERSHIP_NAME_MAX), "")
        if one is None or (row["player_two"] and two is None) or name is None:
            continue
        made = job.setup_call(row, PARTNERSHIP_FIELDS, lambda one=one, two=two, name=name: setup.new_partnership(
            club=job.club, player_one=one, player_two=two, name=name))
        if made is not None:
            job.stored(made, row)
            job.report.count("partnerships")


def _side_of(job: _Import, row: Row, partnerships: PartnershipIndex) -> tuple[Partnership | None, str]:
    """A row's partnership from its ``partnership`` cell or its ``player_one`` and ``player_two`` cells, and the
    column to blame."""
    if row["partnership"]:
        return job.cell(row, "partnership", partnerships.find), "partnership"
    if row["player_one"]:
        names = " & ".join(filter(None, (row["player_one"], row["player_two"])))
        try:
            return partnerships.find(names), "player_one"
        except LookupError_ as error:
            job.fail(row, "player_one", str(error))
            return None, "player_one"
    return None, ""


def _competitions(club: Club) -> dict[str, Competition]:
    found = {}
    for competition in Competition.objects.filter(club=club):
        found[name_key(competition.slug)] = competition
        found.setdefault(name_key(competition.name), competition)
    return found


def _refresh_after_commit(competitions: Iterable[int]) -> None:
    """The standings of the competitions the import entered into, once each (the services were told not to)."""
    for competition_id in sorted(set(competitions)):
        refresh_standings_after_commit(competition_id)


# ----------------------------------------------------------------------------- teams
@dataclass
class _Team:
    competition: Competition
    name: str
    club: Club
    row: Row
    partnerships: list[Partnership] = field(default_factory=list)
    rows: dict[int, Row] = field(default_factory=dict)  # partnership pk → its row


def _import_teams(job: _Import, index: dict[str, int]) -> None:
    """Rows grouped by competition and team name; each team through ``league.entries.create_team`` (its name, its
    pairs' sizes and players, a pair in one team of a competition, the entry from the next unpaired round)."""
    if "partnership" not in index and "player_one" not in index:
        job.fail(HEADER_LINE, "partnership", "no partnership column (or player_one and player_two): each row names "
                                             "a pair of the team")
        return
    competitions = _competitions(job.club)
    clubs = ClubIndex()
    indexes: dict[int, PartnershipIndex] = {}
    teams: dict[tuple[int, str], _Team] = {}
    for row in job.rows:
        competition = job.competition_of(row, competitions)
        has_name = job.required(row, "team", "the team's name")
        club = job.cell(row, "club", clubs.find, job.club)
        name = job.cell(row, "team", lambda t: check_length(t, TEAM_NAME_MAX)) if has_name else None
        if competition is None or name is None or club is None:
            continue
        team = teams.setdefault((competition.pk, name_key(name)), _Team(competition, name, club, row))
        if team.club.pk != club.pk:
            job.fail(row, "club", f"team {name!r} is of {team.club.name} on line {team.row.line}")
            continue
        if club.pk not in indexes:
            indexes[club.pk] = PartnershipIndex(_club_partnerships(club), f"of {club.name}")
        partnership, column = _side_of(job, row, indexes[club.pk])
        if partnership is None:
            continue
        if partnership.pk in team.rows:
            job.fail(row, column, f"{partnership.display_name} is already in team {name!r} on line "
                                  f"{team.rows[partnership.pk].line}")
            continue
        team.partnerships.append(partnership)
        team.rows[partnership.pk] = row
    for team in teams.values():
        _store_team(job, team)
    _refresh_after_commit(team.competition.pk for team in teams.values())


TEAM_NAME_MAX = Team._meta.get_field("name").max_length


def _store_team(job: _Import, team: _Team) -> None:
    try:
        with transaction.atomic():
            made = setup.create_team(competition=team.competition, name=team.name, club=team.club,
                                     partnerships=team.partnerships, refresh=False)
    except setup.SetupError as error:
        row = team.rows.get(getattr(error.item, "pk", None), team.row)
        column = "team" if error.field == "name" else ("partnership" if row["partnership"] else "player_one")
        if error.field == "entrant_kind" or (error.field == "name" and "not a team competition" in error.reason):
            column = "competition"
        reason = error.reason
        line = job.stored_by.get((type(error.clash).__name__, getattr(error.clash, "pk", None)))
        if line is not None:
            reason += f" (on line {line})"
        job.fail(row, job.column_for(column, {}), reason)
        return
    job.stored(made, team.row)
    job.report.count("teams")
    job.report.count("team places", len(team.partnerships))


# ----------------------------------------------------------------------------- entries
ENTRY_FIELDS = {"seed": "seed", "group": "group"}


def _import_entries(job: _Import, index: dict[str, int]) -> None:
    """Each row through ``league.entries.enter``, as on the entries page: the entrant's kind and size, a player in
    one partnership of a competition, seeds and groups, and a late entry's first round."""
    competitions = _competitions(job.club)
    if not {"partnership", "player_one", "team", "player"} & set(index):
        kind = job.competition.entrant_kind if job.competition else Competition.PAIRS
        column = {Competition.TEAMS: "team", Competition.INDIVIDUAL: "player"}.get(kind, "partnership")
        job.fail(HEADER_LINE, column, f"no {column} column: each row names the entrant")
        return
    pairs = PartnershipIndex(_club_partnerships(job.club), f"of {job.club.name}")
    players = PlayerIndex(Player.objects.filter(home_club=job.club), f"of {job.club.name}")
    teams: dict[int, dict[str, Team]] = defaultdict(dict)
    for team in Team.objects.filter(competition__club=job.club):
        teams[team.competition_id][name_key(team.name)] = team
    entered: set[int] = set()
    for row in job.rows:
        competition = job.competition_of(row, competitions)
        seed = job.cell(row, "seed", lambda t: parse_int(t, minimum=1, maximum=db_max(Entry, "seed")))
        group = job.cell(row, "group", lambda t: check_length(t, setup.GROUP_MAX), "")
        if competition is None:
            continue
        entrant, column = _entrant_of(job, row, competition, pairs, players, teams[competition.pk])
        if entrant is None or (row["seed"] and seed is None) or group is None:
            continue
        kind = {"team": "team", "player": "player"}.get(column, "partnership")
        made = job.setup_call(row, {**ENTRY_FIELDS, kind: column}, lambda c=competition, e=entrant, k=kind, s=seed,
                              g=group: setup.enter(competition=c, seed=s, group=g or "", refresh=False, **{k: e}))
        if made is not None:
            job.stored(made, row)
            job.report.count("entries")
            entered.add(competition.pk)
    _refresh_after_commit(entered)


def _entrant_of(job: _Import, row: Row, competition: Competition, pairs: PartnershipIndex, players: PlayerIndex,
                teams: dict[str, Team]) -> tuple[Any, str]:
    """The row's entrant, found by name, and its column (the kind and size are the service's to check)."""
    if competition.entrant_kind == Competition.TEAMS:
        if job.required(row, "team", f"the team ({competition.name} is a competition of teams)"):
            team = teams.get(name_key(row["team"]))
            if team is None:
                job.fail(row, "team", f"{competition.name} has no team {row['team']!r}: import the teams first")
            return team, "team"
        return None, "team"
    if competition.entrant_kind == Competition.INDIVIDUAL:
        if job.required(row, "player", f"the player ({competition.name} is a competition of individuals)"):
            return job.cell(row, "player", players.find), "player"
        return None, "player"
    partnership, column = _side_of(job, row, pairs)
    if not column:
        job.fail(row, "partnership" if "partnership" in job.report.positions else "player_one",
                 "the partnership is required")
        return None, ""
    return partnership, column


# ----------------------------------------------------------------------------- results
@dataclass
class _Game:
    row: Row
    number: int
    winner: str
    hang_jacks: tuple[int, int]
    scores: tuple[int | None, int | None]


@dataclass
class _Match:
    """One match of a results file: its first row, sides, round, table and date, and either its totals
    (match level) or its games (game level)."""

    row: Row
    side_a: Partnership | None = None
    side_b: Partnership | None = None
    round: int | None = None
    date: date | None = None
    table: str = ""
    totals: dict[str, Any] | None = None
    games: list[_Game] = field(default_factory=list)
    forfeit: str = ""
    bad: bool = False
    lines: list[int] = field(default_factory=list)


SERVICE_FIELDS = {"number": "game", "match": "", "first_dealer": "", "competition": "", "outcome": "outcome"}


MAX_RESULT_ROWS = 20_000  # a results file's rows at most: each match is stored through the services, one by one


def _limited(job: _Import, rows: Iterable[Row]) -> Iterator[Row]:
    """The rows of a results file, up to ``MAX_RESULT_ROWS`` (a results file is held whole: a match's games may be
    on any of its rows)."""
    for n, row in enumerate(rows, start=1):
        if n > MAX_RESULT_ROWS:
            job.fail(row, "", f"a results file has at most {MAX_RESULT_ROWS:,} rows: split it into several files "
                              "(nothing after this line was read)")
            return
        yield row


def _import_results(job: _Import, index: dict[str, int]) -> None:
    competition = job.competition
    if competition is None:
        job.fail(HEADER_LINE, "", "choose the competition the results belong to")
        return
    if competition.entrant_kind != Competition.PAIRS:
        job.fail(HEADER_LINE, "", f"results can be imported into a competition of partnerships; {competition.name} "
                                  f"is of {competition.get_entrant_kind_display().lower()}")
        return
    entered = Partnership.objects.filter(entries__competition=competition).select_related("player_one", "player_two")
    sides = PartnershipIndex(entered, f"entered in {competition.name}")
    club_sides = PartnershipIndex(_club_partnerships(job.club), f"of {job.club.name}")
    job.rows = _limited(job, job.rows)
    matches = (_match_rows if job.report.level == MATCH_LEVEL else _game_rows)(job, sides, club_sides)
    _check_duplicates(job, matches, competition)
    rounds = {r.number: r for r in Round.objects.filter(competition=competition)}
    bad_lines = {error["line"] for error in job.report.errors}
    for match in matches:
        if match.bad or bad_lines.intersection(match.lines):
            continue
        try:
            with transaction.atomic():
                _store_match(job, competition, match, rounds)
        except _MatchFailed:
            rounds = {r.number: r for r in Round.objects.filter(competition=competition)}


def _read_side(job: _Import, row: Row, key: str, sides: PartnershipIndex, club_sides: PartnershipIndex,
               competition: Competition) -> Partnership | None:
    """The side named by the cell: among the competition's entries first, else among the club's partnerships
    (``games.services.create_match`` then says whether it may play)."""
    text = row[key]
    try:
        return sides.find(text)
    except LookupError_ as error:
        try:
            return club_sides.find(text)
        except LookupError_:
            job.fail(row, key, str(error))
    return None


def _read_common(job: _Import, row: Row, match: _Match, sides: PartnershipIndex,
                 club_sides: PartnershipIndex) -> None:
    competition = job.competition
    assert competition is not None
    match.round = job.cell(row, "round", lambda t: parse_round(t, maximum=db_max(Round, "number")))
    match.date = job.cell(row, "date", parse_date)
    match.table = job.cell(row, "table", lambda t: check_length(t, Match._meta.get_field("table").max_length), "")
    for key in ("side_a", "side_b"):
        if job.required(row, key, f"side {key[-1].upper()}"):
            setattr(match, key, _read_side(job, row, key, sides, club_sides, competition))
    if match.side_a is None or match.side_b is None or (row["round"] and match.round is None) \
            or (row["date"] and match.date is None) or match.table is None:
        match.bad = True


def _pair_of_ints(job: _Import, row: Row, keys: tuple[str, str], what: str,
                  maximum: int) -> tuple[int | None, int | None, bool]:
    """Two cells that are both filled or both blank; the third value says whether they could be read."""
    a = job.cell(row, keys[0], lambda t: parse_int(t, maximum=maximum))
    b = job.cell(row, keys[1], lambda t: parse_int(t, maximum=maximum))
    ok = (a is not None or not row[keys[0]]) and (b is not None or not row[keys[1]])
    if ok and (a is None) != (b is None):
        blank = keys[0] if a is None else keys[1]
        job.fail(row, blank, f"give {what} for both sides or for neither")
        ok = False
    return a, b, ok


def parse_outcome(text: str) -> str:
    """``played`` or a forfeit, by its key (``forfeit_a``) or its label ("Side A forfeited (no-show)")."""
    key = normalise(text)
    for value, label in Match.OUTCOMES:
        if key in (normalise(value), normalise(label)):
            return value
    raise CellError(f"must be one of {', '.join(value for value, _ in Match.OUTCOMES)}, got {text!r}")


def _match_rows(job: _Import, sides: PartnershipIndex, club_sides: PartnershipIndex) -> list[_Match]:
    matches = []
    for row in job.rows:
        match = _Match(row, lines=[row.line])
        _read_common(job, row, match, sides, club_sides)
        games_a, games_b, ok_games = _pair_of_ints(job, row, ("games_a", "games_b"), "the games won",
                                                   MAX_GAMES)
        chalks_a, chalks_b, ok_chalks = _pair_of_ints(job, row, ("chalks_a", "chalks_b"), "the chalks", MAX_CHALKS)
        hang_a = job.cell(row, "hang_jacks_a", _hang_jacks, 0)
        hang_b = job.cell(row, "hang_jacks_b", _hang_jacks, 0)
        outcome = job.cell(row, "outcome", parse_outcome, Match.PLAYED)
        if not ok_games or not ok_chalks or hang_a is None or hang_b is None or outcome is None:
            match.bad = True
        elif outcome != Match.PLAYED:
            match.forfeit = outcome
            if games_a or games_b:
                job.report.notes.append(f"Line {row.line}: a forfeit; its games ({games_a}–{games_b}) are not "
                                        "imported.")
        elif games_a is None:
            if chalks_a is not None or hang_a or hang_b:
                job.fail(row, "games_a", "the games are blank (a fixture not yet played) but chalks or hang jacks "
                                         "are given")
                match.bad = True
        elif normalise(row["status"]) in ("scheduled", "in progress"):
            if games_a or games_b:
                job.report.notes.append(f"Line {row.line}: the match is {row['status']}; it is imported as a "
                                        f"fixture without its unfinished score ({games_a}–{games_b}).")
        else:
            match.totals = {"games_a": games_a, "games_b": games_b, "hang_jacks_a": hang_a, "hang_jacks_b": hang_b,
                            "chalks_a": chalks_a, "chalks_b": chalks_b}
            if row["winner"] and not match.bad:
                _check_winner(job, row, match, games_a, games_b)
        matches.append(match)
    return matches


# the database's ranges of a match's totals, which its games' figures add up to; what the rules allow (engine/limits.py)
# is checked by the games services each row goes through
MAX_GAMES = db_max(Match, "games_a")
MAX_CHALKS = db_max(Match, "chalks_a")
MAX_HANG_JACKS = db_max(Match, "hang_jacks_a")


def _hang_jacks(text: str) -> int:
    return parse_int(text, maximum=MAX_HANG_JACKS)


def _check_winner(job: _Import, row: Row, match: _Match, games_a: int, games_b: int) -> None:
    assert match.side_a is not None and match.side_b is not None
    try:
        said = parse_side(row["winner"], _side_names(match))
    except CellError as error:
        job.fail(row, "winner", str(error))
        match.bad = True
        return
    assert job.competition is not None
    won = services.format_winner(job.competition, games_a, games_b)  # the winner as the services derive it
    if said != won:
        name = (match.side_a if said == "a" else match.side_b).display_name
        job.fail(row, "winner", f"says {name} won, but the games are {games_a}–{games_b}")
        match.bad = True


def _side_names(match: _Match) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for side, partnership in (("a", match.side_a), ("b", match.side_b)):
        if partnership is not None:
            names[side] = list({partnership.display_name, partnership.name} - {""})
    return names


def _game_rows(job: _Import, sides: PartnershipIndex, club_sides: PartnershipIndex) -> list[_Match]:
    groups: dict[Any, _Match] = {}
    for row in job.rows:
        key: Any = ("key", name_key(row["match"])) if row["match"] else \
            ("sides", row["round"], name_key(row["side_a"]), name_key(row["side_b"]))
        match = groups.get(key)
        if match is None:
            match = groups[key] = _Match(row)
            _read_common(job, row, match, sides, club_sides)
        elif not match.bad:
            _same_match(job, row, match, sides, club_sides)
        match.lines.append(row.line)
        number = job.cell(row, "game", lambda t: parse_int(t, minimum=1, maximum=MAX_GAMES,
                                                           what="the game's number"))
        hang_a = job.cell(row, "hang_jacks_a", _hang_jacks, 0)
        hang_b = job.cell(row, "hang_jacks_b", _hang_jacks, 0)
        score_a, score_b, ok_scores = _pair_of_ints(job, row, ("score_a", "score_b"), "the game's chalks",
                                                    MAX_CHALKS)
        winner = None
        if job.required(row, "winner", "the game's winner") and not match.bad:
            winner = job.cell(row, "winner", functools.partial(parse_side, names=_side_names(match)))
        if not job.required(row, "game", "the game's number") or number is None or winner is None \
                or hang_a is None or hang_b is None or not ok_scores:
            match.bad = True
            continue
        match.games.append(_Game(row, number, winner, (hang_a, hang_b), (score_a, score_b)))
    for match in groups.values():
        _check_game_numbers(job, match)
        _check_game_sums(job, match)
    return list(groups.values())


def _check_game_sums(job: _Import, match: _Match) -> None:
    """A match's hang jacks and chalks are its games' added up: the sums must fit the match's totals."""
    for side, key in ((0, "a"), (1, "b")):
        for what, column, total, bound in (
                ("hang jacks", f"hang_jacks_{key}", sum(g.hang_jacks[side] for g in match.games), MAX_HANG_JACKS),
                ("chalks", f"score_{key}", sum(g.scores[side] or 0 for g in match.games), MAX_CHALKS)):
            if total > bound and not match.bad:
                job.fail(match.games[-1].row, column, f"the match's games add up to {total:,} {what} for side "
                                                      f"{key.upper()}; at most {bound:,}")
                match.bad = True


def _same_match(job: _Import, row: Row, match: _Match, sides: PartnershipIndex, club_sides: PartnershipIndex) -> None:
    """A later row of a match: the cells it fills must agree with the match's first row."""
    first = match.row
    for key in ("side_a", "side_b"):
        if row[key] and match.side_a and match.side_b:
            side = _read_side(job, row, key, sides, club_sides, job.competition)  # type: ignore[arg-type]
            if side is not None and side.pk != getattr(match, key).pk:
                job.fail(row, key, f"match {row['match']!r} is {match.side_a.display_name} v "
                                   f"{match.side_b.display_name} on line {first.line}")
    for key in ("round", "date", "table"):
        if row[key] and first[key] and row[key] != first[key]:
            job.fail(row, key, f"the match's first row (line {first.line}) says {first[key]!r}")


def _check_game_numbers(job: _Import, match: _Match) -> None:
    seen: dict[int, int] = {}
    for game in match.games:
        if game.number in seen:
            job.fail(game.row, "game", f"game {game.number} of this match is already on line {seen[game.number]}")
            match.bad = True
        seen.setdefault(game.number, game.row.line)
    match.games.sort(key=lambda g: g.number)  # stored in order: games.services says which game comes next


def _check_duplicates(job: _Import, matches: list[_Match], competition: Competition) -> None:
    """The same two sides twice in one round (or, without rounds, on one date) of the file; a round's match that
    already has a result; a match without a round on a date that already has one between the sides."""
    by_round: dict[tuple, Match] = {}
    by_date: dict[tuple, Match] = {}
    for stored in Match.objects.filter(competition=competition).select_related("round"):
        sides = frozenset((stored.side_a_id, stored.side_b_id))
        if stored.round is not None:
            by_round[(stored.round.number, sides)] = stored
        when = timezone.localdate(stored.scheduled_at) if stored.scheduled_at else \
            (stored.round.starts_on if stored.round else None)
        if when is not None:
            by_date[(when, sides)] = stored
    seen: dict[tuple, int] = {}
    for match in matches:
        if match.bad or (match.round is None and match.date is None):
            continue
        assert match.side_a is not None and match.side_b is not None
        sides = frozenset((match.side_a.pk, match.side_b.pk))
        key = (match.round, sides) if match.round is not None else (match.date, sides)
        when = f"in round {match.round}" if match.round is not None else f"on {match.date:%d/%m/%Y}"
        vs = f"{match.side_a.display_name} v {match.side_b.display_name}"
        if key in seen:
            job.fail(match.row, "side_a", f"{vs} {when} is already on line {seen[key]}")
            match.bad = True
            continue
        seen[key] = match.row.line
        stored = by_round.get(key) if match.round is not None else by_date.get(key)
        if stored is None:
            continue
        if _has_result(stored):
            job.fail(match.row, "side_a", f"{vs} {when} already has a result ({stored.games_a}–{stored.games_b})")
            match.bad = True
        elif match.round is None:
            hint = f"of {stored.round}: give its round" if stored.round else \
                "without a round: enter its result on the match page"
            job.fail(match.row, "side_a", f"{vs} {when} is already a fixture {hint}")
            match.bad = True
        elif stored.side_a_id != match.side_a.pk:
            job.fail(match.row, "side_a", f"round {match.round} has this match as {stored.side_a_name} v "
                                          f"{stored.side_b_name}: swap the sides")
            match.bad = True


def _has_result(match: Any) -> bool:
    return match.status != "scheduled" or match.version > 0 or match.games_a + match.games_b > 0 \
        or match.games.exists()


class _MatchFailed(Exception):  # noqa: N818 — rolls back the savepoint of one match
    pass


def _store_match(job: _Import, competition: Competition, match: _Match, rounds: dict[int, Round]) -> None:
    """Create (or find, when the round already has the fixture) one match and store its result through the
    services; an ``EntryError`` becomes an error of the row and rolls back this match's savepoint."""
    assert match.side_a is not None and match.side_b is not None
    round_ = None
    if match.round is not None:
        round_ = rounds.get(match.round)
        if round_ is None:
            round_ = rounds[match.round] = Round.objects.create(competition=competition, number=match.round,
                                                                starts_on=match.date)
            job.report.count("rounds")
    scheduled_at = None
    if match.date is not None and (round_ is None or round_.starts_on != match.date):
        scheduled_at = timezone.make_aware(datetime.combine(match.date, time(0, 0)))
    stored = None
    if round_ is not None and round_.pk:
        stored = Match.objects.filter(competition=competition, round=round_, side_a=match.side_a,
                                      side_b=match.side_b).first()
    row = match.row
    try:
        if stored is None:
            stored = services.create_match(competition=competition, side_a=match.side_a, side_b=match.side_b,
                                           round=round_, table=match.table, scheduled_at=scheduled_at)
            job.report.count("matches")
        elif match.table and not stored.table:
            stored.table = match.table
            stored.save(update_fields=["table", "updated_at"])
        if match.totals is not None:
            services.record_match_totals(stored, user=job.user, author_label=job.author_label, **match.totals)
            job.report.count("results")
        if match.forfeit:
            services.record_forfeit(stored, outcome=match.forfeit, user=job.user, author_label=job.author_label)
            job.report.count("forfeits")
        for game in match.games:
            row = game.row
            score_a, score_b = game.scores
            services.enter_game_result(stored, number=game.number, winner=game.winner,
                                       hang_jacks_a=game.hang_jacks[0], hang_jacks_b=game.hang_jacks[1],
                                       score_a=score_a, score_b=score_b, user=job.user,
                                       author_label=job.author_label)
            job.report.count("games")
        if match.games:
            job.report.count("results")
    except services.EntryError as error:
        column = SERVICE_FIELDS.get(error.field, error.field)
        reason = error.reason
        if column not in job.report.positions:
            column = ""
            if error.field not in SERVICE_FIELDS:
                reason = f"{error.field}: {reason}"
        job.fail(row, column, reason)
        raise _MatchFailed from None
    except DatabaseError as error:  # a value the database refuses: the row's error, never a failed import
        job.fail(row, "", f"could not be stored: {error}")
        raise _MatchFailed from None


IMPORTERS: dict[str, Callable[[_Import, dict[str, int]], None]] = {
    PLAYERS: _import_players, PARTNERSHIPS: _import_partnerships, TEAMS: _import_teams, ENTRIES: _import_entries,
    RESULTS: _import_results,
}


# ----------------------------------------------------------------------------- export
STANDINGS_COLUMNS = ("rank", "entrant", "played", "won", "drawn", "lost", "match_points", "bullseyes_for",
                     "bullseyes_against", "bullseye_difference", "chalks_for", "chalks_against", "chalk_difference",
                     "hang_jacks_for", "hang_jacks_against", "byes")
COVERED_METRICS = {*STANDINGS_COLUMNS, "wins", "draws", "losses", "withdrawn", "coarse"}  # metrics with a column
RESULTS_COLUMNS = ("round", "date", "table", "side_a", "side_b", "games_a", "games_b", "chalks_a", "chalks_b",
                   "hang_jacks_a", "hang_jacks_b", "level", "outcome", "status", "winner")


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula (OWASP)
TEXT_MARK = "'"


def escape_cell(value: Any) -> Any:
    """A cell as the exports write it: text that a spreadsheet would run as a formula gets a leading single quote
    (OWASP's advice against CSV injection), and so does text that already begins with quotes before such a
    character, so that ``unescape_cell`` gives every text back exactly. Numbers stay numbers.

    >>> [escape_cell(v) for v in ("=cmd|' /C calc'!A0", "-3", -3, "@SUM(A1)", "'=x", "Ann & Bob", "'ok")]
    ["'=cmd|' /C calc'!A0", "'-3", -3, "'@SUM(A1)", "''=x", 'Ann & Bob', "'ok"]
    """
    if isinstance(value, str) and value.lstrip(TEXT_MARK).startswith(FORMULA_STARTS):
        return TEXT_MARK + value
    return value


def unescape_cell(text: str) -> str:
    """A cell as the import reads it: the quote ``escape_cell`` put before a formula character is taken off.

    >>> [unescape_cell(t) for t in ("'=cmd", "''=x", "'-3", "'ok", "=1+1")]
    ['=cmd', "'=x", '-3', "'ok", '=1+1']
    """
    if text.startswith(TEXT_MARK) and text.lstrip(TEXT_MARK).startswith(FORMULA_STARTS):
        return text[len(TEXT_MARK):]
    return text


def _write(rows: Iterable[Iterable[Any]], out: TextIO | None = None, *, bom: bool = True) -> str:
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


def standings_table(competition: Competition) -> list[list[Any]]:
    """The standings as rows of cells, the header first: the common columns, each tiebreak metric of the
    competition not among them (from ``StandingRow.metrics``), then withdrawn and coarse."""
    rows = StandingRow.objects.filter(competition=competition, section="")  # not a team league's per-pair lines
    rows = list(rows.select_related("partnership__player_one", "partnership__player_two", "team", "player")
                .order_by("group", "rank", "id"))
    tiebreaks = [key for key in (competition.tiebreaks or []) if isinstance(key, str)]
    metrics = [key for key in dict.fromkeys(tiebreaks) if key not in COVERED_METRICS]
    grouped = any(row.group for row in rows)
    header = ([*(["group"] if grouped else []), *STANDINGS_COLUMNS, *metrics, "withdrawn", "coarse"])
    table: list[list[Any]] = [header]
    for row in rows:
        entrant = row.entrant
        name = getattr(entrant, "display_name", None) or str(entrant or "")
        values = row.metrics if isinstance(row.metrics, dict) else {}
        table.append([
            *([row.group] if grouped else []), row.rank, name, row.played, row.won, row.drawn, row.lost,
            row.match_points, row.bullseyes_for, row.bullseyes_against, row.bullseye_difference, row.chalks_for,
            row.chalks_against, row.chalk_difference, row.hang_jacks_for, row.hang_jacks_against, row.byes,
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
    return _write(standings_table(competition), out, bom=bom)


def export_results(competition: Competition, out: TextIO | None = None, *, bom: bool = True,
                   include_drafts: bool = False) -> str:
    return _write(results_table(competition, include_drafts=include_drafts), out, bom=bom)
