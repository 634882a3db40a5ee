"""Fixtures of the browser tests: Debian's Chromium driven by Playwright (nothing downloads a browser).

The ``browser`` marker's skip-or-fail policy (skip without Chromium or Playwright, fail with
``REQUIRE_SERVICES=1``) lives in ``tests/conftest.py``. ``SCREENSHOT_DIR`` keeps the screenshots (else they go
to the test's temporary folder).

One Chromium serves the whole session (of each xdist worker); each test gets it with no context open, and the
contexts it opened are closed after it.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest
from django.core.signals import request_finished, request_started
from django.db import connections

from tests.waiting import wait_until

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


class SessionChromium:
    """Playwright's sync API and one Chromium, kept for the session.

    Between its calls Playwright leaves its event loop marked as the thread's running loop (its dispatcher is
    suspended inside that loop). Left so between tests, every later test that runs an event loop of its own in
    this thread (pytest-asyncio, ``async_to_sync``) would be refused. So the mark is set only while a browser test
    runs (``lend``) and cleared after it (``take_back``)."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._manager = sync_playwright()
        self._playwright = self._manager.start()
        self.loop = self._manager._loop
        self.chromium = self._playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        self.take_back()

    def lend(self):
        asyncio._set_running_loop(self.loop)
        return self.chromium

    def take_back(self) -> None:
        asyncio._set_running_loop(None)

    def close_contexts(self) -> None:
        for context in list(self.chromium.contexts):
            context.close()

    def stop(self) -> None:
        self.lend()
        try:
            self.chromium.close()
        finally:
            self._playwright.stop()  # also clears the running-loop mark as the loop closes
            asyncio._set_running_loop(None)


@pytest.fixture(scope="session")
def _session_chromium():
    session = SessionChromium()
    try:
        yield session
    finally:
        session.stop()


class RequestsInFlight:
    """The live server's requests still being answered (it runs in threads of this process): the threads between
    Django's request_started and request_finished signals. The test's own thread (its test client) and threads
    that are gone are not counted."""

    def __init__(self) -> None:
        self.threads: set[int] = set()
        self.lock = threading.Lock()
        request_started.connect(self.started, dispatch_uid="tests.browser.requests_in_flight.started")
        request_finished.connect(self.finished, dispatch_uid="tests.browser.requests_in_flight.finished")

    def started(self, **kwargs) -> None:
        with self.lock:
            self.threads.add(threading.get_ident())

    def finished(self, **kwargs) -> None:
        with self.lock:
            self.threads.discard(threading.get_ident())

    def answering(self) -> set[int]:
        alive = {thread.ident for thread in threading.enumerate()} - {threading.get_ident()}
        with self.lock:
            return self.threads & alive


IN_FLIGHT = RequestsInFlight()


@pytest.fixture
def browser(_session_chromium, monkeypatch):
    # Playwright's sync API keeps an event loop in this thread; the ORM calls of the test are still synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    chromium = _session_chromium.lend()
    try:
        yield chromium
    finally:
        try:
            _session_chromium.close_contexts()
            # a request the pages sent just before they closed is still answered in the live server's thread; the
            # database's flush after the test would deadlock with its transaction
            wait_until(lambda: not IN_FLIGHT.answering(), timeout=20, what="the live server's last requests answered")
        finally:
            _session_chromium.take_back()
            connections.close_all()  # the test's ORM calls in this thread opened their own connection


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
