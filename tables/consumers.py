"""The socket of an online table: ``ws/tables/<id>/`` (``tables.routing``), JSON text frames both ways.

The seat comes from the socket's scope, never from a message: the seat link's token (``?seat=<token>``) or the
session's user (``AuthMiddlewareStack``); anyone else watches (a private table's spectators bring its invite token,
``?invite=<token>``). On connect the socket joins its seat's group (a spectator: the table's) and is sent the full
``state``; after that every change comes as an ``event`` from ``tables.live.publish``.

A spectator of an event table watched a trick behind (``tables.spectators``) gets frames whose version is the
picture's own (``reader_views.trick_behind``): its socket sends one only when the picture moves on, its heartbeat
is answered with the picture's version, and no turn's clock reaches it. A player of the event table's match, and a
browser that opened one of its seat links, is refused as a spectator (4403, saying why): they open their seat.

Client → server (the protocol as a whole: docs/online-tables.md):

- ``{"type": "act", "action": "play JH", "version": 17, "id": "<uuid>"}``: ``acting.act`` checks and stores it;
  its ``event`` reaches every reader once committed. Refused: ``{"type": "refused", "field", "reason",
  "version"}`` (a stale version is followed by the current ``state``; a repeated id is answered with the state).
- ``{"type": "sync", "version": 12}``: the full ``state`` (a client back from a lost connection), with the actions
  it missed since its last version as ``"gap"`` when they are few and all in the hand now in play
  (``live.state_frame``).
- ``{"type": "reclaim"}``: the seat's player takes the seat back from the bot that covered it: the seat's
  signed-in user, or a socket opened with the seat's private link (the link is that seat's credential; it
  reclaims its own seat and no other).
- ``{"type": "ping"}`` → ``{"type": "pong", "version": <the table's version now>, "live": true}``: the
  page's heartbeat. The pong travels through the channel layer to the socket's own channel (``live.BEAT``), so it
  comes only while the layer delivers; with the layer down it comes at once with ``"live": false``. A page whose
  version is behind the pong's asks for the state (``sync``), as after a gap in the versions of its events or a
  tap not answered: a frame the layer lost is caught up within a heartbeat.

Server → client besides ``state`` and ``event``: ``{"type": "clock", "version", "turn", "deadline_at"}``, the turn's
deadline moved at that version (its clock started when the turn reached its player: ``clock.turn_shown``). A
socket of the seat to move reports every frame that shows it the turn (``live.turn_shown``): the server charges a
player's clock only for a turn their socket was sent.

Limits: a frame over ``MAX_FRAME`` bytes is refused and the socket closed (4009); over ``RATE_LIMIT`` messages in
``RATE_WINDOW`` seconds likewise (4029).

Presence is counted in the database, so that every ASGI process agrees: each socket holding a seat counts itself
in (``presence.mark_back``: ``Seat.connected`` + 1) and out (``presence.mark_away``: − 1); the seat's player is
away only when no socket of any process holds it. A process killed with sockets open never counts them out, so each
process vouches for the seats it holds every ``presence.PRESENCE_HEARTBEAT_SECONDS`` (``Seat.seen_at``) and resets
the counts no process vouched for in ``presence.PRESENCE_STALE_SECONDS`` (``presence.expire_presence``): their
players are away since they were last vouched for, and a bot covers them ``AWAY_SECONDS`` after that.

Why asynchronous: a table's frames fan out to every socket of the process. An ``AsyncJsonWebsocketConsumer``
forwards a group's frame on the event loop with no thread hop, and only the database work (``act``, reading a
state, presence) goes to Django's thread through ``database_sync_to_async``; a synchronous consumer would run every
forwarded frame of every socket through that one thread as well. The ticker (``tables.ticker``) runs on the same
event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DatabaseError, close_old_connections, connection, connections

from engine.errors import FieldError
from league.rate_limits import RateLimit
from tables import acting, live, presence, reader_views, ticker

logger = logging.getLogger(__name__)


def parallel_database() -> bool:
    """Whether actions may run in threads of their own: on PostgreSQL the table's row lock keeps one table's actions
    in order while different tables' wait for the database side by side (``bench/bench_tables.py``); SQLite takes
    one writer at a time, so there every action goes to Django's one database thread."""
    return connection.vendor != "sqlite"


