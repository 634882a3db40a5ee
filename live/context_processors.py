"""``live_version``: on a live page (``live.pages.LIVE_PAGES``), the version it is rendered at
(``live.middleware.stamp_request``); the page drops a rendering sent over its socket that is not newer. Other pages
get none, so that they stay the same bytes from one request to the next."""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest

from live.pages import LIVE_PAGES


def live_version(request: HttpRequest) -> dict[str, Any]:
    found = getattr(request, "resolver_match", None)
    if found is None or found.url_name not in LIVE_PAGES:
        return {}
    return {"live_version": getattr(request, "live_version", None) or time.time_ns()}
