"""Reads: a person's settings as the page shows them, their phones, and where their mail goes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from notify.models import NotificationKind, PushSubscription
from notify.preferences import MAILED_BY_THE_ACTION, choices_of


def email_addresses(user_ids: Iterable[int]) -> dict[int, str]:
    """Where each person's mail goes: their confirmed address (the main one first); an account with no address
    on record with allauth (made by an organiser or an admin) by its own address; none while only unconfirmed."""
    ids = set(user_ids)
    confirmed: dict[int, str] = {}
    for user_id, email in (EmailAddress.objects.filter(user_id__in=ids, verified=True)
                           .order_by("-primary", "id").values_list("user_id", "email")):
        confirmed.setdefault(user_id, email)
    on_record = set(EmailAddress.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    found = {}
    for user_id, email in get_user_model().objects.filter(pk__in=ids).values_list("pk", "email"):
        address = confirmed.get(user_id) or ("" if user_id in on_record else email)
        if address:
            found[user_id] = address
    return found


@dataclass(frozen=True)
class KindSetting:
    """One line of the settings page: a kind and what the person chose for it."""

    kind: str
    label: str
    email: bool
    push: bool
    email_is_the_actions_own: bool

    @property
    def field_names(self) -> tuple[str, str]:
        return f"email-{self.kind}", f"push-{self.kind}"


def settings_of(user: Any) -> list[KindSetting]:
    choices = choices_of([user.pk])
    return [KindSetting(kind.value, kind.label, choices[(user.pk, kind.value)].email,
                        choices[(user.pk, kind.value)].push, kind in MAILED_BY_THE_ACTION)
            for kind in NotificationKind]


def phones_of(user: Any) -> QuerySet[PushSubscription]:
    return PushSubscription.objects.filter(user=user).order_by("created_at", "id")