ACT_THREADS = 16
"""Threads (each with its own database connection) in which a process's actions run side by side when
:func:`parallel_database`: an action spends most of its time waiting for the database's round trips, so more
actions than the event loop's default pool (CPUs + 4) wait at once; each table's row lock keeps its own in order."""
_act_pool: ThreadPoolExecutor | None = None


def act_pool() -> ThreadPoolExecutor:
    global _act_pool
    if _act_pool is None:
        _act_pool = ThreadPoolExecutor(max_workers=ACT_THREADS, thread_name_prefix="tables-act")
    return _act_pool


def close_act_connections() -> None:
    """Close the database connections of :func:`act_pool`'s threads (a test's database can then be dropped). One
    task a thread, held at a barrier until all have started, so that no thread takes two."""
    pool = _act_pool
    threads = len(getattr(pool, "_threads", ())) if pool is not None else 0
    if not threads:
        return
    everyone = threading.Barrier(threads)

    def close() -> None:
        connections.close_all()
        with contextlib.suppress(threading.BrokenBarrierError):
            everyone.wait(timeout=5)

    assert pool is not None  # it has threads
    for done in [pool.submit(close) for _ in range(threads)]:
        done.result(timeout=10)


FRESH_SECONDS = 5.0
"""A connection an action used this recently, with no error since, is not health-checked again (see
:class:`ActToAsync`)."""
_last_used = threading.local()


class ActToAsync(SyncToAsync):
    """``database_sync_to_async`` for the actions' threads: old connections are closed before and after, as there,
    but a connection this thread used successfully less than ``FRESH_SECONDS`` ago skips the health check Django
    makes (``CONN_HEALTH_CHECKS``: a ``SELECT 1`` before the first query of each call), a round trip on every
    action of a busy table. A connection idle longer, or one that saw an error, is checked as before."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        if connection.connection is not None and not connection.errors_occurred \
                and time.monotonic() - getattr(_last_used, "at", float("-inf")) < FRESH_SECONDS:
            connection.health_check_done = True  # type: ignore[attr-defined]  # Django's own flag, not in the stubs
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()
            _last_used.at = time.monotonic()


def run_act(*args: Any) -> Any:
    """``acting.act(*args)`` awaited: in :func:`act_pool` on PostgreSQL, else in Django's database thread."""
    return in_database(acting.act, *args)


def in_database(function: Any, *args: Any) -> Any:
    """``function(*args)`` awaited in :func:`act_pool` on PostgreSQL, else in Django's one database thread. A
    socket's opening and closing go there too: in the one thread, hundreds of sockets opening at once waited for
    each other's reads one by one (``bench/bench_tables.py``, 500 tables: handshakes dropped after 5 s)."""
    if parallel_database():
        return ActToAsync(function, thread_sensitive=False, executor=act_pool())(*args)
    return database_sync_to_async(function)(*args)

MAX_FRAME = 4096  # bytes of one frame from a client
RATE_LIMIT, RATE_WINDOW = 20, 10.0  # messages, seconds
# application close codes: daphne (autobahn) sends only 1000 or 3000–4999; 4403 / 4404 come from live.Refused
CLOSE_LOGGED_OUT, CLOSE_RATE, CLOSE_TOO_BIG = 4001, 4029, 4009
BEAT_WAIT = 2.0  # seconds a heartbeat's send to the channel layer may take before the layer is taken for down

_held: Counter[tuple[int, int | None]] = Counter()
"""This process's open sockets per (table, seat): the seats its heartbeat vouches for. Whether a seat's player is
present is the database's count (``Seat.connected``), over every process, never this one's."""
_heartbeat: asyncio.Task | None = None


