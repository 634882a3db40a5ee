"""Reading the live pages' renderings: the chalks each standings row shows, the hand rows a scoresheet shows, and a
cache of parsed renderings (a server sends one rendering to every socket of a page)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

ROW_ID = re.compile(r'id="(hand-\d+-\d+)"')
CACHED = 256  # parsed renderings kept (each server sends one rendering to all its sockets of a page)


class _StandingsParser(HTMLParser):
    """The standings table's column headers and, for each row, its entrant's name and its cells' text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.headers: list[str] = []
        self.rows: list[tuple[str, list[str]]] = []
        self._in: str | None = None  # "header", "name" or "cell": whose text is being read
        self._text: list[str] = []
        self._depth = 0  # elements open inside the name cell (its marks and players come after the name)
        self._body = False  # inside the table's body: each <tr> is a row

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if self._in == "name":
            self._depth += 1
        elif tag == "tr" and self._body:
            self.rows.append(("", []))
        elif tag == "tbody":
            self._body = True
        elif tag == "th" and found.get("scope") == "col":
            self._in, self._text = "header", []
        elif tag == "th" and found.get("scope") == "row" and self.rows:
            self._in, self._text, self._depth = "name", [], 0
        elif tag == "td" and self.rows:
            self._in, self._text = "cell", []

    def handle_endtag(self, tag: str) -> None:
        if self._in == "name" and tag != "th":
            self._depth -= 1
            return
        text = "".join(self._text).strip()
        if self._in == "header" and tag == "th":
            self.headers.append(text)
        elif self._in == "name" and tag == "th":
            self.rows[-1] = (text, self.rows[-1][1])
        elif self._in == "cell" and tag == "td":
            self.rows[-1][1].append(text)
        else:
            return
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in in ("header", "cell") or (self._in == "name" and self._depth == 0):
            self._text.append(data)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None  # "—": not kept


def standings_chalks(content: str) -> dict[str, tuple[float | None, float | None]]:
    """Each entrant's (chalks for, chalks against) as a standings rendering shows them, by the entrant's name.

    The cells are matched to the column headers ("Chalks for", "Chalks agst"); the first two headers are the place
    and the entrant, and a row's cells begin with its place."""
    parser = _StandingsParser()
    parser.feed(content)
    parser.close()
    try:
        cf, ca = parser.headers.index("Chalks for") - 1, parser.headers.index("Chalks agst") - 1
    except ValueError:
        return {}
    return {html.unescape(name): (_number(cells[cf]), _number(cells[ca]))
            for name, cells in parser.rows if len(cells) > max(cf, ca)}


def sheet_rows(content: str) -> set[str]:
    """The hand rows' ids a scoresheet rendering shows (``hand-<game>-<number>``)."""
    return set(ROW_ID.findall(content))


class Cache:
    """Parsed renderings by their content: a server sends the same rendering to every socket of a page."""

    def __init__(self, parse: Any) -> None:
        self.parse, self.found = parse, {}

    def __call__(self, content: str) -> Any:
        found = self.found.get(content)
        if found is None:
            if len(self.found) >= CACHED:
                self.found.clear()
            found = self.found[content] = self.parse(content)
        return found

