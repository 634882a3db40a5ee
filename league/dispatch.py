"""Sending work to the Celery workers — or doing it here when the broker cannot be reached.

Every task the app queues goes through :func:`send`. A broker that does not answer must never fail a request or
make it slow: the first send that fails marks the broker down (one warning for the whole outage), and for
``RETRY_AFTER`` seconds sends do not even try it; then one send tries again, and the first that gets through
logs that the broker is back. While it is down, a task whose work the request's reader expects at once (a settle,
the standings, a pairing) runs here in-process (``RUN_HERE``); a task whose work can wait for a worker (the
ratings rebuild, debounced) is left to the workers' sweep (``LATER``): what it would do is kept as a request in
the database, so nothing is lost.

The state is per process: each web process notes an outage once.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.exceptions import OperationalError as TransportError
from redis.exceptions import RedisError

from league.outages import Outage

logger = logging.getLogger(__name__)
RETRY_AFTER = 10.0  # s: while the broker is down, how long sends go without trying it
RUN_HERE, LATER = "run here", "later"
BROKER_ERRORS = (TransportError, RedisError, OSError)  # the broker (its connection) failed, not the task
# One try and one quick retry: a broker that does not answer fails the send in well under a second, and the request
# goes on (the work runs here, or waits for the sweep). Only these sends: the workers' own publishing keeps
# Celery's patient default.
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


class _BrokerState(Outage):
    def __init__(self) -> None:
        super().__init__("the task broker", while_down="tasks run in this process, or wait for a worker",
                         retry_after=RETRY_AFTER, log=logger)


broker = _BrokerState()


def send(task: Any, *args: Any, countdown: float | None = None, when_down: str = RUN_HERE) -> bool:
    """Queue ``task(*args)`` (after ``countdown`` seconds); True when it was queued (or, with no broker
    configured — the embedded default, where Celery runs every task eagerly — when it ran).

    When the broker cannot be reached: ``when_down=RUN_HERE`` runs the task here and now; ``LATER`` leaves the
    work to the workers' sweep. An error of the task itself is logged, never raised: the caller's own work is
    done and committed, and the sweep redoes what the task left undone."""
    eager = bool(task.app.conf.task_always_eager)
    if broker.may_try() or eager:
        try:
            # nobody waits for these results: without ignore_result the result store is also contacted per send
            task.apply_async(args=args, countdown=countdown, ignore_result=True,
                             retry_policy=PUBLISH_RETRY_POLICY)
        except Exception as error:
            if eager:  # the task ran in apply_async and failed: no broker was involved
                logger.exception("%s%r failed in-process; the workers' sweep will redo it", task.name, args)
                return False
            if not isinstance(error, BROKER_ERRORS):  # not sent, for a reason of its own: not an outage
                logger.exception("%s%r could not be sent", task.name, args)
            else:
                broker.failed(f"sending {task.name}", error)
        else:
            broker.answered()
            return True
    if when_down == RUN_HERE:
        run_here(task, *args)
    return False


def run_here(task: Any, *args: Any) -> None:
    """Run the task in this process now; its failure is logged (the sweep redoes what it left undone)."""
    try:
        task.apply(args=args, throw=True)
    except Exception:
        logger.exception("%s%r failed in-process; the workers' sweep will redo it", task.name, args)
