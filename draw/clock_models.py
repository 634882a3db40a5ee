"""A round's clock: a time limit the organiser starts, pauses and extends (for every table, or one), kept by the
server as instants (so it survives a restart and every phone shows the same time), with the rule at time up
(``draw.round_clock`` runs it)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from draw.models import Round
from games.models import Match

MAX_MINUTES = 600


class TimeUpRule(models.TextChoices):
    FINISH_HAND = "hand", "finish the hand in play"
    FINISH_GAME = "game", "finish the game in play"
    AS_IT_STANDS = "stands", "the match counts as it stands"


class RoundClock(models.Model):
    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    minutes = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(MAX_MINUTES)])
    at_time_up = models.CharField(max_length=8, choices=TimeUpRule.choices, default=TimeUpRule.FINISH_HAND)
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True, help_text="Set while the clock is paused")
    paused_seconds = models.PositiveIntegerField(default=0, help_text="The pauses before the current one, in all")
    extra_seconds = models.PositiveIntegerField(default=0, help_text="Time added for every table")

    class Meta:
        db_table = "draw_round_clock"
        constraints = [
            models.CheckConstraint(condition=Q(minutes__gte=1), name="clock_minutes_positive"),
            models.CheckConstraint(condition=Q(paused_at__isnull=True) | Q(started_at__isnull=False),
                                   name="clock_paused_once_started"),
            models.CheckConstraint(condition=Q(at_time_up__in=TimeUpRule.values), name="clock_rule_known"),
        ]


class TableExtension(models.Model):
    """Time added for one table (its match) of the round."""

    clock = models.ForeignKey(RoundClock, on_delete=models.CASCADE, related_name="extensions")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="clock_extensions")
    seconds = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "draw_table_extension"
        constraints = [models.UniqueConstraint(fields=["clock", "match"], name="one_extension_a_table")]
