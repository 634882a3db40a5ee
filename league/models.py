"""Who plays and how events are organised: clubs, players, partnerships, competitions, standings."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from engine import Ruleset, RulesetError


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    town = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubRole(models.Model):
    """A user's role in a club. Organisers run the club's competitions."""

    ORGANISER = "organiser"
    ROLES = [(ORGANISER, "Organiser")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles")
    role = models.CharField(max_length=20, choices=ROLES, default=ORGANISER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user", "role"], name="unique_club_role")]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} of {self.club}"


class Player(models.Model):
    name = models.CharField(max_length=120)
    nickname = models.CharField(max_length=60, blank=True)
    home_club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players")
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="player")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.nickname})" if self.nickname else self.name


class Partnership(models.Model):
    """A pair of players (4-player game) or one player (2-player game)."""

    name = models.CharField(max_length=120, blank=True)
    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="partnerships_first")
    player_two = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="partnerships_second")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="partnerships")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(player_one=models.F("player_two")), name="partners_differ"),
        ]

    @property
    def size(self) -> int:
        return 1 if self.player_two_id is None else 2

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        names = [self.player_one.name] + ([self.player_two.name] if self.player_two_id else [])
        return " & ".join(names)

    def __str__(self) -> str:
        return self.display_name


def validate_ruleset(value: object) -> None:
    try:
        Ruleset.from_dict(value)
    except RulesetError as error:
        raise ValidationError(str(error)) from None


class Competition(models.Model):
    SINGLE, BEST_OF, FIRST_TO = "single", "best_of", "first_to"
    MATCH_FORMATS = [(SINGLE, "A single game"), (BEST_OF, "Best of N games"), (FIRST_TO, "First to N games")]

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="competitions")
    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=160)
    season = models.CharField(max_length=60, blank=True)
    players = models.PositiveSmallIntegerField(choices=[(2, "2 players (All Twos)"), (4, "4 players")], default=4)
    ruleset = models.JSONField(default=dict, blank=True, validators=[validate_ruleset])
    match_format = models.CharField(max_length=10, choices=MATCH_FORMATS, default=SINGLE)
    match_games = models.PositiveSmallIntegerField(default=1)
    published = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="unique_competition_slug"),
            models.CheckConstraint(condition=Q(players__in=[2, 4]), name="competition_players_2_or_4"),
            models.CheckConstraint(condition=Q(match_games__gte=1), name="competition_match_games_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    def engine_ruleset(self) -> Ruleset:
        return Ruleset.from_dict(self.ruleset or None)

    def games_to_win(self) -> int:
        """Games a side needs to win a match under the match format."""
        if self.match_format == self.SINGLE:
            return 1
        if self.match_format == self.BEST_OF:
            return self.match_games // 2 + 1
        return self.match_games

    def clean(self) -> None:
        if self.match_format == self.BEST_OF and self.match_games % 2 == 0:
            raise ValidationError({"match_games": "best of N needs an odd N (3, 5, 7, …)"})


class Entry(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
    partnership = models.ForeignKey(Partnership, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["competition", "partnership"], name="unique_entry")]


class Round(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60, blank=True)
    starts_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["competition", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return self.name or f"Round {self.number}"


class StandingRow(models.Model):
    """One partnership's line in a competition's standings, written by the standings task."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="standings")
    partnership = models.ForeignKey(Partnership, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    bullseyes_for = models.PositiveIntegerField(default=0)
    bullseyes_against = models.PositiveIntegerField(default=0)
    chalks_for = models.PositiveIntegerField(default=0)
    chalks_against = models.PositiveIntegerField(default=0)
    hang_jacks_for = models.PositiveIntegerField(default=0)
    hang_jacks_against = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rank", "partnership_id"]
        constraints = [models.UniqueConstraint(fields=["competition", "partnership"], name="unique_standing_row")]

    @property
    def bullseye_difference(self) -> int:
        return self.bullseyes_for - self.bullseyes_against

    @property
    def chalk_difference(self) -> int:
        return self.chalks_for - self.chalks_against


def new_token() -> str:
    return secrets.token_urlsafe(18)
