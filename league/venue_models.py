"""A club's venue: its tables, numbered and optionally named ("Table 3 — by the bar"), each available or not. A
round's matches are seated at the available tables in number order (``draw.draft_writing``)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from league.models import Club, validate_plain_text

MAX_TABLES = 200


class VenueTable(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="venue_tables")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(MAX_TABLES)])
    name = models.CharField(max_length=40, blank=True, validators=[validate_plain_text],
                            help_text='Where it is, e.g. "by the bar"')
    available = models.BooleanField(default=True, help_text="Unavailable: nobody is seated there")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["club", "number"], name="one_table_a_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} — {self.name}" if self.name else f"Table {self.number}"
