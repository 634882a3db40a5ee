"""Django's e-mail framework, by way of the outbox (:mod:`accounts.models`).

``EMAIL_BACKEND`` is :class:`OutboxBackend`: ``send_mail()`` and every ``EmailMessage.send()`` (allauth's, the app's)
write the message to the outbox and return at once; a Celery task delivers it, once the caller's transaction has
committed, through ``EMAIL_DELIVERY_BACKEND`` — SMTP from ``EMAIL_URL`` in production, a folder of ``.log`` files in
the embedded default. :func:`deliver` is that task's work: a failure is tried again later (``RETRY_DELAYS``), and
after the last try the mail is given up with its error kept.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone

from accounts.models import MailState, OutgoingMail

logger = logging.getLogger(__name__)

# How long after each failed try the next one comes: the last is a day after the first failure.
RETRY_DELAYS = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(hours=1),
                timedelta(hours=4), timedelta(hours=8), timedelta(hours=12))
LEASE = timedelta(minutes=5)  # a try in progress holds its mail this long: then the sweep may take it again


class OutboxBackend(BaseEmailBackend):
    """Keeps each message in the outbox and queues its delivery for after the commit."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        kept = 0
        for message in email_messages:
            if not message.recipients():
                continue
            transaction.on_commit(partial(queue_delivery, keep(message).pk))
            kept += 1
        return kept


def keep(message: EmailMessage) -> OutgoingMail:
    html = next((content for content, mimetype in getattr(message, "alternatives", ())
                 if mimetype == "text/html"), "")
    return OutgoingMail.objects.create(
        subject=str(message.subject), body=str(message.body), html=html, from_email=message.from_email or "",
        to=list(message.to), cc=list(message.cc), bcc=list(message.bcc), reply_to=list(message.reply_to),
        headers=dict(message.extra_headers))


def queue_delivery(mail_id: int, countdown: float | None = None) -> None:
    from accounts.tasks import deliver_mail_task
    from league import dispatch

    # a broker that is down leaves the mail to the sweep (it is kept): the request goes on
    dispatch.send(deliver_mail_task, mail_id, countdown=countdown, when_down=dispatch.LATER)


def message_of(mail: OutgoingMail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(subject=mail.subject, body=mail.body, from_email=mail.from_email, to=mail.to,
                                     cc=mail.cc, bcc=mail.bcc, reply_to=mail.reply_to, headers=mail.headers)
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    return message


def claim(mail_id: int) -> OutgoingMail | None:
    """The mail, leased for one try, if it is waiting and due (a mail a try in another process holds is left)."""
    now = timezone.now()
    with transaction.atomic():
        mail = (OutgoingMail.objects.select_for_update(skip_locked=True)
                .filter(pk=mail_id, state=MailState.WAITING, next_try_at__lte=now).first())
        if mail is None:
            return None
        mail.tries += 1
        mail.next_try_at = now + LEASE
        mail.save(update_fields=["tries", "next_try_at"])
    return mail


def deliver(mail_id: int) -> MailState | None:
    """Try to send the mail once; the state it is left in (None: not due, or already sent)."""
    mail = claim(mail_id)
    if mail is None:
        return None
    try:
        connection = get_connection(settings.EMAIL_DELIVERY_BACKEND, fail_silently=False)
        connection.send_messages([message_of(mail)])
    except Exception as error:  # the mail server's refusal or silence, whatever its kind: tried again later
        return failed(mail, error)
    OutgoingMail.objects.filter(pk=mail.pk).update(state=MailState.SENT, sent_at=timezone.now(), last_error="")
    return MailState.SENT


def failed(mail: OutgoingMail, error: Exception) -> MailState:
    reason = f"{type(error).__name__}: {error}"[:2000]
    if mail.tries > len(RETRY_DELAYS):
        OutgoingMail.objects.filter(pk=mail.pk).update(state=MailState.GAVE_UP, last_error=reason)
        logger.error("gave up sending mail %s (%r to %s) after %s tries: %s", mail.pk, mail.subject,
                     ", ".join(mail.to), mail.tries, reason)
        return MailState.GAVE_UP
    delay = RETRY_DELAYS[mail.tries - 1]
    OutgoingMail.objects.filter(pk=mail.pk).update(next_try_at=timezone.now() + delay, last_error=reason)
    logger.warning("mail %s could not be sent (try %s), trying again in %s: %s", mail.pk, mail.tries, delay, reason)
    transaction.on_commit(lambda: queue_delivery(mail.pk, countdown=delay.total_seconds()))
    return MailState.WAITING


def sweep_mail(older_than: float) -> dict[str, int]:
    """Deliver the mails due for more than ``older_than`` seconds (their task lost, or never queued)."""
    due = timezone.now() - timedelta(seconds=older_than)
    ids = list(OutgoingMail.objects.filter(state=MailState.WAITING, next_try_at__lte=due)
               .order_by("next_try_at").values_list("pk", flat=True)[:200])
    sent = sum(deliver(pk) == MailState.SENT for pk in ids)
    return {"mails": sent}
