"""A player of the events benchmark, as their phone would be: signed in (the session's cookie), they look for their
table on Play → Your tables (``/tables/``, the tables of theirs still open; served by gunicorn, as in production) until
a new one is there, open its socket (``ws/tables/<id>/`` on daphne: the seat comes from the login), and play their
seat from its frames — each time a frame gives them the turn, an action from the frame's own ``legal`` list, at the
frame's version — until the table is finished; then they look for the next one. A knockout's player knocked out stops
looking: a pair whose table lost; a team's player once its team lost the tie, which its table alone does not say (the
team's other pair may have won it), so they read it as a phone would, the match's team match from the API
(``/api/matches/<id>/``, ``/api/team-matches/<id>/``). No server-side shortcut: every move goes over the socket and is
checked there.

The page is asked again every ``poll`` seconds while the player waits (a phone's reload), since nothing else tells a
client that a round was published. A socket sends at most ``SENDS_PER_WINDOW`` actions in ``WINDOW`` seconds: the
server closes one that sends more than 20 in 10 s (``tables.consumers.RATE_LIMIT``).
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import random
import re
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from bench.scenarios.events.seed import KNOCKOUT, BenchPlayer
from bench.support.clients import HttpClient

MY_TABLES = re.compile(r'<section id="my-tables">(.*?)</section>', re.S)
TABLE_LINK = re.compile(r'href="/tables/(\d+)/"')
SENDS_PER_WINDOW, WINDOW = 18, 10.0  # the server's limit is 20 messages in 10 s; a margin for the network's timing
RESYNC_AFTER = 10.0  # s without any frame while the table plays: ask for the state
CONNECT_TRIES = 3
OVER = ("finished", "closed")


def lost_by(games_won: list[int], seat: int | None) -> bool:
    """Whether the side of ``seat`` (seats 0 and 2: side A; 1 and 3: side B) won fewer games than the other."""
    if seat is None:
        return False
    return games_won[seat % 2] < games_won[1 - seat % 2]


def tables_listed(html: str) -> list[int]:
    """The table ids of the page's "Your tables" section (none when the section is not there)."""
    section = MY_TABLES.search(html)
    return [int(found) for found in TABLE_LINK.findall(section.group(1))] if section else []


@dataclass
class PlayerStats:
    """What the players did and met, summed over all of them."""

    tables: int = 0  # tables played to their end
    actions: int = 0  # actions sent
    refused: dict[str, int] = field(default_factory=dict)
    polls: int = 0  # "Your tables" asked
    poll_errors: int = 0  # asked and answered with anything but a 200, or not answered
    closed: int = 0  # sockets the server closed while their table played
    connect_failures: int = 0  # handshakes that failed (tried again)
    resyncs: int = 0
    failures: list[str] = field(default_factory=list)  # a table a player could not play (its socket would not open)

    def refusal(self, reason: str) -> None:
        key = reason[:60]
        self.refused[key] = self.refused.get(key, 0) + 1


