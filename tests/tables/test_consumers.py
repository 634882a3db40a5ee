"""The online table's socket (tables.consumers, tables.live) through channels' WebsocketCommunicator, on real tables.

Every table here is made and played through the ``tables`` modules and stored in the test database; the consumer's
database work runs in Django's thread, so the tests use committed rows (``transaction=True``). Time is driven with
explicit ``now=`` (``table_clock.play_due``, ``consumers.beat``), never by sleeping; the ticker and the presence
heartbeat are kept off except in the tests about them. Every frame each socket receives is scanned for a card its
reader may not see (``frames_showing_hidden_cards``): 0 in every test.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.signals import user_logged_out
from django.db import connections
from django.utils import timezone

from config.asgi import application
from engine.cards import CARD_NAMES, bits
from tables import clock as table_clock
from tables import consumers, dealing, fixtures, live, presence, reader_views, seating, ticker
from tables import state as table_state
from tables.changes import AWAY_SECONDS, TableError
from tables.models import Seat, Table, TableAction
from tables.presence import PRESENCE_STALE_SECONDS
from tables.routing import websocket_urlpatterns
from tests.factories import make_scene, make_user
from tests.tables.helpers import bots_move_until_turn_of, frames_showing_hidden_cards, fresh

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

REAL_TICKER = ticker.ensure_running
REAL_HEARTBEAT = consumers.ensure_heartbeat


@pytest_asyncio.fixture(autouse=True)
async def quiet(monkeypatch):
    """No ticker and no heartbeat in the background: each test moves the clock itself. Afterwards the database
    connection of Django's thread is closed (it is kept ``CONN_MAX_AGE``: the test database could not be dropped)."""
    monkeypatch.setattr(ticker, "ensure_running", lambda: None)
    monkeypatch.setattr(consumers, "ensure_heartbeat", lambda: None)
    consumers._held.clear()
    yield
    consumers._held.clear()
    await sync_to_async(connections.close_all)()


# ----------------------------------------------------------------------------- tables
def human_table(*users, players: int = 4, **options) -> Table:
    """A started casual table: ``users`` at seats 0, 1, …, heuristic bots at the others."""
    table = seating.create_table(users[0], players, None, Table.PUBLIC,
                                 {seat: "heuristic" for seat in range(len(users), players)}, seat=0, **options)
    for seat, user in enumerate(users[1:], start=1):
        seating.take_seat(table, seat, user)
    return dealing.start(table)


def bots_move_until_a_turn_of(table: Table, seats: set[int], limit: int = 500) -> Table:
    """Let the bots move until one of ``seats`` (the humans') is to move; the table as it is then."""
    for _ in range(limit):
        table = fresh(table)
        if table.turn in seats:
            return table
        table_clock.play_due(table.pk, now=table.deadline_at)
    raise AssertionError(f"none of seats {seats} got the turn")


def seat_row(table: Table, seat: int) -> Seat:
    return Seat.objects.get(table=table, index=seat)


def actions_of(table: Table) -> list[tuple[int, int, str, str]]:
    return list(TableAction.objects.filter(table=table).order_by("seq").values_list("seq", "seat", "action", "by"))


db = sync_to_async  # the test's own database work, in Django's thread as the consumer's is


