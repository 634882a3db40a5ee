"""One rendering of a live page per process and audience, however many of its readers are open.

Each open page is watched under its key ``(path, audience)``. A notice for the page asks for its rendering at the
notice's version; the hub renders once for all the readers of the key in this process and sends each of them the
result. Notices that come while a rendering runs are answered by one more rendering after it, not one each: a
burst of hands costs a page two renderings, not one per hand. A new reader is sent the last rendering (its page
drops it when it is older than the page itself).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from live.render import Rendered

logger = logging.getLogger(__name__)
Key = tuple[str, str]


class Reader(Protocol):
    async def rendered(self, version: int, rendered: Rendered) -> None: ...


@dataclass
class _Watched:
    render: Callable[[], Awaitable[Rendered]]
    readers: set[Any] = field(default_factory=set)
    wanted: int = 0
    version: int = 0
    last: Rendered | None = None
    task: asyncio.Task | None = None


class Hub:
    """The watched pages of one event loop (an ASGI process has one)."""

    def __init__(self) -> None:
        self._watched: dict[Key, _Watched] = {}

    async def current(self, key: Key, render: Callable[[], Awaitable[Rendered]]) -> Rendered:
        """The page's last rendering, rendered now if there is none yet."""
        watched = self._watched.setdefault(key, _Watched(render))
        if watched.last is None:
            watched.wanted = max(watched.wanted, time.time_ns())
            await asyncio.shield(self._start(key, watched))
        assert watched.last is not None
        return watched.last

    def last(self, key: Key) -> tuple[int, Rendered]:
        watched = self._watched[key]
        assert watched.last is not None
        return watched.version, watched.last

    def watch(self, key: Key, reader: Reader) -> None:
        self._watched[key].readers.add(reader)

    def leave(self, key: Key, reader: Reader | None = None) -> None:
        """``reader`` closed (``None``: a socket refused after ``current``): a page no one reads is forgotten."""
        watched = self._watched.get(key)
        if watched is None:
            return
        watched.readers.discard(reader)
        if not watched.readers and (watched.task is None or watched.task.done()):
            del self._watched[key]

    def changed(self, key: Key, version: int) -> None:
        """A notice of ``version`` reached a reader of ``key``: render again unless that version is covered."""
        watched = self._watched.get(key)
        if watched is not None and version > watched.wanted:
            watched.wanted = version
            self._start(key, watched)

    def _start(self, key: Key, watched: _Watched) -> asyncio.Task:
        if watched.task is None or watched.task.done():
            watched.task = asyncio.ensure_future(self._drain(key, watched))
        return watched.task

    async def _drain(self, key: Key, watched: _Watched) -> None:
        while watched.version < watched.wanted:
            # what is committed when the rendering starts covers every notice sent before: that is its version
            # (below ``wanted`` when a notice came while it ran: one more rendering then)
            version = time.time_ns()
            try:
                rendered = await watched.render()
            except Exception:
                logger.exception("live page %s not rendered", key[0])
                return
            watched.last, watched.version = rendered, version
            for reader in list(watched.readers):
                await reader.rendered(version, rendered)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The hub of the running event loop."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]
