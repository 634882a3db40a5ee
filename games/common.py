"""What the writers of ``games`` share: the error a scorekeeper's input raises, the sides and the forfeits, the
checks of a count typed in, who made a change, the record of a change to a result, the match's lock and the
online table's hold on it.

Nothing here knows a rule of the game; every module of the app that changes results builds on it.
"""

from __future__ import annotations

import logging
from typing import Any, Literal, overload

from engine.errors import FieldError
from games.choices import ResultAction
from games.models import SIDE_A, SIDE_B, Match, ResultVersion, TeamMatch
from games.signals import results_changing

SIDE_OF_TEAM = (SIDE_A, SIDE_B)
"""The side of the engine's team number: team 0 is side ``"a"``, team 1 side ``"b"``."""
TEAM_OF_SIDE: dict[str, int] = {SIDE_A: 0, SIDE_B: 1}
FORFEITS = (Match.FORFEIT_A, Match.FORFEIT_B, Match.DOUBLE_FORFEIT)
FORFEIT_WINNER: dict[str, str] = {Match.FORFEIT_A: SIDE_B, Match.FORFEIT_B: SIDE_A, Match.DOUBLE_FORFEIT: ""}
"""Who wins a match (or a team match) recorded as each forfeit: the side present; nobody after a double one."""
audit = logging.getLogger("games.results")


class EntryError(FieldError):
    """A scorekeeper's input that cannot be stored; ``field`` names what is wrong and ``reason`` why."""


class MatchHeldError(EntryError):
    """Something above ``games`` holds the match (an online table plays it): its results change there, not here."""

    conflict = True


def check_not_held(match: Match, action: str, *, user: Any = None, holder: Any = None) -> None:
    """Refuse a change of ``match``'s results while an online table holds it (``Match.held_by_table``), unless
    ``holder`` (the caller's table, or its id) is that table: the table stores its hands itself, and its next deal
    would no longer follow the sheet. A forfeit (the organiser's) ends the match: it goes through, and the table
    finishes after the commit (``tables`` listens to ``results_changing``). Then the sides' agreement notes who made
    the change (``games.agreement``) and ``results_changing`` is sent, for the layers above to act on the change
    after the commit (never to refuse it). Called with the match locked."""
    held_by = match.held_by_table
    if held_by is not None and action != "forfeit" and getattr(holder, "pk", holder) != held_by:
        raise MatchHeldError("match", f"this match is being played online at table {held_by}: the table stores its "
                                      "hands itself, so results are not entered here while it plays — the organiser "
                                      "can end online play on the match's online page first")
    from games.agreement import note_change  # it builds on this module

    note_change(match, user=user, holder=holder)
    results_changing.send(sender=Match, match=match, action=action, user=user, holder=holder)


# ----------------------------------------------------------------------------- counts typed in
@overload
def whole_number(field: str, value: Any, *, allow_none: Literal[False] = ...) -> int: ...
@overload
def whole_number(field: str, value: Any, *, allow_none: bool) -> int | None: ...
def whole_number(field: str, value: Any, *, allow_none: bool = False) -> int | None:
    """``value`` when it is a whole number (0 or more), else ``EntryError`` on ``field``; ``None`` passes
    with ``allow_none``.

    >>> whole_number("games_a", 2)
    2
    >>> whole_number("games_a", True)
    Traceback (most recent call last):
    games.common.EntryError: games_a: must be a whole number (0 or more), got True
    """
    if value is None and allow_none:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise EntryError(field, f"must be a whole number (0 or more), got {value!r}")
    return value


def side_letter(field: str, value: Any) -> str:
    """``value`` when it names a side (``"a"`` or ``"b"``), else ``EntryError`` on ``field``."""
    if value not in (SIDE_A, SIDE_B):
        raise EntryError(field, f"must be {SIDE_A!r} (side A) or {SIDE_B!r} (side B), got {value!r}")
    return value


def chalk_pair(field_a: str, a: Any, field_b: str, b: Any) -> tuple[int | None, int | None]:
    """Both sides' chalks, which are given together or not at all (``(None, None)``).

    >>> chalk_pair("chalks_a", 30, "chalks_b", 14)
    (30, 14)
    >>> chalk_pair("chalks_a", 30, "chalks_b", None)
    Traceback (most recent call last):
    games.common.EntryError: chalks_b: give both sides' chalks, or neither
    """
    a, b = whole_number(field_a, a, allow_none=True), whole_number(field_b, b, allow_none=True)
    if (a is None) != (b is None):
        raise EntryError(field_b if b is None else field_a, "give both sides' chalks, or neither")
    return a, b


# ----------------------------------------------------------------------------- who made a change
def signed_in(user: Any) -> Any:
    """The user to record as a change's author: ``user`` when signed in, else ``None`` (a private entry link)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def author_name(user: Any, given: str = "") -> str:
    """The name a change is shown under: ``given`` when the caller names the author, else the user's name, else
    ``"scorekeeper link"`` (a change through a private entry link)."""
    if given:
        return given
    author = signed_in(user)
    return author.get_username() if author is not None else "scorekeeper link"


def record_version(*, match: Match | None = None, team_match: TeamMatch | None = None, action: ResultAction,
                   user: Any, label: str, reason: str = "", data: dict | None = None) -> ResultVersion:
    """Keep one change to a result with who, when and why (and log it to ``games.results``)."""
    if match is not None:
        subject = f"match {match.pk}"
    else:
        assert team_match is not None  # a version is of a match or of a team match
        subject = f"team match {team_match.pk}"
    audit.info("%s: %s by %s%s %s", subject, action, label, f" ({reason})" if reason else "", data or "")
    return ResultVersion.objects.create(match=match, team_match=team_match, action=action, data=data or {},
                                        author=signed_in(user), author_label=label, reason=str(reason or "")[:300])


# ----------------------------------------------------------------------------- the lock
def lock_match(match: Match) -> Match:
    """Lock the match for a change, after its team match (the order every writer and the settle task keep), and
    return it fresh, with its competition and team match."""
    if match.team_match_id is not None:
        TeamMatch.objects.select_for_update(of=("self",)).get(pk=match.team_match_id)
    return (Match.objects.select_for_update(of=("self",)).select_related("competition", "team_match")
            .get(pk=match.pk))
