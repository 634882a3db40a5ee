"""The clock and the bots of the online tables, with no Celery needed: a task on the ASGI process's event loop.

A daphne process starts it as soon as its event loop runs (:func:`start_with_the_server`, from
``TablesConfig.ready``), so that a server started again after a crash makes the pending moves with nobody connected;
in any other process the first socket accepted starts it (:func:`ensure_running`: one per process and event loop,
idempotent).
Every ``TABLES_TICK`` seconds (the setting, a quarter of a second by default) it asks ``clock.due_moves`` which
tables have a move due (a bot's pace passed, a player's clock run out, a player away long enough to be covered) and
has ``clock.play_due`` make each one in a thread,
never on the event loop: a quick bot's move in Django's thread for the sockets' database work (one writer at a time,
as SQLite wants); a move of the ``montecarlo`` bot, which thinks for a while, in a thread of its own so that it
holds up no socket, or with Celery workers (``REDIS_URL``) on a worker (``tables.tasks.play_due_task``). Deadlines
live in the database, so a restarted process picks up the pending ones at its first tick; two processes ticking at
once are harmless (``play_due`` locks the table and does nothing when the move is no longer due). Every
``IDLE_EVERY`` seconds idle tables are closed, and every ``events.START_EVERY`` seconds the tables of a competition
played online that are due to start are started (``tables.events.start_due``: their start time is in the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import F

from league import dispatch
from tables import clock, closing, events
from tables.models import Seat
from tables.tasks import play_due_task

logger = logging.getLogger(__name__)

IDLE_EVERY = 60.0  # s between two closings of idle tables
MAX_PAUSE = 5.0  # s between two ticks at most, while they keep failing
SENT_GRACE = 5.0  # s a move sent to a worker is left to it before this process sends it again
STRONG_BOT = "montecarlo"

_task: asyncio.Task | None = None
_busy: set[int] = set()  # tables whose due move this process is making now
_sent: dict[int, float] = {}  # table → when its due move was sent to a worker


def ensure_running() -> asyncio.Task:
    """Start the ticker on the running loop unless it runs there already."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _busy.clear()
        _sent.clear()
        _task = loop.create_task(_run(), name="tables.ticker")
    return _task


def serving(argv: Sequence[str], environ: Mapping[str, str]) -> bool:
    """Whether the process started as ``argv`` is an ASGI server whose ticker starts with it: ``daphne``, or
    ``manage.py runserver`` (daphne's) in the process that serves (``--noreload``, or the reloader's child).
    ``TABLES_TICKER=1`` / ``0`` says so whatever the command.

    >>> serving(["manage.py", "runserver", "--noreload"], {}), serving(["/venv/bin/daphne", "config.asgi:app"], {})
    (True, True)
    >>> serving(["manage.py", "runserver"], {}), serving(["manage.py", "runserver"], {"RUN_MAIN": "true"})
    (False, True)
    >>> serving(["manage.py", "migrate"], {}), serving(["pytest"], {"TABLES_TICKER": "1"})
    (False, True)
    """
    forced = environ.get("TABLES_TICKER", "").strip().lower()
    if forced in ("1", "true", "yes", "on"):
        return True
    if forced in ("0", "false", "no", "off"):
        return False
    if not argv:
        return False
    if Path(argv[0]).name == "daphne" or Path(argv[0]).parent.name == "daphne":  # daphne, python -m daphne
        return True
    if len(argv) > 1 and argv[1] == "runserver":
        return "--noreload" in argv or environ.get("RUN_MAIN") == "true"
    return False


def start_with_the_server() -> bool:
    """``TablesConfig.ready``: in an ASGI server process (:func:`serving`), start the ticker on the server's event
    loop as soon as it runs, not at the first socket. Deadlines live in the database: a server killed with a bot
    due to move or a player's clock running makes those moves once started again, whether or not anyone has
    reconnected. daphne's loop is its Twisted reactor's (installed by the ``daphne`` app, first in
    ``INSTALLED_APPS``); with no such reactor the first socket starts the ticker. Returns whether it was
    arranged."""
    if not serving(sys.argv, os.environ):
        return False
    reactor = sys.modules.get("twisted.internet.reactor")
    loop = getattr(reactor, "_asyncioEventloop", None)
    if reactor is None or loop is None:
        return False
    reactor.callWhenRunning(loop.call_soon, ensure_running)
    return True


async def stop() -> None:
    """Stop the ticker (tests; a process shutting down)."""
    global _task
    task, _task = _task, None
    _busy.clear()
    _sent.clear()
    if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def workers() -> bool:
    """Whether tasks go to Celery workers (``REDIS_URL`` set) rather than run in-process."""
    return not settings.CELERY_TASK_ALWAYS_EAGER


def pause_after(failures: int, tick: float) -> float:
    """Seconds before the next tick after ``failures`` failed ticks in a row: ``tick``, then doubling up to
    ``MAX_PAUSE`` (a database down, or not migrated yet, is not asked four times a second).

    >>> [pause_after(n, 0.25) for n in (0, 1, 2, 3, 10)]
    [0.25, 0.5, 1.0, 2.0, 5.0]
    """
    return min(MAX_PAUSE, tick * 2 ** min(failures, 16))


async def _run() -> None:
    last_idle, last_starts = time.monotonic(), 0.0  # the event tables due: at once, then every START_EVERY
    failures = 0
    while True:
        try:
            await tick()
            if time.monotonic() - last_idle >= IDLE_EVERY:
                last_idle = time.monotonic()
                await database_sync_to_async(closing.close_idle)()
            if time.monotonic() - last_starts >= events.START_EVERY:
                last_starts = time.monotonic()
                await database_sync_to_async(events.start_due)()
            failures = 0
        except asyncio.CancelledError:
            raise
        except Exception:  # a database hiccup: the next tick tries again, a little later each time
            failures += 1
            if failures == 1 or failures % 100 == 0:  # the first failure in a row, then now and then
                logger.exception("the tables' ticker failed a tick (%s in a row)", failures)
        await asyncio.sleep(pause_after(failures, settings.TABLES_TICK))


async def tick() -> list[int]:
    """Start the due moves this process is not already making; returns the tables started."""
    due = [table_id for table_id in await database_sync_to_async(clock.due_moves)() if table_id not in _busy]
    now = time.monotonic()
    due = [table_id for table_id in due if now - _sent.get(table_id, -SENT_GRACE) >= SENT_GRACE]
    if not due:
        return []
    strong = await database_sync_to_async(strong_moves)(due)
    for table_id in due:
        if table_id in strong and workers():
            _sent[table_id] = now
            await database_sync_to_async(_send_to_worker)(table_id)
        else:
            _busy.add(table_id)
            asyncio.get_running_loop().create_task(_play(table_id, apart=table_id in strong))
    return due


def strong_moves(table_ids: Iterable[int]) -> set[int]:
    """The tables among ``table_ids`` whose seat to move is played by the slow bot."""
    return set(Seat.objects.filter(table_id__in=list(table_ids), bot=STRONG_BOT, index=F("table__turn"))
               .values_list("table_id", flat=True))


def _send_to_worker(table_id: int) -> None:
    dispatch.send(play_due_task, table_id)


async def _play(table_id: int, *, apart: bool) -> None:
    """The due move, in Django's thread for the database work or (``apart``: the slow bot) a thread of its own."""
    try:
        await database_sync_to_async(clock.play_due, thread_sensitive=not apart)(table_id)
    except Exception:
        logger.exception("the due move of table %s failed", table_id)
    finally:
        _busy.discard(table_id)
