"""A match's results voided, to be played again: every hand struck out and a forfeit cleared, each through the
services that keep their history (``games.entry.delete_hand``: a deleted version naming who and why;
``games.results.clear_forfeit``), never a raw delete — the scoresheet still shows every hand that was played,
struck out, with the reason.

Used when a match's result is wrong as a whole (an online table's disconnect storm, a player caught cheating): the
organiser voids it and the match is played again from its first hand (``tables.voiding`` closes its online table
and opens a fresh one). A result entered above the hand level (game results or match totals) is not voided here:
those are corrected on the scoresheet, where they were entered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.common import EntryError, author_name, lock_match
from games.entry import delete_hand
from games.models import HAND_LEVEL, Hand, Match
from games.results import clear_forfeit
from games.settle import settle_in_commit

REASON_MAX = 200
"""The longest reason a void takes: it is written into each hand's history with who voided it."""


class VoidRefused(EntryError):
    """The match's results cannot be voided as they stand (the state, not the input, is wrong): a 409."""

    conflict = True


@dataclass(frozen=True)
class VoidedResults:
    """What the void struck out: the hands (their count) and whether a forfeit was cleared."""

    match: Match
    hands: int
    forfeit_cleared: bool


def checked_void_reason(reason: Any) -> str:
    """The void's reason, stripped: required (the players and the match's history are told why)."""
    if not isinstance(reason, str) or not reason.strip():
        raise EntryError("reason", "say why the match is voided: the players and the scoresheet's history are told")
    reason = reason.strip()
    if len(reason) > REASON_MAX:
        raise EntryError("reason", f"at most {REASON_MAX} characters, got {len(reason)}")
    return reason


def why_not_voidable(match: Match) -> str:
    """Why the match's results cannot be voided here ("" when they can): a result entered above the hand level, its
    team match's own result entered or forfeited."""
    if match.result_level != HAND_LEVEL:
        return ("the match's result was entered as game results or match totals, not hand by hand: correct it on "
                "its scoresheet instead")
    team = match.team_match
    if team is not None and (team.result_level != HAND_LEVEL or team.outcome not in ("", Match.PLAYED)):
        return ("the team match's overall result (its totals or a forfeit) was entered: clear it on the team match's "
                "page first")
    return ""


def void_results(match: Match, *, reason: str, user: Any = None, author_label: str = "") -> VoidedResults:
    """Strike out every hand of the match (the last first, as undos would) and clear a forfeit, in one transaction
    under the match's lock, each with who voided it and why; the match is settled in the commit (its games, result
    and status back to unplayed) and the standings follow after it. The match's mark of a bot played is cleared
    with the result it described. The caller has released any online table's hold on the match."""
    reason = checked_void_reason(reason)
    label = author_name(user, author_label)
    why = f"voided by {label}: {reason}"
    with transaction.atomic():
        match = lock_match(match)
        refused = why_not_voidable(match)
        if refused:
            raise VoidRefused("match", refused)
        forfeited = match.outcome != Match.PLAYED
        if forfeited:
            clear_forfeit(match, user=user, author_label=author_label)
        if match.bot_played:
            Match.objects.filter(pk=match.pk).update(bot_played=False)
        hands = list(Hand.objects.filter(game__match=match, deleted=False).select_related("game__match")
                     .order_by("-game__number", "-number"))
        for hand in hands:  # each settles the match in the commit
            delete_hand(hand=hand, reason=why, user=user, author_label=author_label)
        match = lock_match(match)
        if not hands:  # a forfeit alone: its clearing is settled here too, not only by the task after the commit
            settle_in_commit(match)
            match.refresh_from_db()
    return VoidedResults(match, len(hands), forfeited)