def ensure_heartbeat() -> asyncio.Task:
    """Start the process's presence heartbeat on the running loop unless it runs there already."""
    global _heartbeat
    loop = asyncio.get_running_loop()
    if _heartbeat is None or _heartbeat.done() or _heartbeat.get_loop() is not loop:
        _heartbeat = loop.create_task(_beat_forever(), name="tables.presence")
    return _heartbeat


async def stop_heartbeat() -> None:
    """Stop the heartbeat (tests; a process shutting down)."""
    global _heartbeat
    task, _heartbeat = _heartbeat, None
    if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def beat(now: datetime | None = None) -> list[tuple[int, int]]:
    """Vouch for the seats this process holds, then reset the counts nobody vouched for; returns those reset."""
    held = [key for key, count in _held.items() if count > 0]
    await database_sync_to_async(presence.heartbeat)(held, now)
    return await database_sync_to_async(presence.expire_presence)(now)


async def _beat_forever() -> None:
    while True:
        try:
            await beat()
        except asyncio.CancelledError:
            raise
        except Exception:  # a database hiccup: the next beat tries again, well within the stale limit
            logger.exception("the tables' presence heartbeat failed")
        await asyncio.sleep(presence.PRESENCE_HEARTBEAT_SECONDS)


_counting_out: set[asyncio.Future] = set()
"""The sockets being counted out (strong references: a task nobody holds may be collected before it ran)."""


async def _count_out(opening: asyncio.Future, table_id: int, seat: int) -> None:
    with contextlib.suppress(Exception):  # the opening failed: it counted the seat in, or it raised before
        await opening
    try:
        await in_database(live.seat_closed, table_id, seat)
    except Exception:
        logger.exception("counting a socket out of table %s seat %s failed", table_id, seat)


