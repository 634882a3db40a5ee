"""A seat's player going away or coming back reaches every reader at once, not with the next move.

The table's version does not move (a page reloading must not make another player's move stale): every socket of
the table is sent the state again, with the seats as they are now. Sockets through channels' communicator, as in
``test_consumers``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from tables import presence
from tests.factories import make_user
from tests.tables.helpers import fresh
from tests.tables.test_consumers import db, finish, human_table, join, quiet, seat_row  # noqa: F401 (quiet: autouse)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def next_state(client) -> dict:
    frame = await client.receive(timeout=5)
    assert frame["type"] == "state", frame
    return frame


async def test_a_player_leaving_and_coming_back_is_shown_away_then_present_to_the_others_at_once():
    pat, sam = await db(make_user)(), await db(make_user)()
    table = await db(human_table)(pat, sam)
    version = (await db(fresh)(table)).version
    sam_socket, watcher = await join(table, 1, user=sam), await join(table, None)
    pat_socket = await join(table, 0, user=pat)
    assert await sam_socket.socket.receive_nothing(0.2), "pat was never away: nothing to tell"

    await pat_socket.leave()  # pat's page closes (or reloads): pat is away
    for client in (sam_socket, watcher):
        frame = await next_state(client)
        assert frame["seats"][0]["away"] and not frame["seats"][1]["away"]
        assert frame["version"] == version  # nobody's move goes stale

    pat_back = await join(table, 0, user=pat)
    for client in (sam_socket, watcher):
        frame = await next_state(client)
        assert not frame["seats"][0]["away"]
        assert frame["version"] == version
    assert (await db(fresh)(table)).version == version
    await finish(sam_socket, watcher, pat_back)


async def test_a_count_a_killed_process_left_is_reset_and_the_others_see_the_player_away():
    pat, sam = await db(make_user)(), await db(make_user)()
    table = await db(human_table)(pat, sam)
    sam_socket = await join(table, 1, user=sam)
    await db(presence.mark_back)(table, 0)  # a socket of a process that is then killed: never counted out
    row = await db(seat_row)(table, 0)
    later = row.seen_at + timedelta(seconds=presence.PRESENCE_STALE_SECONDS + 1)
    assert (table.pk, 0) in await db(presence.expire_presence)(later)
    frame = await next_state(sam_socket)
    assert frame["seats"][0]["away"]
    await finish(sam_socket)


async def test_a_socket_whose_consumer_is_killed_without_its_disconnect_is_counted_out_all_the_same():
    """daphne cancels a consumer still busy 10 s after its client left: its disconnect never runs. The seat is
    counted out anyway (else the player would read present for ever, and no bot would cover them)."""
    pat, sam = await db(make_user)(), await db(make_user)()
    table = await db(human_table)(pat, sam)
    sam_socket = await join(table, 1, user=sam)
    pat_socket = await join(table, 0, user=pat)
    assert (await db(seat_row)(table, 0)).connected == 1

    pat_socket.socket.future.cancel()  # what daphne's application checker does
    frame = await next_state(sam_socket)
    assert frame["seats"][0]["away"]
    row = await db(seat_row)(table, 0)
    assert row.connected == 0 and row.away_since is not None
    await finish(sam_socket)
