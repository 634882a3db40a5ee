"""A person asking to be the player behind one of a club's player records, for the club's organiser to approve
(the other way an account is tied to a record, beside a player's invitation: never by typing a name)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from league.models import Player


class ClaimState(models.TextChoices):
    WAITING = "waiting", "waiting for the club's organiser"
    APPROVED = "approved", "approved"
    REFUSED = "refused", "refused"


class PlayerClaim(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims")
    state = models.CharField(max_length=10, choices=ClaimState.choices, default=ClaimState.WAITING)
    asked_at = models.DateTimeField(default=timezone.now)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["asked_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(state__in=ClaimState.values), name="player_claim_state_known"),
            models.UniqueConstraint(fields=["player", "user"], condition=Q(state="waiting"),
                                    name="one_waiting_claim"),
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.player}"
