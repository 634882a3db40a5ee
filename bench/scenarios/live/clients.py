"""The live pages benchmark's clients: an open page's socket, whose renderings go to the tracker, and a
scorekeeper posting its match's hands at a steady pace from a thread of its own."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote

from bench.scenarios.live.renderings import Cache
from bench.scenarios.live.seed import LiveMatch
from bench.scenarios.live.tracking import Hand, Tracker
from bench.support.clients import Deadline, HttpClient, open_websocket, paced
from bench.support.entries import chalk

SPLITS = ((0, 1, 0, 0), (0, 0, 1, 1), (1, 0, 1, 1), (1, 1, 0, 0), (0, 1, 1, 0), (1, 0, 0, 1))
# High, Low, Jack, Game to side A (0) or B (1): 3-1, 2-2 and 1-3, so no hand gives a side more than 3 chalks


class Page:
    """One open page's socket: its renderings are read and handed to the tracker."""

    def __init__(self, index: int, path: str, port: int, match_id: int | None, tracker: Tracker,
                 match_of: dict[str, int], caches: dict[str, Cache]) -> None:
        self.index, self.path, self.port, self.match_id = index, path, port, match_id
        self.tracker, self.match_of, self.caches = tracker, match_of, caches
        self.sock: Any = None
        self.reader: asyncio.Task | None = None
        self.rows: set[str] = set()
        self.first = asyncio.Event()

    async def connect(self) -> None:
        url = f"ws://127.0.0.1:{self.port}/ws/live/?path={quote(self.path, safe='/')}"
        self.sock = await open_websocket(url, f"http://127.0.0.1:{self.port}", max_size=2 ** 24,
                                         failed=self.tracker.stats.connect_failed)
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        import websockets

        stats = self.tracker.stats
        try:
            async for raw in self.sock:
                at = time.perf_counter()
                message = json.loads(raw)
                stats.messages += 1
                kind = message.get("type")
                if kind == "regions":
                    self.seen(message["regions"].get("content", ""), at)
                    self.first.set()
                elif kind == "gone":
                    stats.gone += 1
                elif kind != "pong":
                    stats.unexpected += 1
        except websockets.ConnectionClosed:
            pass
        if not stats.closing:
            stats.unexpected += 1  # the server closed the socket

    def seen(self, content: str, at: float) -> None:
        if self.match_id is None:
            self.tracker.standings_seen(self.index, self.caches["standings"](content), self.match_of, at)
            return
        rows = self.caches["sheet"](content)
        new = rows - self.rows
        self.rows = rows
        if new:
            self.tracker.sheet_seen(self.index, self.match_id, rows, new, at)

    async def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(Exception):
                await self.sock.close()
        if self.reader is not None:
            self.reader.cancel()


class Scorekeeper:
    """Posts its match's hands about once per ``interval``, from a thread of its own (a keep-alive connection)."""

    def __init__(self, match: LiveMatch, port: int, tracker: Tracker, pool: ThreadPoolExecutor,
                 rng: random.Random) -> None:
        self.match, self.tracker, self.pool, self.rng = match, tracker, pool, rng
        self.client = HttpClient(f"http://127.0.0.1:{port}")
        self.game, self.number, self.done = 1, 1, (0, 0)
        self.headers = {"Authorization": f"Token {match.token}"}

    def _post(self, hand: Hand, payload: dict[str, Any]) -> tuple[int, bytes, float]:
        headers = {**self.headers, "Idempotency-Key": uuid.uuid4().hex}
        hand.sent = time.perf_counter()
        try:
            status, body = self.client.post_json(f"/api/matches/{self.match.id}/hands/", payload, headers)
        except Exception as error:  # noqa: BLE001 - a transport failure is counted as an error of the run
            return 0, repr(error).encode(), time.perf_counter()
        return status, body, time.perf_counter()

    async def play(self, stop_at: float | Deadline, interval: float) -> None:
        loop = asyncio.get_running_loop()
        stats = self.tracker.stats
        async for _ in paced(stop_at, interval, self.rng):
            hand = self.tracker.posting(self.match.id, f"hand-{self.game}-{self.number}")
            payload = {"number": self.number, "mode": "chalk", "entry": chalk(*self.rng.choice(SPLITS))}
            status, body, answered = await loop.run_in_executor(self.pool, self._post, hand, payload)
            if hand.measured:
                stats.api.append(answered - hand.sent)
            if not self.committed(hand, status, body):
                return

    def committed(self, hand: Hand, status: int, body: bytes) -> bool:
        """Take the 201's hand (the next hand's number, the match's chalks); ``False``: stop (refused)."""
        stats = self.tracker.stats
        if status != 201:
            self.tracker.answered(hand, None, self.match.side_a)
            text = body[:200].decode(errors="replace")
            if status == 400 and '"field":"match"' in text.replace(" ", ""):  # the match is over
                stats.finished += 1
            else:
                stats.errors.append(f"match {self.match.id} {hand.row_id}: HTTP {status} {text}")
            return False
        answer = json.loads(body)
        if f"hand-{answer['game_number']}-{answer['number']}" != hand.row_id:
            stats.errors.append(f"match {self.match.id}: {hand.row_id} was stored as hand {answer['number']} of "
                                f"game {answer['game_number']}")
            self.tracker.answered(hand, None, self.match.side_a)
            return False
        score = (answer["score_a_after"], answer["score_b_after"])
        chalks = (self.done[0] + score[0], self.done[1] + score[1])
        if hand.measured:
            stats.hands += 1
        self.tracker.answered(hand, chalks, self.match.side_a)
        if answer["result"]["winner"] is not None:
            self.done, self.game, self.number = chalks, self.game + 1, 1
        else:
            self.number += 1
        return True

