"""The worker's parts that outlive a broker outage: its consumer and its task requests.

Tasks are acknowledged late (``CELERY_TASK_ACKS_LATE``), so while a task runs its message is unacknowledged. When
Redis goes away then, Celery closes the broken connection, and kombu's Redis channel, putting the unacknowledged
messages back, reads the connection's address from a client already let go: ``AttributeError: 'NoneType' object
has no attribute 'hostname'``, which the worker takes as unrecoverable. It exited for good, and settles, standings
and pairings stopped until someone restarted it. The same error comes from a task that ends during the outage
and cannot be acknowledged. Here both are one warning line: the broken connection is dropped all the same and the
worker reconnects; the message stays unacknowledged and Redis hands it out again after its visibility timeout
(the tasks are written to be run twice).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task
from celery.worker.consumer import Consumer
from celery.worker.request import Request

logger = logging.getLogger(__name__)


class OutageTolerantRequest(Request):
    """Celery's request, whose acknowledgement (or rejection) falling into a broker outage is a warning, not the
    end of the worker."""

    acknowledged: bool  # Celery's own attribute, declared for mypy (celery ships no types)

    def acknowledge(self) -> None:
        if self.acknowledged:
            return
        try:
            self.message.ack()
        except (*self.connection_errors, AttributeError) as error:
            self._not_told("acknowledged", error)
        self.acknowledged = True

    def reject(self, requeue: bool = False) -> None:
        if self.acknowledged:
            return
        try:
            self.message.reject(requeue=requeue)
        except (*self.connection_errors, AttributeError) as error:
            self._not_told("rejected", error)
        self.acknowledged = True
        self.send_event("task-rejected", requeue=requeue)

    def _not_told(self, what: str, error: BaseException) -> None:
        logger.warning("task %s[%s] not %s: the broker is unreachable (%s); it is delivered again after the "
                       "visibility timeout", self.task_name, self.id, what, type(error).__name__)


class OutageTolerantTask(Task):
    """The app's task class (``Celery(task_cls=…)``): every task's requests are :class:`OutageTolerantRequest`."""

    Request = "config.worker:OutageTolerantRequest"


class OutageTolerantConsumer(Consumer):
    """Celery's consumer (``CELERY_WORKER_CONSUMER``), for which closing a connection Redis broke is never fatal."""

    connection: Any  # Celery's own attribute, declared for mypy (celery ships no types)

    def on_connection_error_after_connected(self, exc: Any) -> None:
        if self.connection is not None:
            self.connection = ClosingQuietly(self.connection)
        super().on_connection_error_after_connected(exc)


class ClosingQuietly:
    """A broker connection whose ``close()`` cannot fail on a client already let go; everything else is the
    connection's own."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)

    def close(self) -> None:
        try:
            self.connection.close()
        except AttributeError as error:  # putting messages back through a client already let go
            logger.warning("the broken broker connection was dropped without putting back its unacknowledged "
                           "messages (%s); they are delivered again after the visibility timeout", error)

    release = close
