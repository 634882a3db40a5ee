"""A live page rendered as its view renders it, cut into the regions that update in place.

The page's own view renders it — the same selectors, permission checks and templates as a reload — for a request
made here with the reader's user (a visitor: ``AnonymousUser``), so what a reader is sent is exactly what a reload
would show them, drafts included or not. A template marks each region that updates in place as

    <div class="live-region" data-live-region="NAME">…<!--/live:NAME--></div>

and a reader is sent each region's inner HTML. Forms with a CSRF token stay outside regions (a token rendered here
is not the reader's).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.db import close_old_connections, connection, connections
from django.http import Http404
from django.test import RequestFactory
from django.urls import Resolver404, resolve

logger = logging.getLogger(__name__)

REGION = re.compile(r'<div class="live-region" data-live-region="(?P<name>[\w-]+)">(?P<body>.*?)'
                    r"<!--/live:(?P=name)--></div>", re.DOTALL)
_factory = RequestFactory()
_renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-render")


@dataclass(frozen=True)
class Rendered:
    """The page's HTTP status as the reader would get it and, for a 200, its regions' inner HTML by name."""

    status: int
    regions: dict[str, str] = field(default_factory=dict)
    _frames: dict[int, str] = field(default_factory=dict, compare=False, repr=False)

    def frame(self, version: int) -> str:
        """The ``regions`` frame of this rendering as JSON text, encoded once for all its readers."""
        if version not in self._frames:
            self._frames.clear()
            self._frames[version] = json.dumps({"type": "regions", "version": version, "regions": self.regions},
                                               separators=(",", ":"))
        return self._frames[version]

    @property
    def shown(self) -> bool:
        return self.status == 200

    @property
    def failed(self) -> bool:
        """The server failed to render it: not a sign that the page is gone (the reader keeps what it shows)."""
        return self.status >= 500


class _NoSession(SessionBase):
    """A session that is never saved: the views of live pages read no session, but Django's auth may look."""

    def exists(self, session_key: str) -> bool:
        return False

    def create(self) -> None:
        self._session_key = None

    def save(self, must_create: bool = False) -> None:
        return None

    def delete(self, session_key: str | None = None) -> None:
        return None

    def load(self) -> dict:
        return {}


def regions_of(html: str) -> dict[str, str]:
    """The regions of a page's HTML by name.

    >>> regions_of('<p>x</p><div class="live-region" data-live-region="a"><b>1</b><!--/live:a--></div>')
    {'a': '<b>1</b>'}
    """
    return {found["name"]: found["body"] for found in REGION.finditer(html)}


def render_page(path: str, user: Any = None, host: str = "localhost") -> Rendered:
    """Render ``path`` by its view for ``user`` (``None``: a visitor) as a request to ``host`` would."""
    try:
        found = resolve(urlsplit(path).path)
    except Resolver404:
        return Rendered(404)
    request = _factory.get(path, HTTP_HOST=host)
    request.user = user if user is not None else AnonymousUser()
    request.session = _NoSession()
    request.resolver_match = found
    try:
        response = found.func(request, *found.args, **found.kwargs)
        if hasattr(response, "render"):
            response = response.render()
    except Http404:
        return Rendered(404)
    except PermissionDenied:
        return Rendered(403)
    except SuspiciousOperation as error:  # a host not allowed: as the page would answer it
        logger.warning("live page %s not rendered: %s", path, error)
        return Rendered(400)
    except Exception:  # a bug of the page: its readers keep what they have (a reload would show the 500)
        logger.exception("live page %s not rendered", path)
        return Rendered(500)
    if response.status_code != 200:
        return Rendered(response.status_code)
    return Rendered(200, regions_of(response.content.decode()))


async def render_in_thread(render: Callable[..., Rendered], *args: Any) -> Rendered:
    """Run ``render(*args)`` off the event loop. On a server database, in the live pages' own threads: not in the
    one thread that serves the process's requests (``thread_sensitive``), so that an API call (a hand entered)
    does not wait behind renderings, nor they behind it. One thread: the renderings are CPU-bound, under one GIL.
    On SQLite, in the requests' thread (its connection is the process's; a test's in-memory database is seen
    from it only)."""
    if connection.vendor == "sqlite":
        return await database_sync_to_async(render)(*args)
    return await asyncio.get_running_loop().run_in_executor(_renderer, _with_fresh_connection, render, args)


async def close_connections() -> None:
    """Close the database connections of the live pages' thread (a test's database can then be dropped)."""
    await asyncio.get_running_loop().run_in_executor(_renderer, connections.close_all)


def _with_fresh_connection(render: Callable[..., Rendered], args: tuple[Any, ...]) -> Rendered:
    close_old_connections()  # as a request does: a connection past its age or broken is not reused
    try:
        return render(*args)
    finally:
        close_old_connections()
