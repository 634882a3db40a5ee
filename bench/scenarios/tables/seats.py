"""The online tables benchmark's tables: each made in the database with four human seats, and played by its four
websocket clients (the seat to move sends an action from its frame's ``legal`` list; the action is timed until all
four seats have a frame of the new version)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from bench.support.clients import open_websocket, paced

RESYNC_AFTER = 30.0  # s a table waits for a late frame before it asks for the full state


def create_tables(count: int, *, run: str, target: int = 14) -> list[dict[str, Any]]:
    """``count`` casual tables in play, each with four human seats (a user each, so no seat is empty) and the
    seats' links; returns ``[{"id", "tokens": [4 seat tokens]}]``."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tables import dealing, seating
    from tables.models import Seat

    user_model = get_user_model()
    password = make_password(None)
    users = user_model.objects.bulk_create([user_model(username=f"bt-{run}-{t}-{s}", password=password)
                                            for t in range(count) for s in range(4)])
    out = []
    for t in range(count):
        table = seating.create_table(None, 4, ruleset={"target": target}, turn_seconds=3600, bank_seconds=0)
        seats = list(table.seats.order_by("index"))
        for row in seats:
            row.user = users[4 * t + row.index]
        Seat.objects.bulk_update(seats, ["user"])
        dealing.start(table)
        out.append({"id": table.pk, "tokens": [row.seat_token for row in seats]})
    return out


# ---------------------------------------------------------------------------------------- the clients
@dataclass
class Pending:
    target: int  # the version the action brings the table to
    sent: float
    seen: set[int] = field(default_factory=set)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    refused: str | None = None


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    timeouts: int = 0
    refused: int = 0
    refusals: dict[str, int] = field(default_factory=dict)
    unexpected: int = 0  # frames of a type the bench does not know, or sockets that closed
    rematches: int = 0
    connect_failures: int = 0  # handshakes that failed (tried again)
    resyncs: int = 0  # times a table asked for the full state (a frame still missing after RESYNC_AFTER)
    closing: bool = False
    measuring: bool = False

    def connect_failed(self) -> None:
        self.connect_failures += 1

    def refusal(self, reason: str) -> None:
        self.refused += 1
        key = reason[:60]
        self.refusals[key] = self.refusals.get(key, 0) + 1


class BenchTable:
    """The four sockets of one table and the loop that plays its actions."""

    def __init__(self, table: dict[str, Any], url: str, origin: str, stats: Stats, rng: random.Random) -> None:
        self.id, self.tokens = table["id"], table["tokens"]
        self.url, self.origin, self.stats, self.rng = url, origin, stats, rng
        self.sockets: list[Any] = [None] * 4
        self.frames: list[dict[str, Any] | None] = [None] * 4
        self.versions = [-1] * 4
        self.pending: Pending | None = None
        self.changed = asyncio.Event()
        self.readers: list[asyncio.Task] = []

    async def connect(self) -> None:
        for seat, token in enumerate(self.tokens):
            self.sockets[seat] = await open_websocket(f"{self.url}/ws/tables/{self.id}/?seat={token}", self.origin,
                                                      max_size=2 ** 20, failed=self.stats.connect_failed)
            self.readers.append(asyncio.create_task(self.read(seat)))

    async def close(self) -> None:
        for sock in self.sockets:
            if sock is not None:
                with contextlib.suppress(Exception):
                    await sock.close()
        for task in self.readers:
            task.cancel()

    async def read(self, seat: int) -> None:
        import websockets

        sock = self.sockets[seat]
        try:
            async for raw in sock:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message.get("type")
                if kind in ("state", "event"):
                    version = message.get("version", -1)
                    if version >= self.versions[seat]:
                        self.versions[seat], self.frames[seat] = version, message
                    pending = self.pending
                    if pending is not None and version >= pending.target and seat not in pending.seen:
                        pending.seen.add(seat)
                        if len(pending.seen) == 4:
                            if self.stats.measuring:
                                self.stats.latencies.append(now - pending.sent)
                            pending.done.set()
                    self.changed.set()
                elif kind == "refused":
                    self.stats.refusal(f"{message.get('field')}: {message.get('reason')}")
                    if self.pending is not None:
                        self.pending.refused = message.get("reason") or "refused"
                        self.pending.done.set()
                elif kind not in ("pong", "clock"):  # a clock frame: the turn's clock started when it was shown
                    self.stats.unexpected += 1
        except websockets.ConnectionClosed:
            pass
        except asyncio.CancelledError:
            raise
        if not self.stats.closing:
            self.stats.unexpected += 1  # the server closed the socket

    def to_move(self) -> tuple[int, int, list[str]] | None:
        """(seat, version, legal actions) of the seat to move, when all four seats have the same version."""
        if len(set(self.versions)) != 1:
            return None
        for seat, frame in enumerate(self.frames):
            view = (frame or {}).get("view") or {}
            if view.get("legal"):
                return seat, frame["version"], view["legal"]
        return None

    def finished(self) -> bool:
        frame = self.frames[0] or {}
        return (frame.get("table") or {}).get("status") == "finished"

    async def resync(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(Exception):
                await sock.send('{"type": "sync"}')

    async def play(self, stop_at: float, interval: float, timeout: float) -> None:
        async for _ in paced(stop_at, interval, self.rng):
            if self.finished() and len(set(self.versions)) == 1:
                await self.rematch()
                continue
            move = self.to_move()
            if move is None:  # the seats are not at one version yet (a late frame): wait for it
                if not await self.wait_for(lambda: self.to_move() is not None or self.finished(), RESYNC_AFTER):
                    self.stats.resyncs += 1
                    await self.resync()
                continue
            seat, version, legal = move
            action = self.rng.choice(legal)
            self.pending = pending = Pending(version + 1, time.perf_counter())
            await self.sockets[seat].send(json.dumps({"type": "act", "action": action, "version": version,
                                                      "id": uuid.uuid4().hex}))
            measuring = self.stats.measuring
            try:
                await asyncio.wait_for(pending.done.wait(), timeout)
            except TimeoutError:
                # Counted, and still waited for (its latency is recorded when it comes): a resync now would
                # only add the work of four full states to a server that is already behind.
                if measuring:
                    self.stats.timeouts += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(pending.done.wait(), RESYNC_AFTER)
                if not pending.done.is_set():
                    self.stats.resyncs += 1
                    await self.resync()
            if pending.done.is_set() and pending.refused is None and measuring:
                self.stats.actions += 1
            self.pending = None

    async def wait_for(self, condition: Any, seconds: float) -> bool:
        """Wait up to ``seconds`` for ``condition()`` to hold after a frame comes in."""
        deadline = time.monotonic() + seconds
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    async def rematch(self) -> None:
        from channels.db import database_sync_to_async

        from tables import dealing

        before = self.versions[0]
        try:
            await database_sync_to_async(dealing.rematch)(self.id)
        except Exception as error:  # noqa: BLE001 - a bench counts it and goes on
            self.stats.refusal(f"rematch: {error}")
            return
        self.stats.rematches += 1
        deadline = time.monotonic() + 10
        while min(self.versions) <= before and time.monotonic() < deadline:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1)

