"""A visitors' rendering made once for all the ASGI processes (``live.shared``): two hubs stand for two processes,
sharing the configured cache (django-redis with ``REDIS_URL``, as in production; else the process's own memory).
Their pages are made up (no database): what is tested is who renders, and what each reader is sent."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from django.core.cache import cache

from live import hub as hub_module
from live import shared
from live.hub import Hub
from live.pages import LivePage
from live.render import Rendered
from tests import waiting

pytestmark = [pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def sharing_on(settings):
    settings.LIVE_SHARED_RENDERINGS = True


class Reader:
    def __init__(self) -> None:
        self.received: list[tuple[int, Rendered]] = []

    async def rendered(self, version: int, rendered: Rendered) -> None:
        self.received.append((version, rendered))


class Renderer:
    """A page's view: each call is one rendering, which takes ``seconds``."""

    def __init__(self, seconds: float = 0.05, status: int = 200) -> None:
        self.calls, self.seconds, self.status = 0, seconds, status

    async def __call__(self) -> Rendered:
        self.calls += 1
        await asyncio.sleep(self.seconds)
        return Rendered(self.status, {"content": f"rendering {uuid.uuid4()}"})


def a_page(reader_id: int | None = None) -> LivePage:
    return LivePage(f"/clubs/c/competitions/{uuid.uuid4().hex}/standings/", competition_id=1, reader_id=reader_id)


async def opened(hub: Hub, page: LivePage, render: Renderer) -> Reader:
    reader = Reader()
    await hub.current(page, render)
    await hub.watch(page, reader)
    return reader


async def notice_to(*hubs: Hub) -> int:
    """A commit's notice, heard by each of ``hubs``; its version."""
    message = {"type": "live.notice", "competition": 1, "version": time.time_ns(), "matches": [], "wide": True}
    for one in hubs:
        one.notice(message)
    return message["version"]


async def until(condition, timeout: float = 5.0) -> None:
    await waiting.until(condition, timeout, "the hubs' readers and renderings", interval=0.01)


async def idle(*hubs: Hub) -> None:
    """Until every hub's rendering loop has ended: a rendering that would follow the first has run by then."""
    await until(lambda: all(watched.task is None or watched.task.done()
                            for hub in hubs for watched in hub._watched.values()))


async def closed(hub: Hub, page: LivePage, *readers: Reader) -> None:
    for reader in readers:
        await hub.leave(page.key, reader)


async def test_a_notice_heard_by_two_processes_costs_one_rendering_and_both_send_it():
    first, second, page = Hub(), Hub(), a_page()
    render_first, render_second = Renderer(), Renderer()
    reader_first = await opened(first, page, render_first)
    reader_second = await opened(second, page, render_second)
    before = render_first.calls + render_second.calls
    await notice_to(first, second)
    await until(lambda: reader_first.received and reader_second.received)
    await idle(first, second)  # no second rendering follows
    assert render_first.calls + render_second.calls == before + 1
    assert reader_first.received == reader_second.received  # the same version and regions, from one rendering
    await closed(first, page, reader_first)
    await closed(second, page, reader_second)


async def test_a_signed_in_readers_page_is_rendered_by_each_process_and_never_put_in_the_cache():
    first, second, page = Hub(), Hub(), a_page(reader_id=7)
    render_first, render_second = Renderer(), Renderer()
    reader_first = await opened(first, page, render_first)
    reader_second = await opened(second, page, render_second)
    await notice_to(first, second)
    await until(lambda: reader_first.received and reader_second.received)
    assert (render_first.calls, render_second.calls) == (2, 2)  # its opening and the notice, in each process
    assert cache.get(shared._names(page.key)[0]) is None
    await closed(first, page, reader_first)
    await closed(second, page, reader_second)


async def test_an_older_shared_rendering_does_not_answer_a_newer_notice():
    first, page = Hub(), a_page()
    render = Renderer()
    reader = await opened(first, page, render)
    version = await notice_to(first)
    await until(lambda: reader.received)
    assert render.calls == 2  # the rendering kept at the opening was older than the notice
    assert reader.received[0][0] >= version
    await closed(first, page, reader)


async def test_a_claim_left_by_a_process_that_died_lapses_and_another_renders(monkeypatch):
    first, page = Hub(), a_page()
    render = Renderer()
    reader = await opened(first, page, render)
    cache.add(shared._names(page.key)[1], 1, 0.5)  # a process claimed the page and died before storing it
    started = time.monotonic()
    await notice_to(first)
    await until(lambda: reader.received)
    assert 0.4 <= time.monotonic() - started < shared.WAIT_SECONDS
    assert render.calls == 2
    await closed(first, page, reader)


async def test_a_rendering_that_failed_is_not_shared_and_the_waiting_process_renders_its_own():
    first, second, page = Hub(), Hub(), a_page()
    failing, working = Renderer(seconds=0.2), Renderer()
    reader_first = await opened(first, page, failing)
    reader_second = await opened(second, page, working)
    failing.status = 500
    before = working.calls
    await asyncio.sleep(hub_module.MIN_GAP)  # both may render again at once
    failed_before = failing.calls
    await notice_to(first)  # the first process claims and starts its rendering
    await until(lambda: failing.calls > failed_before)
    await notice_to(second)  # the second waits for it
    await until(lambda: reader_second.received and reader_second.received[-1][1].shown)
    assert working.calls == before + 1
    assert all(rendered.shown for _, rendered in reader_second.received)
    await closed(first, page, reader_first)
    await closed(second, page, reader_second)


async def test_with_the_cache_down_each_process_renders_its_own_at_once(monkeypatch):
    class Down:
        def get(self, *args, **kwargs):
            return None

        def add(self, *args, **kwargs):
            return None  # as django-redis answers when it ignores an outage

        set = delete = get

    monkeypatch.setattr(shared, "cache", Down())
    first, second, page = Hub(), Hub(), a_page()
    render_first, render_second = Renderer(seconds=0.3), Renderer(seconds=0.3)
    reader_first = await opened(first, page, render_first)
    reader_second = await opened(second, page, render_second)
    started = time.monotonic()
    await notice_to(first, second)
    await until(lambda: reader_first.received and reader_second.received)
    assert time.monotonic() - started < 0.3 + hub_module.MIN_GAP + 0.5  # no wait for a claim
    assert (render_first.calls, render_second.calls) == (2, 2)
    await closed(first, page, reader_first)
    await closed(second, page, reader_second)


async def test_sharing_off_renders_in_each_process(settings):
    settings.LIVE_SHARED_RENDERINGS = False
    first, second, page = Hub(), Hub(), a_page()
    render_first, render_second = Renderer(), Renderer()
    reader_first = await opened(first, page, render_first)
    reader_second = await opened(second, page, render_second)
    await notice_to(first, second)
    await until(lambda: reader_first.received and reader_second.received)
    assert (render_first.calls, render_second.calls) == (2, 2)
    await closed(first, page, reader_first)
    await closed(second, page, reader_second)
