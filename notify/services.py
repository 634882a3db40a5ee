"""The operations: tell people something (each by the channels they chose), keep their choices, and add or forget
their phones."""

from __future__ import annotations

import base64
import binascii
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction

from engine.errors import FieldError
from notify.delivery import queue_deliveries
from notify.models import Channel, Delivery, Notification, NotificationKind, NotificationSetting, PushSubscription
from notify.preferences import MAILED_BY_THE_ACTION, Choice, choices_of
from notify.selectors import email_addresses


@dataclass(frozen=True)
class Telling:
    """One thing to tell one person: ``key`` names what it is about, so that it is told once. ``known``: the
    person knows it already (they made the change): kept as told, sent nowhere."""

    user_id: int
    kind: NotificationKind
    key: str
    title: str
    body: str
    url: str
    known: bool = False


def tell(tellings: Sequence[Telling]) -> list[Notification]:
    """Keep a notification for each telling not told before, with a delivery for each channel its person chose
    (e-mail when they have an address, each of their phones); the deliveries are queued once this commits. A
    telling with no channel to go by is not kept: told later (a reminder after a phone was added), it goes then.
    The notifications sent somewhere are returned."""
    if not tellings:
        return []
    user_ids = {telling.user_id for telling in tellings}
    choices = choices_of(user_ids)
    addresses = email_addresses(user_ids)
    phones: dict[int, list[int]] = defaultdict(list)
    for phone_id, user_id in PushSubscription.objects.filter(user_id__in=user_ids).values_list("pk", "user_id"):
        phones[user_id].append(phone_id)
    told = set(Notification.objects.filter(user_id__in=user_ids, key__in={telling.key for telling in tellings})
               .values_list("user_id", "kind", "key"))
    kept, deliveries = [], []
    with transaction.atomic():
        for telling in tellings:
            if (telling.user_id, telling.kind, telling.key) in told:
                continue
            told.add((telling.user_id, telling.kind, telling.key))
            channels = [] if telling.known else _deliveries(
                telling, choices[(telling.user_id, telling.kind)], telling.user_id in addresses,
                phones[telling.user_id])
            if not channels and not telling.known:
                continue
            try:
                with transaction.atomic():  # another announcer may have told it meanwhile
                    notification = Notification.objects.create(
                        user_id=telling.user_id, kind=telling.kind, key=telling.key[:200], title=telling.title[:200],
                        body=telling.body, url=telling.url[:500])
            except IntegrityError:
                continue
            for delivery in channels:
                delivery.notification = notification
            if channels:
                kept.append(notification)
                deliveries += channels
        Delivery.objects.bulk_create(deliveries)
        transaction.on_commit(partial(queue_deliveries, [delivery.pk for delivery in deliveries]))
    return kept


def _deliveries(telling: Telling, choice: Choice, has_address: bool, phones: list[int]) -> list[Delivery]:
    by_mail = choice.email and has_address and telling.kind not in MAILED_BY_THE_ACTION
    return (([Delivery(channel=Channel.EMAIL)] if by_mail else [])
            + ([Delivery(channel=Channel.PUSH, subscription_id=phone) for phone in phones] if choice.push else []))


def save_settings(*, user: Any, chosen: Mapping[str, Choice]) -> None:
    """The person's choice for each kind given (the others keep theirs)."""
    with transaction.atomic():
        for kind, choice in chosen.items():
            NotificationSetting.objects.update_or_create(user=user, kind=NotificationKind(kind),
                                                         defaults={"email": choice.email, "push": choice.push})


def subscribe(*, user: Any, subscription: Mapping[str, Any], device: str = "") -> PushSubscription:
    """Notify this phone: the subscription its browser made (``PushSubscription.toJSON()``: an endpoint and its
    keys). A phone subscribed under another account (one phone, two people) is this person's from now on."""
    endpoint = str(subscription.get("endpoint") or "")
    keys = subscription.get("keys") or {}
    if not isinstance(keys, Mapping):
        raise FieldError("keys", "the browser's subscription has no keys")
    _check_endpoint(endpoint)
    p256dh, auth = str(keys.get("p256dh") or ""), str(keys.get("auth") or "")
    if len(_decoded(p256dh, "keys.p256dh")) != 65:
        raise FieldError("keys.p256dh", "is not a P-256 public key")
    if len(_decoded(auth, "keys.auth")) != 16:
        raise FieldError("keys.auth", "is not a 16-byte secret")
    phone, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "device": device[:200]})
    return phone


def forget_phone(*, user: Any, endpoint: str = "", phone_id: int | None = None) -> int:
    """Stop notifying one of the person's phones (by its endpoint, or its id on the settings page)."""
    phones = PushSubscription.objects.filter(user=user)
    phones = phones.filter(pk=phone_id) if phone_id is not None else phones.filter(endpoint=endpoint)
    deleted, _ = phones.delete()
    return deleted


def _check_endpoint(endpoint: str) -> None:
    """A push service's address: HTTPS, as every browser's is (plain HTTP only while DEBUG, for a local stub), so
    that the workers never post to an address of the site's own network given as a phone's."""
    parts = urlsplit(endpoint)
    if len(endpoint) > 1000 or not parts.hostname or parts.scheme not in ("https", "http"):
        raise FieldError("endpoint", "is not a push service's address")
    if parts.scheme == "http" and not settings.DEBUG:
        raise FieldError("endpoint", "a push service is reached over HTTPS")


def _decoded(value: str, field: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise FieldError(field, "is not base64url") from None
