"""A seat's move: checked by the engine (seat, phase, turn and the rules: its words are the refusal's reason),
stored as a ``TableAction`` and published.

A repeated action id is answered with its stored outcome; a move made on an older version of the table is refused
(``StaleVersion``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from engine.actions import OVER, Action
from engine.errors import EngineError
from engine.hand import HandState
from tables import reads
from tables import state as live
from tables.changes import Outcome, StaleVersion, TableError, locked, publish, set_deadline, touch
from tables.dealing import end_hand
from tables.match_clock import charge
from tables.models import Seat, Table, TableAction, TableHand


def act(table_id: int, seat: int, action_text: str, version: int, action_id: str = "", by: str = "player") -> Outcome:
    """``seat`` (from the caller: the session or the seat's link) takes ``action_text`` (``stand``, ``beg``,
    ``give``, ``run`` or a card) on the table as it was at ``version``. Refused with no change: a stale version
    (``StaleVersion``), a table not in play, a seat that is not the caller's to move now, a move the rules forbid
    (``TableError`` with the engine's reason). A repeated ``action_id`` is answered with the stored outcome."""
    if by not in (TableAction.PLAYER, TableAction.BOT, TableAction.CLOCK, TableAction.COVER):
        raise TableError("by", f"unknown mover {by!r}")
    action_id = _checked_id(action_id)
    try:
        return _act(table_id, seat, action_text, version, action_id, by)
    except (TableError, IntegrityError):
        # A repeated id is answered with its stored outcome, whatever else is wrong with the request now. It is
        # looked for only here, when the action was refused or its insert met the unique (table, action id): an
        # accepted action pays no query for it, and the refused one changed nothing (its transaction rolled back).
        if action_id:
            with transaction.atomic():
                table = locked(table_id)
                done = TableAction.objects.filter(table=table, action_id=action_id).select_related("hand").first()
                if done is not None:
                    return _repeated(table, done, seat)
        raise


def _act(table_id: int, seat: int, action_text: str, version: int, action_id: str, by: str) -> Outcome:
    with transaction.atomic():
        table = reads.locked_table(table_id)  # the action path's reads: as locked's and seats_by_index's, SQL made once
        if table is None:
            raise TableError("table", f"there is no table {table_id}")
        if table.status != Table.PLAYING:
            raise TableError("table", f"the table is {table.get_status_display().lower()}, not playing")
        if not isinstance(version, int) or isinstance(version, bool) or version != table.version:
            raise StaleVersion("version", f"the table is at version {table.version}, not {version!r}: resync")
        if table.on_hold:
            raise TableError("table", table.on_hold)
        if by != TableAction.PLAYER:  # a bot's or the clock's move: the seats are read once the move is legal
            seat_index(table, seat)
            return apply_move(table, seat, action_text, action_id, by, timezone.now())
        seats = seats_by_index(table, seat)
        row = seats[seat]
        if row.bot or row.covering:
            raise TableError("seat", f"a bot is playing seat {row.index + 1}" +
                             ("" if row.bot else ": reclaim it to play again"))
        return apply_move(table, row, action_text, action_id, by, timezone.now(), seats=seats)


def seat_index(table: Table, index: Any) -> int:
    """``index`` checked as ``seat_row`` checks it."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < table.players:
        raise TableError("seat", f"must be a seat from 0 to {table.players - 1}, got {index!r}")
    return index


def seats_by_index(table: Table, index: Any) -> dict[int, Seat]:
    """Every seat of the table with its user, by index (one query: the mover's row, the next mover's, and what the
    frames show); ``index`` checked as ``seat_row`` checks it. Read under the table's row lock, not locked themselves:
    every change of a seat is made under its table's lock (the heartbeat's ``seen_at`` aside, which no action
    reads), so this read, a statement after the lock was granted, sees each seat as the last change left it. Not
    locking them keeps an action from holding four seat rows at once, which with the heartbeat's update of many
    seats made deadlocks (``bench/bench_tables.py``, 100 tables)."""
    seat_index(table, index)
    return reads.seats_with_users(table)


def _checked_id(action_id: Any) -> str:
    if action_id is None:
        return ""
    if not isinstance(action_id, str) or len(action_id) > 64:
        raise TableError("id", "must be text of at most 64 characters")
    return action_id


def _repeated(table: Table, done: TableAction, seat: int) -> Outcome:
    if done.seat != seat:
        raise TableError("id", "this action id was used by another seat")
    hand = done.hand
    last = hand.result is not None and not hand.actions.filter(seq__gt=done.seq).exists()
    return Outcome(table.pk, done.seq, done.seat, done.action, done.by, hand_over=last,
                   result=hand.result if last else None, repeated=True)


_PLAY_FIELDS = ["version", "last_activity_at", "turn", "turn_started_at", "turn_shown_at", "deadline_at", "updated_at"]
"""The table's columns an action inside a hand changes (a hand's end may change any: the whole row is saved)."""


def _save_play(table: Table, logged: TableAction) -> None:
    """Store an action inside a hand: its log row inserted and the table's ``_PLAY_FIELDS`` updated — on
    PostgreSQL in one statement (an ``INSERT`` in a ``WITH`` before the ``UPDATE``: one round trip, not two), else
    as two. A repeated action id fails the insert with the unique constraint's ``IntegrityError`` either way."""
    table.updated_at = timezone.now()
    if connection.vendor != "postgresql":
        logged.save(force_insert=True)
        table.save(update_fields=_PLAY_FIELDS)
        return
    # Any: concrete fields with their columns (get_field may also give a relation's other end, never here)
    log_fields: list[Any] = [TableAction._meta.get_field(name) for name in
                             ("table", "seq", "hand", "seat", "action", "action_id", "by", "created_at")]
    play_fields: list[Any] = [Table._meta.get_field(name) for name in _PLAY_FIELDS]
    quote = connection.ops.quote_name
    sql = (f"WITH logged AS (INSERT INTO {quote(TableAction._meta.db_table)} "
           f"({', '.join(quote(f.column) for f in log_fields)}) VALUES ({', '.join(['%s'] * len(log_fields))})) "
           f"UPDATE {quote(Table._meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in play_fields)} "
           f"WHERE {quote(cast(str, Table._meta.pk.column))} = %s")
    params = [field.get_db_prep_save(getattr(logged, field.attname), connection) for field in log_fields]
    params += [field.get_db_prep_save(getattr(table, field.attname), connection) for field in play_fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, table.pk])


