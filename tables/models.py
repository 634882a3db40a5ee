"""Online tables: the table, its seats, the hands dealt at it (the pack kept for audit) and the log of actions.

The log is the truth: a hand's live state is the engine's ``HandState`` dealt from ``TableHand.pack`` and replayed
through its ``TableAction`` rows in ``seq`` order (``tables.state``). Seats are the engine's seat indexes: team 0
is seats 0 and 2 (a fixture's side A), team 1 seats 1 and 3 (side B).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Hand, Match
from league.choices import ClockIncrement


def new_table_token() -> str:
    return secrets.token_urlsafe(24)


def two_zeros() -> list[int]:
    return [0, 0]


def default_bot_pace() -> float:
    """A new table's ``bot_pace``: the ``TABLES_BOT_PACE`` setting (seconds, about 1 by default)."""
    return float(settings.TABLES_BOT_PACE)


class Table(models.Model):
    CASUAL, FIXTURE = "casual", "fixture"
    KINDS = [(CASUAL, "Casual"), (FIXTURE, "League fixture")]
    PUBLIC, PRIVATE = "public", "private"
    VISIBILITIES = [(PUBLIC, "Public"), (PRIVATE, "Private (invite link)")]
    LOBBY, PLAYING, FINISHED, CLOSED = "lobby", "playing", "finished", "closed"
    STATUSES = [(LOBBY, "Waiting for players"), (PLAYING, "Playing"), (FINISHED, "Finished"), (CLOSED, "Closed")]

    kind = models.CharField(max_length=8, choices=KINDS, default=CASUAL)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="online_tables")
    players = models.PositiveSmallIntegerField(default=4)
    ruleset = models.JSONField(default=dict, blank=True, help_text="The engine's ruleset overrides")
    visibility = models.CharField(max_length=8, choices=VISIBILITIES, default=PUBLIC)
    invite_token = models.CharField(max_length=40, unique=True, default=new_table_token)
    status = models.CharField(max_length=8, choices=STATUSES, default=LOBBY)
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every accepted action and seat change")
    game_number = models.PositiveIntegerField(default=0)
    hand_number = models.PositiveIntegerField(default=0, help_text="Hands dealt over the table's life")
    score = models.JSONField(default=two_zeros, help_text="The current game's score [team 0, team 1]")
    games_won = models.JSONField(default=two_zeros)
    dealer = models.PositiveSmallIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The seat to move (None: nobody)")
    turn_started_at = models.DateTimeField(null=True, blank=True,
                                           help_text="When the turn's clock started (its delivery, when that was late)")
    turn_shown_at = models.DateTimeField(null=True, blank=True,
                                         help_text="When the turn first reached a socket of the seat to move")
    deadline_at = models.DateTimeField(null=True, blank=True,
                                       help_text="When the seat to move runs out of time (a bot: when it moves)")
    bot_pace = models.FloatField(default=default_bot_pace,
                                 help_text="Seconds a bot waits before it moves (default: TABLES_BOT_PACE)")
    turn_seconds = models.PositiveIntegerField(default=30)
    bank_seconds = models.PositiveIntegerField(default=60)
    match_clock = models.BooleanField(
        default=False,
        help_text="A chess clock (tables.match_clock): each player's bank_seconds is for the whole match, no time per "
                  "turn, increment_seconds added per move or hand; running out is settled by the competition's "
                  "no-show rule (a casual table's clock: turn_seconds a turn, then the bank, then a bot moves)")
    increment_seconds = models.PositiveIntegerField(default=0, help_text="A match clock's increment")
    increment_per = models.CharField(max_length=5, choices=ClockIncrement.choices, default=ClockIncrement.MOVE)
    on_hold = models.CharField(
        max_length=300, blank=True,
        help_text="Why the table waits for its organiser (a player out of time under the rule to wait): nobody's "
                  "clock runs and no move is taken until the organiser gives time or records a result")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="tables_created")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    last_activity_at = models.DateTimeField(auto_now_add=True)
    end_reason = models.CharField(max_length=300, blank=True,
                                  help_text="Why a league fixture's table stopped (the match over, online play ended)")
    starts_at = models.DateTimeField(
        null=True, blank=True,
        help_text="A table opened for a match of a competition played online (tables.events): it starts by itself "
                  "then with the players present (the match's time and the grace period), each seat still empty "
                  "settled by the competition's no-show rule; sooner when all its players are there")

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(players__in=[2, 4]), name="table_players_2_or_4"),
            models.CheckConstraint(condition=Q(kind="casual") | Q(match__isnull=False), name="fixture_table_has_match"),
        ]
        indexes = [models.Index(fields=["status", "deadline_at"]),
                   models.Index(fields=["starts_at"], condition=Q(status="lobby", starts_at__isnull=False),
                                name="table_event_waiting")]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.get_kind_display()}, {self.players} players)"


