"""The socket of a live page: ``ws/live/?path=<the page's path and query>`` (``live.routing``).

On connect the page is found and checked (``live.pages.live_page``) and rendered for its reader
(``live.hub``): a page the reader may not open is refused (close 4404). The socket is watched by its process's hub,
which follows the competition's notices (``live.notices``), and is sent the page's last rendering; after that each
notice that concerns the page brings its regions again. Server → client, JSON text:

- ``{"type": "regions", "version": <ns>, "regions": {name: html}}``: the page's regions as a reload would show
  them to this reader; a page keeps the highest version it applied and drops older ones.
- ``{"type": "gone", "status": 404}``: the page is no longer there for this reader (a round taken back to a
  draft, a competition unpublished); the socket closes (4404) and the page offers a reload. ``"status": 401``:
  the reader logged out, and a page rendered for them closes (4401).

Client → server: ``{"type": "ping"}`` → ``{"type": "pong"}``; anything else, or a frame over ``MAX_FRAME`` bytes,
closes the socket (4400); more than ``RATE_LIMIT`` messages in ``RATE_WINDOW`` seconds close it too (4029), as on
the online table's socket.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from league.rate_limits import RateLimit
from live import pages
from live.hub import hub
from live.notices import user_group
from live.render import Rendered, render_in_thread, render_page

logger = logging.getLogger(__name__)
MAX_FRAME = 256
RATE_LIMIT, RATE_WINDOW = 20, 10.0  # messages, seconds: the online table's socket's limit
GONE = 4404
LOGGED_OUT = 4401
JUNK, TOO_FAST = 4400, 4029


def _host(scope: dict) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"host":
            return value.decode("latin-1")
    return "localhost"


class LiveConsumer(AsyncJsonWebsocketConsumer):
    page: pages.LivePage | None = None

    async def connect(self) -> None:
        self.rate = RateLimit(RATE_LIMIT, RATE_WINDOW)
        query = parse_qs(self.scope.get("query_string", b"").decode("utf-8", "replace"))
        user = self.scope.get("user")
        self.page = await database_sync_to_async(pages.live_page)((query.get("path") or [""])[0], user)
        if self.page is None:
            await self.close(code=GONE)
            return
        reader = None if self.page.reader_id is None else user
        host, path = _host(self.scope), self.page.path
        rendered = await hub().current(self.page, lambda: render_in_thread(render_page, path, reader, host))
        if not rendered.shown:
            await hub().leave(self.page.key)
            self.page = None
            await self.close(code=1011 if rendered.failed else GONE)  # 1011: the page tries again later
            return
        await self.accept()
        if self.page.reader_id is not None:
            await self.channel_layer.group_add(user_group(self.page.reader_id), self.channel_name)
        await hub().watch(self.page, self)
        await self.rendered(*hub().last(self.page.key))  # or a newer one, made while this socket joined

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        page, self.page = self.page, None
        if page is None:
            return
        await hub().leave(page.key, self)
        if page.reader_id is not None:
            await self.channel_layer.group_discard(user_group(page.reader_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.rate.allow():
            await self.close(code=TOO_FAST)
            return
        if text_data is not None and len(text_data) <= MAX_FRAME and text_data.replace(" ", "") == '{"type":"ping"}':
            await self.send_json({"type": "pong"})
            return
        await self.close(code=JUNK)

    async def rendered(self, version: int, rendered: Rendered) -> None:
        if rendered.failed:  # logged where it failed; the next notice renders again
            return
        if rendered.shown:
            await self.send(text_data=rendered.frame(version))
            return
        await self.send_json({"type": "gone", "status": rendered.status})
        await self._leave()
        await self.close(code=GONE)

    async def live_logout(self, message: dict[str, Any]) -> None:
        """The reader logged out: their own rendering stops (the page offers a reload, as a visitor)."""
        await self.send_json({"type": "gone", "status": 401})
        await self._leave()
        await self.close(code=LOGGED_OUT)

