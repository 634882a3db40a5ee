"""When a request began, for the live pages: the version a page is rendered at (``live.context_processors``)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


def stamp_request(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Every change committed before a request began is in its page; a notice of a later change carries a later
    version (``live.notices``), so a page drops only the renderings that it already shows."""

    def middleware(request: HttpRequest) -> HttpResponse:
        request.live_version = time.time_ns()  # type: ignore[attr-defined]  # our own mark on the request
        return get_response(request)

    return middleware
