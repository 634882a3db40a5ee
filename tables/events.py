"""A competition played online (``Competition.play_online``): each match's table opens by itself when its round is
published, and starts by itself — when all its players are seated, or at its start time with those present, each
seat still empty then settled by the competition's no-show rule (``Competition.online_no_show``).

- **Opening** (``open_round_tables``, a listener of ``league.signals.round_published`` wired in ``config.wiring``):
  every match of the round not yet decided gets its table through ``tables.fixtures.open_match_table`` — the seats
  the players' (their logins; a private link each for those without), the table holding the match — with
  ``Table.starts_at``: the match's time (or the publication, if later) plus the organiser's grace period
  (``Competition.online_grace_minutes``). Publishing again, or the listener run twice, opens no second table.
- **Starting** (``start_event_table``): with every seat's player there (``Seat.connected``) the table starts at once
  (``tables.presence`` asks as soon as a player's socket counts in); at ``starts_at`` it starts with those present,
  and each empty seat is settled by the rule — *forfeit*: the side with an empty seat forfeits to the side that came
  (both: a double forfeit), and the table finishes saying so; *bot*: a bot covers the seat (its player may still
  come and reclaim it, as at a casual table) and the match is marked as played with a bot
  (``Match.bot_played``: rated only where the competition says so); *wait*: nothing happens, the match's online
  page shows who is missing and the organiser decides (start it, record a forfeit). A table of a team match has no
  forfeit of its own (a team forfeit is the whole team match's): under the forfeit rule it waits for the
  organiser too.

Why the start time is a column and not a timer: the tables' ticker (``tables.ticker``) asks ``due_starts`` every
``START_EVERY`` seconds, so a server started again after a crash starts the tables that came due meanwhile; two
processes asking at once are harmless (``start_event_table`` locks the table and does nothing once it started).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.models import Match
from games.services import mark_bot_played
from league.choices import OnlineNoShow
from league.models import Competition
from tables import dealing
from tables.changes import TableError, finish_by_forfeit, locked
from tables.fixtures import open_match_table
from tables.match_clock import apply_time_control
from tables.models import Seat, Table

logger = logging.getLogger(__name__)

START_EVERY = 2.0
"""Seconds between two looks of the ticker for event tables due to start."""

NO_SHOW_AUTHOR = "the online table (no-show rule)"
"""Who recorded a no-show's forfeit, on the match's history."""


# ----------------------------------------------------------------------------- opening
def open_round_tables(sender=None, *, round_id: int, match_ids: list[int] | None = None, **kwargs) -> list[Table]:
    """``league.signals.round_published`` (after the commit): the round's matches of a competition played online
    get their tables, each with its start time; the others, nothing — nor a competition still a draft, whose
    pairings no player may see yet (its matches are opened online by hand). Returns the tables (those already open
    included). A match that cannot be played online (decided already, its result entered above the hand level) is
    skipped and logged. ``match_ids``: ties that joined a round published tie by tie — only they are opened, so a
    match of the round whose online play the organiser ended (going on on its scoresheet) is not opened again."""
    to_open = Match.objects.filter(round_id=round_id, competition__play_online=True, competition__published=True,
                                   outcome=Match.PLAYED)
    if match_ids is not None:
        to_open = to_open.filter(pk__in=match_ids)
    matches = list(to_open.exclude(status=Match.COMPLETE).select_related("competition").order_by("pk"))
    now = timezone.now()
    tables = []
    for match in matches:
        try:
            table = open_match_table(match, starts_at=start_time(match, match.competition, now))
            apply_time_control(table, match.competition)
            tables.append(table)
        except TableError as error:
            logger.warning("match %s of round %s was not opened online: %s", match.pk, round_id, error.reason)
    return tables


def start_time(match: Match, competition: Competition, now: datetime) -> datetime:
    """When the match's table starts by itself: its time (or now, once that is past) and the grace period."""
    begins = max(match.scheduled_at or now, now)
    return begins + timedelta(minutes=competition.online_grace_minutes)