async def until_shown(table: Table, timeout: float = 10.0) -> Table:
    """The table once its turn was reported shown by a socket of the seat to move (``table_clock.turn_shown``)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while (now := await db(fresh)(table)).turn_shown_at is None:
        assert asyncio.get_running_loop().time() < deadline, "the turn was never reported shown"
        await asyncio.sleep(0.02)
    return now


# ----------------------------------------------------------------------------- sockets
class Client:
    """A socket of one reader (a seat, or ``None``: a spectator) that keeps every frame it receives."""

    def __init__(self, table: Table, reader: int | None, path: str, user=None, app=None, headers=None) -> None:
        self.table_id, self.reader = table.pk, reader
        self.socket = WebsocketCommunicator(app or URLRouter(websocket_urlpatterns), path, headers=headers)
        self.socket.scope["user"] = user
        self.frames: list[dict] = []
        self.close_code: int | None = None
        self.left = False

    async def receive(self, timeout: float = 10.0) -> dict:
        frame = await self.socket.receive_json_from(timeout)
        self.frames.append(frame)
        return frame

    async def drain(self, quiet: float = 0.15) -> list[dict]:
        """Every frame until none comes for ``quiet`` seconds (a close ends it)."""
        out = []
        while self.close_code is None and not await self.socket.receive_nothing(quiet):
            message = await self.socket.receive_output(10)
            if message["type"] == "websocket.close":
                self.close_code = message.get("code")
                break
            frame = json.loads(message["text"])
            self.frames.append(frame)
            out.append(frame)
        return out

    async def until_version(self, version: int, timeout: float = 10.0) -> dict:
        """Frames until one of ``version`` or later comes (the events a test's own moves published); that one."""
        frame = self.frames[-1] if self.frames else {}
        while frame.get("version", -1) < version:
            frame = await self.receive(timeout)
        return frame

    async def until_type(self, kind: str, timeout: float = 10.0) -> dict:
        """Frames until one of type ``kind`` comes (a presence or clock frame may come first); that one."""
        frame = await self.receive(timeout)
        while frame.get("type") != kind:
            frame = await self.receive(timeout)
        return frame

    async def send(self, **message) -> None:
        await self.socket.send_json_to(message)

    async def closed(self) -> int:
        message = await self.socket.receive_output(10.0)
        assert message["type"] == "websocket.close", message
        self.close_code = message.get("code")
        return self.close_code

    async def leave(self) -> None:
        await self.drain()
        if not self.left:
            self.left = True
            await self.socket.disconnect()


async def join(table: Table, reader: int | None, *, user=None, token: str = "", invite: str = "",
               expect: str = "state") -> Client:
    """A socket on ``table`` (its seat from ``user`` or the seat link ``token``) and the first frame it gets."""
    query = f"?seat={token}" if token else f"?invite={invite}" if invite else ""
    client = Client(table, reader, f"/ws/tables/{table.pk}/{query}", user=user)
    connected, _ = await client.socket.connect(10)
    assert connected
    first = await client.receive()
    assert first["type"] == expect, first
    if expect == "state":
        assert first["view"] is None or first["view"]["seat"] == reader
    return client


async def finish(*clients: Client) -> None:
    """Close the sockets, then scan every frame each received for a card its reader may not see."""
    for client in clients:
        await client.leave()
    for client in clients:
        shown = await db(frames_showing_hidden_cards)(client.table_id, client.frames, client.reader)
        assert shown == [], (client.reader, shown)


async def token_of(table: Table, seat: int) -> str:
    return (await db(seat_row)(table, seat)).seat_token


# ----------------------------------------------------------------------------- joining
async def test_a_seat_joins_and_gets_the_state_with_only_its_own_cards():
    user = await db(make_user)()
    table = await db(human_table)(user)
    seat0 = await join(table, 0, user=user)
    watcher = await join(table, None)
    state, hand = seat0.frames[0], await db(lambda: table_state.live_state(fresh(table)))()
    assert state["version"] == (await db(fresh)(table)).version
    assert set(state["view"]["hand"]) == {CARD_NAMES[card] for card in bits(hand.hands[0])}  # its own cards
    assert state["view"]["hand_sizes"] == [6, 6, 6, 6]  # and of the others only how many
    assert bool(state["view"]["legal"]) == (hand.turn == 0)
    spectator = watcher.frames[0]
    assert spectator["view"]["seat"] is None and spectator["view"]["hand"] == [] and spectator["view"]["legal"] == []
    assert (await db(seat_row)(table, 0)).connected == 1  # counted in the database
    await finish(seat0, watcher)  # the scan finds no card shown to the wrong reader …
    row = await db(seat_row)(table, 0)
    assert row.connected == 0 and row.away_since is not None
    shown = await db(frames_showing_hidden_cards)(table.pk, seat0.frames, 1)  # … and would find seat 0's cards
    assert shown and shown[0][1] == set(state["view"]["hand"])  # in a frame sent to seat 1


async def test_a_seat_link_gives_its_seat_a_link_of_another_table_or_a_private_table_without_invite_is_refused():
    user = await db(make_user)()
    table = await db(human_table)(user)
    private = await db(seating.create_table)(user, 2, None, Table.PRIVATE, {1: "random"}, seat=0)
    linked = await join(table, 2, token=await token_of(table, 2))  # a bot's seat here: its own view only
    assert len(linked.frames[0]["view"]["hand"]) == 6
    other = await join(table, None, token=await token_of(private, 1), expect="refused")
    assert await other.closed() == 4403
    uninvited = await join(private, None, expect="refused")
    assert await uninvited.closed() == 4403
    invited = await join(private, None, invite=private.invite_token)
    assert invited.frames[0]["view"] is None  # the lobby: no hand yet
    missing = Client(table, None, "/ws/tables/999999/")
    assert (await missing.socket.connect(10))[0]
    assert (await missing.receive())["type"] == "refused" and await missing.closed() == 4404
    await finish(linked, other, uninvited, invited, missing)


async def test_a_socket_from_another_sites_page_is_refused_and_one_from_ours_accepted():
    table = await db(human_table)(await db(make_user)())
    foreign = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await foreign.connect(10)
    assert not connected  # AllowedHostsOriginValidator
    ours = Client(table, None, f"/ws/tables/{table.pk}/", app=application, headers=[(b"origin", b"http://127.0.0.1:8000")])
    del ours.socket.scope["user"]  # the auth middleware puts the session's (anonymous) user there
    assert (await ours.socket.connect(10))[0]
    assert (await ours.receive())["view"]["hand"] == []  # no session: a spectator
    await finish(ours)


# ----------------------------------------------------------------------------- playing
async def test_a_play_reaches_each_seat_with_its_own_view_and_the_spectators():
    alice, bob = await db(make_user)(), await db(make_user)()
    table = await db(human_table)(alice, bob)
    table = await db(bots_move_until_a_turn_of)(table, {0, 1})
    mover = table.turn
    seats = [await join(table, 0, user=alice), await join(table, 1, user=bob)]
    watcher = await join(table, None)
    action = seats[mover].frames[0]["view"]["legal"][0]
    await seats[mover].send(type="act", action=action, version=table.version, id=str(uuid.uuid4()))
    for reader, client in enumerate([*seats, watcher]):
        event = await client.receive()
        assert event["type"] == "event" and event["version"] == table.version + 1
        assert (event["seat"], event["action"], event["by"]) == (mover, action, "player")
        assert event["view"]["seat"] == (reader if reader < 2 else None)
    assert watcher.frames[-1]["view"]["hand"] == []
    assert (await db(actions_of)(table))[-1] == (table.version + 1, mover, action, "player")
    await finish(*seats, watcher)


async def test_a_move_for_a_seat_whose_turn_it_is_not_is_refused_with_no_change():
    alice, bob = await db(make_user)(), await db(make_user)()
    table = await db(human_table)(alice, bob)
    table = await db(bots_move_until_a_turn_of)(table, {0, 1})
    mover, other = table.turn, 1 - table.turn
    seat1 = await join(table, other, user=[alice, bob][other])
    seat0_legal = (await db(reader_views.view_for)(table, mover))["view"]["legal"]
    before = await db(actions_of)(table)
    await seat1.send(type="act", action=seat0_legal[0], version=table.version, id="wrong-1")
    refused = await seat1.receive()
    assert (refused["type"], refused["field"], refused["version"]) == ("refused", "action", table.version)
    await seat1.send(type="act", seat=mover, action=seat0_legal[0], version=table.version, id="wrong-2")  # the seat
    assert (await seat1.receive())["type"] == "refused"  # is the socket's, never the message's
    watcher = await join(table, None)
    await watcher.send(type="act", action=seat0_legal[0], version=table.version, id="wrong-3")
    assert (await watcher.receive())["field"] == "seat"  # a spectator acts for nobody
    assert await db(actions_of)(table) == before and (await db(fresh)(table)).version == table.version
    await finish(seat1, watcher)


async def test_a_stale_version_is_refused_with_no_change_and_the_client_resynced():
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user), 0)
    seat0 = await join(table, 0, user=user)
    legal = seat0.frames[0]["view"]["legal"]
    await seat0.send(type="act", action=legal[0], version=table.version - 1, id="stale-1")
    refused, state = await seat0.receive(), await seat0.receive()
    assert (refused["type"], refused["field"], refused["version"]) == ("refused", "version", table.version)
    assert "resync" in refused["reason"]
    assert state["type"] == "state" and state["version"] == table.version and state["view"]["legal"] == legal
    assert (await db(fresh)(table)).version == table.version
    assert not await db(TableAction.objects.filter(action_id="stale-1").exists)()
    await finish(seat0)


