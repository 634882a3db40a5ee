"""Entries asked for by the entrants themselves: a competition open for entries (a deadline, a cap on the entrants,
the organiser's approval or not), each entry asked for by a player of the club, confirmed by the partner named, then
entered, put on the waiting list or refused — and every step kept with who took it and when
(``league.entry_requests`` takes them)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from league.models import Competition, Entry, Partnership, Player, validate_plain_text

MAX_CAP = 512


class EntryWindow(models.Model):
    """A competition's entries by the entrants: taken while ``is_open`` and before ``closes_at``."""

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE, related_name="entry_window")
    is_open = models.BooleanField(default=True)
    closes_at = models.DateTimeField(null=True, blank=True, help_text="The deadline (none: until it is closed)")
    cap = models.PositiveSmallIntegerField(null=True, blank=True,
                                           validators=[MinValueValidator(2), MaxValueValidator(MAX_CAP)],
                                           help_text="The most entrants; those who ask later go on the waiting list")
    needs_approval = models.BooleanField(default=False, help_text="The organiser approves each entry")
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="entry_windows_changed")
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(cap__isnull=True) | Q(cap__gte=2), name="entry_cap_least")]

    def __str__(self) -> str:
        return f"Entries to {self.competition}"

    @property
    def past_deadline(self) -> bool:
        return self.closes_at is not None and timezone.now() >= self.closes_at

    @property
    def taking_entries(self) -> bool:
        return self.is_open and not self.past_deadline


class EntryRequestState(models.TextChoices):
    PARTNER_TO_CONFIRM = "partner", "partner to confirm"
    ASKED = "asked", "asked: the organiser to approve"
    WAITING_LIST = "waiting", "on the waiting list"
    APPROVED = "approved", "entered"
    REFUSED = "refused", "refused by the organiser"
    DECLINED = "declined", "declined by the partner"
    WITHDRAWN = "withdrawn", "withdrawn"


LIVE_STATES = (EntryRequestState.PARTNER_TO_CONFIRM, EntryRequestState.ASKED, EntryRequestState.WAITING_LIST,
               EntryRequestState.APPROVED)
"""A request in one of these holds its players: neither may ask (or be asked) again in the competition."""


class EntryRequest(models.Model):
    """An entry asked for by ``player`` (with ``partner``, who confirms, in a pairs competition; or as the captain of
    the team ``team_name`` with its ``pairs``, in a team competition)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entry_requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entry_requests")
    partner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="entry_requests_as_partner")
    team_name = models.CharField(max_length=120, blank=True, validators=[validate_plain_text],
                                 help_text="A team competition: the team the captain (``player``) enters")
    pairs = models.ManyToManyField(Partnership, blank=True, related_name="entry_requests",
                                   help_text="A team competition: the team's pairs")
    state = models.CharField(max_length=10, choices=EntryRequestState.choices)
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                 related_name="entry_requests")
    asked_at = models.DateTimeField(default=timezone.now)
    queued_at = models.DateTimeField(null=True, blank=True,
                                     help_text="When it was complete (confirmed, approved): the waiting list's order")
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="requests",
                              help_text="The entry made for it")

    class Meta:
        ordering = ["asked_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(state__in=EntryRequestState.values), name="entry_request_state_known"),
            models.CheckConstraint(condition=~Q(partner=models.F("player")), name="entry_request_two_players"),
            models.UniqueConstraint(fields=["competition", "player"], condition=Q(state__in=LIVE_STATES),
                                    name="one_live_entry_request"),
        ]

    def __str__(self) -> str:
        return f"{self.names} into {self.competition}"

    @property
    def names(self) -> str:
        if self.team_name:
            return self.team_name
        return f"{self.player.name} & {self.partner.name}" if self.partner is not None else self.player.name

    @property
    def is_live(self) -> bool:
        return self.state in LIVE_STATES


class EntryRequestStep(models.TextChoices):
    ASKED = "asked", "asked to enter"
    CONFIRMED = "confirmed", "confirmed as partner"
    DECLINED = "declined", "declined to partner"
    APPROVED = "approved", "approved the entry"
    ENTERED = "entered", "entered"
    WAITING_LIST = "waiting", "put on the waiting list"
    MOVED_UP = "moved_up", "moved up from the waiting list: entered"
    REFUSED = "refused", "refused the entry"
    WITHDRAWN = "withdrawn", "withdrew"


class EntryRequestEvent(models.Model):
    """One step of a request: what happened, who did it (none: the app, e.g. a move up) and when."""

    request = models.ForeignKey(EntryRequest, on_delete=models.CASCADE, related_name="events")
    step = models.CharField(max_length=10, choices=EntryRequestStep.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]
        constraints = [models.CheckConstraint(condition=Q(step__in=EntryRequestStep.values),
                                              name="entry_request_step_known")]
