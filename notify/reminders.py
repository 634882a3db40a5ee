"""A reminder before each fixture: every player of a match or team match whose time is within the next
``NOTIFY_REMINDER_HOURS`` hours (24 by default) is reminded once — once a fixture at a time: a fixture moved to
another time is reminded again. Run by celery beat and by the sweep; running it twice reminds nobody twice."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from draw.models import Round
from games.models import Match, TeamMatch
from notify.models import NotificationKind
from notify.services import Telling, tell
from notify.words import (
    PAIR_SIDES,
    TEAM_PLAYERS,
    fixture_words,
    match_sides,
    site_url,
    table_words,
    team_match_sides,
    when_words,
)


def reminder_window() -> timedelta:
    return timedelta(hours=float(getattr(settings, "NOTIFY_REMINDER_HOURS", 24)))


def _key(kind: str, pk: int, scheduled_at: datetime) -> str:
    return f"{kind}:{pk}@{scheduled_at.timestamp():.0f}"


def reminder_tellings(now: datetime | None = None) -> list[Telling]:
    now = now or timezone.now()
    soon = Q(scheduled_at__gt=now, scheduled_at__lte=now + reminder_window(), competition__published=True) & (
        Q(round__isnull=True) | Q(round__status=Round.PUBLISHED))
    tellings = []
    matches = (Match.objects.filter(soon, team_match__isnull=True).exclude(status=Match.COMPLETE)
               .select_related("competition", *PAIR_SIDES).order_by("scheduled_at", "id"))
    for match in matches:
        assert match.scheduled_at is not None  # the filter
        for user_id, _side, opponents in match_sides(match):
            body = fixture_words(table=table_words(match), opponents=opponents, when=when_words(match.scheduled_at),
                                 venue=match.venue)
            tellings.append(Telling(user_id, NotificationKind.REMINDER, _key("match", match.pk, match.scheduled_at),
                                    f"Reminder: {match.competition.name}", body, site_url("match_sheet", match.pk)))
    team_matches = (TeamMatch.objects.filter(soon).exclude(status=TeamMatch.COMPLETE)
                    .select_related("competition").prefetch_related(*TEAM_PLAYERS).order_by("scheduled_at", "id"))
    for team_match in team_matches:
        assert team_match.scheduled_at is not None  # the filter
        for user_id, _side, opponents in team_match_sides(team_match):
            body = fixture_words(table="", opponents=opponents, when=when_words(team_match.scheduled_at),
                                 venue=team_match.venue)
            tellings.append(Telling(user_id, NotificationKind.REMINDER,
                                    _key("team-match", team_match.pk, team_match.scheduled_at),
                                    f"Reminder: {team_match.competition.name}", body,
                                    site_url("team_match", team_match.pk)))
    return tellings


def remind(now: datetime | None = None) -> int:
    """Remind the players of the fixtures coming up; how many were reminded."""
    return len(tell(reminder_tellings(now)))
