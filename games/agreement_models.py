"""Both sides agreeing a match's result, in a competition that requires it (``Competition.confirm_results``).

A result entered by one side waits "to confirm" until the other side confirms it — or disputes it, giving its own
version and a reason, and an organiser decides. ``Agreement`` is where a match stands (one row a match, made at
its first change); ``AgreementStep`` keeps every step with who and when. The match's ``version`` (bumped by every
change of its results) says which result a confirmation covers: a hand entered after it is to confirm again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.choices import Side, one_of
from games.models import Match
from league.models import new_token


class AgreementState(models.TextChoices):
    TO_CONFIRM = "to_confirm", "To confirm"
    AGREED = "agreed", "Agreed"
    DISPUTED = "disputed", "Disputed"
    DECIDED = "decided", "Decided by the organiser"


PENDING = (AgreementState.TO_CONFIRM, AgreementState.DISPUTED)
"""The states of a result the sides have not agreed (or an organiser decided)."""


class AgreementAction(models.TextChoices):
    ENTERED = "entered", "Entered"
    CONFIRMED = "confirmed", "Confirmed"
    DISPUTED = "disputed", "Disputed"
    DECIDED = "decided", "Decided"
    ENTERED_BY_ORGANISER = "organiser", "Entered by an organiser"
    PLAYED_ONLINE = "online", "Played at an online table"


class Agreement(models.Model):
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="agreement")
    state = models.CharField(max_length=10, choices=AgreementState.choices, default=AgreementState.TO_CONFIRM)
    entered_by_side = models.CharField(max_length=1, choices=Side.choices, blank=True,
                                       help_text="The side whose entry waits for the other ('' when not known: "
                                                 "a scorekeeper's link, then either side confirms)")
    version = models.PositiveIntegerField(default=0, help_text="The match's version the state was reached at")
    link_a = models.CharField(max_length=40, unique=True, default=new_token,
                              help_text="Side A's own link to confirm or dispute")
    link_b = models.CharField(max_length=40, unique=True, default=new_token)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [one_of("state", AgreementState, name="agreement_state_known"),
                       one_of("entered_by_side", Side, blank=True, name="agreement_side_known")]
        indexes = [models.Index(fields=["state"])]

    def __str__(self) -> str:
        return f"{self.match}: {self.get_state_display()}"

    @property
    def pending(self) -> bool:
        return self.state in PENDING


class AgreementStep(models.Model):
    """One step of a match's agreement: what was done, by which side (or an organiser), at which version of the
    result, with the result as it stood; a dispute also keeps the other side's version and its reason."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="agreement_steps")
    action = models.CharField(max_length=10, choices=AgreementAction.choices)
    side = models.CharField(max_length=1, choices=Side.choices, blank=True)
    version = models.PositiveIntegerField()
    result = models.JSONField(default=dict, help_text="The result as it stood (games, chalks, winner)")
    their_result = models.JSONField(default=dict, blank=True, help_text="A dispute: the disputing side's version")
    reason = models.CharField(max_length=300, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    author_label = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "created_at", "id"]
        constraints = [one_of("action", AgreementAction, name="agreement_step_action_known"),
                       one_of("side", Side, blank=True, name="agreement_step_side_known"),
                       models.CheckConstraint(condition=~Q(action=AgreementAction.DISPUTED) | ~Q(reason=""),
                                              name="agreement_dispute_has_reason")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} by {self.author_label}"