async def test_a_repeated_action_id_gets_the_stored_outcome_and_changes_nothing():
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user), 0)
    seat0 = await join(table, 0, user=user)
    action = seat0.frames[0]["view"]["legal"][0]
    await seat0.send(type="act", action=action, version=table.version, id="once")
    assert (await seat0.receive())["version"] == table.version + 1
    after = await db(actions_of)(table)
    await seat0.send(type="act", action=action, version=table.version, id="once")  # sent again (a lost answer)
    again = [await seat0.receive(10.0), *await seat0.drain(0.3)]  # the answer, and nothing published
    assert [frame["type"] for frame in again] == ["state"] and again[0]["version"] == table.version + 1
    assert await db(actions_of)(table) == after and (await db(fresh)(table)).version == table.version + 1
    assert await db(TableAction.objects.filter(action_id="once").count)() == 1
    await finish(seat0)


async def test_a_client_back_with_its_last_version_gets_the_gap_or_the_whole_state(monkeypatch):
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=600), 0)
    seat0 = await join(table, 0, user=user)
    last = seat0.frames[0]["version"]
    await seat0.leave()  # the connection is lost at seat 0's turn
    await db(table_clock.play_due)(table.pk, now=(await db(fresh)(table)).deadline_at)  # a bot moves for it
    table = await db(bots_move_until_turn_of)(table, 0)  # and the bots play on meanwhile
    missed = [row for row in await db(actions_of)(table) if row[0] > last]
    assert missed
    back = await join(table, 0, user=user)
    assert back.frames[0]["version"] == table.version
    await back.send(type="sync", version=last)
    state = await back.receive()
    assert state["type"] == "state" and state["version"] == table.version and state["view"] == back.frames[0]["view"]
    hands = await db(lambda: {a.hand_id for a in TableAction.objects.filter(table=table, seq__gt=last)})()
    if hands == {await db(lambda: table_state.current_hand(table).pk)()}:  # the gap, action by action
        assert state["since"] == last
        assert [(e["version"], e["seat"], e["action"], e["by"]) for e in state["gap"]] == missed
    else:  # the gap reaches into the hand before: the state alone
        assert "gap" not in state
    monkeypatch.setattr(live, "GAP_MAX", 0)  # a gap too long: the whole state alone
    await back.send(type="sync", version=last)
    whole = await back.receive()
    assert whole["type"] == "state" and "gap" not in whole and whole["view"] == state["view"]
    await finish(seat0, back)


