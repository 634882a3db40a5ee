"""Creating a casual table and filling its seats: players taking and leaving seats, bots joining and leaving, and
who holds a seat (a signed-in user, or the holder of the seat's private link).

Seats: the seat a caller acts for comes from the caller (the session or the seat's private link), never from a
message. A seat left during play is covered by a bot until someone takes it. A login holds one seat of a
competition's tables at a time (``tables.one_seat``): seating it, or its opening a seat's link, is refused while it
holds an open seat of another table of the same competition.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.bots import BOT_NAMES
from engine.errors import FieldError
from engine.rules import Ruleset
from tables import one_seat
from tables.changes import OPEN, TableError, locked, publish, seat_row, set_deadline, signed_in, touch
from tables.models import Seat, Table, default_bot_pace


def create_table(user, players: int = 4, ruleset: dict | None = None, visibility: str = Table.PUBLIC,
                 bots: dict[int, str] | None = None, *, seat: int | None = None, turn_seconds: int = 30,
                 bank_seconds: int = 60, bot_pace: float | None = None) -> Table:
    """A casual table in the lobby; ``bots`` fills seats with bots (``{seat: "random"|"heuristic"|"montecarlo"}``)
    and ``seat`` seats its creator. ``bot_pace`` defaults to the ``TABLES_BOT_PACE`` setting."""
    if bot_pace is None:
        bot_pace = default_bot_pace()
    if players not in (2, 4) or isinstance(players, bool):
        raise TableError("players", f"must be 2 or 4, got {players!r}")
    if visibility not in (Table.PUBLIC, Table.PRIVATE):
        raise TableError("visibility", f"must be {Table.PUBLIC} or {Table.PRIVATE}, got {visibility!r}")
    overrides = checked_ruleset(ruleset)
    for field, value in (("turn_seconds", turn_seconds), ("bank_seconds", bank_seconds)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3600:
            raise TableError(field, f"must be a whole number of seconds from 0 to 3600, got {value!r}")
    if not isinstance(bot_pace, int | float) or not 0 <= bot_pace <= 60:
        raise TableError("bot_pace", f"must be from 0 to 60 seconds, got {bot_pace!r}")
    bots = bots or {}
    with transaction.atomic():
        table = Table.objects.create(kind=Table.CASUAL, players=players, ruleset=overrides, visibility=visibility,
                                     created_by=user if signed_in(user) else None, turn_seconds=turn_seconds,
                                     bank_seconds=bank_seconds, bot_pace=float(bot_pace))
        Seat.objects.bulk_create([Seat(table=table, index=i, bank_left=bank_seconds) for i in range(players)])
        for index, kind in bots.items():
            _put_bot(table, seat_row(table, index), kind)
        if seat is not None and signed_in(user):
            _sit(table, seat_row(table, seat), user)
        publish(table)
    return table


def checked_ruleset(ruleset: Any) -> dict:
    if ruleset is not None and not isinstance(ruleset, dict):
        raise TableError("ruleset", "must be a JSON object of the engine's ruleset settings")
    try:
        return Ruleset.from_dict(ruleset or None).overrides()
    except FieldError as error:
        raise TableError(error.field or "ruleset", error.reason) from None


def take_seat(table: Table | int, seat: int, user) -> Seat:
    """``user`` sits at an empty seat (in the lobby), or takes over a seat a bot covers for a player who left
    (during play: the bot moves until the user's next turn)."""
    if not signed_in(user):
        raise TableError("user", "sign in to take a seat")
    with transaction.atomic():
        table = locked(table)
        if table.kind == Table.FIXTURE:
            raise TableError("seat", "the seats of a league fixture belong to the partnerships' players")
        if table.status not in OPEN:
            raise TableError("table", f"the table is {table.get_status_display().lower()}")
        row = seat_row(table, seat)
        _sit(table, row, user)
        touch(table, timezone.now())
        set_deadline(table, timezone.now())
        table.save()
        publish(table)
    return row


def _sit(table: Table, row: Seat, user) -> None:
    if table.seats.filter(user=user).exclude(pk=row.pk).exists():
        raise TableError("seat", "you already have a seat at this table")
    one_seat.check_one_seat(table, user)  # a competition's table: one seat per player per event
    if row.user_id == user.pk:
        return
    if row.bot or row.user_id is not None:
        raise TableError("seat", f"seat {row.index + 1} is taken")
    row.user = user
    row.away_since = None
    if table.status == Table.PLAYING:  # a seat left during play: its cover plays on until the new player's turn
        ask_to_reclaim(table, row)
    row.save()


def leave_seat(table: Table | int, seat: int, user) -> Seat:
    """``user`` leaves their seat: in the lobby it is free again; during play a bot covers it (another user
    may take it)."""
    with transaction.atomic():
        table = locked(table)
        row = seat_row(table, seat)
        if user is None or row.user_id != user.pk:
            raise TableError("seat", f"seat {row.index + 1} is not yours")
        if table.kind == Table.FIXTURE:
            raise TableError("seat", "a fixture's seat stays its player's: a bot covers it while they are away")
        row.user = None
        row.reclaim_pending = False
        if table.status == Table.PLAYING:
            row.covering = True
            row.away_since = row.away_since or timezone.now()
        row.save()
        now = timezone.now()
        touch(table, now)
        set_deadline(table, now)
        table.save()
        publish(table)
    return row


def add_bot(table: Table | int, seat: int, kind: str) -> Seat:
    """A bot (``random``, ``heuristic``, ``montecarlo``: easy, normal, strong) owns an empty seat."""
    with transaction.atomic():
        table = locked(table)
        if table.kind == Table.FIXTURE:
            raise TableError("seat", "the seats of a league fixture belong to the partnerships' players")
        if table.status != Table.LOBBY:
            raise TableError("table", "bots join a table before it starts")
        row = _put_bot(table, seat_row(table, seat), kind)
        touch(table, timezone.now())
        table.save()
        publish(table)
    return row


def remove_bot(table: Table | int, seat: int) -> Seat:
    """The seat's bot leaves (in the lobby)."""
    with transaction.atomic():
        table = locked(table)
        if table.status != Table.LOBBY:
            raise TableError("table", "bots leave a table before it starts")
        row = seat_row(table, seat)
        if not row.bot:
            raise TableError("seat", f"seat {row.index + 1} has no bot")
        row.bot = Seat.NO_BOT
        row.save()
        touch(table, timezone.now())
        table.save()
        publish(table)
    return row


def _put_bot(table: Table, row: Seat, kind: Any) -> Seat:
    if kind not in BOT_NAMES:
        raise TableError("bot", f"must be one of {', '.join(BOT_NAMES)}, got {kind!r}")
    if row.user_id is not None or row.bot:
        raise TableError("seat", f"seat {row.index + 1} is taken")
    row.bot = kind
    row.save()
    return row


def ask_to_reclaim(table: Table, row: Seat) -> None:
    if table.turn == row.index:
        row.reclaim_pending = True  # the bot makes this move; the player has the next one
    else:
        row.covering = row.reclaim_pending = False


def seat_by_token(token: str, user: Any = None) -> Seat | None:
    """The seat whose private link carries ``token`` (``None`` for none). With ``user`` (whoever opens the link:
    the table page's and the socket's signed-in user), a seat of a competition's table is refused
    (``one_seat.SeatElsewhere``, "You already have a seat in …") when that user holds an open seat of another table
    of the same competition: one player, one seat an event."""
    if not token or not isinstance(token, str):
        return None
    row = Seat.objects.select_related("table").filter(seat_token=token).first()
    if row is not None and user is not None:
        one_seat.check_link_holder(row, user)
    return row


def seat_of_user(table: Table | int, user) -> int | None:
    """The seat ``user`` holds at the table, or ``None``."""
    if not signed_in(user):
        return None
    table_id = table if isinstance(table, int) else table.pk
    return Seat.objects.filter(table_id=table_id, user=user).values_list("index", flat=True).first()
