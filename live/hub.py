"""One rendering of a live page per process and audience, however many of its readers are open.

Each open page is watched under its key ``(path, audience)``. The hub of a process follows the competitions of its
open pages with one channel of its own (``live.notices``: one subscription per process and competition, not one per
socket), and a notice asks the pages it concerns for their rendering at the notice's version; the hub renders once
for all the readers of the key in this process and sends each of them the result. Notices that come while a
rendering runs are answered by one more rendering after it, not one each, and two renderings of a page start at
least ``MIN_GAP`` apart: a burst of hands or settles costs a page a rendering or two, not one per notice. A new
reader is sent the last rendering (its page drops it when it is older than the page itself). A visitors' rendering
is made once for all the processes of a cluster (``live.shared``).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.layers import get_channel_layer

from league import outages
from live import shared
from live.notices import BROKEN_LAYER, NOTICE, competition_group
from live.pages import PUBLIC, LivePage
from live.render import Rendered

logger = logging.getLogger(__name__)
Key = tuple[str, str]
MIN_GAP = 0.2
"""Seconds between the starts of two renderings of one page: the notices of a burst share the second one."""
RETRY_AFTER = 1.0


class Reader(Protocol):
    async def rendered(self, version: int, rendered: Rendered) -> None: ...


@dataclass
class _Watched:
    page: LivePage
    render: Callable[[], Awaitable[Rendered]]
    readers: set[Any] = field(default_factory=set)
    wanted: int = 0
    version: int = 0
    started: float = 0.0
    last: Rendered | None = None
    task: asyncio.Task | None = None


class Hub:
    """The watched pages of one event loop (an ASGI process has one)."""

    def __init__(self) -> None:
        self._watched: dict[Key, _Watched] = {}
        self._followed: set[int] = set()
        self._subscribing = asyncio.Lock()
        self._channel: str | None = None
        self._listener: asyncio.Task | None = None

    async def current(self, page: LivePage, render: Callable[[], Awaitable[Rendered]]) -> Rendered:
        """The page's last rendering, rendered now if there is none yet."""
        watched = self._watched.setdefault(page.key, _Watched(page, render))
        if watched.last is None:
            watched.wanted = max(watched.wanted, time.time_ns())
            await asyncio.shield(self._start(page.key, watched))
        assert watched.last is not None
        return watched.last

    def last(self, key: Key) -> tuple[int, Rendered]:
        watched = self._watched[key]
        assert watched.last is not None
        return watched.version, watched.last

    async def watch(self, page: LivePage, reader: Reader) -> None:
        """``reader`` follows ``page`` (after ``current``): its competition's notices now reach this process."""
        self._watched[page.key].readers.add(reader)
        await self._follow_competitions()

    async def leave(self, key: Key, reader: Reader | None = None) -> None:
        """``reader`` closed (``None``: a socket refused after ``current``): a page no one reads is forgotten, and
        a competition no page follows any longer is no longer followed."""
        watched = self._watched.get(key)
        if watched is None:
            return
        watched.readers.discard(reader)
        if not watched.readers and (watched.task is None or watched.task.done()):
            del self._watched[key]
        await self._follow_competitions()

    def notice(self, message: dict[str, Any]) -> None:
        """A competition's notice (``live.notices.notify``): the pages it concerns render again."""
        competition_id, version = message.get("competition"), message.get("version")
        if not isinstance(version, int):
            return
        matches, wide, tables = message.get("matches"), message.get("wide", True), message.get("tables") or []
        for key, watched in list(self._watched.items()):
            if watched.page.competition_id == competition_id and watched.page.affected_by(matches, wide, tables):
                self.changed(key, version)

    def changed(self, key: Key, version: int) -> None:
        """A notice of ``version`` concerns ``key``: render again unless that version is covered."""
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
            wait = watched.started + (watched.page.min_gap or MIN_GAP) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            # what is committed when the rendering starts covers every notice sent before: that is its version
            # (below ``wanted`` when a notice came while it ran: one more rendering then)
            watched.started = time.monotonic()
            try:
                version, rendered = await self._render(key, watched)
            except Exception:
                logger.exception("live page %s not rendered", key[0])
                return
            watched.last, watched.version = rendered, version
            for reader in list(watched.readers):
                await reader.rendered(version, rendered)

    @staticmethod
    async def _render(key: Key, watched: _Watched) -> tuple[int, Rendered]:
        if key[1] == PUBLIC and shared.enabled():
            return await shared.render_once(key, watched.wanted, watched.render)
        return time.time_ns(), await watched.render()

    # ------------------------------------------------------------------------- the process's subscription
    async def _follow_competitions(self) -> None:
        """Make the hub's channel follow exactly the competitions of the pages read here."""
        async with self._subscribing:
            wanted = {watched.page.competition_id for watched in self._watched.values() if watched.readers}
            if wanted == self._followed:
                return
            layer = get_channel_layer()
            if self._channel is None:
                self._channel = await layer.new_channel("live.hub.")
                self._listener = asyncio.ensure_future(self._listen(layer, self._channel))
            for competition_id in wanted - self._followed:
                await layer.group_add(competition_group(competition_id), self._channel)
            for competition_id in self._followed - wanted:
                await layer.group_discard(competition_group(competition_id), self._channel)
            self._followed = wanted
            if not wanted:
                self._stop_listening()

    def _stop_listening(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
        self._listener = self._channel = None

    async def _listen(self, layer: Any, channel: str) -> None:
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the layer down: its own reconnection brings the subscription back
                if isinstance(error, BROKEN_LAYER):
                    outages.channel_layer.failed("receiving live notices", error)  # once an outage
                else:
                    logger.warning("live notices not received", exc_info=True)
                await asyncio.sleep(RETRY_AFTER)
                continue
            outages.channel_layer.answered()
            if message.get("type") == NOTICE:
                self.notice(message)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The hub of the running event loop."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]