async def test_a_gap_in_the_hand_now_in_play_is_sent_action_by_action():
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=600), 0)
    seat0 = await join(table, 0, user=user)
    since = table.version
    await seat0.send(type="act", action=seat0.frames[0]["view"]["legal"][0], version=since, id="gap-1")
    await seat0.receive()
    await seat0.send(type="sync", version=since)
    state = await seat0.receive()
    rows = await db(actions_of)(table)
    if (await db(fresh)(table)).hand_number == table.hand_number:  # the move did not end the hand
        assert [(e["version"], e["seat"], e["action"], e["by"]) for e in state["gap"]] == \
            [row for row in rows if row[0] > since]
    await finish(seat0)


# ----------------------------------------------------------------------------- presence, cover and reclaim
async def test_a_seat_away_60_s_is_covered_by_a_bot_and_its_player_reclaims_it_at_their_next_turn():
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=600), 0)
    seat0 = await join(table, 0, user=user)
    await seat0.leave()
    row = await db(seat_row)(table, 0)
    assert row.connected == 0 and row.away_since is not None
    table = await db(fresh)(table)
    assert table.deadline_at == row.away_since + timedelta(seconds=AWAY_SECONDS)  # not the 600 s clock
    assert await db(table_clock.play_due)(table.pk, now=table.deadline_at - timedelta(seconds=1)) is None
    watcher = await join(table, None)
    outcome = await db(table_clock.play_due)(table.pk, now=table.deadline_at)
    assert (outcome.seat, outcome.by) == (0, "cover")
    event = await watcher.until_type("event")
    assert (event["seat"], event["by"]) == (0, "cover") and event["seats"][0]["covering"]

    back = await join(table, 0, user=user)  # the player is back: the bot keeps the seat until they reclaim it
    assert back.frames[0]["seats"][0]["covering"] and not back.frames[0]["seats"][0]["away"]
    table = await db(bots_move_until_turn_of)(table, 0)  # the cover plays seat 0 again at its next turn …
    await back.until_version(table.version)
    if table.turn == 0:  # the cover has seat 0's turn now: the player may not move for it
        await back.send(type="act", action=back.frames[-1]["view"]["legal"][0], version=table.version, id="r-0")
        assert "reclaim" in (await back.receive())["reason"]
    await back.send(type="reclaim")
    await back.until_type("event")  # the reclaim's event
    row = await db(seat_row)(table, 0)
    if table.turn == 0:  # reclaimed at its turn: the bot makes this move, the player the next one
        assert row.covering and row.reclaim_pending
        assert (await db(table_clock.play_due)(table.pk, now=(await db(fresh)(table)).deadline_at)).by == "cover"
        row = await db(seat_row)(table, 0)
    assert not row.covering and not row.reclaim_pending
    table = await db(bots_move_until_turn_of)(table, 0)
    state = await back.until_version(table.version)
    assert state["version"] == table.version and state["view"]["legal"]
    await back.send(type="act", action=state["view"]["legal"][0], version=table.version, id="r-1")
    mine = await back.until_type("event")
    assert (mine["seat"], mine["by"]) == (0, "player")
    assert {"player", "cover", "bot"} <= {row[3] for row in await db(actions_of)(table)}
    await finish(seat0, watcher, back)


