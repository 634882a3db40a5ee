"""``live_version``: the version of the page being rendered (``live.middleware.stamp_request``)."""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest


def live_version(request: HttpRequest) -> dict[str, Any]:
    return {"live_version": getattr(request, "live_version", None) or time.time_ns()}
