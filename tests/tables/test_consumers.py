"""The online table's socket (tables.consumers, tables.live, tables.ticker) through channels' WebsocketCommunicator.

FAKE CORE — the services below are a small stand-in for ``tables.services`` (``SERVICES``: ``act``, the views,
presence, the seat lookups, ``reclaim``, ``due_moves`` / ``play_due``; ``TableError`` / ``StaleVersion``), written
while the core was built in parallel: a one-trick "table" where each seat holds three cards and plays in turn. Each
test monkeypatches the fake's methods onto the services module (the real one when it is there; before that, a stub
module), so these tests check the socket's own logic: seats from the scope, frames per reader, refusals, limits,
presence, logout, the ticker. At merge the lead switches them to the real services (``FakeCore`` → real tables
through the services).
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import types
from dataclasses import dataclass, field

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.dispatch import Signal

from engine.errors import FieldError

# ----------------------------------------------------------------------------- FAKE CORE (stub modules)
SERVICES = ("act", "view_for", "spectator_view", "all_views", "mark_away", "mark_back", "seat_by_token",
            "seat_of_user", "reclaim", "due_moves", "play_due", "close_idle")
"""FAKE CORE: the services the fake stands in for."""


def _stub_core_modules() -> None:
    """Before the core lands on this branch: stub modules for tables.models / services / signals."""
    try:
        importlib.import_module("tables.services")
        return
    except ImportError:
        pass

    class TableError(FieldError):
        pass

    class StaleVersion(TableError):
        conflict = True

    models = types.ModuleType("tables.models")
    models.Table = type("Table", (), {"CLOSED": "closed", "PRIVATE": "private", "PUBLIC": "public"})
    models.Seat = models.TableAction = None
    services = types.ModuleType("tables.services")
    services.TableError, services.StaleVersion = TableError, StaleVersion
    for name in SERVICES:
        setattr(services, name, None)
    signals = types.ModuleType("tables.signals")
    signals.table_changed = Signal()
    sys.modules.update({"tables.models": models, "tables.services": services, "tables.signals": signals})


_stub_core_modules()

from config.asgi import application  # noqa: E402
from tables import consumers, live, services, ticker  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402
from tables.signals import table_changed  # noqa: E402

# The fake touches no table, but channels closes old connections around each message in Django's thread for
# database work, where an earlier async test may have left one: that needs database access allowed.
pytestmark = pytest.mark.django_db

HANDS = [["AS", "KS", "QS"], ["AH", "KH", "QH"], ["AD", "KD", "QD"], ["AC", "KC", "QC"]]
ALL_CARDS = {card for hand in HANDS for card in hand}


@dataclass
class FakeTable:
    pk: int
    players: int = 4
    status: str = "playing"
    visibility: str = "public"
    invite_token: str = "invite-1"
    version: int = 5
    turn: int = 0
    hands: list[list[str]] = field(default_factory=lambda: [list(hand) for hand in HANDS])
    trick: list[tuple[int, str]] = field(default_factory=list)
    log: dict[int, dict] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    table_id: int
    version: int
    seat: int
    action: str
    by: str
    repeated: bool = False


@dataclass(frozen=True)
class User:
    pk: int
    is_authenticated: bool = True


class FakeCore:
    """FAKE CORE: the services' behaviour these tests need, no more."""

    def __init__(self) -> None:
        self.tables = {1: FakeTable(1), 2: FakeTable(2, visibility="private")}
        self.users = {(1, 7): 0}  # (table, user) → seat
        self.presence: list[tuple[str, int, int]] = []
        self.played_due: list[int] = []
        self.due: list[int] = []

    def load_table(self, table_id):
        return self.tables.get(table_id)

    def last_action(self, table_id, version):
        return self.tables[table_id].log.get(version)

    def view_for(self, table, seat):
        return self._frame(table, seat)

    def spectator_view(self, table):
        return self._frame(table, None)

    def all_views(self, table, readers=None):
        readers = [*range(table.players), None] if readers is None else readers
        return {reader: self._frame(table, reader) for reader in readers}

    def _frame(self, table, seat):
        hand = list(table.hands[seat]) if seat is not None else []
        legal = hand if seat == table.turn else []
        return {"version": table.version, "view": {"seat": seat, "hand": hand, "legal": legal,
                                                   "trick": [card for _, card in table.trick]},
                "seats": [{"index": n} for n in range(table.players)], "table": {"id": table.pk, "turn": table.turn}}

    def act(self, table_id, seat, action, version, action_id="", by="player"):
        table = self.tables[table_id]
        if action_id in table.ids:
            done = table.log[table.ids[action_id]]
            return Outcome(table_id, table.ids[action_id], done["seat"], done["action"], done["by"], repeated=True)
        if version != table.version:
            raise services.StaleVersion("version", f"the table is at version {table.version}, not {version!r}")
        if seat != table.turn:
            raise services.TableError("action", f"it is seat {table.turn + 1}'s turn")
        if action not in table.hands[seat]:
            raise services.TableError("action", f"{action} is not in your hand")
        table.hands[seat].remove(action)
        table.trick.append((seat, action))
        table.version += 1
        table.turn = (seat + 1) % table.players
        table.log[table.version] = {"seat": seat, "action": action, "by": by}
        if action_id:
            table.ids[action_id] = table.version
        table_changed.send(sender=None, table_id=table_id, version=table.version)  # as after the commit
        return Outcome(table_id, table.version, seat, action, by)

    def mark_back(self, table, seat, now=None):
        self.presence.append(("back", table, seat))

    def mark_away(self, table, seat, now=None):
        self.presence.append(("away", table, seat))

    def seat_by_token(self, token):
        if token.startswith("seat-"):
            table_id, seat = map(int, token.removeprefix("seat-").split("-"))
            return types.SimpleNamespace(table_id=table_id, index=seat)
        return None

    def seat_of_user(self, table, user):
        return self.users.get((table.pk, getattr(user, "pk", None)))

    def reclaim(self, table, seat, user):
        self.presence.append(("reclaim", table, seat))

    def due_moves(self, now=None):
        return list(self.due)

    def play_due(self, table_id, now=None):
        self.played_due.append(table_id)
        self.due.remove(table_id)
        table = self.tables[table_id]
        return self.act(table_id, table.turn, table.hands[table.turn][0], table.version, by="bot")

    def close_idle(self, now=None):
        return []


