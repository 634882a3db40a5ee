"""Check-in on the night (``league.checkin_models``): the organiser requires it for the round about to be paired,
with a cut-off; entrants check in themselves (a tap on the check-in page, or the venue's QR code) or the organiser
taps them in on the list; at the cut-off (or when the organiser closes it early) the round is paired with those
present only (``draw.field`` reads :func:`present_entries`); the absent sit the round out, or count a no-show as
the window says (``standings`` reads :func:`no_shows`); a late arrival checks in for the next round.

Each change is announced (``league.signals.check_ins_changed``) so the projector's list follows it live.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from league.checkin_models import AbsentAs, CheckIn, CheckInHow, CheckInWindow
from league.entries import first_unpaired_round, has_played, plays_round
from league.models import Competition, Entry
from league.permissions import is_organiser
from league.setup_errors import SetupError
from league.signals import check_ins_changed_after_commit

ENTRY_RELATED = ("partnership__player_one", "partnership__player_two", "team", "player")


# ----------------------------------------------------------------------------- the organiser
def require_check_in(*, competition: Competition, closes_at: datetime, absent_as: str, by: Any,
                     round_number: int | None = None) -> CheckInWindow:
    """Round ``round_number`` (default: the next to pair) requires check-in until ``closes_at``; asked again, the
    cut-off and the rule for the absent change (and a window closed early opens again)."""
    if absent_as not in AbsentAs.values:
        raise SetupError("absent_as", "choose what the absent count as")
    if closes_at is None:
        raise SetupError("closes_at", "give the cut-off time")
    if closes_at <= timezone.now():
        raise SetupError("closes_at", "the cut-off is already past: give a later time")
    number = round_number or first_unpaired_round(competition)
    if number < first_unpaired_round(competition):
        raise SetupError("round_number", f"round {number} is already paired")
    with transaction.atomic():
        window, _ = CheckInWindow.objects.update_or_create(
            competition=competition, round_number=number,
            defaults={"closes_at": closes_at, "absent_as": absent_as, "closed_early_at": None, "opened_by": by})
        check_ins_changed_after_commit(competition.pk)
    return window


def close_now(*, window: CheckInWindow) -> CheckInWindow:
    """The cut-off is now: the round can be paired with those present."""
    if not window.is_open:
        raise SetupError("window", f"check-in for round {window.round_number} is already closed")
    window.closed_early_at = timezone.now()
    window.save(update_fields=["closed_early_at"])
    check_ins_changed_after_commit(window.competition_id)
    return window


def drop_check_in(*, window: CheckInWindow) -> None:
    """The round no longer requires check-in: every entrant is paired."""
    _check_not_paired(window)
    competition_id = window.competition_id
    with transaction.atomic():
        window.delete()
        check_ins_changed_after_commit(competition_id)


# ----------------------------------------------------------------------------- checking in and out
def check_in(*, window: CheckInWindow, entry: Entry, by: Any, how: str) -> CheckIn:
    """``entry`` is there for the window's round. After the cut-off only the organiser can still tap an entrant in
    (until the round is paired): anyone else is told they play from the next round."""
    if how not in CheckInHow.values:
        raise SetupError("how", "a check-in is by the entrant, the venue's code or the organiser")
    if entry.competition_id != window.competition_id:
        raise SetupError("entry", f"{entry.display_name} is not entered in {window.competition.name}")
    if not plays_round(entry, window.round_number):
        raise SetupError("entry", f"{entry.display_name} does not play round {window.round_number}")
    _check_not_paired(window)
    if not window.is_open and how != CheckInHow.ORGANISER:
        closed = timezone.localtime(window.cut_off)
        raise SetupError("window", f"check-in for round {window.round_number} closed at {closed:%H:%M}: you play "
                                   "from the next round (the organiser can still tap you in until it is paired)")
    existing = CheckIn.objects.filter(window=window, entry=entry).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            made = CheckIn.objects.create(window=window, entry=entry, how=how, by=by if _signed_in(by) else None)
            check_ins_changed_after_commit(window.competition_id)
    except IntegrityError:  # the partner tapped at the same moment
        return CheckIn.objects.get(window=window, entry=entry)
    return made


def check_out(*, window: CheckInWindow, entry: Entry) -> None:
    """Take a check-in back (tapped by mistake, or the entrant had to leave before the round was paired)."""
    _check_not_paired(window)
    with transaction.atomic():
        CheckIn.objects.filter(window=window, entry=entry).delete()
        check_ins_changed_after_commit(window.competition_id)


def check_in_myself(*, window: CheckInWindow, user: Any, how: str = CheckInHow.SELF) -> CheckIn:
    """The user's entry in the window's competition checks in (a player of a pair checks the pair in)."""
    entry = entry_of(window.competition, user)
    if entry is None:
        raise SetupError("entry", f"you have no entry in {window.competition.name}")
    return check_in(window=window, entry=entry, by=user, how=how)


def entry_of(competition: Competition, user: Any) -> Entry | None:
    """The entry the user plays in: their pair's, their team's, or their own (individual events)."""
    if not _signed_in(user):
        return None
    mine = (Q(partnership__player_one__user=user) | Q(partnership__player_two__user=user) | Q(player__user=user)
            | Q(team__partnerships__player_one__user=user) | Q(team__partnerships__player_two__user=user))
    return (Entry.objects.filter(competition=competition).filter(mine).select_related(*ENTRY_RELATED)
            .order_by("withdrawn", "id").first())


# ----------------------------------------------------------------------------- reads
def window_for(competition: Competition, round_number: int) -> CheckInWindow | None:
    return CheckInWindow.objects.filter(competition=competition, round_number=round_number).first()


def coming_window(competition: Competition) -> CheckInWindow | None:
    """The window of the next round to pair, if that round requires check-in."""
    return window_for(competition, first_unpaired_round(competition))


@dataclass(frozen=True)
class MyCheckIn:
    window: CheckInWindow
    entry: Entry
    checked: bool


def check_ins_for(user: Any) -> list[MyCheckIn]:
    """The open check-ins of rounds the user's entries play (My matches offers a Check in button for each)."""
    if not _signed_in(user):
        return []
    mine = (Q(competition__entries__partnership__player_one__user=user)
            | Q(competition__entries__partnership__player_two__user=user)
            | Q(competition__entries__player__user=user)
            | Q(competition__entries__team__partnerships__player_one__user=user)
            | Q(competition__entries__team__partnerships__player_two__user=user))
    windows = (CheckInWindow.objects.filter(mine, closes_at__gt=timezone.now(), closed_early_at__isnull=True)
               .select_related("competition__club").distinct().order_by("closes_at"))
    found = []
    for window in windows:
        entry = entry_of(window.competition, user)
        if entry is not None and plays_round(entry, window.round_number):
            found.append(MyCheckIn(window, entry, window.check_ins.filter(entry=entry).exists()))
    return found


