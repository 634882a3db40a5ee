"""The tables' Celery task: a due move of the slow bot, made by a worker so that it never holds up the ASGI
process's event loop or its threads (``tables.ticker`` sends it only when there are workers)."""

from __future__ import annotations

from celery import shared_task

from tables import clock


@shared_task(ignore_result=True, acks_late=True)
def play_due_task(table_id: int) -> None:
    """Make the table's due move, if it is still due (``clock.play_due`` locks the table and checks)."""
    clock.play_due(table_id)