async def test_a_seat_link_reclaims_its_own_seat_and_no_other():
    """A league fixture's seats belong to its players, who may have no login: the seat's private link is its
    credential (as a scorekeeper's link is), so a socket opened with it reclaims that seat — and only that one."""
    scene = await db(make_scene)("Links", organiser="org-l", scorekeeper="keeper-l", match_format="single")
    table = await db(fixtures.open_fixture)(scene["match"], scene["scorekeeper"])
    await db(Table.objects.filter(pk=table.pk).update)(turn_seconds=600)
    table = await db(dealing.start)(table)
    assert (await db(seat_row)(table, 0)).user_id is None  # no login: the link is all the player has
    token0, token1 = await token_of(table, 0), await token_of(table, 1)
    away = timezone.now()
    await db(presence.mark_away)(table, 0, now=away)
    table = await db(fresh)(table)
    for _ in range(50):  # the seats nobody opened never saw their turns: covered as away, as seat 0 once 60 s away
        table = await db(fresh)(table)
        if (await db(seat_row)(table, 0)).covering:
            break
        await db(table_clock.play_due)(table.pk, now=max(table.deadline_at, away + timedelta(seconds=AWAY_SECONDS)))
    assert (await db(seat_row)(table, 0)).covering
    assert "cover" in {row[3] for row in await db(actions_of)(table)}
    assert "clock" not in {row[3] for row in await db(actions_of)(table)}, "a clock ran out on an unseen turn"

    other = await join(table, 1, token=token1)
    await other.send(type="reclaim")  # seat 1's link reclaims seat 1 (not covered: nothing to take back) …
    assert (await other.receive(10.0))["type"] == "event"
    assert (await db(seat_row)(table, 0)).covering  # … never seat 0
    with pytest.raises(TableError, match="not yours"):
        await db(presence.reclaim)(table, 0, None, seat_token=token1)
    with pytest.raises(TableError, match="not yours"):
        await db(presence.reclaim)(table, 0, await db(make_user)())

    linked = await join(table, 0, token=token0)
    await linked.send(type="reclaim")
    assert (await linked.receive())["type"] == "event"
    row = await db(seat_row)(table, 0)
    table = await db(fresh)(table)
    if row.reclaim_pending:  # seat 0's turn: the bot has this move
        await db(table_clock.play_due)(table.pk, now=table.deadline_at)
    row = await db(seat_row)(table, 0)
    assert not row.covering and not row.reclaim_pending
    for _ in range(50):  # the clock plays the others until seat 0's next turn: the link's player plays it
        table = await db(fresh)(table)
        if table.turn == 0 or table.status != Table.PLAYING:
            break
        await db(table_clock.play_due)(table.pk, now=table.deadline_at)
    if table.status == Table.PLAYING:
        assert (await linked.until_version(table.version))["version"] == table.version
        await linked.send(type="act", action=linked.frames[-1]["view"]["legal"][0], version=table.version, id="l-1")
        mine = await linked.receive()
        assert (mine["seat"], mine["by"]) == (0, "player")
    await finish(other, linked)


async def test_a_casual_seat_left_during_play_is_not_reclaimed_by_its_old_link():
    user = await db(make_user)()
    table = await db(human_table)(user)
    token = await token_of(table, 0)
    await db(seating.leave_seat)(table, 0, user)
    with pytest.raises(TableError, match="was left"):
        await db(presence.reclaim)(table, 0, None, seat_token=token)
    watcher = await join(table, None)
    await watcher.send(type="reclaim")
    assert (await watcher.receive())["field"] == "seat"  # a spectator has no seat to reclaim
    await finish(watcher)


async def test_presence_is_counted_in_the_database_over_every_process():
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=600), 0)
    first = await join(table, 0, user=user)
    second = await join(table, 0, user=user)  # a second tab
    await db(presence.mark_back)(table, 0)  # a socket of the same seat in another ASGI process
    assert (await db(seat_row)(table, 0)).connected == 3
    await first.leave()
    await second.leave()
    row = await db(seat_row)(table, 0)
    assert row.connected == 1 and row.away_since is None  # the other process still holds the seat
    assert (await db(fresh)(table)).deadline_at == table.deadline_at  # so no cover is coming
    await db(presence.mark_away)(table, 0)  # its socket closes too
    row = await db(seat_row)(table, 0)
    assert row.connected == 0 and row.away_since is not None
    await finish(first, second)


