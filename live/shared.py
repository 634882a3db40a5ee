"""A visitors' rendering of a live page made once for all the ASGI processes of a cluster, not once in each.

Every process with readers of a public page hears the same notice (``live.hub``). The first to ask renders: it
claims the page in the shared cache (``cache.add``, which one process wins), renders, and stores the rendering with
its version; the others wait for that rendering instead of making their own, and take any stored rendering whose
version covers the notice. Only visitors' renderings (``PUBLIC``) are shared: what a signed-in reader sees is never
put in the cache.

A claim lapses after ``CLAIM_SECONDS`` (its process died mid-rendering) and is given back when the rendering
fails, so a waiting process then renders itself; no process waits longer than ``WAIT_SECONDS``. With the cache
down (django-redis ignores the outage: ``add`` answers ``None``) each process renders its own again, as before.

On by ``LIVE_SHARED_RENDERINGS`` (default: with ``REDIS_URL``, when the cache is shared by the processes).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.core.cache import cache

from live.render import Rendered

CLAIM_SECONDS = 3.0
WAIT_SECONDS = 3.0
POLL_SECONDS = 0.02
KEPT_SECONDS = 300
_cache_io = ThreadPoolExecutor(max_workers=2, thread_name_prefix="live-cache")


def enabled() -> bool:
    return bool(getattr(settings, "LIVE_SHARED_RENDERINGS", False))


def _names(key: tuple[str, str]) -> tuple[str, str]:
    digest = hashlib.sha256("\n".join(key).encode()).hexdigest()[:32]
    return f"live:rendering:{digest}", f"live:claim:{digest}"


async def _io(call: Callable[..., Any], *args: Any) -> Any:
    """A cache call off the event loop, in threads of its own: not behind the renderings nor the requests."""
    return await asyncio.get_running_loop().run_in_executor(_cache_io, call, *args)


def _stored(name: str) -> tuple[int, Rendered] | None:
    value = cache.get(name)
    if not isinstance(value, tuple) or len(value) != 3:
        return None
    version, status, regions = value
    return version, Rendered(status, regions)


async def render_once(key: tuple[str, str], wanted: int,
                      render: Callable[[], Awaitable[Rendered]]) -> tuple[int, Rendered]:
    """A rendering of ``key`` at a version ≥ ``wanted`` (a ``time.time_ns()``: what was committed when the rendering
    started), from another process when one made it or is making it, else rendered here and shared."""
    name, claim = _names(key)
    waited_until = time.monotonic() + WAIT_SECONDS
    while True:
        stored = await _io(_stored, name)
        if stored is not None and stored[0] >= wanted:
            return stored
        claimed = await _io(cache.add, claim, 1, CLAIM_SECONDS)
        if claimed or claimed is None or time.monotonic() >= waited_until:
            return await _render_and_share(name, claim if claimed else None, render)
        await asyncio.sleep(POLL_SECONDS)


async def _render_and_share(name: str, claim: str | None,
                            render: Callable[[], Awaitable[Rendered]]) -> tuple[int, Rendered]:
    version = time.time_ns()
    try:
        rendered = await render()
        if not rendered.failed:
            await _io(cache.set, name, (version, rendered.status, rendered.regions), KEPT_SECONDS)
        return version, rendered
    finally:
        if claim is not None:
            await _io(cache.delete, claim)
