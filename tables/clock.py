"""The clock and the bots: the moves due (a bot's, a covering bot's, a player's out of time) and a turn shown.

A seat owned by a bot moves ``bot_pace`` seconds after its turn starts; a human's turn runs out at ``turn_seconds``
plus what is left of the seat's bank, and then a bot moves for it (``by="clock"``); a seat away ``AWAY_SECONDS`` is
covered by a bot (``by="cover"``) until its player reclaims it, at their next turn.

The server keeps the clock, and charges it only for a turn its player was shown: a socket of the seat that is sent
the turn says so (``turn_shown``). A turn that reached the player late (the channel layer down, a frame lost) has
its clock started when it arrived; a turn never shown when its clock is up is not run out on its player but sent
again with more time (``UNSHOWN_GRACE_SECONDS``), and a player it never reaches is covered as one away. Nothing
here needs Celery: ``due_moves`` and ``play_due`` are called by a ticker (the ASGI process's, or a test's).
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.actions import Action
from engine.bots import make_bot
from engine.seat_view import SeatView
from tables import reads
from tables import state as live
from tables.acting import apply_move, seats_by_index
from tables.changes import AWAY_SECONDS, Outcome, locked, publish, set_deadline, touch
from tables.match_clock import RunOut, run_out
from tables.models import Seat, Table, TableAction

UNSHOWN_GRACE_SECONDS = 15
"""More time for a turn whose clock is up but that no socket of its seat was shown; it is published again."""

LATE_SHOWN_SECONDS = 2.0
"""A turn shown later than this after it started has its clock started again when shown."""

COVER_BOT = "heuristic"
"""The bot that plays for a player away or out of time."""


def due_moves(now: datetime | None = None) -> list[int]:
    """The tables whose seat to move is due to be moved for: a bot's (or a covering bot's) pace passed, a
    human's clock run out, or a human away ``AWAY_SECONDS``."""
    now = now or timezone.now()
    return list(Table.objects.filter(status=Table.PLAYING, deadline_at__lte=now).order_by("deadline_at")
                .values_list("pk", flat=True))


def play_due(table_id: int, now: datetime | None = None) -> Outcome | None:
    """Make the due move of the table through the engine's bots (``None`` when nothing is due any more: the
    player moved first, or the table stopped). ``by``: ``bot`` for a bot's seat, ``cover`` for a player away
    (or who left), ``clock`` for a player out of time."""
    now = now or timezone.now()
    with transaction.atomic():
        table = locked(table_id)
        if table.status != Table.PLAYING or table.deadline_at is None or table.deadline_at > now \
                or table.turn is None:
            return None
        seats = seats_by_index(table, table.turn)
        row = seats[table.turn]
        by = _mover(row, now)
        if by == TableAction.CLOCK and table.turn_shown_at is None:
            if not _never_reached(table, row, now):
                _show_again(table, seats, now)
                return None
            by = TableAction.COVER
        if by == TableAction.CLOCK and table.match_clock:  # the match's time is spent: the competition's rule
            if run_out(table, row, now) == RunOut.SETTLED:
                return None
            by = TableAction.COVER
        hand, state = live.current(table)
        assert state is not None  # a seat has the turn: a hand is in play
        kind = row.bot or COVER_BOT
        action = choose_move(kind, state.view(row.index))
        return apply_move(table, row, str(action), "", by, now, seats=seats, hand=hand, state=state)


def _never_reached(table: Table, row: Seat, now: datetime) -> bool:
    """Whether a turn no socket of its seat was shown has waited out the whole clock and ``AWAY_SECONDS`` more:
    its player is then treated as away (covered, reclaimable), never charged as out of time."""
    limit = table.turn_seconds + row.bank_left + AWAY_SECONDS
    return table.turn_started_at is None or (now - table.turn_started_at).total_seconds() >= limit


def _show_again(table: Table, seats: dict[int, Seat], now: datetime) -> None:
    """The clock is up on a turn its player was never shown: more time, and the table published again (a new
    version: every reader that missed the turn is sent it)."""
    touch(table, now)
    table.deadline_at = now + timedelta(seconds=UNSHOWN_GRACE_SECONDS)
    table.save(update_fields=["version", "last_activity_at", "deadline_at", "updated_at"])
    publish(table, seats=seats)


def turn_shown(table_id: int, seat: int, version: int, now: datetime | None = None) -> Table | None:
    """A socket of ``seat`` was sent the table at ``version`` with the turn its own: the turn is shown (its clock
    charged from now on). When it started more than ``LATE_SHOWN_SECONDS`` before (its frames lost or late), its
    clock starts now, as if it started now; returns the table with its new deadline then, else ``None``."""
    now = now or timezone.now()
    with transaction.atomic():
        table = reads.locked_table(table_id)
        if table is None or table.status != Table.PLAYING or table.version != version or table.turn != seat \
                or table.turn_shown_at is not None:
            return None
        table.turn_shown_at = now
        late = table.turn_started_at is None or \
            (now - table.turn_started_at).total_seconds() > LATE_SHOWN_SECONDS
        row = table.seats.get(index=seat)
        if late and not row.bot and not row.covering:
            table.turn_started_at = now
            set_deadline(table, now)
            table.save(update_fields=["turn_shown_at", "turn_started_at", "deadline_at", "updated_at"])
            return table
        table.save(update_fields=["turn_shown_at", "updated_at"])
        return None


def _mover(row: Seat, now: datetime) -> str:
    if row.bot:
        return TableAction.BOT
    if row.covering or row.user_id is None and row.away_since is not None:
        return TableAction.COVER
    if row.away_since is not None and (now - row.away_since).total_seconds() >= AWAY_SECONDS:
        return TableAction.COVER
    return TableAction.CLOCK


_bots: dict[str, Any] = {}


def choose_move(kind: str, view: SeatView) -> Action:
    """The move the bot ``kind`` makes from the seat's view (a bot sees nothing the seat may not know)."""
    bot = _bots.get(kind)
    if bot is None:
        bot = _bots[kind] = make_bot(kind)
    return bot.choose(view, random.Random(secrets.randbits(64)))
