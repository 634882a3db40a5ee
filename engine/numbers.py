"""Numbers in text that people typed (a form's field, a table's name, a group's name): only the ASCII digits 0-9
count. ``str.isdigit()`` is no test for that: it is true of "²" and other digits that ``int()`` refuses, so that
``int(text) if text.isdigit() else …`` answers a 500; and ``int()`` refuses more than 4,300 digits.

    >>> whole_number("12"), whole_number(" 7 "), whole_number("²"), whole_number("1²"), whole_number("9" * 5000)
    (12, 7, None, None, None)
    >>> sorted(["Group 10", "Group 9", "²", "Group 1²"], key=natural_key)
    ['Group 1²', 'Group 9', 'Group 10', '²']
"""

from __future__ import annotations

import re

DIGITS = re.compile(r"[0-9]+")
MAX_DIGITS = 18  # any such number fits in a 64-bit integer


def is_digits(text: str) -> bool:
    """``text`` is ASCII digits only (at least one)."""
    return DIGITS.fullmatch(text) is not None


def whole_number(text: object, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` is written as (blanks around it allowed), or None when it is not one of at most
    ``max_digits`` ASCII digits."""
    text = str(text).strip()
    if len(text) > max_digits or not is_digits(text):
        return None
    return int(text)


def natural_key(text: str) -> tuple[str | tuple[int, str], ...]:
    """A sort key that puts "Table 9" before "Table 10": the runs of ASCII digits compared as numbers (by their
    length without leading zeros, then their digits: no ``int()``, whatever their length), the rest without
    regard to case. A text part and a number part alternate, so any two keys compare."""
    parts = DIGITS.split(text)
    key: list[str | tuple[int, str]] = [parts[0].casefold()]
    for run, part in zip(DIGITS.findall(text), parts[1:], strict=True):
        digits = run.lstrip("0")
        key += [(len(digits), digits), part.casefold()]
    return tuple(key)
