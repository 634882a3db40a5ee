"""What every change of a table shares: its lock, its version and its publication, the seat to move's deadline,
and how a table stops (the one way out of the open statuses, which releases a fixture's match).

Every write runs under ``select_for_update()`` on the ``Table`` row (``locked``) and bumps ``Table.version`` when
the table's picture changes (``touch``); an accepted action is stored as a ``TableAction`` whose ``seq`` is the
version after it. After the commit ``tables.signals.table_changed`` tells the live layer (``publish``).
A fixture's table holds its match while it is open (``Match.held_by_table``, set by ``tables.fixtures``): every
change of a table's status out of ``OPEN`` goes through ``leave_open``, which releases it, so no stopped table
keeps a hold.

The modules that change a table, one job each: ``tables.seating`` (creating a table, its seats and bots),
``tables.fixtures`` (a league match played online), ``tables.dealing`` (starting, dealing, storing a hand),
``tables.acting`` (a seat's move), ``tables.clock`` (the clock and the bots), ``tables.presence`` (who is there),
``tables.closing`` (idle tables closed); ``tables.reader_views`` says what each reader sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from engine.actions import OVER
from engine.errors import FieldError
from engine.hand import HandState
from games.models import Match
from games.services import record_forfeit
from tables import state as live
from tables.models import Seat, Table, TableHand
from tables.reader_views import all_views
from tables.signals import table_changed

AWAY_SECONDS = 60
"""A seat whose player is away this long is played by a bot until they reclaim it."""

OPEN = (Table.LOBBY, Table.PLAYING)


class TableError(FieldError):
    """A request the table refuses: ``field`` names what is wrong, ``reason`` says why (the engine's words for a
    move the rules forbid)."""


class StaleVersion(TableError):
    """The request was made on an older version of the table: resync and try again."""

    conflict = True


@dataclass(frozen=True)
class Outcome:
    """An accepted action: the table's version after it, who moved what and how; ``repeated`` when the action id
    had been accepted before (nothing changed now); ``hand_over`` with the hand's ``result`` when it ended a
    hand."""

    table_id: int
    version: int
    seat: int
    action: str
    by: str
    hand_over: bool = False
    result: dict[str, Any] | None = None
    repeated: bool = False


def locked(table: Table | int) -> Table:
    """The table's row, locked for this transaction (``TableError`` when there is no such table)."""
    table_id = table if isinstance(table, int) else table.pk
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("table", f"there is no table {table_id}") from None


def publish(table: Table, hand: TableHand | None = None, state: HandState | None = None, *,
             seats: dict[int, Seat] | None = None, action: dict[str, Any] | None = None) -> None:
    """After the commit: keep the state for its version and tell the live layer. With ``seats`` (every seat row of
    the table as this transaction read it under the lock, with its user, and saved it since) and a hand in play,
    the readers' frames are built from what the change already holds (``views``, and ``action``: who did what) —
    no second read of the table, its seats or its last action; the live layer reads them itself otherwise."""
    table_id, version = table.pk, table.version
    kept = state.copy() if state is not None and hand is not None else None  # kept as it is now: one copy
    rows = [seats[index] for index in sorted(seats)] if seats is not None and len(seats) == table.players else None

    def committed() -> None:
        if kept is not None and hand is not None:  # kept only with its hand
            live.remember(table_id, version, hand, kept, copy=False)
        views = all_views(table, hand=hand, state=kept, seats=rows) if kept is not None and rows is not None \
            else None
        table_changed.send(sender=Table, table_id=table_id, version=version, views=views, action=action)

    transaction.on_commit(committed)


def touch(table: Table, now: datetime) -> None:
    """The table's picture changed: a new version, and activity now."""
    table.version += 1
    table.last_activity_at = now


def seat_row(table: Table, index: Any) -> Seat:
    """The seat ``index`` of the table, checked and locked."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < table.players:
        raise TableError("seat", f"must be a seat from 0 to {table.players - 1}, got {index!r}")
    return table.seats.select_for_update().get(index=index)


def signed_in(user: Any) -> bool:
    """Whether ``user`` is a signed-in user (not ``None``, not anonymous)."""
    return user is not None and getattr(user, "is_authenticated", False)


def match_id(table: Table) -> int:
    """The match of a fixture's table (the callers have checked that it is one)."""
    assert table.match_id is not None  # a fixture's table has its match
    return table.match_id


