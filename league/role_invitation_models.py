"""An invitation to a person: to be one of a club's organisers, a scorekeeper of the club (or of one of its
competitions), or the player behind one of its player records. Sent by e-mail or given as a link (a QR code, a
WhatsApp message); it works once, expires, can be revoked, and keeps who invited whom (``league.role_invitations``
makes, accepts and revokes them)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from league.models import Club, Competition, Player

VALID_FOR = timedelta(days=7)


class InvitedRole(models.TextChoices):
    ORGANISER = "organiser", "an organiser of the club"
    SCOREKEEPER = "scorekeeper", "a scorekeeper"
    PLAYER = "player", "the player"


class RoleInvitationState(models.TextChoices):
    WAITING = "waiting", "waiting to be used"
    USED = "used", "used"
    REVOKED = "revoked", "revoked"


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


class RoleInvitation(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="role_invitations")
    role = models.CharField(max_length=12, choices=InvitedRole.choices)
    competition = models.ForeignKey(Competition, null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="scorekeeper_invitations",
                                    help_text="A scorekeeper of this competition only (else of the whole club)")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="role_invitations", help_text="The player record the person claims")
    email = models.EmailField(blank=True, help_text="Where it was sent (blank: given as a link)")
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token)
    state = models.CharField(max_length=8, choices=RoleInvitationState.choices, default=RoleInvitationState.WAITING)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="role_invitations_sent")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="role_invitations_used")
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="role_invitations_revoked")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(role="player", player__isnull=False) | (
                ~Q(role="player") & Q(player__isnull=True)), name="role_invitation_player_only_for_a_player"),
            models.CheckConstraint(condition=Q(role="scorekeeper") | Q(competition__isnull=True),
                                   name="role_invitation_competition_only_for_a_scorekeeper"),
            models.CheckConstraint(condition=~Q(state="used") | Q(used_at__isnull=False),
                                   name="role_invitation_used_has_its_time"),
            models.CheckConstraint(condition=Q(state__in=RoleInvitationState.values),
                                   name="role_invitation_state_known"),
        ]

    def __str__(self) -> str:
        return f"{self.what} ({self.get_state_display()})"

    @property
    def what(self) -> str:
        """What the person is invited to be, in words: "a scorekeeper of the Friday League", "the player Ann"."""
        if self.role == InvitedRole.PLAYER and self.player is not None:
            return f"the player {self.player.name} of {self.club.name}"
        if self.role == InvitedRole.SCOREKEEPER:
            return f"a scorekeeper of {self.competition.name if self.competition else self.club.name}"
        return f"an organiser of {self.club.name}"

    @property
    def expired(self) -> bool:
        return self.state == RoleInvitationState.WAITING and timezone.now() >= self.expires_at

    @property
    def usable(self) -> bool:
        return self.state == RoleInvitationState.WAITING and not self.expired
