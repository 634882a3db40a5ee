"""Noting the end of a database outage from the requests themselves: the first request after it that reached the
database and was answered logs "database reachable again" (``ops.outages``), without waiting for ``/readyz``."""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections

from ops import outages


def note_recovery(get_response):
    def middleware(request):
        response = get_response(request)
        if (outages.database.down and response.status_code < 500
                and connections[DEFAULT_DB_ALIAS].connection is not None):
            outages.database.answered()
        return response

    return middleware
