"""What the standings task and the ratings rebuild write: each entrant's standings line, the players' ratings
and their history.

The tables keep the names they had when these models were league's (``Meta.db_table``): moving the models here
moved no row.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import models

from league.choices import StandingsSection
from league.models import Competition, Partnership, Player, Team


class StandingRow(models.Model):
    """One entrant's line in a competition's standings (a partnership, a team, or a player in an individual
    event), written by the standings task. ``metrics`` holds every metric, the columns the common ones."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="standings")
    partnership = models.ForeignKey(Partnership, null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="standings")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="standings")
    group = models.CharField(max_length=20, blank=True)
    division = models.CharField(max_length=40, blank=True)
    section = models.CharField(max_length=8, choices=StandingsSection.choices, blank=True,
                               help_text="'' for the ranking; 'pairs' for per-pair statistics of a team league")
    rank = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    match_points = models.DecimalField(max_digits=12, decimal_places=4, default=0)
    byes = models.PositiveIntegerField(default=0)
    withdrawn = models.BooleanField(default=False)
    coarse = models.BooleanField(default=False, help_text="Some results were entered as game or match totals")
    metrics = models.JSONField(default=dict, blank=True)
    # exact (a bye credited with averages makes halves), to four places; chalks null when none were kept
    bullseyes_for = models.DecimalField(max_digits=12, decimal_places=4, default=0)
    bullseyes_against = models.DecimalField(max_digits=12, decimal_places=4, default=0)
    chalks_for = models.DecimalField(max_digits=12, decimal_places=4, default=0, null=True, blank=True)
    chalks_against = models.DecimalField(max_digits=12, decimal_places=4, default=0, null=True, blank=True)
    hang_jacks_for = models.DecimalField(max_digits=12, decimal_places=4, default=0)
    hang_jacks_against = models.DecimalField(max_digits=12, decimal_places=4, default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "league_standingrow"
        ordering = ["section", "group", "rank", "id"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "partnership"], name="unique_standing_row"),
            models.UniqueConstraint(fields=["competition", "team"], name="unique_team_standing_row"),
            models.UniqueConstraint(fields=["competition", "player"], name="unique_player_standing_row"),
        ]

    @property
    def entrant(self):
        return self.partnership or self.team or self.player

    @property
    def bullseye_difference(self) -> Decimal:
        return self.bullseyes_for - self.bullseyes_against

    @property
    def chalk_difference(self) -> Decimal | None:
        if self.chalks_for is None or self.chalks_against is None:
            return None
        return self.chalks_for - self.chalks_against


class RatingsRebuild(models.Model):
    """One row: whether a rebuild of the ratings is asked for and not yet started. Results that change within a
    few seconds share one rebuild (``standings.tasks.schedule_ratings_rebuild``); kept in the database, not the cache,
    so that a request made while the broker or Redis is down is not lost (the workers' sweep honours it)."""

    SINGLETON = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=SINGLETON)
    requested_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "league_ratingsrebuild"


class PlayerRating(models.Model):
    """A player's current rating (openskill, from every partnership result in history)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="The displayed rating: a conservative estimate, mu - 3 sigma, scaled")
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "league_playerrating"
        ordering = ["-ordinal"]


class RatingPoint(models.Model):
    """A player's rating after one match; the whole history is rebuilt when a result is corrected."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_points")
    sequence = models.PositiveIntegerField(help_text="Position of the match in the history")
    match_id = models.PositiveIntegerField(help_text="games.Match id (kept as a number: league does not import games)")
    label = models.CharField(max_length=200)
    played_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        db_table = "league_ratingpoint"
        ordering = ["player_id", "sequence"]
        constraints = [models.UniqueConstraint(fields=["player", "sequence"], name="unique_rating_point")]
