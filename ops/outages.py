"""An outage of a service the site cannot do without — the database, or Redis where a request needs it — told apart
from a bug: the request is answered 503 with ``Retry-After`` (``ops.errors``), not 500, and the log has one line
when the outage starts and one when the service answers again, per process, instead of a traceback per request
(:class:`DropOutageTracebacks`, the filter on ``django.request`` in ``settings.LOGGING``).

>>> from django.db import OperationalError
>>> outage_of(OperationalError("connection refused")).name
'database'
>>> outage_of(ValueError("a bug")) is None
True
"""

from __future__ import annotations

import logging

from django.db import InterfaceError as DatabaseInterfaceError
from django.db import OperationalError as DatabaseOperationalError
from kombu.exceptions import OperationalError as TransportError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from league.outages import Outage

logger = logging.getLogger(__name__)
RETRY_AFTER = 10  # s: what a 503 asks the client to wait before it tries again
# PostgreSQL's error classes that mean the server cannot be reached or is going away (SQLSTATE 08: connection
# exceptions; 57P01-57P03: terminated by the administrator, crash shutdown, cannot connect now). An error with no
# SQLSTATE at all (connection refused, server closed the connection) is an outage too; any other is a query's own
# error (a deadlock, a serialization failure, SQLite's "database is locked"), answered as before.
OUTAGE_SQLSTATES = ("08", "57P01", "57P02", "57P03")
CHAIN_DEPTH = 8  # how far down __cause__ / __context__ an outage is looked for (django-redis wraps Redis' error)


class Service(Outage):
    """A service requests cannot do without: :class:`league.outages.Outage` (one warning when it stops answering, one
    line when it answers again, per process and thread-safe), with the words a 503 says while it is down."""

    def __init__(self, name: str, unavailable: str) -> None:
        super().__init__(name, while_down="requests that need it are answered 503", log=logger)
        self.unavailable = unavailable

    @property
    def name(self) -> str:
        return self.service

    def down_message(self, doing: str, error: BaseException) -> str:
        return f"{self.service} unreachable: {short_reason(error)}"

    def back_message(self, seconds: float) -> str:
        return f"{self.service} reachable again, after {seconds:.0f} s"


database = Service("database", "The site cannot reach its database just now: try again in a moment.")
redis = Service("redis", "The site cannot reach its message server just now: try again in a moment.")
SERVICES = (database, redis)


def short_reason(error: BaseException) -> str:
    """The error's first line, for the log (not for the client: it may name a host)."""
    lines = str(error).strip().splitlines()
    return (lines[0][:200] if lines else "") or error.__class__.__name__


def _database_outage(error: BaseException) -> bool:
    if isinstance(error, DatabaseInterfaceError):  # a connection already closed
        return True
    if not isinstance(error, DatabaseOperationalError):
        return False
    state = getattr(error.__cause__, "sqlstate", None) or getattr(error.__cause__, "pgcode", None)
    if state is None:
        return not hasattr(error.__cause__, "sqlite_errorcode")  # SQLite's own errors are contention, not outages
    return str(state).startswith(OUTAGE_SQLSTATES)


def outage_of(error: BaseException | None) -> Service | None:
    """The service whose outage ``error`` is (or is caused by), or None for any other error."""
    for _ in range(CHAIN_DEPTH):
        if error is None:
            return None
        if _database_outage(error):
            return database
        if isinstance(error, RedisConnectionError | RedisTimeoutError | TransportError):
            return redis
        error = error.__cause__ or error.__context__
    return None


OUTAGE_MARK = "answered_as_outage"  # set on the request a 503 of an outage answered


def mark_answered_as_outage(request) -> None:
    setattr(getattr(request, "_request", request), OUTAGE_MARK, True)


class DropOutageTracebacks(logging.Filter):
    """On ``django.request``: drops the error Django logs, with its traceback, for each request an outage failed —
    :class:`Service` logs the outage once instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and outage_of(record.exc_info[1]) is not None:
            return False
        return not getattr(getattr(record, "request", None), OUTAGE_MARK, False)