@dataclass(frozen=True)
class Board:
    """Who is in and who is missing for the window's round, each by name."""

    window: CheckInWindow
    present: list[tuple[Entry, CheckIn]]
    missing: list[Entry]


def board(window: CheckInWindow) -> Board:
    checked = {c.entry_id: c for c in CheckIn.objects.filter(window=window).select_related("by")}
    playing = [entry for entry in Entry.objects.filter(competition_id=window.competition_id)
               .select_related(*ENTRY_RELATED) if plays_round(entry, window.round_number)]
    playing.sort(key=lambda entry: entry.display_name.casefold())
    return Board(window=window, present=[(e, checked[e.pk]) for e in playing if e.pk in checked],
                 missing=[e for e in playing if e.pk not in checked])


def present_entries(competition: Competition, round_number: int) -> set[int] | None:
    """The entries checked in for the round, or None when the round does not require check-in."""
    window = window_for(competition, round_number)
    if window is None:
        return None
    return set(CheckIn.objects.filter(window=window).values_list("entry_id", flat=True))


def why_not_pairable(competition: Competition, round_number: int) -> str:
    """Why the round cannot be paired yet: its check-in is still open (empty when it can)."""
    window = window_for(competition, round_number)
    if window is None or not window.is_open:
        return ""
    closes = timezone.localtime(window.cut_off)
    return (f"check-in for round {round_number} is open until {closes:%H:%M}: close it to pair only the "
            f"{window.check_ins.count()} present")


def no_shows(competition: Competition) -> list[tuple[int, int]]:
    """``(entry id, round)`` of each entrant absent from a published round that counts the absent as no-shows:
    playing that round, not checked in, and not paired in it by hand."""
    absent = []
    rounds = competition.rounds.all()  # draw's rounds, through the relation: league does not import draw
    published = set(rounds.filter(status=rounds.model.PUBLISHED).values_list("number", flat=True))
    windows = CheckInWindow.objects.filter(competition=competition, absent_as=AbsentAs.NO_SHOW,
                                           round_number__in=published)
    for window in windows:
        present = set(window.check_ins.values_list("entry_id", flat=True))
        for entry in Entry.objects.filter(competition=competition).exclude(pk__in=present).select_related(
                "competition"):
            if plays_round(entry, window.round_number) and not has_played(entry, window.round_number):
                absent.append((entry.pk, window.round_number))
    return absent


def can_tap(user: Any, window: CheckInWindow) -> bool:
    return is_organiser(user, window.competition.club_id)


def _check_not_paired(window: CheckInWindow) -> None:
    if window.round_number < first_unpaired_round(window.competition):
        raise SetupError("window", f"round {window.round_number} is already paired: a late arrival checks in for "
                                   "the next round")


def _signed_in(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)
