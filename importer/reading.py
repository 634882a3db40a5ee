"""Reading a CSV file as a club saves it: its encoding (UTF-8 with or without Excel's byte-order mark, UTF-16 with
its mark, or one the organiser declares), its delimiter (comma, semicolon, tab, Excel's ``sep=`` line), its header
mapped to the kind's columns, and its records as rows, one at a time — the file is read as a stream, never whole.

A file that cannot be read at all raises :class:`FileError`; a record that cannot be a row (a quote never closed,
a cell over the field limit, too many cells) is an error of its line in the :class:`~importer.report.ImportReport`.
Lines are numbered as a spreadsheet numbers its rows: the header is line 1.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import io
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, TextIO, cast

from django.core.files import File

from importer.cells import UTF8_BOM, normalise, shown, unescape_cell
from importer.columns import Column
from importer.report import ImportReport

HEADER_LINE = 1
MAX_IMPORT_BYTES = 20 * 1024 * 1024  # a file at most (a club's whole history is far smaller); read as a stream
MAX_COLUMNS = 100  # cells of the header at most
ENCODINGS = {  # what an organiser may declare for a file that is not UTF-8: codec → its name for people
    "cp1252": "Windows-1252 (Excel's plain CSV on Windows)",
    "latin-1": "ISO-8859-1 (Latin-1)",
    "mac_roman": "Mac Roman (Excel's CSV on an old Mac)",
    "utf-16": "UTF-16",
}


class FileError(ValueError):
    """The file as a whole cannot be read (not text, not CSV, empty, too large, in an encoding not declared);
    ``line`` is where the reading stopped, when it is known."""

    def __init__(self, reason: str, line: int = HEADER_LINE) -> None:
        super().__init__(reason)
        self.line = line



@dataclass
class Row:
    """A record of the file as the import reads it: its line and its known columns' cells (stripped, and
    unescaped: see ``importer.cells.unescape_cell``); a column the file lacks reads as blank."""

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
        data = cast(BinaryIO, data.file)
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


def map_header(table: Table, columns: tuple[Column, ...], report: ImportReport) -> dict[str, int]:
    """Each known column's position in the file; unknown headers are ignored (and listed)."""
    by_name = {name: column for column in columns for name in column.names()}
    index: dict[str, int] = {}
    for position, text in enumerate(table.header):
        if not text:
            continue
        column = by_name.get(normalise(text))
        if column is None:
            report.ignored_columns.append(shown(text))
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
        shown = report.ignored_columns[:10]
        more = len(report.ignored_columns) - len(shown)
        reason += f"; headers not recognised: {', '.join(repr(h) for h in shown)}"
        if more:
            reason += f" and {more} more"
    return reason


def table_rows(table: Table, index: dict[str, int], report: ImportReport) -> Iterator[Row]:
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

