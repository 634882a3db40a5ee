"""Running a round's clock (``draw.clock_models``): set the limit and the rule at time up, start, pause, resume,
extend for every table or one; and the clock's state at an instant, as every page shows it.

The clock is kept as instants, never as a count-down ticking on the server: the end is ``started_at`` + the limit
+ the time added + the time paused (a pause still running counts up to now, so a paused clock stands still). A
restart loses nothing, and every phone computes the same remaining time from the end it is sent and the server's
time (``server_now``), whatever its own clock says.

    clock = set_clock(round_=round_3, minutes=45, at_time_up=TimeUpRule.FINISH_HAND)
    start(clock=clock)
    extend(clock=clock, minutes=5, match=table_7)   # table 7 only
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from draw.clock_models import MAX_MINUTES, RoundClock, TableExtension, TimeUpRule
from draw.errors import RoundError
from draw.models import Round
from games.models import Match
from league.signals import round_clock_changed_after_commit

MAX_EXTENSION = 120  # minutes, at once


class ClockState:
    NONE = "none"
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    TIME_UP = "time_up"


@dataclass(frozen=True)
class ClockReading:
    """What the clock says at ``now`` (for one table when ``match`` was given)."""

    state: str
    minutes: int
    remaining: int  # seconds, 0 once time is up
    ends_at: datetime | None  # None until started, and while paused
    now: datetime
    rule: str

    @property
    def label(self) -> str:
        minutes, seconds = divmod(max(self.remaining, 0), 60)
        return f"{minutes}:{seconds:02d}"

    def as_json(self) -> dict[str, Any]:
        return {"state": self.state, "minutes": self.minutes, "remaining": self.remaining,
                "ends_at": self.ends_at.isoformat() if self.ends_at else None, "server_now": self.now.isoformat(),
                "label": self.label, "rule": self.rule}


def set_clock(*, round_: Round, minutes: int, at_time_up: str) -> RoundClock:
    """The round's time limit and its rule at time up (changing the limit of a running clock moves its end)."""
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise RoundError("minutes", f"a round's time limit is from 1 to {MAX_MINUTES} minutes")
    if at_time_up not in TimeUpRule.values:
        raise RoundError("at_time_up", "choose what happens at time up")
    with transaction.atomic():
        clock, _ = RoundClock.objects.update_or_create(round=round_, defaults={"minutes": minutes,
                                                                               "at_time_up": at_time_up})
        _changed(clock)
    return clock


def start(*, clock: RoundClock) -> RoundClock:
    if clock.started_at is not None:
        raise RoundError("clock", "the clock is already started")
    clock.started_at = timezone.now()
    return _saved(clock)


def pause(*, clock: RoundClock) -> RoundClock:
    if clock.started_at is None or clock.paused_at is not None:
        raise RoundError("clock", "only a running clock can be paused")
    if reading(clock).state == ClockState.TIME_UP:
        raise RoundError("clock", "time is up: extend the clock first")
    clock.paused_at = timezone.now()
    return _saved(clock)


def resume(*, clock: RoundClock) -> RoundClock:
    if clock.paused_at is None:
        raise RoundError("clock", "the clock is not paused")
    clock.paused_seconds += int((timezone.now() - clock.paused_at).total_seconds())
    clock.paused_at = None
    return _saved(clock)


def extend(*, clock: RoundClock, minutes: int, match: Match | None = None) -> RoundClock:
    """Add ``minutes`` for every table, or for ``match``'s table only."""
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_EXTENSION:
        raise RoundError("minutes", f"add from 1 to {MAX_EXTENSION} minutes")
    with transaction.atomic():
        if match is None:
            clock.extra_seconds += minutes * 60
            clock.save(update_fields=["extra_seconds"])
        else:
            if match.round_id != clock.round_id:
                raise RoundError("match", "that match is not in this round")
            extension, _ = TableExtension.objects.get_or_create(clock=clock, match=match)
            extension.seconds += minutes * 60
            extension.save(update_fields=["seconds"])
        _changed(clock)
    return clock


def reset(*, clock: RoundClock) -> None:
    """No clock for the round any more."""
    with transaction.atomic():
        round_ = clock.round
        clock.delete()
        round_clock_changed_after_commit(round_.competition_id)


def reading(clock: RoundClock | None, match: Match | None = None, now: datetime | None = None) -> ClockReading:
    """The clock at ``now`` (default: the server's now), for ``match``'s table when given."""
    now = now or timezone.now()
    if clock is None:
        return ClockReading(ClockState.NONE, 0, 0, None, now, "")
    rule = clock.get_at_time_up_display()
    limit = clock.minutes * 60 + clock.extra_seconds + _table_extra(clock, match)
    if clock.started_at is None:
        return ClockReading(ClockState.NOT_STARTED, clock.minutes, limit, None, now, rule)
    paused = clock.paused_seconds + (int((now - clock.paused_at).total_seconds()) if clock.paused_at else 0)
    ends_at = clock.started_at + timedelta(seconds=limit + paused)
    remaining = max(0, int((ends_at - now).total_seconds()))
    if clock.paused_at is not None:
        return ClockReading(ClockState.PAUSED, clock.minutes, remaining, None, now, rule)
    state = ClockState.RUNNING if remaining > 0 else ClockState.TIME_UP
    return ClockReading(state, clock.minutes, remaining, ends_at, now, rule)


def clock_of(round_: Round | None) -> RoundClock | None:
    if round_ is None:
        return None
    return RoundClock.objects.filter(round=round_).select_related("round").first()


def _table_extra(clock: RoundClock, match: Match | None) -> int:
    if match is None:
        return 0
    found = TableExtension.objects.filter(clock=clock, match=match).values_list("seconds", flat=True).first()
    return found or 0


def _saved(clock: RoundClock) -> RoundClock:
    with transaction.atomic():
        clock.save()
        _changed(clock)
    return clock


def _changed(clock: RoundClock) -> None:
    """The competition's live pages render again (the big screen's clock, the round's page)."""
    round_clock_changed_after_commit(clock.round.competition_id)
