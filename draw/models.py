"""A competition's rounds and the entrants that sit one out.

The tables keep the names they had when these models were league's (``Meta.db_table``): moving the models here
moved no row. The apps below draw (games, standings, league) point at them by the lazy reference ``"draw.Round"``.
"""

from __future__ import annotations

from django.db import models

from league.choices import RoundStage, WhenPaired
from league.models import Competition, Entry, validate_plain_text


class Round(models.Model):
    DRAFT, PUBLISHED = "draft", "published"
    STATUSES = [(DRAFT, "Draft"), (PUBLISHED, "Published")]
    IDLE, QUEUED, RUNNING, DONE, FAILED = "", "queued", "running", "done", "failed"
    PAIRING_STATES = [(IDLE, "Not paired by the system"), (QUEUED, "Queued"), (RUNNING, "Pairing"),
                      (DONE, "Paired"), (FAILED, "Failed")]

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60, blank=True, validators=[validate_plain_text])
    stage = models.CharField(max_length=12, choices=RoundStage.choices, blank=True,
                             help_text="'group' or 'knockout' in a two-stage event")
    starts_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=PUBLISHED)
    published_at = models.DateTimeField(null=True, blank=True)
    pairing_state = models.CharField(max_length=10, choices=PAIRING_STATES, default=IDLE, blank=True)
    pairing_progress = models.FloatField(default=0.0)
    pairing_message = models.CharField(max_length=300, blank=True)
    pairing_version = models.PositiveIntegerField(default=0, help_text="Bumped by each request to pair")
    pairing_heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="When the pairing was asked for or last reported progress: one queued or "
                                         "running with no sign of life for long is taken for lost with its worker "
                                         "and asked for again")
    when_paired = models.CharField(
        max_length=8, choices=WhenPaired.choices, blank=True, default=WhenPaired.STAYS,
        help_text="Once the pairing task has paired it: published at once, or the organisers told it is ready (a "
                  "round a competition played online paired by itself); set by each request to pair")

    class Meta:
        db_table = "league_round"
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["competition", "number"], name="unique_round_number"),
                       models.CheckConstraint(condition=models.Q(when_paired__in=WhenPaired.values),
                                              name="round_when_paired_known")]

    def __str__(self) -> str:
        return self.name or f"Round {self.number}"

    @property
    def is_published(self) -> bool:
        return self.status == self.PUBLISHED


class Bye(models.Model):
    """An entrant that sits a round out; it counts as the competition's ``bye_policy`` says."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")
    flags = models.JSONField(default=list, blank=True, help_text="Why the pairing engine gave the bye")
    bracket_position = models.PositiveSmallIntegerField(null=True, blank=True,
                                                        help_text="Knockout: the bye's place in its round (1, 2, …)")

    class Meta:
        db_table = "league_bye"
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="unique_bye")]


# the round's clock lives in a module of its own; imported here so that ``draw.models`` names it too
from draw.clock_models import RoundClock, TableExtension, TimeUpRule  # noqa: E402, F401