@pytest.fixture
def core(monkeypatch, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    fake = FakeCore()
    for name in SERVICES:
        monkeypatch.setattr(services, name, getattr(fake, name))
    monkeypatch.setattr(live, "load_table", fake.load_table)
    monkeypatch.setattr(live, "last_action", fake.last_action)
    monkeypatch.setattr(ticker, "strong_moves", lambda ids: set())  # no montecarlo seat unless a test says so
    live.connect()  # as TablesConfig.ready does (idempotent), and left connected: the app's own connection
    consumers._open_sockets.clear()
    return fake


# ----------------------------------------------------------------------------- helpers
async def opened(path: str, user=None, app=None, headers=None) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(app or URLRouter(websocket_urlpatterns), path, headers=headers)
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    return socket


async def frames_until_quiet(socket: WebsocketCommunicator, timeout: float = 0.2) -> list[dict]:
    out = []
    while not await socket.receive_nothing(timeout):
        out.append(await socket.receive_json_from())
    return out


async def close_all(*sockets: WebsocketCommunicator) -> None:
    for socket in sockets:
        await socket.disconnect()
    await ticker.stop()


def cards_in(frame) -> set[str]:
    text = str(frame)
    return {card for card in ALL_CARDS if f"'{card}'" in text}


# ----------------------------------------------------------------------------- joining
@pytest.mark.asyncio
async def test_the_session_users_seat_joins_and_gets_its_own_state(core):
    socket = await opened("/ws/tables/1/", user=User(7))
    state = await socket.receive_json_from()
    assert state["type"] == "state" and state["version"] == 5
    assert state["view"]["seat"] == 0 and state["view"]["hand"] == HANDS[0]
    assert core.presence == [("back", 1, 0)]
    await close_all(socket)
    assert core.presence[-1] == ("away", 1, 0)


@pytest.mark.asyncio
async def test_a_seat_link_gives_its_seat_and_anyone_else_watches(core):
    linked = await opened("/ws/tables/1/?seat=seat-1-2")
    watcher = await opened("/ws/tables/1/", user=User(99))
    assert (await linked.receive_json_from())["view"]["hand"] == HANDS[2]
    watched = await watcher.receive_json_from()
    assert watched["view"]["seat"] is None and watched["view"]["hand"] == [] and watched["view"]["legal"] == []
    await close_all(linked, watcher)


@pytest.mark.asyncio
async def test_a_seat_link_of_another_table_and_a_private_table_without_invite_are_refused(core):
    other = await opened("/ws/tables/1/?seat=seat-2-0")
    assert (await other.receive_json_from())["type"] == "refused"
    assert (await other.receive_output())["code"] == 4403
    private = await opened("/ws/tables/2/", user=User(99))
    assert (await private.receive_json_from())["type"] == "refused"
    assert (await private.receive_output())["code"] == 4403
    invited = await opened("/ws/tables/2/?invite=invite-1")
    assert (await invited.receive_json_from())["type"] == "state"
    missing = await opened("/ws/tables/404/")
    assert (await missing.receive_json_from())["type"] == "refused"
    assert (await missing.receive_output())["code"] == 4404
    await close_all(invited)


@pytest.mark.asyncio
async def test_a_socket_from_another_sites_page_is_refused_and_one_from_ours_accepted(core):
    foreign = WebsocketCommunicator(application, "/ws/tables/1/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await foreign.connect()
    assert not connected
    ours = WebsocketCommunicator(application, "/ws/tables/1/", headers=[(b"origin", b"http://127.0.0.1:8000")])
    connected, _ = await ours.connect()
    assert connected
    assert (await ours.receive_json_from())["view"]["hand"] == []  # no session: a spectator
    await close_all(ours)


# ----------------------------------------------------------------------------- playing
@pytest.mark.asyncio
async def test_a_play_reaches_each_seat_with_its_own_view_and_spectators_with_no_hidden_card(core):
    seats = [await opened(f"/ws/tables/1/?seat=seat-1-{n}") for n in range(4)]
    watcher = await opened("/ws/tables/1/")
    received = {n: [await seat.receive_json_from()] for n, seat in enumerate(seats)}
    received["watcher"] = [await watcher.receive_json_from()]

    await seats[0].send_json_to({"type": "act", "action": "AS", "version": 5, "id": "a-1"})
    for n, seat in enumerate(seats):
        received[n] += await frames_until_quiet(seat)
    received["watcher"] += await frames_until_quiet(watcher)

    for n in range(4):
        event = received[n][-1]
        assert event["type"] == "event" and event["version"] == 6
        assert (event["seat"], event["action"], event["by"]) == (0, "AS", "player")
        assert event["view"]["seat"] == n
    assert received[0][-1]["view"]["hand"] == ["KS", "QS"]
    assert received[1][-1]["view"]["legal"] == HANDS[1]
    spectator_event = received["watcher"][-1]
    assert spectator_event["version"] == 6 and spectator_event["view"]["trick"] == ["AS"]
    # never another seat's unplayed card, in any frame: a seat sees its own and the played ones only
    for reader, frames in received.items():
        for frame in frames:
            visible = set(HANDS[reader]) if reader != "watcher" else set()
            assert cards_in(frame) <= visible | {"AS"}, (reader, frame)
    await close_all(*seats, watcher)


@pytest.mark.asyncio
async def test_a_move_out_of_turn_or_not_held_is_refused_with_no_change(core):
    seat1 = await opened("/ws/tables/1/?seat=seat-1-1")
    seat0 = await opened("/ws/tables/1/?seat=seat-1-0")
    await seat1.receive_json_from(), await seat0.receive_json_from()
    await seat1.send_json_to({"type": "act", "action": "AH", "version": 5, "id": "b-1"})
    refused = await seat1.receive_json_from()
    assert refused == {"type": "refused", "field": "action", "reason": "it is seat 1's turn", "version": 5}
    await seat0.send_json_to({"type": "act", "action": "AH", "version": 5, "id": "b-2"})
    assert (await seat0.receive_json_from())["reason"] == "AH is not in your hand"
    assert await seat1.receive_nothing(0.1) and core.tables[1].version == 5
    await close_all(seat0, seat1)


@pytest.mark.asyncio
async def test_a_spectator_cannot_act(core):
    watcher = await opened("/ws/tables/1/")
    await watcher.receive_json_from()
    await watcher.send_json_to({"type": "act", "action": "AS", "version": 5, "id": "c-1"})
    assert (await watcher.receive_json_from())["field"] == "seat"
    assert core.tables[1].version == 5
    await close_all(watcher)


@pytest.mark.asyncio
async def test_the_seat_is_never_taken_from_the_message(core):
    seat1 = await opened("/ws/tables/1/?seat=seat-1-1")
    await seat1.receive_json_from()
    await seat1.send_json_to({"type": "act", "seat": 0, "action": "AS", "version": 5, "id": "d-1"})
    assert (await seat1.receive_json_from())["type"] == "refused"
    assert core.tables[1].version == 5
    await close_all(seat1)


@pytest.mark.asyncio
async def test_a_stale_version_is_refused_and_the_current_state_sent(core):
    seat0 = await opened("/ws/tables/1/", user=User(7))
    await seat0.receive_json_from()
    await seat0.send_json_to({"type": "act", "action": "AS", "version": 4, "id": "e-1"})
    refused, state = await seat0.receive_json_from(), await seat0.receive_json_from()
    assert (refused["type"], refused["field"], refused["version"]) == ("refused", "version", 5)
    assert state["type"] == "state" and state["version"] == 5 and state["view"]["hand"] == HANDS[0]
    await close_all(seat0)


@pytest.mark.asyncio
async def test_a_repeated_action_id_changes_nothing_and_is_answered_with_the_state(core):
    seat0 = await opened("/ws/tables/1/", user=User(7))
    await seat0.receive_json_from()
    await seat0.send_json_to({"type": "act", "action": "AS", "version": 5, "id": "f-1"})
    assert (await seat0.receive_json_from())["version"] == 6
    await seat0.send_json_to({"type": "act", "action": "AS", "version": 5, "id": "f-1"})
    again = await frames_until_quiet(seat0)
    assert [frame["type"] for frame in again] == ["state"] and again[0]["version"] == 6
    assert core.tables[1].version == 6 and core.tables[1].hands[0] == ["KS", "QS"]
    await close_all(seat0)


@pytest.mark.asyncio
async def test_a_client_that_comes_back_syncs_to_what_it_missed(core):
    seat0 = await opened("/ws/tables/1/", user=User(7))
    seat1 = await opened("/ws/tables/1/?seat=seat-1-1")
    await seat0.receive_json_from(), await seat1.receive_json_from()
    await seat0.send_json_to({"type": "act", "action": "AS", "version": 5, "id": "g-1"})
    assert (await seat1.receive_json_from())["version"] == 6
    await seat1.disconnect()
    assert ("away", 1, 1) in core.presence
    await sync_to_async(core.act)(1, 1, "AH", 6, "g-2")  # its move made meanwhile (a bot covering, say)
    back = await opened("/ws/tables/1/?seat=seat-1-1")
    assert (await back.receive_json_from())["version"] == 7
    await back.send_json_to({"type": "sync", "version": 6})
    state = await back.receive_json_from()
    assert state["type"] == "state" and state["version"] == 7 and state["view"]["hand"] == ["KH", "QH"]
    assert core.presence[-1] == ("back", 1, 1)
    await close_all(seat0, back)


@pytest.mark.asyncio
async def test_a_second_tab_closing_leaves_the_seat_present(core):
    first = await opened("/ws/tables/1/", user=User(7))
    second = await opened("/ws/tables/1/", user=User(7))
    await first.disconnect()
    assert ("away", 1, 0) not in core.presence
    await second.disconnect()
    assert core.presence[-1] == ("away", 1, 0)
    await ticker.stop()


@pytest.mark.asyncio
async def test_reclaim_and_ping(core):
    seat0 = await opened("/ws/tables/1/", user=User(7))
    await seat0.receive_json_from()
    await seat0.send_json_to({"type": "ping"})
    assert await seat0.receive_json_from() == {"type": "pong"}
    await seat0.send_json_to({"type": "reclaim"})
    await seat0.send_json_to({"type": "ping"})
    assert await seat0.receive_json_from() == {"type": "pong"}
    assert ("reclaim", 1, 0) in core.presence
    await seat0.send_json_to({"type": "shout"})
    assert (await seat0.receive_json_from())["field"] == "type"
    await close_all(seat0)


# ----------------------------------------------------------------------------- limits
@pytest.mark.asyncio
async def test_more_than_twenty_messages_in_ten_seconds_are_refused_and_the_socket_closed(core):
    socket = await opened("/ws/tables/1/")
    await socket.receive_json_from()
    for _ in range(consumers.RATE_LIMIT):
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from() == {"type": "pong"}
    await socket.send_json_to({"type": "ping"})
    assert (await socket.receive_json_from())["field"] == "rate"
    assert (await socket.receive_output())["code"] == consumers.CLOSE_RATE
    await ticker.stop()


@pytest.mark.asyncio
async def test_a_frame_over_4_kb_is_refused_and_the_socket_closed(core):
    socket = await opened("/ws/tables/1/", user=User(7))
    await socket.receive_json_from()
    await socket.send_to(text_data='{"type": "ping", "pad": "' + "é" * 2100 + '"}')  # < 4096 chars, > 4096 bytes
    assert (await socket.receive_json_from())["field"] == "frame"
    assert (await socket.receive_output())["code"] == consumers.CLOSE_TOO_BIG
    await ticker.stop()


@pytest.mark.asyncio
async def test_a_frame_that_is_not_a_json_object_is_refused(core):
    socket = await opened("/ws/tables/1/")
    await socket.receive_json_from()
    for text in ("not json", "[1, 2]"):
        await socket.send_to(text_data=text)
        assert (await socket.receive_json_from())["field"] == "frame"
    await close_all(socket)


@pytest.mark.asyncio
async def test_logging_out_closes_the_users_sockets(core):
    from django.contrib.auth.signals import user_logged_out

    mine = await opened("/ws/tables/1/", user=User(7))
    theirs = await opened("/ws/tables/1/?seat=seat-1-1")
    await mine.receive_json_from(), await theirs.receive_json_from()
    await sync_to_async(user_logged_out.send_robust)(sender=None, request=None, user=User(7))  # axes wants a real one
    assert (await mine.receive_output())["code"] == consumers.CLOSE_LOGGED_OUT
    assert await theirs.receive_nothing(0.1)
    await close_all(theirs)


# ----------------------------------------------------------------------------- the ticker
@pytest.mark.asyncio
async def test_the_ticker_started_by_a_socket_plays_the_due_move_and_every_seat_sees_it(core, monkeypatch):
    monkeypatch.setattr(ticker, "TICK", 0.02)
    seat1 = await opened("/ws/tables/1/?seat=seat-1-1")
    assert (await seat1.receive_json_from())["version"] == 5
    assert ticker.ensure_running() is ticker.ensure_running()  # one per process and loop
    core.due.append(1)
    event = await seat1.receive_json_from(timeout=2)
    assert (event["version"], event["seat"], event["by"]) == (6, 0, "bot")
    assert core.played_due == [1]
    await close_all(seat1)


@pytest.mark.asyncio
async def test_with_workers_the_strong_bots_move_goes_to_a_worker(core, monkeypatch):
    sent = []
    monkeypatch.setattr(ticker, "workers", lambda: True)
    monkeypatch.setattr(ticker, "strong_moves", lambda ids: {1} & set(ids))
    monkeypatch.setattr(ticker.dispatch, "send", lambda task, *args, **kwargs: sent.append((task.name, args)))
    core.due.extend([1, 2])
    assert await ticker.tick() == [1, 2]
    await asyncio.sleep(0.1)
    assert sent == [("tables.tasks.play_due_task", (1,))] and core.played_due == [2]
    assert await ticker.tick() == []  # the worker has it: not sent again at once
    await ticker.stop()


@pytest.mark.asyncio
async def test_without_workers_the_strong_bots_move_is_made_here(core, monkeypatch):
    sent = []
    monkeypatch.setattr(ticker, "workers", lambda: False)
    monkeypatch.setattr(ticker, "strong_moves", lambda ids: set(ids))
    monkeypatch.setattr(ticker.dispatch, "send", lambda task, *args, **kwargs: sent.append(args))
    core.due.append(1)
    assert await ticker.tick() == [1]
    await asyncio.sleep(0.1)
    assert core.played_due == [1] and sent == []
    await ticker.stop()


def test_every_close_code_is_one_daphne_may_send():
    codes = {consumers.CLOSE_LOGGED_OUT, consumers.CLOSE_RATE, consumers.CLOSE_TOO_BIG, 4403, 4404}
    assert all(3000 <= code <= 4999 for code in codes)  # autobahn refuses any other code but 1000
