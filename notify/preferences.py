"""What each person chose to be told, and by which channel; the defaults hold where they chose nothing.

E-mail is on by default for what a person acts on or turns up for (a round published, a reminder), off for
results (a busy night's every table would mail). Push is on for every kind: it reaches only the phones the person
asked for on the settings page. Something that needs the person (a partner to confirm, a claim to answer) already
comes by the mail of the action itself, so its e-mail is not theirs to turn off here, and never sent twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from notify.models import NotificationKind, NotificationSetting

Kind = NotificationKind

DEFAULT_EMAIL = {Kind.ROUND_PUBLISHED: True, Kind.RESULT: False, Kind.NEEDS_YOU: True, Kind.REMINDER: True}
DEFAULT_PUSH = {kind: True for kind in Kind}
MAILED_BY_THE_ACTION = frozenset({Kind.NEEDS_YOU})
"""Kinds whose e-mail is the action's own mail (``league``): notify sends them by push only."""


@dataclass(frozen=True)
class Choice:
    email: bool
    push: bool


def default_choice(kind: str) -> Choice:
    return Choice(DEFAULT_EMAIL[Kind(kind)], DEFAULT_PUSH[Kind(kind)])


def choices_of(user_ids: Iterable[int]) -> dict[tuple[int, str], Choice]:
    """Every ``(user id, kind)`` of these people with its choice (their own, else the default)."""
    ids = set(user_ids)
    found: dict[tuple[int, str], Choice] = {(user_id, kind): default_choice(kind) for user_id in ids for kind in Kind}
    for setting in NotificationSetting.objects.filter(user_id__in=ids):
        found[(setting.user_id, setting.kind)] = Choice(setting.email, setting.push)
    return found
