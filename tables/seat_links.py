"""The private seat links of a league fixture's table: renewed or revoked by the match's organisers and scorekeepers.

A seat's link (``/tables/<id>/?seat=<token>``) is that seat's credential, like a scorekeeper's entry link: whoever
holds it plays the seat with no login. A link handed to the wrong person, or lost, is revoked — the seat's token is
replaced by a fresh one that nobody is shown (``Seat.link_revoked``), so the old link is refused by the table page
(404) and by the socket (``tables.live.seat_for_socket`` finds no seat for it: closed with 4403) — or renewed: a new
token, the old link refused the same way, the new one shown on the match's online page to hand out. Both are
idempotent for the caller (a double tap revokes once more, harmlessly). A socket already open with the old link is
closed at once (``tables.live.LOGOUT`` to the seat's group, naming the old token: its page says it is closed and
does not reconnect); the sockets its player opened with their login stay open.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from redis.exceptions import RedisError

from games.models import Match
from league import outages
from league.permissions import can_enter_hands
from tables.changes import OPEN, TableError
from tables.live import LOGOUT, seat_group
from tables.models import Seat, Table, new_table_token

logger = logging.getLogger(__name__)
NOT_ALLOWED = "only the match's organisers and scorekeepers renew or revoke its seats' links"


def renew_seat_link(table: Table | int, seat: Any, user: Any) -> Seat:
    """A new private link for ``seat`` (an index) of the fixture's open table; the old link is refused from now."""
    return _change(table, seat, user, revoked=False)


def revoke_seat_link(table: Table | int, seat: Any, user: Any) -> Seat:
    """``seat``'s private link stops working (until renewed); its player may still play by their login."""
    return _change(table, seat, user, revoked=True)


def _change(table: Table | int, seat: Any, user: Any, *, revoked: bool) -> Seat:
    table_id = table if isinstance(table, int) else table.pk
    with transaction.atomic():
        locked = Table.objects.select_for_update().filter(pk=table_id).first()  # as every change of the table
        if locked is None:
            raise TableError("table", f"there is no table {table_id}")
        if locked.kind != Table.FIXTURE:
            raise TableError("table", "only a league fixture's seat links are renewed or revoked here")
        assert locked.match_id is not None  # a fixture's table has its match
        match = Match.objects.select_related("competition").get(pk=locked.match_id)
        if not can_enter_hands(user, match):
            raise TableError("match", NOT_ALLOWED)
        if locked.status not in OPEN:
            raise TableError("table", f"the table is {locked.get_status_display().lower()}: its links no longer "
                                      "open a seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < locked.players:
            raise TableError("seat", f"must be a seat from 1 to {locked.players}, got {seat!r}")
        row = Seat.objects.select_for_update().get(table=locked, index=seat)
        old_token = row.seat_token
        row.seat_token = new_table_token()  # the old link finds no seat any more (page and socket)
        row.link_revoked = revoked
        row.save(update_fields=["seat_token", "link_revoked"])
        group = seat_group(locked.pk, row.index)  # the sockets opened with the old link close once this commits
        transaction.on_commit(lambda: _close_sockets(group, old_token))
    return row


def _close_sockets(group: str, old_token: str) -> None:
    """After the commit; never raises (the link is changed whatever the sockets do). Only the seat's sockets that
    came with ``old_token`` close: its player's, opened with their login, stay."""
    try:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, {"type": LOGOUT, "seat_token": old_token})
    except (RedisError, OSError, TimeoutError) as error:  # the layer's Redis down: one warning an outage
        outages.channel_layer.failed(f"closing the sockets of {group}", error)
    except Exception:
        logger.exception("closing the sockets of %s failed", group)
    else:
        outages.channel_layer.answered()
