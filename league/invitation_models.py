"""An invitation between clubs: a competition's organisers ask another club (or its players) to enter a partnership,
a player or a team; nothing of the entrant is public, paired or rated until the invitation is accepted
(``league.invitations`` makes, answers and cancels them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.models import Club, Competition, Entry, Partnership, Player, validate_plain_text


class InvitationState(models.TextChoices):
    PENDING = "pending", "Waiting for an answer"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    CANCELLED = "cancelled", "Cancelled by the inviting club"


class EntryInvitation(models.Model):
    """An invitation to enter competition ``competition`` for a partnership, a player or a team of ``club``, another
    club than the competition's: the entrant is entered only once ``club``'s organisers (or the players themselves)
    accept it; until then nothing of it is public, paired or rated (``league.invitations``)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="invitations")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations_received",
                             help_text="The club whose organisers (or whose players) answer")
    partnership = models.ForeignKey(Partnership, null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="invitations")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations")
    team_name = models.CharField(max_length=120, blank=True, validators=[validate_plain_text],
                                 help_text="A team competition: the name of the club's team to enter")
    state = models.CharField(max_length=10, choices=InvitationState.choices, default=InvitationState.PENDING)
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="invitations_sent")
    asked_at = models.DateTimeField(auto_now_add=True)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="invitations_answered")
    answered_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="invitations_cancelled",
                                     help_text="The competition's organiser who took the invitation back")
    cancelled_at = models.DateTimeField(null=True, blank=True)
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="invitations",
                              help_text="The entry made when the invitation was accepted")

    class Meta:
        ordering = ["-asked_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(partnership__isnull=False, player__isnull=True, team_name="")
                           | Q(partnership__isnull=True, player__isnull=False, team_name="")
                           | (Q(partnership__isnull=True, player__isnull=True) & ~Q(team_name=""))),
                name="invitation_is_one_kind"),
            models.CheckConstraint(condition=Q(state__in=InvitationState.values), name="invitation_state_known"),
            models.UniqueConstraint(fields=["competition", "partnership"], condition=Q(state="pending"),
                                    name="unique_pending_partnership_invitation"),
            models.UniqueConstraint(fields=["competition", "player"], condition=Q(state="pending"),
                                    name="unique_pending_player_invitation"),
            models.UniqueConstraint(fields=["competition", "club", "team_name"],
                                    condition=Q(state="pending") & ~Q(team_name=""),
                                    name="unique_pending_team_invitation"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant_name} into {self.competition}"

    @property
    def entrant_name(self) -> str:
        if self.partnership is not None:
            return self.partnership.display_name
        if self.player is not None:
            return self.player.name
        return self.team_name

    @property
    def is_pending(self) -> bool:
        return self.state == InvitationState.PENDING
