"""Web Push (RFC 8030) to a person's phone: the payload encrypted to the browser's keys (RFC 8291, aes128gcm) and
signed with the site's VAPID key (RFC 8292), by pywebpush.

Each push carries the notification's ``Topic`` (a push service keeps one message a topic for a phone that is
offline, so a push sent again replaces the first), a TTL (how long the service may keep it) and a payload whose
``tag`` is the notification's id: the service worker shows notifications by tag, so the same notification sent
twice is shown once.
"""

from __future__ import annotations

import json
from datetime import timedelta

import requests
from pywebpush import WebPushException, webpush

from notify import vapid
from notify.models import Notification, NotificationKind, PushSubscription

TIMEOUT = 10.0  # s: a push service that has not answered by then is tried again later
TTL = {NotificationKind.ROUND_PUBLISHED: timedelta(days=2), NotificationKind.RESULT: timedelta(days=1),
       NotificationKind.NEEDS_YOU: timedelta(days=3), NotificationKind.REMINDER: timedelta(hours=12)}
GONE = (404, 410)  # the subscription no longer exists: the phone unsubscribed, or its browser was reset


class PushGone(Exception):
    """The push service says the phone's subscription is gone: it is forgotten."""


class PushFailed(Exception):
    """The push was not taken; ``retry`` when trying again later may help (no answer, 429, 5xx)."""

    def __init__(self, reason: str, *, retry: bool, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry, self.retry_after = retry, retry_after


def payload(notification: Notification) -> str:
    """What the service worker reads (``entry_sw.js``, its ``push`` handler)."""
    return json.dumps({"title": notification.title, "body": notification.body, "url": notification.url,
                       "tag": notification.tag}, ensure_ascii=False)


def send_push(subscription: PushSubscription, notification: Notification) -> None:
    """Hand the notification to the phone's push service; raises :class:`PushGone` or :class:`PushFailed`."""
    headers = {"Topic": notification.tag,
               "Urgency": "high" if notification.kind == NotificationKind.REMINDER else "normal"}
    try:
        webpush(subscription_info={"endpoint": subscription.endpoint,
                                   "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
                data=payload(notification), vapid_private_key=vapid.signer(),
                vapid_claims={"sub": vapid.subject()},  # a new dict each time: pywebpush adds aud and exp to it
                ttl=int(TTL[NotificationKind(notification.kind)].total_seconds()), headers=headers,
                timeout=TIMEOUT)
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in GONE:
            raise PushGone(f"the push service answered {status}: the subscription is gone") from error
        retry = status is None or status == 429 or status >= 500
        raise PushFailed(f"the push service answered {status}: {str(error)[:500]}", retry=retry,
                         retry_after=_retry_after(error.response)) from error
    except (requests.RequestException, OSError) as error:
        raise PushFailed(f"{type(error).__name__}: {error}"[:500], retry=True) from error


def _retry_after(response: requests.Response | None) -> float | None:
    value = response.headers.get("Retry-After", "") if response is not None else ""
    return float(value) if value.isdigit() else None
