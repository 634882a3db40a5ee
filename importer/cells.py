"""One cell of a CSV file: how its text is compared, read into a value, and written so that a spreadsheet shows
it as text.

Each ``parse_…`` takes a cell's text and returns its value, or raises :class:`CellError` whose message is the
reason the organiser reads; the checks of what a value may be are the services' (``league.entries``,
``games.services``), not these: a cell is read here only as far as the services need a value.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Model

from league.models import validate_plain_text

UTF8_BOM = "\ufeff"  # the byte-order mark by which Excel reads a file as UTF-8 (the exports write it)


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



class CellError(ValueError):
    """A cell that cannot be read; the message is the reason shown to the organiser."""


def parse_int(text: str, *, minimum: int = 0, maximum: int | None = None, what: str = "a whole number") -> int:
    """``"3"``, ``" 3 "``, ``"3.0"`` → 3; from ``minimum`` to ``maximum``.

    >>> parse_int("3.0")
    3
    >>> parse_int("40000", maximum=32767)
    Traceback (most recent call last):
    ...
    importer.cells.CellError: must be at most 32,767, got '40000'
    """
    cleaned = text.replace(" ", "")
    if len(cleaned) <= 40 and re.fullmatch(r"\+?\d+(\.0*)?", cleaned):
        value = int(cleaned.split(".")[0])
        if value < minimum:
            raise CellError(f"must be {minimum} or more, got {text!r}")
        if maximum is not None and value > maximum:
            raise CellError(f"must be at most {maximum:,}, got {text!r}")
        return value
    raise CellError(f"must be {what}, got {shown(text)!r}")


def shown(text: str) -> str:
    """A cell's text as a reason quotes it: at most 60 characters."""
    return text if len(text) <= 60 else text[:57] + "…"


def db_max(model: type[Model], name: str) -> int:
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
        raise CellError(f"must be a round number (1 or more), got {shown(text)!r}")
    if maximum is not None and int(match.group(1)) > maximum:
        raise CellError(f"must be a round number of at most {maximum:,}, got {text!r}")
    return int(match.group(1))


def check_plain_text(text: str) -> str:
    """A name's cell: one line of plain text (``league.models.validate_plain_text``, the models' rule for every
    name), for a service that does not check it itself."""
    try:
        validate_plain_text(text)
    except ValidationError as error:
        raise CellError(error.messages[0]) from None
    return text


def check_length(text: str, limit: int) -> str:
    """A name's cell: one line of plain text of at most ``limit`` characters (where no service checks the length)."""
    if len(text) > limit:
        raise CellError(f"is {len(text)} characters long; at most {limit}")
    return check_plain_text(text)


def whole_number_or_text(text: str) -> int | str:
    """A number a service checks itself: the whole number the cell holds, or its text when it holds none, so
    that the service refuses it with its own reason (as it would the form's value).

    >>> whole_number_or_text("3"), whole_number_or_text("3.0"), whole_number_or_text("first")
    (3, 3, 'first')
    """
    try:
        return parse_int(text)
    except CellError:
        return text


SIDE_VALUES = {"a": {"a", "side a", "home", "team a", "pair a", "1"}, "b": {"b", "side b", "away", "team b",
                                                                               "pair b", "2"}}


def parse_side(text: str, names: Mapping[str, Iterable[str]]) -> str:
    """``"A"``/``"home"``/side A's name → ``"a"``; the same for B. ``names`` maps each side to its names."""
    key = normalise(text)
    for side in ("a", "b"):
        if key in SIDE_VALUES[side] or name_key(text) in {name_key(n) for n in names.get(side, ())}:
            return side
    raise CellError(f"must be A or B (or a side's name), got {text!r}")


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