def apply_move(table: Table, row: Seat | int, action_text: Any, action_id: str, by: str, now: datetime, *,
               seats: dict[int, Seat] | None = None, hand: TableHand | None = None,
               state: HandState | None = None) -> Outcome:
    """Check ``action_text`` through the engine for ``row``'s seat (a seat index: its row is read, locked, once
    the move is found legal) and, if legal, store it (``seats``, ``hand`` and ``state``: the table's current ones
    when the caller has read them under the lock)."""
    if state is None:
        hand, state = live.current(table)
    if state is None:
        raise TableError("table", "no hand has been dealt")
    if not isinstance(action_text, str):
        raise TableError("action", f"must be text (stand, beg, give, run or a card), got {action_text!r}")
    try:
        action = Action.parse(action_text)
    except EngineError as error:
        raise TableError("action", str(error)) from None
    index = row if isinstance(row, int) else row.index
    reason = state.why_illegal(action, index)
    if reason is not None:
        raise TableError("action", reason)
    if isinstance(row, int):
        seats = seats_by_index(table, row)
        row = seats[index]
    state.apply(action, row.index)
    _spend_time(table, row, by, now)
    touch(table, now)
    logged = TableAction(table=table, seq=table.version, hand=hand, seat=row.index, action=str(action),
                         action_id=action_id, by=by, created_at=now)
    outcome = Outcome(table.pk, table.version, row.index, str(action), by)
    if state.phase is OVER:
        logged.save(force_insert=True)
        result = state.result()
        assert hand is not None  # the state of a hand comes with it
        hand, state = end_hand(table, hand, state, now)
        if table.match_clock and seats is not None:  # a new hand may have added each player's increment
            banks = dict(Seat.objects.filter(table=table).values_list("index", "bank_left"))
            for seat_row in seats.values():
                seat_row.bank_left = banks[seat_row.index]
        outcome = Outcome(table.pk, table.version, row.index, str(action), by, hand_over=True, result=result)
        table.save()
    else:
        set_deadline(table, now, state, seats=seats)
        _save_play(table, logged)
    publish(table, hand, state, seats=seats, action={"seat": row.index, "action": str(action), "by": by})
    return outcome


def _spend_time(table: Table, row: Seat, by: str, now: datetime) -> None:
    """The mover's bank pays for the time beyond ``turn_seconds``; a reclaim waiting for this move takes
    effect."""
    changed = False
    if table.match_clock:
        changed = charge(table, row, by, now)
    elif by == TableAction.CLOCK:
        row.bank_left, changed = 0.0, True
    elif by == TableAction.PLAYER and table.turn_started_at is not None:
        over = (now - table.turn_started_at).total_seconds() - table.turn_seconds
        if over > 0:
            row.bank_left, changed = max(0.0, row.bank_left - over), True
    if by == TableAction.COVER and not row.covering:
        row.covering, changed = True, True
    if row.reclaim_pending and by == TableAction.COVER:
        row.covering = row.reclaim_pending = False
        changed = True
    if changed:
        row.save(update_fields=["bank_left", "covering", "reclaim_pending"])
