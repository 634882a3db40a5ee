"""The notifications' tasks: each delivery sent by a worker, each announcement done by one, the reminders on
celery beat's schedule — and the sweep's part (``config.sweep``), which redoes what a lost task left."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from notify import announcements, delivery, reminders
from notify.models import Announcement


@shared_task(acks_late=True, ignore_result=True)
def deliver_task(delivery_id: int) -> str | None:
    state = delivery.deliver(delivery_id)
    return state.value if state is not None else None


@shared_task(acks_late=True, ignore_result=True)
def announce_task(announcement_id: int) -> int:
    return announcements.run(announcement_id)


@shared_task(acks_late=True, ignore_result=True)
def send_reminders_task() -> int:
    return reminders.remind()


def sweep_notifications(older_than: float) -> dict[str, int]:
    """The announcements whose task was lost and the deliveries due (a lost task, a retry's time, a push whose
    worker died once its lease ran out); and the reminders due, which are not lost work (beat's schedule also
    runs them), so not counted."""
    due = timezone.now() - timedelta(seconds=older_than)
    waiting = Announcement.objects.filter(created_at__lte=due).order_by("created_at").values_list("pk", flat=True)
    told = sum(announcements.run(pk) for pk in waiting[:50])
    reminders.remind()
    return {"announced": told, "notifications_delivered": delivery.sweep_deliveries(older_than)}
