"""The load clients of the benchmarks: a keep-alive HTTP/1.1 client (one per thread), a websocket opened with a
few tries, sockets opened a few at a time, a client's steady pace, and the event loop's own lag."""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import urlsplit

CONNECT_AT_ONCE = 10  # sockets being opened at one time (the server does each one's database work in turn, and
# daphne drops a handshake its application has not accepted within 5 s)
CONNECT_TRIES = 3

Item = TypeVar("Item")
Result = TypeVar("Result")


class HttpClient:
    """One keep-alive HTTP/1.1 connection (one per thread); ``post_json`` and ``get`` return (status, body)."""

    def __init__(self, base_url: str, timeout: float = 60.0) -> None:
        parts = urlsplit(base_url)
        self.host, self.port, self.timeout = parts.hostname or "127.0.0.1", parts.port or 80, timeout
        self.conn: http.client.HTTPConnection | None = None
        self.reconnects = 0

    def _request(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        for attempt in (0, 1):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                self.conn.request(method, path, body, headers)
                response = self.conn.getresponse()
                data = response.read()
                if (response.getheader("Connection") or "").lower() == "close":
                    self.close()
                return response.status, data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # the server closed an idle keep-alive connection before reading the request: send it again once
                self.close()
                self.reconnects += 1
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def post_json(self, path: str, payload: Any, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        body = json.dumps(payload, separators=(",", ":")).encode()
        return self._request("POST", path, body, {"Content-Type": "application/json", **(headers or {})})

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        return self._request("GET", path, None, headers or {})

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


async def open_websocket(url: str, origin: str, *, max_size: int, failed: Callable[[], None]) -> Any:
    """A websocket to ``url`` (``Origin: origin``, no pings, no compression), tried up to ``CONNECT_TRIES`` times a
    second apart; ``failed()`` is called for each failed handshake, and the last failure is raised."""
    import websockets

    for attempt in range(CONNECT_TRIES):
        try:
            return await websockets.connect(url, origin=origin, open_timeout=60, ping_interval=None,
                                            max_size=max_size, compression=None)
        except (OSError, websockets.InvalidHandshake, TimeoutError):
            failed()
            if attempt == CONNECT_TRIES - 1:
                raise
            await asyncio.sleep(1)
    raise AssertionError("unreachable")


async def a_few_at_a_time(items: Iterable[Item], open_one: Callable[[Item], Awaitable[Result]],
                          at_once: int = CONNECT_AT_ONCE) -> list[Result]:
    """``open_one`` of every item, at most ``at_once`` of them under way at one time; their results in order."""
    gate = asyncio.Semaphore(at_once)

    async def gated(item: Item) -> Result:
        async with gate:
            return await open_one(item)

    return list(await asyncio.gather(*(gated(item) for item in items)))


class Deadline:
    """A stop time (``time.monotonic()``) a run may move later while its clients are running."""

    def __init__(self, at: float) -> None:
        self.at = at


async def paced(stop_at: float | Deadline, interval: float, rng: random.Random) -> AsyncIterator[None]:
    """A client's steady pace until ``stop_at`` (a time, or a ``Deadline`` read at each tick): a tick about every
    ``interval`` seconds, from a random phase; a tick that came late (the client was busy) is not made up for by
    ticks in a burst."""
    await asyncio.sleep(rng.uniform(0, interval))
    next_at = time.monotonic()
    while time.monotonic() < (stop_at.at if isinstance(stop_at, Deadline) else stop_at):
        delay = next_at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        next_at = max(next_at + interval, time.monotonic())
        yield


async def lag_probe(samples: list[float], stop_at: float, every: float = 0.05) -> None:
    """This process's event-loop lag: how late a short sleep wakes up."""
    while time.monotonic() < stop_at:
        started = time.perf_counter()
        await asyncio.sleep(every)
        samples.append(time.perf_counter() - started - every)
