"""Who is at the table: the sockets holding each seat counted over every process, the heartbeat that vouches for
them, a player away (covered by a bot after ``AWAY_SECONDS``) and a player reclaiming their seat.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Case, F, IntegerField, Q, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from tables.changes import TableError, locked, publish, seat_row, set_deadline, signed_in, touch
from tables.events import start_if_seated
from tables.models import Seat, Table
from tables.seating import ask_to_reclaim
from tables.signals import presence_changed

PRESENCE_HEARTBEAT_SECONDS = 15
"""How often a process holding sockets vouches for their seats (``heartbeat``)."""

PRESENCE_STALE_SECONDS = 45
"""A seat's socket count no process has vouched for this long was left by a killed process (``expire_presence``)."""


def mark_back(table: Table | int, seat: int, now: datetime | None = None) -> None:
    """A socket holding the seat opened, in any process: ``Seat.connected`` goes up by one in the database and the
    player is present (a bot already covering keeps the seat until ``reclaim``)."""
    _presence(table, seat, now or timezone.now(), away=False)


def mark_away(table: Table | int, seat: int, now: datetime | None = None) -> None:
    """A socket holding the seat closed: ``Seat.connected`` goes down by one (never below 0). When no socket of any
    process holds the seat any more, its player is away since ``now``; after ``AWAY_SECONDS`` a bot covers it."""
    _presence(table, seat, now or timezone.now(), away=True)


def _presence(table: Table | int, seat: int, now: datetime, *, away: bool) -> None:
    """Count the socket in or out with one ``UPDATE … SET connected = connected ± 1`` (an F() expression: two
    processes counting at once never lose a count; a count older than ``PRESENCE_STALE_SECONDS`` is not trusted
    and starts again from this socket), then mark the player away or back."""
    with transaction.atomic():
        table = locked(table)
        row = seat_row(table, seat)
        counted = Greatest(F("connected") - 1, 0) if away else F("connected") + 1
        # a count no process vouched for lately was left by a killed one: this socket starts it again
        vouched = Q(seen_at__gte=now - timedelta(seconds=PRESENCE_STALE_SECONDS))
        Seat.objects.filter(pk=row.pk).update(seen_at=now, connected=Case(
            When(vouched, then=counted), default=Value(0 if away else 1), output_field=IntegerField()))
        row.refresh_from_db(fields=["connected", "seen_at"])
        if not away and table.status == Table.LOBBY and table.starts_at is not None:
            _start_if_seated(table.pk)
        if row.bot:
            return
        if away and row.connected == 0 and row.away_since is None:
            row.away_since = now
        elif not away and row.away_since is not None:
            row.away_since = None
        else:
            return
        row.save(update_fields=["away_since"])
        _announce_presence(table, row.index)
        if table.turn == row.index:
            set_deadline(table, now)
            table.save(update_fields=["deadline_at"])


def _start_if_seated(table_id: int) -> None:
    """After the commit: an event table (``tables.events``) starts as soon as every seat's player is there."""
    transaction.on_commit(lambda: start_if_seated(table_id), robust=True)


def _announce_presence(table: Table, seat: int) -> None:
    """After the commit: the table's readers are told that ``seat``'s player went away or came back."""
    table_id, players = table.pk, table.players
    transaction.on_commit(lambda: presence_changed.send(sender=Table, table_id=table_id, players=players, seat=seat))


def heartbeat(seats: Iterable[tuple[int, int]], now: datetime | None = None) -> int:
    """The calling process still holds sockets of ``seats`` (``(table id, seat index)`` pairs): their counts are
    vouched for at ``now``. Returns the number of seats touched."""
    by_table: dict[int, set[int]] = {}
    for table_id, index in seats:
        by_table.setdefault(table_id, set()).add(index)
    if not by_table:
        return 0
    condition = Q()
    for table_id, indexes in by_table.items():
        condition |= Q(table_id=table_id, index__in=sorted(indexes))
    with transaction.atomic():
        # the rows locked in one order (by id) before the update: an UPDATE of many seats locks them in whatever
        # order it finds them, and two such heartbeats (two processes) could each wait for a row the other holds.
        # Every other writer of seats holds one seat's row at a time (under the table's lock), so none can close
        # a cycle with this one.
        ids = list(Seat.objects.filter(condition, connected__gt=0).order_by("pk").select_for_update()
                   .values_list("pk", flat=True))
        return Seat.objects.filter(pk__in=ids).update(seen_at=now or timezone.now()) if ids else 0


def expire_presence(now: datetime | None = None) -> list[tuple[int, int]]:
    """Reset the socket counts no process has vouched for in ``PRESENCE_STALE_SECONDS``: a process killed with
    sockets open (SIGKILL, a lost machine) never counted them out. Such a seat's player is away since its last
    heartbeat, so the cover comes ``AWAY_SECONDS`` after the player was last known there. A live process
    vouches every ``PRESENCE_HEARTBEAT_SECONDS``, three times within the limit, so no held seat is reset.
    Returns the seats reset."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=PRESENCE_STALE_SECONDS)
    stale = Q(seen_at__isnull=True) | Q(seen_at__lt=limit)
    reset = []
    for table_id, index in Seat.objects.filter(stale, connected__gt=0).values_list("table_id", "index"):
        with transaction.atomic():
            table = locked(table_id)
            row = seat_row(table, index)
            if row.connected == 0 or row.seen_at is not None and row.seen_at >= limit:
                continue  # counted out, or vouched for, meanwhile
            row.connected = 0
            fields = ["connected"]
            if not row.bot and row.away_since is None:
                row.away_since = row.seen_at or now
                fields.append("away_since")
            row.save(update_fields=fields)
            if "away_since" in fields:
                _announce_presence(table, index)
            if table.turn == row.index and "away_since" in fields:
                set_deadline(table, now)
                table.save(update_fields=["deadline_at"])
            reset.append((table_id, index))
    return reset


def reclaim(table: Table | int, seat: int, user=None, *, seat_token: str = "") -> Seat:
    """The seat's player takes it back from the bot covering it, at their next turn (at once when it is not
    their turn now). The player is the seat's signed-in user or whoever holds the seat's private link
    (``seat_token``): the link is that seat's credential, like a scorekeeper's link, so it reclaims its own seat
    and no other. A casual seat its player left is no one's to reclaim: it is taken again (``take_seat``)."""
    with transaction.atomic():
        table = locked(table)
        row = seat_row(table, seat)
        by_user = signed_in(user) and row.user_id is not None and row.user_id == user.pk
        by_link = isinstance(seat_token, str) and bool(seat_token) and secrets.compare_digest(seat_token,
                                                                                               row.seat_token)
        if not (by_user or by_link):
            raise TableError("seat", f"seat {row.index + 1} is not yours")
        if not by_user and row.user_id is None and table.kind == Table.CASUAL:
            raise TableError("seat", f"seat {row.index + 1} was left: take it again to play")
        row.away_since = None
        if row.covering:
            ask_to_reclaim(table, row)
        row.save(update_fields=["away_since", "covering", "reclaim_pending"])  # not the count, kept by F()
        now = timezone.now()
        touch(table, now)
        set_deadline(table, now)
        table.save()
        publish(table)
    return row