def set_deadline(table: Table, now: datetime, state: HandState | None = None, *,
                 seats: dict[int, Seat] | None = None) -> None:
    """Who moves next and by when: a bot (or a bot covering) ``bot_pace`` after the turn starts; a human at
    ``turn_seconds`` plus their bank, or ``AWAY_SECONDS`` after they went away if that is sooner (``seats``: the
    table's seat rows as this transaction read them under the lock and saved them since, saving a query)."""
    if table.status != Table.PLAYING:
        table.turn = table.turn_started_at = table.deadline_at = None
        return
    if state is not None:  # a new turn (also when the same seat moves again: a give after its beg)
        table.turn = None if state.phase is OVER else state.turn
        table.turn_started_at = now
        table.turn_shown_at = None
    if table.turn is None or table.on_hold:  # on hold: nobody's clock runs until the organiser acts
        table.deadline_at = None
        return
    row = seats[table.turn] if seats is not None else table.seats.get(index=table.turn)
    started = table.turn_started_at or now
    pace = timedelta(seconds=table.bot_pace)
    if row.bot or row.covering:
        table.deadline_at = started + pace
        return
    clock = started + timedelta(seconds=table.turn_seconds + row.bank_left)
    if row.away_since is not None:
        clock = min(clock, max(started + pace, row.away_since + timedelta(seconds=AWAY_SECONDS)))
    table.deadline_at = clock


def leave_open(table: Table, status: str) -> None:
    """The table stops (``FINISHED`` or ``CLOSED``): nobody's turn any more, and its match (a fixture's) is
    released. Every change of a table's status out of ``OPEN`` goes through here."""
    assert status not in OPEN
    table.status = status
    table.turn = table.turn_started_at = table.deadline_at = None
    release_match(table)


def release_match(table: Table) -> None:
    """The table no longer holds its match (if it still did): its results are entered on its pages again."""
    if table.match_id is not None:
        Match.objects.filter(pk=table.match_id, held_by_table=table.pk).update(held_by_table=None)


def stop(table: Table, status: str, reason: str) -> None:
    """The table stops before its match is over, saying why (``reason``, shown on the table page)."""
    leave_open(table, status)
    table.end_reason = reason[:300]


def finish(table: Table, match: Match | None = None) -> tuple[None, None]:
    """The table's game (a casual table's) or match (a fixture's: its games and why it ended) is over; ``(None,
    None)``: no hand in play, as a deal that ends the table returns."""
    leave_open(table, Table.FINISHED)
    if match is not None:
        table.games_won = [match.games_a, match.games_b]
        table.end_reason = match_over(match)
    return None, None


def match_over(match: Match) -> str:
    """Why a fixture's table finished, in words: the match's result (a forfeit says who did not play)."""
    names = {"a": match.side_a_name, "b": match.side_b_name}
    if match.outcome == Match.DOUBLE_FORFEIT:
        return "The match is over: the organiser recorded that neither side played."
    if match.outcome != Match.PLAYED:
        absent = names["a" if match.outcome == Match.FORFEIT_A else "b"]
        return f"The match is over: the organiser recorded a forfeit — {absent} did not play, " \
               f"{names.get(match.winner, '')} won."
    score = f"{match.side_a_name} {match.games_a} – {match.games_b} {match.side_b_name}"
    if match.winner in names:
        return f"The match is over: {names[match.winner]} won, games {score}."
    return f"The match is over: games {score}."


def finish_by_forfeit(table: Table, match: Match, outcome: str, *, author_label: str, reason: str,
                      now: datetime) -> Table:
    """The table's match is forfeited by its rule (a no-show, a player out of time): the forfeit recorded as the
    organiser's would be (``games.services.record_forfeit``, its history naming ``author_label``), and the table
    finishes in the same commit saying why (``reason``)."""
    finish(table, record_forfeit(match, outcome=outcome, author_label=author_label))
    table.end_reason = reason[:300]
    touch(table, now)
    table.save()
    publish(table)
    return table
