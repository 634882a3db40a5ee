"""The text of a standings page's share box (``league.templatetags.share``): the first places, as people paste them
in the club's WhatsApp group."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

STANDINGS_SHOWN = 5


def standings_text(competition: Any, rows: Iterable[Any]) -> str:
    """``Friday League, standings: 1. Lions 6 pts · 2. Tigers 4 pts …`` (the first ``STANDINGS_SHOWN`` places).

    >>> from types import SimpleNamespace as Row
    >>> from decimal import Decimal
    >>> lions = Row(rank=1, entrant=Row(display_name="Lions"), match_points=Decimal("6.0000"))
    >>> standings_text(Row(name="Friday League"), [lions])
    'Friday League, standings: 1. Lions 6 pts'
    """
    lines = []
    for row in list(rows)[:STANDINGS_SHOWN]:
        entrant = row.entrant
        name = getattr(entrant, "display_name", None) or str(entrant)
        lines.append(f"{row.rank}. {name} {_points(row.match_points)} pts")
    if not lines:
        return f"{competition.name} on All Fours League"
    return f"{competition.name}, standings: " + " · ".join(lines)


def _points(value: Any) -> str:
    text = f"{value:f}".rstrip("0").rstrip(".") if hasattr(value, "quantize") else str(value)
    return text or "0"
