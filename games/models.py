"""What is played: matches between two partnerships, games to the target, and hands with versions.

Side A is the engine's team 0 (seats 0 and 2), side B team 1 (seats 1 and 3).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.models import Competition, Partnership, Round, new_token

SIDE_A, SIDE_B = "a", "b"
SIDES = [(SIDE_A, "Side A"), (SIDE_B, "Side B")]


class Match(models.Model):
    SCHEDULED, IN_PROGRESS, COMPLETE = "scheduled", "in_progress", "complete"
    STATUSES = [(SCHEDULED, "Scheduled"), (IN_PROGRESS, "In progress"), (COMPLETE, "Complete")]

    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="matches")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches")
    side_a = models.ForeignKey(Partnership, on_delete=models.PROTECT, related_name="matches_as_a")
    side_b = models.ForeignKey(Partnership, on_delete=models.PROTECT, related_name="matches_as_b")
    side_a_name = models.CharField(max_length=160, help_text="The name at the time of the match")
    side_b_name = models.CharField(max_length=160, help_text="The name at the time of the match")
    table = models.CharField(max_length=40, blank=True)
    scheduled_at = models.DateTimeField(null=True, blank=True)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=12, choices=STATUSES, default=SCHEDULED)
    games_a = models.PositiveSmallIntegerField(default=0)
    games_b = models.PositiveSmallIntegerField(default=0)
    winner = models.CharField(max_length=1, choices=SIDES, blank=True)
    scorekeepers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scorekeeping")
    entry_token = models.CharField(max_length=40, unique=True, default=new_token)
    entry_token_revoked = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every hand committed")
    settled_version = models.PositiveIntegerField(default=0, help_text="The version the settle task computed")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round__number", "id"]
        constraints = [models.CheckConstraint(condition=~Q(side_a=models.F("side_b")), name="match_sides_differ")]
        indexes = [models.Index(fields=["competition", "status"])]

    def __str__(self) -> str:
        return f"{self.side_a_name} v {self.side_b_name}"

    def side_name(self, side: str) -> str:
        return self.side_a_name if side == SIDE_A else self.side_b_name


class Game(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    first_dealer = models.PositiveSmallIntegerField(default=0)
    score_a = models.PositiveIntegerField(default=0)
    score_b = models.PositiveIntegerField(default=0)
    hang_jacks_a = models.PositiveIntegerField(default=0)
    hang_jacks_b = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=1, choices=SIDES, blank=True)
    next_dealer = models.PositiveSmallIntegerField(default=0, help_text="Who deals the next hand (R3, R12, R27)")
    hands_counted = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="unique_game_number")]

    def __str__(self) -> str:
        return f"Game {self.number} of {self.match}"

    @property
    def is_complete(self) -> bool:
        return bool(self.winner)


class Hand(models.Model):
    """The current version of one hand; every version (including the first) is a ``HandVersion`` row."""

    CHALK, RECORD = "chalk", "record"
    MODES = [(CHALK, "Chalk entry"), (RECORD, "Hand record")]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    mode = models.CharField(max_length=6, choices=MODES)
    dealer = models.PositiveSmallIntegerField()
    entry = models.JSONField(help_text="What the scorekeeper entered")
    result = models.JSONField(help_text="The engine's result for the entry")
    points_a = models.PositiveIntegerField(default=0)
    points_b = models.PositiveIntegerField(default=0)
    score_a_after = models.PositiveIntegerField(default=0)
    score_b_after = models.PositiveIntegerField(default=0)
    deleted = models.BooleanField(default=False)
    void_reason = models.CharField(max_length=200, blank=True,
                                   help_text="Set when a correction ended the game before this hand")
    version = models.PositiveIntegerField(default=1)
    entered_by = models.CharField(max_length=150, help_text="Who entered the current version")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="unique_hand_number")]

    def __str__(self) -> str:
        return f"Hand {self.number} of {self.game}"

    @property
    def counts(self) -> bool:
        return not self.deleted and not self.void_reason


class HandVersion(models.Model):
    """An immutable version of a hand: who entered or corrected it, when, and why."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    mode = models.CharField(max_length=6, choices=Hand.MODES)
    entry = models.JSONField()
    result = models.JSONField()
    deleted = models.BooleanField(default=False)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    author_label = models.CharField(max_length=150)
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand_id", "version"]
        constraints = [models.UniqueConstraint(fields=["hand", "version"], name="unique_hand_version")]