async def test_a_count_a_killed_process_left_behind_is_reset_and_the_seat_covered():
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=600), 0)
    killed = timezone.now()
    await db(presence.mark_back)(table, 0, now=killed)  # a process that is then SIGKILLed: never counted out
    live_socket = await join(table, 0, user=user)  # and a socket of this process
    assert (await db(seat_row)(table, 0)).connected == 2
    vouched = killed + timedelta(seconds=30)
    assert await consumers.beat(now=vouched) == []  # this process vouches for the seat it holds
    assert (await db(seat_row)(table, 0)).seen_at == vouched
    await live_socket.leave()
    left = (await db(seat_row)(table, 0)).seen_at
    row = await db(seat_row)(table, 0)
    assert row.connected == 1 and row.away_since is None  # the dead process's count: not away yet
    assert await consumers.beat(now=left + timedelta(seconds=PRESENCE_STALE_SECONDS - 1)) == []
    assert await consumers.beat(now=left + timedelta(seconds=PRESENCE_STALE_SECONDS + 1)) == [(table.pk, 0)]
    row = await db(seat_row)(table, 0)
    assert row.connected == 0 and row.away_since == left  # away since it was last known there
    table = await db(fresh)(table)
    assert table.deadline_at == max(left + timedelta(seconds=AWAY_SECONDS),  # covered 60 s after the player left
                                    table.turn_started_at + timedelta(seconds=table.bot_pace))
    assert (await db(table_clock.play_due)(table.pk, now=table.deadline_at)).by == "cover"
    await finish(live_socket)


async def test_a_stale_count_is_not_trusted_by_the_next_socket():
    user = await db(make_user)()
    table = await db(human_table)(user)
    long_ago = timezone.now() - timedelta(seconds=PRESENCE_STALE_SECONDS + 5)
    await db(Seat.objects.filter(table=table, index=0).update)(connected=3, seen_at=long_ago)
    seat0 = await join(table, 0, user=user)
    assert (await db(seat_row)(table, 0)).connected == 1
    await seat0.leave()
    assert (await db(seat_row)(table, 0)).connected == 0
    await finish(seat0)


async def test_the_heartbeat_runs_while_the_process_holds_a_seat(monkeypatch):
    monkeypatch.setattr(consumers, "ensure_heartbeat", REAL_HEARTBEAT)
    monkeypatch.setattr(presence, "PRESENCE_HEARTBEAT_SECONDS", 0.05)
    user = await db(make_user)()
    table = await db(human_table)(user)
    seat0 = await join(table, 0, user=user)
    assert consumers.ensure_heartbeat() is consumers.ensure_heartbeat()  # one per process and loop
    first = (await db(seat_row)(table, 0)).seen_at
    for _ in range(40):
        await seat0.drain(0.05)
        if (await db(seat_row)(table, 0)).seen_at > first:
            break
    assert (await db(seat_row)(table, 0)).seen_at > first
    await consumers.stop_heartbeat()
    await finish(seat0)


# ----------------------------------------------------------------------------- the clock
async def test_when_the_clock_runs_out_a_bot_moves_and_the_record_says_clock():
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=20, bank_seconds=10), 0)
    seat0 = await join(table, 0, user=user)  # present, shown the turn, but does not move
    table = await until_shown(table)
    assert table.deadline_at == table.turn_started_at + timedelta(seconds=30)
    assert await db(table_clock.play_due)(table.pk, now=table.deadline_at - timedelta(seconds=1)) is None
    assert table.pk in await db(table_clock.due_moves)(table.deadline_at)
    await db(table_clock.play_due)(table.pk, now=table.deadline_at)
    event = await seat0.until_type("event")
    assert (event["seat"], event["by"]) == (0, "clock")
    assert event["seats"][0]["bank_left"] == 0
    assert (await db(actions_of)(table))[-1][1:] == (0, event["action"], "clock")
    await finish(seat0)


