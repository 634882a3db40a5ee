"""Fixtures of the browser tests: Debian's Chromium driven by Playwright (nothing downloads a browser).

The ``browser`` marker's skip-or-fail policy (skip without Chromium or Playwright, fail with
``REQUIRE_SERVICES=1``) lives in ``tests/conftest.py``. ``SCREENSHOT_DIR`` keeps the screenshots (else they go
to the test's temporary folder).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.db import connections

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture
def browser(monkeypatch):
    # Playwright's sync API keeps an event loop in this thread; the ORM calls of the test are still synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
            connections.close_all()  # the test's ORM calls in this thread opened their own connection


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
