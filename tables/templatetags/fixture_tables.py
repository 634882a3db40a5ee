"""The online table of a league match, for the match's pages in ``games`` (which never import ``tables``):
``{% load fixture_tables %}{% match_online match can_enter %}`` says when an online table plays the match (with a
link to it and, for those who may enter the match's results, to its seats' links), or offers "Play online"."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import HAND_LEVEL, Match
from tables import fixtures

register = template.Library()


@register.inclusion_tag("tables/_match_online.html")
def match_online(match: Match, can_enter: bool = False, notice: bool = False) -> dict[str, Any]:
    """``notice``: the entry pages' wording (results entered there wait for online play to end)."""
    table = fixtures.fixture_table(match)
    playable = (match.outcome == Match.PLAYED and match.status != Match.COMPLETE and match.result_level == HAND_LEVEL
                and match.team_match_id is None)
    return {"match": match, "table": table, "can_enter": can_enter, "notice": notice,
            "can_open": bool(can_enter and table is None and playable)}
