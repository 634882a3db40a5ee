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

The import runs in two phases. First every row is read and checked — types, required cells, references,
duplicates within the file and against the database — and every problem is collected as
``{"line": n, "column": "side_b", "reason": "…"}``, lines numbered as a spreadsheet numbers its rows
(the header is line 1). Then the rows are stored in one transaction, results through
``games.services`` (``create_match``, then ``record_match_totals`` or ``enter_game_result``), so a score
the competition's match format does not allow is refused by the same code as on the entry page; its
``EntryError`` becomes an error of that row. Results rows that read cleanly are tried even when other
rows did not, so that one upload reports every problem; the transaction is rolled back when there is
any error at all: nothing is stored unless the whole file is good.

Files are UTF-8 with or without a byte-order mark (Excel's "CSV UTF-8"); Excel's plain "CSV" on Windows
(Windows-1252) and UTF-16 are read too. The delimiter is sniffed from the header (comma, semicolon as
Excel writes in many locales, or tab), and Excel's ``sep=;`` first line is understood. Dates are
``2025-05-03``, ``03/05/2025`` (day first, as in Trinidad) or ``3 May 2025``.

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
import csv
import functools
import io
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any, TextIO

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from games import services
from games.models import Match
from league.models import Club, Competition, Entry, Partnership, Player, Round, StandingRow, Team
from league.permissions import is_organiser, published_round_filter

PLAYERS, PARTNERSHIPS, TEAMS, ENTRIES, RESULTS = "players", "partnerships", "teams", "entries", "results"
KINDS = (PLAYERS, PARTNERSHIPS, TEAMS, ENTRIES, RESULTS)
MATCH_LEVEL, GAME_LEVEL = "match", "game"
KIND_LABELS = {PLAYERS: "Players", PARTNERSHIPS: "Partnerships", TEAMS: "Teams (team competitions)",
               ENTRIES: "Entries of a competition", RESULTS: "Past results (match totals or game by game)"}
UTF8_BOM = "\ufeff"
HEADER_LINE = 1


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

    @property
    def ok(self) -> bool:
        return not self.errors

    def error(self, line: int, column: str, reason: str) -> None:
        item = {"line": line, "column": column, "reason": reason}
        if item not in self.errors:
            self.errors.append(item)

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
        return [f"line {e['line']}, column {self.headers.get(e['column'], e['column']) or '-'}: {e['reason']}"
                for e in self.sorted_errors()]

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
    """The file as a whole cannot be read (not text, not CSV, empty)."""


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
    header_line: int
    header: list[str]
    rows: list[tuple[int, list[str]]]
    delimiter: str
    encoding: str


def decode(data: bytes | str) -> tuple[str, str]:
    """The file's text and the encoding it was read in."""
    if isinstance(data, str):
        return data.removeprefix(UTF8_BOM), "UTF-8"
    if data.startswith(b"PK\x03\x04") or data.startswith(b"\xd0\xcf\x11\xe0"):
        raise FileError("this is an Excel workbook, not a CSV file: in Excel choose File › Save As › "
                        "CSV UTF-8 (comma delimited)")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16").removeprefix(UTF8_BOM), "UTF-16"
    try:
        return data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        raise FileError("the file is not text: save it as CSV UTF-8") from None


def sniff_delimiter(text: str) -> tuple[str, bool]:
    """The delimiter (``,`` ``;`` or tab) that splits the header into the most cells, and whether the first
    line is Excel's ``sep=`` line.

    >>> sniff_delimiter("Name;Nickname;Club\\r\\nAnn;Annie;\\r\\n")
    (';', False)
    >>> sniff_delimiter("sep=;\\nname;nickname\\n")
    (';', True)
    """
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    match = re.fullmatch(r'"?sep=(.)"?', first.strip(), flags=re.IGNORECASE)
    if match:
        return match.group(1), True
    best, cells = ",", 1
    for delimiter in (",", ";", "\t"):
        n = len(next(csv.reader([first], delimiter=delimiter), []))
        if n > cells:
            best, cells = delimiter, n
    return best, False


def read_table(data: bytes | str) -> Table:
    """The header and the non-blank rows, each with its line as a spreadsheet shows it."""
    text, encoding = decode(data)
    if "\x00" in text:
        raise FileError("the file is not text: save it as CSV UTF-8")
    delimiter, sep_line = sniff_delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header: list[str] | None = None
    header_line = 0
    rows: list[tuple[int, list[str]]] = []
    try:
        for index, cells in enumerate(reader, start=0 if sep_line else 1):
            if index == 0 or not any(cell.strip() for cell in cells):
                continue
            if header is None:
                header, header_line = [cell.strip() for cell in cells], index
            else:
                rows.append((index, cells))
    except csv.Error as error:
        raise FileError(f"line {reader.line_num}: {error}") from None
    if header is None:
        raise FileError("the file is empty: the first line should be the header")
    return Table(header_line, header, rows, delimiter, encoding)


def _map_header(table: Table, columns: tuple[Column, ...], report: ImportReport) -> dict[str, int]:
    """Each known column's position in the file; unknown headers are ignored (and listed)."""
    by_name = {name: column for column in columns for name in column.names()}
    index: dict[str, int] = {}
    for position, text in enumerate(table.header):
        if not text:
            continue
        column = by_name.get(normalise(text))
        if column is None:
            report.ignored_columns.append(text)
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


def _missing_column(column: Column, report: ImportReport) -> str:
    reason = f"no {column.key} column: the header needs one ({column.help})"
    if report.ignored_columns:
        reason += f"; headers not recognised: {', '.join(repr(h) for h in report.ignored_columns)}"
    return reason


def _rows(table: Table, index: dict[str, int], report: ImportReport) -> list[Row]:
    rows = []
    width = len(table.header)
    while width and not table.header[width - 1]:
        width -= 1
    for line, cells in table.rows:
        extra = [cell for cell in cells[width:] if cell.strip()]
        if extra:
            report.error(line, "", f"{len(cells)} cells where the header has {width}: a comma inside a name needs "
                                   "the cell in quotes")
        rows.append(Row(line, {key: unescape_cell(cells[i].strip()).strip() if i < len(cells) else ""
                               for key, i in index.items()}))
    report.rows = len(rows)
    return rows


# ----------------------------------------------------------------------------- cells
class CellError(ValueError):
    """A cell that cannot be read; the message is the reason shown to the organiser."""


def parse_int(text: str, *, minimum: int = 0, what: str = "a whole number") -> int:
    """``"3"``, ``" 3 "``, ``"3.0"`` → 3.

    >>> parse_int("3.0")
    3
    """
    cleaned = text.replace(" ", "")
    if re.fullmatch(r"\+?\d+(\.0*)?", cleaned):
        value = int(cleaned.split(".")[0])
        if value >= minimum:
            return value
        raise CellError(f"must be {minimum} or more, got {text!r}")
    raise CellError(f"must be {what}, got {text!r}")


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


def parse_round(text: str) -> int | None:
    """``"3"``, ``"Round 3"``, ``"R3"``, ``"Week 3"`` → 3; blank → ``None``."""
    if not text:
        return None
    match = re.fullmatch(r"(?:round|rd|r|week|wk)?\s*\.?\s*(\d+)(?:\.0*)?", text.strip(), flags=re.IGNORECASE)
    if not match or int(match.group(1)) < 1:
        raise CellError(f"must be a round number (1 or more), got {text!r}")
    return int(match.group(1))


def check_length(text: str, limit: int) -> str:
    if len(text) > limit:
        raise CellError(f"is {len(text)} characters long; at most {limit}")
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
    rows: list[Row] = field(default_factory=list)

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


def import_csv(*, club: Club, kind: str, data: bytes | str, competition: Competition | None = None,
               user: Any = None) -> ImportReport:
    """Check every row of a file of ``kind``, then store them all in one transaction — or nothing when any
    row is bad. The report lists each error by line and column, or what was created."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    report = ImportReport(kind)
    if competition is not None and competition.club_id != club.pk:
        report.error(HEADER_LINE, "competition", f"{competition.name} is not a competition of {club.name}")
        return report
    try:
        table = read_table(data)
    except FileError as error:
        report.error(HEADER_LINE, "", str(error))
        return report
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
    job = _Import(club, competition, user, report, _rows(table, index, report))
    if report.errors and any(e["line"] == table.header_line for e in report.errors):
        return report
    store = CHECKS[kind](job, index)
    if kind != RESULTS and report.errors:
        return report
    try:
        with transaction.atomic():
            store()
            if report.errors:
                raise _RollBack
    except _RollBack:
        report.created.clear()
    except IntegrityError as error:  # a row stored by someone else between the check and the store
        report.created.clear()
        report.error(HEADER_LINE, "", f"the file clashed with data stored meanwhile ({error}); nothing was "
                                      "stored — import it again")
    return report


# ----------------------------------------------------------------------------- players
def _check_players(job: _Import, index: dict[str, int]) -> Callable[[], None]:
    clubs = ClubIndex()
    existing = {(club_id, name_key(name)) for club_id, name in Player.objects.values_list("home_club_id", "name")}
    seen: dict[tuple[int, str], int] = {}
    new: list[Player] = []
    for row in job.rows:
        if not job.required(row, "name", "the player's name"):
            continue
        name = job.cell(row, "name", lambda t: check_length(t, 120))
        nickname = job.cell(row, "nickname", lambda t: check_length(t, 60), "")
        club = job.cell(row, "club", clubs.find, job.club)
        if name is None or nickname is None or club is None:
            continue
        if club.pk != job.club.pk and job.user is not None and not is_organiser(job.user, club):
            job.fail(row, "club", f"only organisers of {club.name} can add its players")
            continue
        key = (club.pk, name_key(name))
        if key in seen:
            job.fail(row, "name", f"{name!r} is already on line {seen[key]}")
        elif key in existing:
            job.fail(row, "name", f"{club.name} already has a player called {name!r}")
        else:
            seen[key] = row.line
            new.append(Player(name=name, nickname=nickname, home_club=club))

    def store() -> None:
        Player.objects.bulk_create(new)
        job.report.count("players", len(new))

    return store


# ----------------------------------------------------------------------------- partnerships
def _check_partnerships(job: _Import, index: dict[str, int]) -> Callable[[], None]:
    players = PlayerIndex(Player.objects.filter(home_club=job.club), f"of {job.club.name}")
    partnerships = list(_club_partnerships(job.club))
    by_players = {_pair(p.player_one_id, p.player_two_id): p for p in partnerships}
    names = {name_key(p.name): p for p in partnerships if p.name}
    seen_pairs: dict[frozenset, int] = {}
    seen_names: dict[str, int] = {}
    new: list[Partnership] = []
    for row in job.rows:
        if not job.required(row, "player_one", "the first player"):
            continue
        one = job.cell(row, "player_one", players.find)
        two = job.cell(row, "player_two", players.find)
        name = job.cell(row, "name", lambda t: check_length(t, 120), "")
        if one is None or (row["player_two"] and two is None) or name is None:
            continue
        if two is not None and two.pk == one.pk:
            job.fail(row, "player_two", f"{two.name} cannot partner themselves")
            continue
        pair = _pair(one.pk, two.pk if two else None)
        if pair in seen_pairs:
            job.fail(row, "player_one", f"the same players are already a partnership on line {seen_pairs[pair]}")
            continue
        if pair in by_players:
            job.fail(row, "player_one", f"these players are already the partnership {by_players[pair].display_name}")
            continue
        if name and name_key(name) in seen_names:
            job.fail(row, "name", f"{name!r} is already on line {seen_names[name_key(name)]}")
            continue
        if name and name_key(name) in names:
            job.fail(row, "name", f"{job.club.name} already has a partnership called {name!r}")
            continue
        seen_pairs[pair] = row.line
        if name:
            seen_names[name_key(name)] = row.line
        new.append(Partnership(name=name, player_one=one, player_two=two, club=job.club))

    def store() -> None:
        Partnership.objects.bulk_create(new)
        job.report.count("partnerships", len(new))

    return store


def _pair(one: int, two: int | None) -> frozenset:
    return frozenset({one, two} - {None})


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


def _check_size(job: _Import, row: Row, column: str, partnership: Partnership, competition: Competition) -> bool:
    if partnership.size * 2 == competition.players:
        return True
    each = "a pair" if competition.players == 4 else "one player"
    job.fail(row, column, f"{partnership.display_name} has {partnership.size} player(s), but {competition.name} is "
                          f"a {competition.players}-player game: each side is {each}")
    return False


# ----------------------------------------------------------------------------- teams
def _check_teams(job: _Import, index: dict[str, int]) -> Callable[[], None]:
    if "partnership" not in index and "player_one" not in index:
        job.fail(HEADER_LINE, "partnership", "no partnership column (or player_one and player_two): each row names "
                                             "a pair of the team")
        return lambda: None
    competitions = _competitions(job.club)
    clubs = ClubIndex()
    indexes: dict[int, PartnershipIndex] = {}
    teams: dict[tuple[int, str], dict[str, Any]] = {}
    placed: dict[tuple[int, int], tuple[str, int]] = {}
    for competition_id, team_name, partnership_id in Team.partnerships.through.objects.filter(
            team__competition__club=job.club).values_list("team__competition_id", "team__name", "partnership_id"):
        placed[(competition_id, partnership_id)] = (team_name, 0)
    existing = set(Team.objects.filter(competition__club=job.club).values_list("competition_id", "name"))
    existing = {(c, name_key(n)) for c, n in existing}
    for row in job.rows:
        competition = job.competition_of(row, competitions)
        has_name = job.required(row, "team", "the team's name")
        club = job.cell(row, "club", clubs.find, job.club)
        if competition is None or not has_name or club is None:
            continue
        if competition.entrant_kind != Competition.TEAMS:
            kind = competition.get_entrant_kind_display().lower()
            job.fail(row, "competition", f"{competition.name} is a competition of {kind}, not of club teams")
            continue
        name = job.cell(row, "team", lambda t: check_length(t, 120))
        if name is None:
            continue
        key = (competition.pk, name_key(name))
        if key in existing:
            job.fail(row, "team", f"{competition.name} already has a team called {name!r}")
            continue
        team = teams.setdefault(key, {"competition": competition, "name": name, "club": club, "line": row.line,
                                      "partnerships": []})
        if team["club"].pk != club.pk:
            job.fail(row, "club", f"team {name!r} is of {team['club'].name} on line {team['line']}")
            continue
        if club.pk not in indexes:
            indexes[club.pk] = PartnershipIndex(_club_partnerships(club), f"of {club.name}")
        partnership, column = _side_of(job, row, indexes[club.pk])
        if partnership is None or not _check_size(job, row, column, partnership, competition):
            continue
        where = placed.get((competition.pk, partnership.pk))
        if where is not None:
            team_name, line = where
            on = f" on line {line}" if line else ""
            job.fail(row, column, f"{partnership.display_name} is already in team {team_name!r}{on}")
            continue
        placed[(competition.pk, partnership.pk)] = (name, row.line)
        team["partnerships"].append(partnership)

    def store() -> None:
        for team in teams.values():
            created = Team.objects.create(competition=team["competition"], club=team["club"], name=team["name"])
            created.partnerships.add(*team["partnerships"])
            Entry.objects.create(competition=team["competition"], team=created)
            job.report.count("teams")
            job.report.count("team places", len(team["partnerships"]))

    return store


# ----------------------------------------------------------------------------- entries
def _check_entries(job: _Import, index: dict[str, int]) -> Callable[[], None]:
    competitions = _competitions(job.club)
    if not {"partnership", "player_one", "team", "player"} & set(index):
        kind = job.competition.entrant_kind if job.competition else Competition.PAIRS
        column = {Competition.TEAMS: "team", Competition.INDIVIDUAL: "player"}.get(kind, "partnership")
        job.fail(HEADER_LINE, column, f"no {column} column: each row names the entrant")
        return lambda: None
    pairs = PartnershipIndex(_club_partnerships(job.club), f"of {job.club.name}")
    players = PlayerIndex(Player.objects.filter(home_club=job.club), f"of {job.club.name}")
    teams: dict[int, dict[str, Team]] = defaultdict(dict)
    for team in Team.objects.filter(competition__club=job.club):
        teams[team.competition_id][name_key(team.name)] = team
    entered: dict[tuple[int, str, int], int] = {}
    for competition_id, partnership_id, team_id, player_id in Entry.objects.filter(
            competition__club=job.club).values_list("competition_id", "partnership_id", "team_id", "player_id"):
        for kind, pk in (("partnership", partnership_id), ("team", team_id), ("player", player_id)):
            if pk is not None:
                entered[(competition_id, kind, pk)] = 0
    new: list[Entry] = []
    for row in job.rows:
        competition = job.competition_of(row, competitions)
        seed = job.cell(row, "seed", lambda t: parse_int(t, minimum=1))
        group = job.cell(row, "group", lambda t: check_length(t, 20), "")
        if competition is None:
            continue
        entrant, column = _entrant_of(job, row, competition, pairs, players, teams[competition.pk])
        if entrant is None:
            continue
        kind = column if column in ("team", "player") else "partnership"
        key = (competition.pk, kind, entrant.pk)
        if key in entered:
            line = entered[key]
            name = getattr(entrant, "display_name", None) or str(entrant)
            job.fail(row, column, f"{name} is already entered in {competition.name}"
                                  + (f" on line {line}" if line else ""))
            continue
        entered[key] = row.line
        if (row["seed"] and seed is None) or group is None:
            continue
        new.append(Entry(competition=competition, seed=seed, group=group or "", **{kind: entrant}))

    def store() -> None:
        Entry.objects.bulk_create(new)
        job.report.count("entries", len(new))

    return store


def _entrant_of(job: _Import, row: Row, competition: Competition, pairs: PartnershipIndex, players: PlayerIndex,
                teams: dict[str, Team]) -> tuple[Any, str]:
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
    if partnership is None or not _check_size(job, row, column, partnership, competition):
        return None, column
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


def _check_results(job: _Import, index: dict[str, int]) -> Callable[[], None]:
    competition = job.competition
    if competition is None:
        job.fail(HEADER_LINE, "", "choose the competition the results belong to")
        return lambda: None
    if competition.entrant_kind != Competition.PAIRS:
        job.fail(HEADER_LINE, "", f"results can be imported into a competition of partnerships; {competition.name} "
                                  f"is of {competition.get_entrant_kind_display().lower()}")
        return lambda: None
    entered = Partnership.objects.filter(entries__competition=competition).select_related("player_one", "player_two")
    sides = PartnershipIndex(entered, f"entered in {competition.name}")
    club_sides = PartnershipIndex(_club_partnerships(job.club), f"of {job.club.name}")
    matches = (_match_rows if job.report.level == MATCH_LEVEL else _game_rows)(job, sides, club_sides)
    _check_duplicates(job, matches, competition)

    def store() -> None:
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

    return store


def _read_side(job: _Import, row: Row, key: str, sides: PartnershipIndex, club_sides: PartnershipIndex,
               competition: Competition) -> Partnership | None:
    text = row[key]
    try:
        return sides.find(text)
    except LookupError_ as error:
        try:
            known = club_sides.find(text)
        except LookupError_:
            job.fail(row, key, str(error))
        else:
            job.fail(row, key, f"{known.display_name} is not entered in {competition.name}: import the entries first")
    return None


def _read_common(job: _Import, row: Row, match: _Match, sides: PartnershipIndex,
                 club_sides: PartnershipIndex) -> None:
    competition = job.competition
    assert competition is not None
    match.round = job.cell(row, "round", parse_round)
    match.date = job.cell(row, "date", parse_date)
    match.table = job.cell(row, "table", lambda t: check_length(t, 40), "")
    for key in ("side_a", "side_b"):
        if job.required(row, key, f"side {key[-1].upper()}"):
            setattr(match, key, _read_side(job, row, key, sides, club_sides, competition))
    if match.side_a is None or match.side_b is None or (row["round"] and match.round is None) \
            or (row["date"] and match.date is None) or match.table is None:
        match.bad = True
    elif match.side_a.pk == match.side_b.pk:
        job.fail(row, "side_b", "a side cannot play itself")
        match.bad = True


def _pair_of_ints(job: _Import, row: Row, keys: tuple[str, str], what: str) -> tuple[int | None, int | None, bool]:
    """Two cells that are both filled or both blank; the third value says whether they could be read."""
    a = job.cell(row, keys[0], parse_int)
    b = job.cell(row, keys[1], parse_int)
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
        games_a, games_b, ok_games = _pair_of_ints(job, row, ("games_a", "games_b"), "the games won")
        chalks_a, chalks_b, ok_chalks = _pair_of_ints(job, row, ("chalks_a", "chalks_b"), "the chalks")
        hang_a = job.cell(row, "hang_jacks_a", parse_int, 0)
        hang_b = job.cell(row, "hang_jacks_b", parse_int, 0)
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


def _check_winner(job: _Import, row: Row, match: _Match, games_a: int, games_b: int) -> None:
    assert match.side_a is not None and match.side_b is not None
    try:
        said = parse_side(row["winner"], _side_names(match))
    except CellError as error:
        job.fail(row, "winner", str(error))
        match.bad = True
        return
    won = "a" if games_a > games_b else "b" if games_b > games_a else ""
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
        number = job.cell(row, "game", lambda t: parse_int(t, minimum=1, what="the game's number"))
        hang_a = job.cell(row, "hang_jacks_a", parse_int, 0)
        hang_b = job.cell(row, "hang_jacks_b", parse_int, 0)
        score_a, score_b, ok_scores = _pair_of_ints(job, row, ("score_a", "score_b"), "the game's chalks")
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
    return list(groups.values())


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
    match.games.sort(key=lambda g: g.number)
    for expected, game in enumerate(match.games, start=1):
        if game.number != expected and not match.bad:
            job.fail(game.row, "game", f"game {expected} of this match is missing: games are numbered 1, 2, 3, …")
            match.bad = True


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


CHECKS: dict[str, Callable[[_Import, dict[str, int]], Callable[[], None]]] = {
    PLAYERS: _check_players, PARTNERSHIPS: _check_partnerships, TEAMS: _check_teams, ENTRIES: _check_entries,
    RESULTS: _check_results,
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
