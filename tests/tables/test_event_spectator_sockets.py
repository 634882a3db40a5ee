"""The socket of a spectator of an event's table (``tables.consumers`` with ``tables.spectators``), on real commits:
a trick behind, it is sent a frame only when a trick is complete (never one per card: the versions it sees count
nothing not shown yet), its heartbeat is answered with its picture's version, and it gets no clock; while the
event keeps its tables out of sight it is refused with the reason, and so is a player of the match who is not at
their seat. Every frame each socket receives is scanned for a card its reader may not see.
"""

from __future__ import annotations

import uuid

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connections

from league.choices import OnlineSpectators
from tables import acting, consumers, live, spectators, ticker
from tables import state as table_state
from tables.models import Seat, Table
from tests.tables.event_scene import make_event, started
from tests.tables.helpers import fresh
from tests.tables.test_consumers import finish, join

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async


@pytest_asyncio.fixture(autouse=True)
async def quiet(monkeypatch):
    """No ticker and no presence heartbeat: the test moves the table itself."""
    monkeypatch.setattr(ticker, "ensure_running", lambda: None)
    monkeypatch.setattr(consumers, "ensure_heartbeat", lambda: None)
    consumers._held.clear()
    yield
    consumers._held.clear()
    await sync_to_async(connections.close_all)()


def move(table: Table) -> tuple[Table, int]:
    """The seat to move makes its first legal move; the table then, and how many cards its trick holds."""
    table = fresh(table)
    _, state = table_state.current(table)
    acting.act(table.pk, table.turn, str(state.legal_actions()[0]), table.version, uuid.uuid4().hex)
    table = fresh(table)
    return table, len(table_state.current(table)[1].trick)


def tricks_taken(table: Table) -> int:
    return len(table_state.current(fresh(table))[1].tricks)


async def test_a_spectator_a_trick_behind_gets_a_frame_only_when_a_trick_is_complete():
    event = await db(make_event)()
    table = await db(started)(event.tables[0])
    watcher = await join(table, None)
    first = watcher.frames[0]
    assert first["table"]["delay"] == "trick" and first["view"]["phase"] == "beg"
    boundaries = []
    for _ in range(14):  # the calls and the first three tricks or so
        table, in_trick = await db(move)(table)
        got = await watcher.drain()
        if in_trick:  # a card on the felt, or the calls: nothing reaches the spectator
            assert [frame for frame in got if frame["type"] == "event"] == []
        if in_trick == 0 and (await db(tricks_taken)(table)):
            boundaries.append(table.version)
            assert got and got[-1]["version"] == table.version and got[-1]["view"]["trick"]["cards"] == []
            assert "action" not in got[-1]
    assert len(boundaries) >= 2
    await watcher.send(type="ping")
    pong = await watcher.until_type("pong")
    assert pong["version"] == await db(live.spectator_version)(table.pk) <= table.version
    await watcher.send(type="sync", version=0)
    state = await watcher.until_type("state")
    assert "gap" not in state and state["version"] == pong["version"]
    await finish(watcher)
    assert all(frame.get("type") != "clock" for frame in watcher.frames)


async def test_the_players_keep_their_live_frames_while_the_spectator_waits_for_the_trick():
    event = await db(make_event)()
    table = await db(started)(event.tables[0])
    mover = table.turn
    seat = await join(table, mover, token=(await db(Seat.objects.get)(table=table, index=mover)).seat_token)
    table, _ = await db(move)(table)
    frame = await seat.until_version(table.version)
    assert frame["version"] == table.version and frame["action"]
    await finish(seat)


async def test_a_spectator_is_refused_while_the_event_keeps_its_tables_out_of_sight():
    event = await db(make_event)(spectators=OnlineSpectators.AFTER_EVENT)
    table = await db(started)(event.tables[0])
    refused = await join(table, None, expect="refused")
    assert refused.frames[0]["reason"] == spectators.CLOSED_REASON and refused.frames[0]["version"] is None
    assert await refused.closed() == 4403


async def test_a_player_of_the_match_not_at_their_seat_is_refused_as_a_spectator_and_seated_by_their_login():
    event = await db(make_event)()
    table = event.tables[0]
    users = await db(lambda: [player.user for player in event.players(0)])()
    seated = await join(table, 1, user=users[1])  # by their login: their own seat
    assert seated.frames[0]["view"] is None or seated.frames[0]["view"]["seat"] == 1
    await db(Seat.objects.filter(table=table, index=3).update)(user=None)
    refused = await join(table, None, user=users[3], expect="refused")
    assert refused.frames[0]["reason"] == spectators.PLAYER_REASON
    assert await refused.closed() == 4403
    await seated.leave()
