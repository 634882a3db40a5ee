"""Closing the tables nobody has touched for ``IDLE_SECONDS`` (a fixture's match is released with them)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from tables.changes import OPEN, leave_open, locked, publish, touch
from tables.models import Table

IDLE_SECONDS = 30 * 60
"""A table with no activity this long is closed (``close_idle``)."""


def close_idle(now: datetime | None = None, idle_seconds: int = IDLE_SECONDS) -> list[int]:
    """Close the tables with no activity for ``idle_seconds``; returns their ids."""
    now = now or timezone.now()
    closed = []
    for table_id in Table.objects.filter(status__in=(*OPEN, Table.FINISHED),
                                         last_activity_at__lt=now - timedelta(seconds=idle_seconds)
                                         ).values_list("pk", flat=True):
        with transaction.atomic():
            table = locked(table_id)
            if table.status == Table.CLOSED or table.last_activity_at >= now - timedelta(seconds=idle_seconds):
                continue
            leave_open(table, Table.CLOSED)
            touch(table, now)
            table.save()
            publish(table)
            closed.append(table_id)
    return closed
