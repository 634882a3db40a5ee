"""The worker's parts that outlive a broker outage (config.worker), one by one: closing a connection Redis broke,
and acknowledging or rejecting a task that ended while Redis was away, are one warning each, never an error that
stops the worker. tests/config/test_worker_outage.py shows the whole worker riding out an outage."""

from __future__ import annotations

import logging

import pytest
from celery.worker.consumer import Consumer
from celery.worker.request import Request

from config.celery import app
from config.sweep import sweep_task
from config.worker import ClosingQuietly, OutageTolerantConsumer, OutageTolerantRequest

LET_GO = AttributeError("'NoneType' object has no attribute 'hostname'")  # kombu's, from a client let go


class BrokenConnection:
    """A connection whose close, putting unacknowledged messages back, meets a client already let go."""

    connection_errors = (ConnectionError,)
    channel_errors = ()
    closed = False

    def close(self) -> None:
        raise LET_GO

    def collect(self, socket_timeout: float | None = None) -> None:
        self.closed = True


def test_closing_a_broken_connection_is_a_warning_not_the_end_of_the_worker(caplog):
    connection = BrokenConnection()
    with caplog.at_level(logging.WARNING, logger="config.worker"):
        ClosingQuietly(connection).close()
    assert "dropped without putting back its unacknowledged messages" in caplog.text
    assert ClosingQuietly(connection).connection_errors == (ConnectionError,), "the rest is the connection's"


def test_the_app_uses_the_outage_tolerant_consumer_and_requests():
    assert app.conf.worker_consumer == "config.worker:OutageTolerantConsumer"
    assert issubclass(OutageTolerantConsumer, Consumer)
    assert app.tasks[sweep_task.name].Request == "config.worker:OutageTolerantRequest"


class Message:
    """A message whose broker went away: acknowledging or rejecting it meets the client let go."""

    headers = {"id": "task-1", "task": sweep_task.name}
    body, content_type, content_encoding, delivery_info, properties = ((), {}, {}), None, None, {}, {}

    def ack(self) -> None:
        raise LET_GO

    def reject(self, requeue: bool = False) -> None:
        raise ConnectionError("Connection refused")


@pytest.mark.parametrize("step", ["acknowledge", "reject"])
def test_a_task_ending_in_an_outage_is_left_unacknowledged_with_one_warning(step, caplog):
    request = OutageTolerantRequest(Message(), app=app, task=app.tasks[sweep_task.name], decoded=True,
                                    connection_errors=(ConnectionError,))
    assert isinstance(request, Request) and not request.acknowledged
    with caplog.at_level(logging.WARNING, logger="config.worker"):
        getattr(request, step)()
    assert request.acknowledged, "not tried again on this connection"
    assert len(caplog.records) == 1 and "not " in caplog.text and "visibility timeout" in caplog.text