async def test_a_turn_that_reaches_its_player_late_has_its_clock_started_when_it_arrives():
    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=20, bank_seconds=10), 0)
    late = table.turn_started_at - timedelta(seconds=25)  # the turn's frame was lost 25 s ago
    await db(Table.objects.filter(pk=table.pk).update)(turn_started_at=late, deadline_at=late + timedelta(seconds=30))
    before = timezone.now()
    seat0 = await join(table, 0, user=user)  # the state: the turn reaches the player now
    clock = await seat0.receive()
    assert (clock["type"], clock["version"], clock["turn"]) == ("clock", table.version, 0)
    now = await db(fresh)(table)
    assert now.turn_shown_at >= before and now.turn_started_at >= before and now.version == table.version
    assert now.deadline_at == now.turn_started_at + timedelta(seconds=30)
    assert clock["deadline_at"] == now.deadline_at.isoformat()
    assert await db(table_clock.play_due)(table.pk, now=late + timedelta(seconds=30)) is None  # not run out
    await finish(seat0)


# ----------------------------------------------------------------------------- limits
async def test_more_than_twenty_messages_in_ten_seconds_are_refused_and_the_socket_closed():
    table = await db(human_table)(await db(make_user)())
    socket = await join(table, None)
    for _ in range(consumers.RATE_LIMIT):
        await socket.send(type="ping")
        assert (await socket.receive())["type"] == "pong"
    await socket.send(type="ping")
    assert (await socket.receive())["field"] == "rate"
    assert await socket.closed() == consumers.CLOSE_RATE
    await finish(socket)


async def test_a_frame_over_4_kb_is_refused_and_the_socket_closed():
    user = await db(make_user)()
    table = await db(human_table)(user)
    socket = await join(table, 0, user=user)
    await socket.socket.send_to(text_data='{"type": "ping", "pad": "' + "é" * 2100 + '"}')  # < 4096 chars, > 4 KB
    assert (await socket.receive())["field"] == "frame"
    assert await socket.closed() == consumers.CLOSE_TOO_BIG
    await socket.socket.disconnect()  # as the server reports the closed socket
    assert (await db(seat_row)(table, 0)).connected == 0  # counted out when closed
    await finish(socket)


async def test_a_frame_that_is_not_a_json_object_or_of_no_known_type_is_refused():
    table = await db(human_table)(await db(make_user)())
    socket = await join(table, None)
    for text in ("not json", "[1, 2]", '{"type": "shout"}'):
        await socket.socket.send_to(text_data=text)
        assert (await socket.receive())["type"] == "refused"
    await socket.send(type="ping")
    assert (await socket.receive())["type"] == "pong"
    await finish(socket)


async def test_a_frame_nested_deeper_than_the_decoder_goes_is_refused_as_junk_and_the_socket_kept(caplog):
    table = await db(human_table)(await db(make_user)())
    socket = await join(table, None)
    await socket.socket.send_to(text_data="[" * consumers.MAX_FRAME)
    refused = await socket.receive()
    assert (refused["type"], refused["field"]) == ("refused", "frame") and "JSON object" in refused["reason"]
    await socket.send(type="ping")
    assert (await socket.receive())["type"] == "pong"  # the socket is kept, as after any other junk
    assert not [record for record in caplog.records if record.exc_info], "a traceback was logged"
    await finish(socket)


async def test_logging_out_closes_the_users_sockets():
    alice = await db(make_user)()
    table = await db(human_table)(alice)
    mine = await join(table, 0, user=alice)
    theirs = await join(table, 1, token=await token_of(table, 1))
    await db(user_logged_out.send_robust)(sender=None, request=None, user=alice)
    assert await mine.closed() == consumers.CLOSE_LOGGED_OUT
    assert await theirs.socket.receive_nothing(0.1)
    await finish(mine, theirs)


async def test_every_close_code_is_one_daphne_may_send():
    codes = {consumers.CLOSE_LOGGED_OUT, consumers.CLOSE_RATE, consumers.CLOSE_TOO_BIG, 4403, 4404}
    assert all(3000 <= code <= 4999 for code in codes)  # autobahn refuses any other code but 1000


# ----------------------------------------------------------------------------- the ticker
async def test_the_ticker_a_socket_starts_plays_the_due_bot_move_and_the_readers_see_it(monkeypatch, settings):
    monkeypatch.setattr(ticker, "ensure_running", REAL_TICKER)
    settings.TABLES_TICK = 0.02
    table = await db(seating.create_table)(None, 2, None, Table.PUBLIC, {0: "random", 1: "heuristic"}, bot_pace=0)
    table = await db(dealing.start)(table)
    watcher = await join(table, None)
    assert ticker.ensure_running() is ticker.ensure_running()  # one per process and loop
    event = await watcher.receive(timeout=5)
    assert event["type"] == "event" and event["by"] == "bot" and event["version"] > table.version
    await ticker.stop()
    await finish(watcher)


