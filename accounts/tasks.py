"""The mail's task: each kept mail is delivered by a worker (:mod:`accounts.mail`)."""

from __future__ import annotations

from celery import shared_task

from accounts.mail import deliver


@shared_task(acks_late=True, ignore_result=True)
def deliver_mail_task(mail_id: int) -> str | None:
    state = deliver(mail_id)
    return state.value if state is not None else None