class SendWindow:
    """A socket's pace: at most ``SENDS_PER_WINDOW`` sends in any ``WINDOW`` seconds (waits when it would be more)."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    async def wait_turn(self) -> None:
        while True:
            now = time.monotonic()
            while self.times and self.times[0] <= now - WINDOW:
                self.times.popleft()
            if len(self.times) < SENDS_PER_WINDOW:
                self.times.append(now)
                return
            await asyncio.sleep(self.times[0] + WINDOW - now + 0.01)


class Player:
    """One player's client: ``run`` looks for tables and plays them until ``stop`` is set."""

    def __init__(self, player: BenchPlayer, web_port: int, socket_port: int, stats: PlayerStats, rng: random.Random,
                 *, poll: float, stop: asyncio.Event) -> None:
        self.player, self.socket_port, self.stats, self.rng = player, socket_port, stats, rng
        self.poll, self.stop = poll, stop
        self.origin = f"http://127.0.0.1:{web_port}"
        self.cookie = f"sessionid={player.session}"
        self.http = HttpClient(self.origin, timeout=30)
        self.played: set[int] = set()
        self.match_id: int | None = None  # the last table's match
        self.seat: int | None = None  # and this player's seat there

    async def run(self) -> None:
        try:
            while not self.stop.is_set():
                table_id = await self.find_table()
                if table_id is None:
                    return
                try:
                    lost = await self.play(table_id)
                except Exception as error:  # noqa: BLE001 - counted; the player looks for its next table
                    self.stats.failures.append(f"{self.player.username} at table {table_id}: {error!r}"[:200])
                    lost = False
                self.played.add(table_id)
                if self.player.competition == KNOCKOUT and await self.knocked_out(lost):
                    return  # no table of theirs will open again
        finally:
            self.http.close()

    # ------------------------------------------------------------------------------------- finding the table
    async def find_table(self) -> int | None:
        """Ask "Your tables" until a table not played yet is listed (``None`` once the run stops)."""
        while not self.stop.is_set():
            self.stats.polls += 1
            try:
                status, body = await asyncio.to_thread(self.http.get, "/tables/", {"Cookie": self.cookie})
            except (OSError, http.client.HTTPException):
                status, body = 0, b""
            if status == 200:
                new = [pk for pk in tables_listed(body.decode(errors="replace")) if pk not in self.played]
                if new:
                    return min(new)
            else:
                self.stats.poll_errors += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), self.poll * self.rng.uniform(0.8, 1.2))
        return None

    async def knocked_out(self, table_lost: bool) -> bool:
        """Whether this knockout player is out after the table just played: a pair's table lost; a table of a team
        match, whether the team lost the tie (read from the API; undecided or unreadable: not out, look on)."""
        if self.match_id is None:
            return table_lost
        match = await self.read_json(f"/api/matches/{self.match_id}/")
        if match is None:
            return False
        if match.get("team_match") is None:
            return table_lost
        team_match = match["team_match"]
        tie = await self.read_json(f"/api/team-matches/{team_match}/") or {}
        side = "ab"[self.seat % 2] if self.seat is not None else None
        return side is not None and tie.get("winner") in ("a", "b") and tie["winner"] != side

    async def read_json(self, path: str) -> dict[str, Any] | None:
        self.stats.polls += 1
        try:
            status, body = await asyncio.to_thread(self.http.get, path, {"Cookie": self.cookie})
        except (OSError, http.client.HTTPException):
            status, body = 0, b""
        if status != 200:
            self.stats.poll_errors += 1
            return None
        found = json.loads(body)
        return found if isinstance(found, dict) else None

    # ------------------------------------------------------------------------------------- playing it
    async def connect(self, table_id: int) -> Any:
        import websockets
        from websockets.typing import Origin

        url = f"ws://127.0.0.1:{self.socket_port}/ws/tables/{table_id}/"
        for attempt in range(CONNECT_TRIES):
            try:
                return await websockets.connect(url, origin=Origin(self.origin),
                                                additional_headers={"Cookie": self.cookie}, open_timeout=60,
                                                ping_interval=None, max_size=2 ** 20, compression=None)
            except (OSError, websockets.InvalidHandshake, TimeoutError):
                self.stats.connect_failures += 1
                if attempt == CONNECT_TRIES - 1:
                    raise
                await asyncio.sleep(1)
        raise AssertionError("unreachable")

    async def play(self, table_id: int) -> bool:
        """Play the seat at ``table_id`` until the table is over (or the run stops); whether this player's side
        lost the match (the other side won more games)."""
        import websockets

        sock = await self.connect(table_id)
        window, latest, acted, seat = SendWindow(), -1, -1, None
        self.match_id = self.seat = None
        try:
            while not self.stop.is_set():
                try:
                    raw = await asyncio.wait_for(sock.recv(), RESYNC_AFTER)
                except TimeoutError:
                    self.stats.resyncs += 1
                    await sock.send(json.dumps({"type": "sync", "version": latest}))
                    continue
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "refused":
                    self.stats.refusal(f"{message.get('field')}: {message.get('reason')}")
                    if message.get("version") is None and message.get("field") == "table":
                        return False  # the socket may not stay
                    acted = -1  # the move was not taken: the next frame (or the state asked for) gives it again
                    continue
                if kind not in ("state", "event") or message.get("version", -1) < latest:
                    continue
                latest = message["version"]
                table = message.get("table") or {}
                seat = (message.get("view") or {}).get("seat", seat)
                self.match_id, self.seat = table.get("match_id", self.match_id), seat
                if table.get("status") in OVER:
                    self.stats.tables += 1
                    return lost_by(table.get("games_won") or [0, 0], seat)
                move = self.my_move(message)
                if move is not None and latest > acted:
                    await window.wait_turn()
                    acted = latest
                    self.stats.actions += 1
                    await sock.send(json.dumps({"type": "act", "action": move, "version": latest,
                                                "id": uuid.uuid4().hex}))
        except websockets.ConnectionClosed:
            if not self.stop.is_set():
                self.stats.closed += 1
        finally:
            with contextlib.suppress(Exception):
                await sock.close()
        return False

    def my_move(self, frame: dict[str, Any]) -> str | None:
        """An action from the frame's legal list when the frame gives this seat the turn."""
        view, table = frame.get("view") or {}, frame.get("table") or {}
        legal = view.get("legal") or []
        if not legal or table.get("status") != "playing" or table.get("turn") != view.get("seat"):
            return None
        return self.rng.choice(legal)
