"""Entry fees, as clubs take them: in cash at the door. A competition's fee (per player, or per entrant: a pair, a
team, a player of an individual event) and each entry's payment, marked paid, owing or waived by an organiser, who
and when kept (``league.fees``). No card payments."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from league.models import Competition, Entry

MAX_FEE = Decimal("100000")


class FeePer(models.TextChoices):
    PLAYER = "player", "a player"
    ENTRANT = "entrant", "an entry (a pair, a team, or a player of an individual event)"


class FeeState(models.TextChoices):
    OWING = "owing", "owing"
    PAID = "paid", "paid"
    WAIVED = "waived", "waived"


class CompetitionFee(models.Model):
    competition = models.OneToOneField(Competition, on_delete=models.CASCADE, related_name="fee")
    amount = models.DecimalField(max_digits=8, decimal_places=2,
                                 validators=[MinValueValidator(Decimal(0)), MaxValueValidator(MAX_FEE)])
    per = models.CharField(max_length=8, choices=FeePer.choices, default=FeePer.PLAYER)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(amount__gte=0), name="fee_not_negative")]

    def __str__(self) -> str:
        return f"TT${self.amount} per {self.get_per_display()}"


class EntryFee(models.Model):
    """An entry's payment as last marked (an entry with no row owes its fee)."""

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="fee")
    state = models.CharField(max_length=8, choices=FeeState.choices, default=FeeState.OWING)
    amount = models.DecimalField(max_digits=9, decimal_places=2, default=Decimal(0),
                                 help_text="What was paid (the fee due when it was marked paid)")
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                  related_name="fees_marked")
    marked_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(state__in=FeeState.values), name="fee_state_known"),
                       models.CheckConstraint(condition=Q(state="paid") | Q(amount=0), name="fee_amount_if_paid")]

    def __str__(self) -> str:
        return f"{self.entry}: {self.get_state_display()}"
