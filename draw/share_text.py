"""The text of a round's share box (``league.templatetags.share``): its pairings with their tables, as people paste
them in the club's WhatsApp group."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.models import table_label


def pairings_text(competition: Any, round_: Any, matches: Iterable[Any]) -> str:
    """``Friday League, Round 3: Table 1: Lions v Tigers; Table 2: …``."""
    parts = [f"{table_label(m.table) + ': ' if m.table else ''}{m.side_a_name} v {m.side_b_name}" for m in matches]
    return f"{competition.name}, {round_}: " + "; ".join(parts) if parts else f"{competition.name}, {round_}"