BOT_NAMES_BY_SEAT = ("Ada", "Ben", "Cleo", "Dev")
"""A bot's name at each seat: three bots at a table read apart (with their strength, ``Seat.bot_label``)."""
BOT_LABELS = {"random": "easy bot", "heuristic": "normal bot", "montecarlo": "strong bot"}


class Seat(models.Model):
    NO_BOT = ""
    BOTS = [(NO_BOT, "Nobody"), ("random", "Easy (random)"), ("heuristic", "Normal (heuristic)"),
            ("montecarlo", "Strong (Monte Carlo)")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="table_seats")
    seat_token = models.CharField(max_length=40, unique=True, default=new_table_token,
                                  help_text="The seat's private link")
    link_revoked = models.BooleanField(
        default=False, help_text="The seat's private link was revoked (tables.seat_links): its token was replaced by "
                                 "one nobody has, until the link is renewed")
    bot = models.CharField(max_length=12, choices=BOTS, blank=True, default=NO_BOT, help_text="A bot owns the seat")
    covering = models.BooleanField(default=False, help_text="A bot plays while the seat's player is away")
    connected = models.PositiveIntegerField(
        default=0,
        help_text="Open sockets holding the seat, over every ASGI process (tables.presence.mark_back / mark_away)")
    seen_at = models.DateTimeField(
        null=True, blank=True,
        help_text="Last heartbeat of a process holding a socket of the seat: a count older than "
                  "tables.presence.PRESENCE_STALE_SECONDS is one a killed process left behind")
    away_since = models.DateTimeField(null=True, blank=True)
    bank_left = models.FloatField(default=0.0, help_text="Seconds of the time bank left")
    reclaim_pending = models.BooleanField(default=False, help_text="The player reclaims the seat at their next turn")

    class Meta:
        ordering = ["table_id", "index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="unique_table_seat")]
        # tables.presence.expire_presence looks for counted seats gone quiet, every few seconds in every process
        indexes = [models.Index(fields=["seen_at"], condition=Q(connected__gt=0), name="seat_counted_seen_at")]

    def __str__(self) -> str:
        return f"Seat {self.index + 1} of table {self.table_id}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot

    @property
    def bot_name(self) -> str:
        """The seat's bot by name (``Ben``); ``""`` for a seat no bot owns."""
        return BOT_NAMES_BY_SEAT[self.index % len(BOT_NAMES_BY_SEAT)] if self.bot else ""

    @property
    def bot_label(self) -> str:
        """The seat's bot by strength (``normal bot``); ``""`` for a seat no bot owns."""
        return BOT_LABELS.get(self.bot, "bot") if self.bot else ""

    @property
    def display_name(self) -> str:
        """Who sits here in a line of text: ``Ben (normal bot)``, the player's login, or ``""`` (open)."""
        if self.bot:
            return f"{self.bot_name} ({self.bot_label})"
        return self.user.get_username() if self.user is not None else ""


class TableHand(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(help_text="1, 2, … over the table's life")
    game_number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    score_before = models.JSONField(default=two_zeros)
    pack = models.TextField(help_text="The 52 cards in dealing order (card text, space-separated): kept for audit")
    record = models.JSONField(null=True, blank=True, help_text="The engine's hand record once the hand is over")
    result = models.JSONField(null=True, blank=True)
    stored_hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="online")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table_id", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="unique_table_hand_number")]

    def __str__(self) -> str:
        return f"Hand {self.number} of table {self.table_id}"


class TableAction(models.Model):
    PLAYER, BOT, CLOCK, COVER = "player", "bot", "clock", "cover"
    BY = [(PLAYER, "The seat's player"), (BOT, "The seat's bot"), (CLOCK, "A bot, the clock ran out"),
          (COVER, "A bot, covering an away player")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(help_text="The table's version after the action")
    hand = models.ForeignKey(TableHand, on_delete=models.CASCADE, related_name="actions")
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=8, help_text="The engine's Action text")
    action_id = models.CharField(max_length=64, blank=True, help_text="The client's id; '' for server actions")
    by = models.CharField(max_length=6, choices=BY, default=PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="unique_table_action_seq"),
            models.UniqueConstraint(fields=["table", "action_id"], condition=~Q(action_id=""),
                                    name="unique_table_action_id"),
        ]

    def __str__(self) -> str:
        return f"{self.action} by seat {self.seat + 1} (table {self.table_id}, #{self.seq})"
