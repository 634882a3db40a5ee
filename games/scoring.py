"""A hand scored by the engine (``engine.score_chalk`` / ``engine.score_record``) with the game's context filled
in: nothing here knows a rule of the game beyond which side is which team. Entering a hand (``games.entry``) and
settling a match (``games.settle``, which re-scores a hand whose deal or score before it changed) score the same.
"""

from __future__ import annotations

from typing import Any

from engine import RecordError, score_chalk, score_record
from games.common import EntryError
from games.models import Hand
from league.models import Competition

FILLED_FIELDS = ("players", "dealer", "score_before", "ruleset")
"""The fields of an entry that the match fills in (an entry may repeat them, but not contradict them)."""


def score_hand_entry(mode: str, entry: dict[str, Any], *, competition: Competition, dealer: int,
                     score_before: tuple[int, int]) -> dict[str, Any]:
    """Score an entry through the engine with the game's context filled in; raises ``EntryError``."""
    if not isinstance(entry, dict):
        raise EntryError("entry", "must be a JSON object")
    context = {"players": competition.players, "dealer": dealer, "score_before": list(score_before),
               "ruleset": competition.ruleset or {}}
    for key in FILLED_FIELDS:
        if key in entry and entry[key] != context[key]:
            raise EntryError(key, f"the match says {context[key]!r}, the entry says {entry[key]!r}")
    data = {**entry, **context}
    if mode == Hand.RECORD and not context["ruleset"]:
        data.pop("ruleset")
    try:
        return score_record(data) if mode == Hand.RECORD else score_chalk(data)
    except RecordError as error:
        raise EntryError(error.field or "entry", error.reason) from None


def hand_totals(result: dict[str, Any]) -> dict[str, int]:
    """The fields of a ``Hand`` that a scored ``result`` sets: each side's points and score after the hand.

    >>> hand_totals({"points": [1, 3], "score_after": [5, 9]})
    {'points_a': 1, 'points_b': 3, 'score_a_after': 5, 'score_b_after': 9}
    """
    return {"points_a": result["points"][0], "points_b": result["points"][1],
            "score_a_after": result["score_after"][0], "score_b_after": result["score_after"][1]}