class TableConsumer(AsyncJsonWebsocketConsumer):
    table_id: int
    seat: int | None = None
    seat_token = ""  # the seat's private link, when the socket was opened with it
    counted = False  # this socket is counted in Seat.connected
    opening: asyncio.Future  # the socket's opening: its seat counted in, its first state read
    version = -1  # the version of the last state or event sent
    delayed = False  # a spectator of an event table shown a trick behind (``reader_views.trick_behind``)
    shown_version = -1  # the last version whose turn, this socket's seat's, was reported shown
    groups_joined: list[str]

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.rate = RateLimit(RATE_LIMIT, RATE_WINDOW)
        self.groups_joined = []
        self.user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        seat_token, invite_token = (query.get(name, [""])[0] for name in ("seat", "invite"))
        self.seat_token = seat_token
        await self.accept()
        try:
            self.seat = await in_database(live.seat_for_socket, self.table_id, self.user, seat_token, invite_token,
                                          self.scope.get("session"))
        except live.Refused as refused:
            await self.send_json({"type": "refused", "field": "table", "reason": refused.reason, "version": None})
            await self.close(code=refused.code)
            return
        if self.seat is None:
            await self.join(live.table_group(self.table_id))
        else:
            await self.join(live.seat_group(self.table_id, self.seat))
        if getattr(self.user, "is_authenticated", False):
            await self.join(live.user_group(self.user.pk))
        # the seat is counted in by the opening (its first step); from here on the socket is counted out however
        # this consumer ends: its disconnect, an error, or daphne cancelling it (a consumer still busy 10 s after
        # its client left), and the opening is finished even when this await is cancelled
        self.opening = asyncio.ensure_future(in_database(live.opened_frame, self.table_id, self.seat))
        if self.seat is not None:
            self.counted = True
            _held[(self.table_id, self.seat)] += 1
            ensure_heartbeat()
        frame = await asyncio.shield(self.opening)
        await self.send_frame(frame, force=True)
        ticker.ensure_running()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``aclose_old_connections`` before every message: that is a hop into
        Django's one database thread for each frame each socket forwards (four per action at a table), queued
        behind every other socket's database work. Nothing here touches the database on the event loop: every
        query runs through ``database_sync_to_async``, which closes old connections in its own thread."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.count_out()  # ended without its disconnect (an error, or cancelled): counted out all the same

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        counting_out = self.count_out()
        if counting_out is not None:
            await asyncio.shield(counting_out)

    def count_out(self) -> asyncio.Future | None:
        """Count this socket out of its seat once (``presence.mark_away``), after its opening counted it in, in a
        task of its own that a cancelled consumer does not stop. ``None`` when it is not counted (any more)."""
        if not self.counted:
            return None
        self.counted = False
        assert self.seat is not None  # a socket is counted only once it has a seat (the opening's connect)
        key = (self.table_id, self.seat)
        _held[key] -= 1
        if _held[key] <= 0:
            del _held[key]
        task = asyncio.ensure_future(_count_out(self.opening, self.table_id, self.seat))
        _counting_out.add(task)
        task.add_done_callback(_counting_out.discard)
        return task

    # ------------------------------------------------------------------------- from the client
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.rate.allow():
            await self.refuse("rate", f"more than {RATE_LIMIT} messages in {RATE_WINDOW:.0f} s", close=CLOSE_RATE)
            return
        if bytes_data is not None:
            await self.refuse("frame", "frames are JSON text", close=CLOSE_TOO_BIG if len(bytes_data) > MAX_FRAME
                              else None)
            return
        if len(text_data or "") > MAX_FRAME or len((text_data or "").encode()) > MAX_FRAME:
            await self.refuse("frame", f"a frame is at most {MAX_FRAME} bytes", close=CLOSE_TOO_BIG)
            return
        try:
            message = json.loads(text_data or "")
        except (ValueError, RecursionError):  # not JSON, or nested deeper than the decoder goes: junk either way
            message = None
        if not isinstance(message, dict):
            await self.refuse("frame", "a frame is a JSON object with a type")
            return
        await self.receive_json(message)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        if kind == "act":
            await self.act(content)
        elif kind == "sync":
            await self.send_state(since=content.get("version"))
        elif kind == "ping":
            await self.beat()
        elif kind == "reclaim":
            await self.reclaim()
        else:
            await self.refuse("type", "must be act, sync, reclaim or ping")

    async def act(self, content: dict[str, Any]) -> None:
        if self.seat is None:
            await self.refuse("seat", "you are watching: take a seat to play")
            return
        try:
            outcome = await run_act(self.table_id, self.seat, content.get("action"), content.get("version"),
                                    content.get("id") or "")
        except FieldError as error:
            await self.refuse(error.field, error.reason, resync=error.conflict)
            return
        except DatabaseError:  # e.g. a deadlock the database broke: nothing was stored, the client may try again
            logger.exception("table %s: an action of seat %s failed", self.table_id, self.seat)
            await self.refuse("table", "the action could not be stored just now: try again", resync=True)
            return
        if getattr(outcome, "repeated", False):  # accepted before: nothing changed now, so nothing is published
            await self.send_state()

    async def reclaim(self) -> None:
        if self.seat is None:
            await self.refuse("seat", "you are watching: there is no seat to reclaim")
            return
        try:
            await database_sync_to_async(presence.reclaim)(self.table_id, self.seat, self.user,
                                                           seat_token=self.seat_token)
        except FieldError as error:
            await self.refuse(error.field, error.reason)

    # ------------------------------------------------------------------------- to the client
    async def refuse(self, field: str, reason: str, *, resync: bool = False, close: int | None = None) -> None:
        """Send a refusal with the table's current version (then the state, when the client must resync)."""
        frame = None
        if close is None:
            frame = await database_sync_to_async(live.state_frame)(self.table_id, self.seat)
        await self.send_json({"type": "refused", "field": field, "reason": reason,
                              "version": frame["version"] if frame else self.version})
        if resync and frame is not None:
            await self.send_frame(frame, force=True)
        if close is not None:
            await self.close(code=close)

    async def send_state(self, since: Any = None, *, force: bool = True) -> None:
        frame = await database_sync_to_async(live.state_frame)(self.table_id, self.seat, since)
        await self.send_frame(frame, force=force)

    def take_version(self, version: int, *, force: bool = False) -> bool:
        """Whether a frame of ``version`` is to be sent: not when it is older than what the client has (commits may
        publish out of order), unless ``force``d; the client's version moves on with it."""
        if not force and version <= self.version:
            return False
        self.version = max(self.version, version)
        return True

    async def send_frame(self, frame: dict[str, Any], *, force: bool = False) -> None:
        """Send ``frame`` unless an event is older than what the client has."""
        if self.seat is None:
            self.delayed = (frame.get("table") or {}).get("delay") == reader_views.TRICK_BEHIND
        if self.take_version(frame.get("version", -1), force=force):
            await self.send_json(frame)
            await self.shown(live.turn_of(frame), frame.get("version", -1))

    async def shown(self, turn: int | None, version: int) -> None:
        """The frame just sent showed this socket's seat its turn: the server starts charging its clock
        (``live.turn_shown``), and when that moved the deadline the page is told at once."""
        if self.seat is None or turn != self.seat or version == self.shown_version:
            return
        self.shown_version = version
        try:
            clock = await in_database(live.turn_shown, self.table_id, self.seat, version)
        except DatabaseError:  # the turn stays unshown: its clock is not run out on the player
            logger.exception("table %s: the turn of seat %s could not be marked shown", self.table_id, self.seat)
            return
        if clock is not None and version == self.version:
            await self.send_json(clock)

    async def beat(self) -> None:
        """The heartbeat: the table's version now, sent back through the channel layer (``table_beat``) so that
        the pong says whether the layer delivers; straight back with ``"live": false`` when it cannot send."""
        if self.seat is None and self.delayed:  # the version of the picture a trick behind, not the table's
            version = await in_database(live.spectator_version, self.table_id)
        else:
            version = await in_database(live.current_version, self.table_id)
        try:
            await asyncio.wait_for(self.channel_layer.send(self.channel_name, {"type": live.BEAT, "version": version}),
                                   BEAT_WAIT)
        except Exception:  # Redis down or not answering: the page shows it is not live, and catches up by itself
            await self.send_json({"type": "pong", "version": version, "live": False})

    # ------------------------------------------------------------------------- from the channel layer
    async def table_frame(self, message: dict[str, Any]) -> None:
        """``live.FRAME``: the frame of this socket's group (its seat's own view, or the spectators'), as JSON text
        with its version (``live.frame_message``); one older than what the client has is not sent."""
        if self.take_version(message["version"]):
            await self.send(text_data=message["text"])
            await self.shown(message.get("turn"), message["version"])

    async def table_beat(self, message: dict[str, Any]) -> None:
        """``live.BEAT``: this socket's heartbeat came back through the layer, which therefore delivers."""
        await self.send_json({"type": "pong", "version": message["version"], "live": True})

    async def table_clock(self, message: dict[str, Any]) -> None:
        """``live.CLOCK``: the turn's deadline moved at a version; sent when it is the version the client has (a
        spectator a trick behind has no running clock)."""
        if message["version"] == self.version and not (self.seat is None and self.delayed):
            await self.send_json({**message, "type": "clock"})

    async def tables_presence(self, message: dict[str, Any]) -> None:
        """``live.PRESENCE``: a seat's player went away or came back; the reader gets the state as it is now (a
        spectator a trick behind, with the next picture: a state of the version it has would show the seats' time
        as it is now, ahead of the picture)."""
        await self.send_state(force=not (self.seat is None and self.delayed))

    async def tables_logout(self, message: dict[str, Any]) -> None:
        """``live.LOGOUT``: the user logged out, and the socket made with their session closes; or (with a
        ``seat_token``) the seat's link was revoked or renewed, and the socket closes if it came with that link."""
        if "seat_token" in message and message["seat_token"] != self.seat_token:
            return
        await self.close(code=CLOSE_LOGGED_OUT)