async def test_with_workers_the_strong_bots_move_goes_to_a_worker(monkeypatch):
    sent = []
    monkeypatch.setattr(ticker, "workers", lambda: True)
    monkeypatch.setattr(ticker.dispatch, "send", lambda task, *args, **kwargs: sent.append((task.name, args)))
    strong = await db(seating.create_table)(None, 2, None, Table.PUBLIC, {0: "montecarlo", 1: "montecarlo"},
                                            bot_pace=0)
    quick = await db(seating.create_table)(None, 2, None, Table.PUBLIC, {0: "random", 1: "random"}, bot_pace=0)
    strong, quick = await db(dealing.start)(strong), await db(dealing.start)(quick)
    assert sorted(await ticker.tick()) == sorted([strong.pk, quick.pk])
    for _ in range(50):
        if (await db(fresh)(quick)).version > quick.version:
            break
        await asyncio.sleep(0.02)
    assert sent == [("tables.tasks.play_due_task", (strong.pk,))]
    assert (await db(fresh)(quick)).version > quick.version and (await db(fresh)(strong)).version == strong.version
    assert strong.pk not in await ticker.tick()  # the worker has it: not sent again at once
    while ticker._busy:  # the quick move's thread is done with the database
        await asyncio.sleep(0.02)
    await ticker.stop()


# ----------------------------------------------------------------------------- two real ASGI processes
ROOT = Path(__file__).resolve().parents[2]
class Server:
    """daphne serving ``config.asgi`` in a process of its own, on the test's SQLite file."""

    def __init__(self, env: dict, log: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        with log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                                             "config.asgi:application"], cwd=ROOT, env=env, stdout=out,
                                            stderr=subprocess.STDOUT)
        self.log = log

    async def ready(self, timeout: float = 90.0) -> None:
        """Until daphne listens: seconds on an idle machine, many more on a loaded one."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                await asyncio.sleep(0.1)
        raise AssertionError(f"daphne did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


@pytest.mark.services
async def test_two_asgi_processes_agree_on_a_seat_and_a_killed_ones_count_is_recovered(tmp_path):
    """Two daphne processes on the test database: a seat held by a socket in each counts 2; one process SIGKILLed
    never counts its socket out, so when the other socket closes the seat still counts 1 (not away) until no process
    has vouched for it in ``PRESENCE_STALE_SECONDS``, when the sweep resets it and the player is away. (PostgreSQL:
    SQLite serialises the writers of several processes too coarsely for a server of several processes.)"""
    import websockets
    from django.db import connection

    from tests.conftest import database_url

    user = await db(make_user)()
    table = await db(bots_move_until_turn_of)(await db(human_table)(user, turn_seconds=600), 0)
    token = await token_of(table, 0)
    env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict), "DJANGO_DEBUG": "1",
           "CHANNEL_LAYER_PREFIX": f"test-{uuid.uuid4().hex[:8]}"}
    servers = [Server(env, tmp_path / f"daphne-{n}.log") for n in range(2)]
    try:
        for server in servers:
            await server.ready()
        sockets = []
        for server in servers:
            url = f"ws://127.0.0.1:{server.port}/ws/tables/{table.pk}/?seat={token}"
            sockets.append(await websockets.connect(url, origin=f"http://127.0.0.1:{server.port}"))
        for opened in sockets:
            assert json.loads(await asyncio.wait_for(opened.recv(), 10))["view"]["seat"] == 0
        assert (await db(seat_row)(table, 0)).connected == 2  # one socket in each process
        servers[0].kill()  # SIGKILL: its socket is never counted out
        await sockets[1].close()
        for _ in range(100):  # the live process counts its socket out
            if (await db(seat_row)(table, 0)).connected == 1:
                break
            await asyncio.sleep(0.1)
        row = await db(seat_row)(table, 0)
        assert row.connected == 1 and row.away_since is None  # the dead process's count: not away yet
        assert await db(presence.expire_presence)(row.seen_at + timedelta(seconds=PRESENCE_STALE_SECONDS - 1)) == []
        assert await db(presence.expire_presence)(row.seen_at + timedelta(seconds=PRESENCE_STALE_SECONDS + 1)) \
            == [(table.pk, 0)]
        reset = await db(seat_row)(table, 0)
        assert reset.connected == 0 and reset.away_since == row.seen_at  # away since last vouched for
        table = await db(fresh)(table)  # seat 0's turn: covered 60 s after it was last vouched for
        assert table.deadline_at == max(row.seen_at + timedelta(seconds=AWAY_SECONDS),
                                        table.turn_started_at + timedelta(seconds=table.bot_pace))
    finally:
        for server in servers:
            server.kill()
