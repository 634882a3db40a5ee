"""Sending each delivery once it is queued: the e-mail into the outbox, the push to the phone's push service.

A delivery is claimed in a transaction of its own (``select_for_update(skip_locked=True)``), so two workers given
the same delivery (its task and the sweep, or a task delivered twice) never both send it.

- **E-mail**: the message goes into the outbox (``accounts.mail``) in the same transaction that marks the delivery
  sent, so it is kept exactly once; the outbox delivers it, with its own retries and sweep. Its ``Message-ID`` is
  the notification's, so a mail the outbox sends again after a worker died mid-send is the same message.
- **Push**: the try holds the delivery for ``LEASE`` (state ``sending``) while it talks to the push service, then
  marks it sent. A worker killed in between leaves the lease to run out, and the sweep sends the push again with
  the same ``Topic`` and tag (``notify.push``): at least once, shown once. A refused push is tried again later
  (``RETRY_DELAYS``) and given up after the last try; a phone whose subscription is gone (404, 410) is forgotten.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from notify import push
from notify.models import Channel, Delivery, DeliveryState, Notification, PushSubscription
from notify.selectors import email_addresses

logger = logging.getLogger(__name__)
LEASE = timedelta(seconds=60)  # a push try holds its delivery this long (the push's timeout is 10 s)
RETRY_DELAYS = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(hours=1),
                timedelta(hours=4))
SWEEP_LIMIT = 200
DUE = (DeliveryState.WAITING, DeliveryState.SENDING)  # a delivery sending whose lease ran out is due again


def queue_deliveries(delivery_ids: list[int]) -> None:
    """A task each; a broker that is down leaves them to the sweep (they are kept)."""
    from league import dispatch
    from notify.tasks import deliver_task

    for delivery_id in delivery_ids:
        dispatch.send(deliver_task, delivery_id, when_down=dispatch.LATER)


def deliver(delivery_id: int) -> DeliveryState | None:
    """Send the delivery if it is due; the state it is left in (None: not due, taken by another try, or gone)."""
    channel = Delivery.objects.filter(pk=delivery_id).values_list("channel", flat=True).first()
    if channel == Channel.EMAIL:
        return _into_the_outbox(delivery_id)
    if channel == Channel.PUSH:
        return _push(delivery_id)
    return None


def _due(delivery_id: int):
    return (Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(pk=delivery_id, state__in=DUE, next_try_at__lte=timezone.now()))


# ----------------------------------------------------------------------------- e-mail
def message_id(notification: Notification) -> str:
    """The mail's Message-ID, the notification's own: the same on every try."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"<{notification.tag}.notification@{domain}>"


def mail_body(notification: Notification) -> str:
    settings_page = settings.SITE_URL + reverse("notification_settings")
    return (f"{notification.body}\n\n{notification.url}\n\n--\nWhat the All Fours League sends you, and how: "
            f"{settings_page}\n")


def _into_the_outbox(delivery_id: int) -> DeliveryState | None:
    from django.core.mail import EmailMessage

    with transaction.atomic():
        delivery = _due(delivery_id).select_related("notification").first()
        if delivery is None:
            return None
        notification = delivery.notification
        delivery.tries += 1
        address = email_addresses([notification.user_id]).get(notification.user_id, "")
        if not address:
            delivery.state, delivery.last_error = DeliveryState.GAVE_UP, "no confirmed e-mail address"
            delivery.save(update_fields=["state", "tries", "last_error"])
            return DeliveryState.GAVE_UP
        EmailMessage(subject=notification.title, body=mail_body(notification), to=[address],
                     headers={"Message-ID": message_id(notification)}).send()  # the outbox: kept in this commit
        delivery.state, delivery.sent_at = DeliveryState.SENT, timezone.now()
        delivery.save(update_fields=["state", "tries", "sent_at"])
    return DeliveryState.SENT


# ----------------------------------------------------------------------------- push
def claim_push(delivery_id: int) -> Delivery | None:
    """The push delivery, leased for one try, if it is due (one another try holds is left to it)."""
    now = timezone.now()
    with transaction.atomic():
        delivery = _due(delivery_id).select_related("notification", "subscription").first()
        if delivery is None:
            return None
        delivery.state, delivery.tries, delivery.next_try_at = DeliveryState.SENDING, delivery.tries + 1, now + LEASE
        delivery.save(update_fields=["state", "tries", "next_try_at"])
    return delivery


def _push(delivery_id: int) -> DeliveryState | None:
    delivery = claim_push(delivery_id)
    if delivery is None:
        return None
    subscription = delivery.subscription
    assert subscription is not None  # a push delivery goes to a phone (push_goes_to_a_phone)
    try:
        push.send_push(subscription, delivery.notification)
    except push.PushGone as gone:
        logger.info("forgetting %s: %s", subscription, gone)
        PushSubscription.objects.filter(pk=subscription.pk).delete()  # and its deliveries
        return DeliveryState.GAVE_UP
    except push.PushFailed as error:
        return _failed(delivery, error)
    now = timezone.now()
    Delivery.objects.filter(pk=delivery.pk, state=DeliveryState.SENDING).update(
        state=DeliveryState.SENT, sent_at=now, last_error="")
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=now)
    return DeliveryState.SENT


def _failed(delivery: Delivery, error: push.PushFailed) -> DeliveryState:
    reason = str(error)[:2000]
    still_sending = Delivery.objects.filter(pk=delivery.pk, state=DeliveryState.SENDING)
    if not error.retry or delivery.tries > len(RETRY_DELAYS):
        still_sending.update(state=DeliveryState.GAVE_UP, last_error=reason)
        logger.warning("gave up pushing notification %s to %s after %s tries: %s", delivery.notification_id,
                       delivery.subscription, delivery.tries, reason)
        return DeliveryState.GAVE_UP
    delay = max(RETRY_DELAYS[delivery.tries - 1], timedelta(seconds=error.retry_after or 0))
    still_sending.update(state=DeliveryState.WAITING, next_try_at=timezone.now() + delay, last_error=reason)
    logger.info("push of notification %s not taken (try %s), again in %s: %s", delivery.notification_id,
                delivery.tries, delay, reason)
    return DeliveryState.WAITING


# ----------------------------------------------------------------------------- the sweep's part
def sweep_deliveries(older_than: float) -> int:
    """Send the deliveries due for more than ``older_than`` seconds: their task lost, never queued, a retry's time
    come, or a push try whose worker died (its lease run out). How many were sent."""
    due = timezone.now() - timedelta(seconds=older_than)
    ids = list(Delivery.objects.filter(state__in=DUE, next_try_at__lte=due).order_by("next_try_at")
               .values_list("pk", flat=True)[:SWEEP_LIMIT])
    return sum(deliver(pk) == DeliveryState.SENT for pk in ids)
