"""Check-in on the night: a round of a competition that requires its entrants to say they are there before a
cut-off; at the cut-off only those present are paired, and the absent sit the round out (or count a no-show, as the
organiser set it). A late arrival checks in for the next round (``league.checkins``)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from league.models import Competition, Entry


class AbsentAs(models.TextChoices):
    SITS_OUT = "sits_out", "sits the round out: nothing counted"
    NO_SHOW = "no_show", "a no-show: counted as a loss"


class CheckInHow(models.TextChoices):
    SELF = "self", "by themselves"
    VENUE = "venue", "by the venue's QR code"
    ORGANISER = "organiser", "by the organiser"


def new_venue_token() -> str:
    return secrets.token_urlsafe(12)


class CheckInWindow(models.Model):
    """Round ``round_number`` of ``competition`` requires check-in until ``closes_at`` (or until closed early)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="check_in_windows")
    round_number = models.PositiveSmallIntegerField()
    closes_at = models.DateTimeField(help_text="The cut-off: those not in by then are not paired")
    closed_early_at = models.DateTimeField(null=True, blank=True)
    absent_as = models.CharField(max_length=10, choices=AbsentAs.choices, default=AbsentAs.SITS_OUT)
    venue_token = models.CharField(max_length=32, unique=True, default=new_venue_token,
                                   help_text="The venue's QR code: checking in by it says the player is there")
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    opened_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round_number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "round_number"], name="one_check_in_a_round"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="check_in_round_positive"),
            models.CheckConstraint(condition=Q(absent_as__in=AbsentAs.values), name="check_in_absent_as_known"),
        ]

    def __str__(self) -> str:
        return f"Check-in for round {self.round_number} of {self.competition}"

    @property
    def cut_off(self):
        return min(self.closes_at, self.closed_early_at) if self.closed_early_at else self.closes_at

    @property
    def is_open(self) -> bool:
        return timezone.now() < self.cut_off


class CheckIn(models.Model):
    window = models.ForeignKey(CheckInWindow, on_delete=models.CASCADE, related_name="check_ins")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="check_ins")
    how = models.CharField(max_length=10, choices=CheckInHow.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["window", "entry"], name="one_check_in_an_entry"),
            models.CheckConstraint(condition=Q(how__in=CheckInHow.values), name="check_in_how_known"),
        ]
