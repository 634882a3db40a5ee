"""The listeners ``config.wiring`` connects: what happened below, turned into notifications here."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.models import Match
from notify.announcements import RESULTS_LOOKBACK, announce
from notify.models import NotificationKind
from notify.services import Telling, tell


def announce_round_published(sender: Any = None, *, round_id: int, **kwargs: Any) -> None:
    """``league.signals.round_published``: the round's players are told, by a task."""
    announce(NotificationKind.ROUND_PUBLISHED, round_id)


def announce_results_settled(sender: Any = None, *, competition_id: int, matches: list[int] | None = None,
                             **kwargs: Any) -> None:
    """``games.signals.results_settled`` (in the settle task): the players of the matches complete now are told
    their result, by a task of its own — when there is one to tell (most settles are of a hand mid-game)."""
    since = timezone.now() - RESULTS_LOOKBACK + timedelta(seconds=1)
    if Match.objects.filter(Q(pk__in=matches or []) | Q(updated_at__gte=since), competition_id=competition_id,
                            status=Match.COMPLETE).exists():
        announce(NotificationKind.RESULT, competition_id, list(matches or []))


def tell_attention_needed(sender: Any = None, *, user_id: int, title: str, body: str, url: str, key: str,
                          **kwargs: Any) -> None:
    """``league.signals.attention_needed`` (after the action's commit): the person's phones are told, as they
    chose; the e-mail is the action's own. Only rows are written here: a task sends them."""
    tell([Telling(user_id, NotificationKind.NEEDS_YOU, key, title, body, url)])
