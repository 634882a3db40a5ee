"""The geometry of the printable scoresheet (games/print_sheet.html, static/css/print.css): the height of a
printed row that puts every game of a match on one page, names wrapped rather than cut.

Names wrap on paper, so a long one takes more lines: a dealer's name more lines of its row, the club's,
competition's and sides' names more lines of the sheet's head. Their lines are estimated from their length (an
average character is about ``CHARACTER_EM`` of the font's size wide) and the rows are made short enough for all
of it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

PRINTED_GAMES_MM = 185  # of the 259 mm a letter page (the shorter of A4 and letter) leaves inside 10 mm margins
HEAD_ROWS = 4  # a game's title and its column heads (which wrap on two or three lines), in rows
MAX_ROW_MM = 6.5
SMALLEST_ROW_MM = 2.0
ROW_STEP_MM = 0.05

# as print.css lays the sheet out
SHEET_MM = 190
GAMES_GAP_MM = 4
DEALER_SHARE = 0.17  # of a game's table
ROW_FONT = 0.62  # of the row's height
LINE_HEIGHT = 1.2
TITLE_FONT_MM = 4.2
SIDES_FONT_MM = 3.2
RESULT_FONT_MM = 3
SIDES_TEXT_MM = SHEET_MM - 6 - 28 - 4  # the sides' table less its letter, its Games box and its padding
CHARACTER_EM = 0.6  # an average character's width, generous (capitals and wide letters)


def text_lines(text: str, width_mm: float, font_mm: float) -> int:
    """The lines ``text`` takes in a box ``width_mm`` wide at ``font_mm``: wrapped after a space or a hyphen as
    a browser does, a word longer than a line broken wherever it must.

    >>> text_lines("Anil Maharaj (B)", 30, 3), text_lines("x" * 120, 30, 3), text_lines("Kerry-Ann Joseph", 11, 2)
    (1, 8, 2)"""
    per_line = max(1, int(width_mm / (font_mm * CHARACTER_EM)))
    lines, used = 1, 0
    for word in re.findall(r"[^\s-]*[\s-]*", text):
        if not word:
            continue
        if used and used + len(word.rstrip()) > per_line:
            lines, used = lines + 1, 0
        while used + len(word.rstrip()) > per_line:  # a word longer than a line
            word = word[per_line - used:]
            lines, used = lines + 1, 0
        used += len(word)
    return lines


def head_extra_mm(title: str, sides: Iterable[str], result: str = "") -> float:
    """How much taller than one line each the sheet's head is with these names: the title (club and
    competition), each side's line (its name and its players) and the result (with the winner's name)."""
    extra = (text_lines(title, SHEET_MM, TITLE_FONT_MM) - 1) * TITLE_FONT_MM * LINE_HEIGHT
    for side in sides:
        extra += (text_lines(side, SIDES_TEXT_MM, SIDES_FONT_MM) - 1) * SIDES_FONT_MM * LINE_HEIGHT
    if result:
        extra += (text_lines(result, SHEET_MM, RESULT_FONT_MM) - 1) * RESULT_FONT_MM * LINE_HEIGHT
    return extra


def _game_units(dealers: Sequence[str], blank_rows: int, row_mm: float, dealer_mm: float) -> float:
    """A game's height in rows: each hand's row as tall as its dealer's name needs, the blank rows, its head."""
    font_mm = row_mm * ROW_FONT
    hands = sum(max(1.0, text_lines(dealer, dealer_mm, font_mm) * ROW_FONT * LINE_HEIGHT) for dealer in dealers)
    return hands + blank_rows + HEAD_ROWS


def row_height(blocks: list[dict[str, Any]], *, columns: int, head_mm: float = 0.0) -> str:
    """The height of a printed row (mm) that puts every game of the sheet on one page: the games take
    ``PRINTED_GAMES_MM`` of the page less what long names add to the head (``head_mm``), side by side in
    ``columns``; the tallest row that fits, at most ``MAX_ROW_MM``."""
    games_mm = PRINTED_GAMES_MM - head_mm
    table_mm = (SHEET_MM - GAMES_GAP_MM * (columns - 1)) / columns
    dealer_mm = table_mm * DEALER_SHARE - 1.2  # less the cell's padding
    dealers = [[row.dealer for row in block["rows"]] for block in blocks]
    row_mm = MAX_ROW_MM
    while row_mm > SMALLEST_ROW_MM:
        units = [_game_units(names, len(block["blank_rows"]), row_mm, dealer_mm)
                 for names, block in zip(dealers, blocks, strict=True)]
        height = sum(max(units[i:i + columns]) for i in range(0, len(units), columns)) or 1
        if row_mm * height <= games_mm:
            break
        row_mm -= ROW_STEP_MM
    return f"{row_mm:.2f}"