# ----------------------------------------------------------------------------- starting
def due_starts(now: datetime | None = None) -> list[int]:
    """The event tables waiting to start that may start now: every seat's player there, or the start time passed
    under a rule that settles empty seats (not "wait"; not "forfeit" at a team match's table)."""
    now = now or timezone.now()
    someone_missing = Exists(Seat.objects.filter(table=OuterRef("pk"), connected=0))
    settles = ~Q(match__competition__online_no_show=OnlineNoShow.WAIT) & ~Q(
        match__competition__online_no_show=OnlineNoShow.FORFEIT, match__team_match__isnull=False)
    return list(Table.objects.filter(status=Table.LOBBY, starts_at__isnull=False)
                .filter(~someone_missing | Q(starts_at__lte=now) & settles)
                .order_by("starts_at", "pk").values_list("pk", flat=True))


def start_due(now: datetime | None = None) -> list[int]:
    """Start every event table due (the ticker's part): returns those that started or finished. One table's
    failure is logged and leaves the others to start."""
    now = now or timezone.now()
    done = []
    for table_id in due_starts(now):
        try:
            if start_event_table(table_id, now) is not None:
                done.append(table_id)
        except Exception:
            logger.exception("event table %s could not be started", table_id)
    return done


def start_if_seated(table_id: int) -> Table | None:
    """A player's socket counted in (``tables.presence``): the event table starts if every seat's player is now
    there."""
    return start_event_table(table_id, timezone.now(), seated_only=True)


def start_event_table(table_id: int, now: datetime | None = None, *, seated_only: bool = False) -> Table | None:
    """Start the event table if it is due: every seat's player there, or (unless ``seated_only``) its start time
    passed — then each empty seat is settled by the competition's no-show rule. Returns the table started (or
    finished by a forfeit), ``None`` when nothing happened (not due, already started, the rule is to wait)."""
    now = now or timezone.now()
    with transaction.atomic():
        table = locked(table_id)
        if table.status != Table.LOBBY or table.starts_at is None or table.match_id is None:
            return None
        absent = [seat.index for seat in table.seats.order_by("index") if seat.connected == 0 and not seat.bot]
        if not absent:
            return dealing.start(table.pk)
        if seated_only or table.starts_at > now:
            return None
        match = Match.objects.select_related("competition").get(pk=table.match_id)
        rule = match.competition.online_no_show
        if rule == OnlineNoShow.FORFEIT and match.team_match_id is None:
            return _forfeit(table, match, absent, now)
        if rule == OnlineNoShow.BOT:
            return _bots_play(table, match, absent, now)
        return None  # the organiser decides: the match's online page shows who is missing


def _forfeit(table: Table, match: Match, absent: list[int], now: datetime) -> Table:
    """A side with an empty seat did not come: it forfeits to the side that did (both: a double forfeit). The
    forfeit is a result like the organiser's (``games.services.record_forfeit``, its history naming the rule); the
    table finishes in the same commit, saying who did not come."""
    sides = {index % 2 for index in absent}  # seats 0 and 2: side A; 1 and 3: side B
    outcome = Match.DOUBLE_FORFEIT if len(sides) == 2 else Match.FORFEIT_A if 0 in sides else Match.FORFEIT_B
    seats = ", ".join(str(index + 1) for index in absent)
    if outcome == Match.DOUBLE_FORFEIT:
        reason = f"Neither side came to the table by its start time (seat {seats} empty): the match is recorded " \
                 "as not played by either side."
    else:
        absent_side = match.side_a_name if outcome == Match.FORFEIT_A else match.side_b_name
        came = match.side_b_name if outcome == Match.FORFEIT_A else match.side_a_name
        reason = f"{absent_side} did not come to the table by its start time (seat {seats} empty): {came} win by " \
                 "forfeit."
    return finish_by_forfeit(table, match, outcome, author_label=NO_SHOW_AUTHOR, reason=reason, now=now)


def _bots_play(table: Table, match: Match, absent: list[int], now: datetime) -> Table:
    """A bot covers each empty seat (its player may still come and reclaim it at their next turn), the match is
    marked as played with a bot, and the table starts."""
    Seat.objects.filter(table=table, index__in=absent).update(covering=True, away_since=now, reclaim_pending=False)
    mark_bot_played(match=match)
    return dealing.start(table.pk)

