"""What is played: matches between two partnerships, games to the target, and hands with versions.

Side A is the engine's team 0 (seat indexes 0 and 2: seats 1 and 3), side B team 1 (seats 2 and 4).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from engine.numbers import is_digits
from games.choices import HandMode, MatchStatus, Outcome, ResultAction, ResultLevel, Side, Winner, one_of
from league.models import Competition, Partnership, Team, new_token, validate_plain_text

SIDE_A, SIDE_B = Side.A, Side.B
SIDES = Side.choices
HAND_LEVEL, GAME_LEVEL, MATCH_LEVEL = ResultLevel.HAND, ResultLevel.GAME, ResultLevel.MATCH
MAX_NUMBER = 32_767  # the largest game or hand number (and games count) the database holds: a small integer
RESULT_LEVELS = ResultLevel.choices


def table_label(table: str) -> str:
    """A match's table as people say it: "Table 3" for a table given as a number (or as "table 3"), else the
    club's own name for it ("Verandah"); "" for none.

    >>> table_label("3"), table_label("Table 3"), table_label("table 3"), table_label("verandah"), table_label("")
    ('Table 3', 'Table 3', 'Table 3', 'Verandah', '')
    """
    text = " ".join((table or "").split())
    if is_digits(text):  # "²" is a digit to str.isdigit(), not a table's number
        return f"Table {text}"
    return text[:1].upper() + text[1:]


class TeamMatch(models.Model):
    """Two clubs' teams at K tables; each table is a ``Match`` between a pair of each team. Won by the first
    team to ``target`` bullseyes (race) or by the most bullseyes after ``games_per_table`` games (fixed).
    The totals are summed from the tables, or entered overall (``result_level`` match, no tables)."""

    SCHEDULED, IN_PROGRESS, COMPLETE = MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS, MatchStatus.COMPLETE
    STATUSES = MatchStatus.choices
    DRAW = Winner.DRAW

    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="team_matches")
    round = models.ForeignKey("draw.Round", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="team_matches")
    team_a = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="team_matches_as_a")
    team_b = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="team_matches_as_b")
    team_a_name = models.CharField(max_length=160)
    team_b_name = models.CharField(max_length=160)
    venue = models.CharField(max_length=80, blank=True, validators=[validate_plain_text],
                             help_text="Where the match is played (e.g. the home team's bar)")
    scheduled_at = models.DateTimeField(null=True, blank=True)
    tables = models.PositiveSmallIntegerField(default=3)
    mode = models.CharField(max_length=6, choices=Competition.TEAM_MODES, default=Competition.TEAM_RACE)
    target = models.PositiveSmallIntegerField(default=22)
    games_per_table = models.PositiveSmallIntegerField(default=3)
    result_level = models.CharField(max_length=6, choices=RESULT_LEVELS, default=HAND_LEVEL,
                                    help_text="'match' when only the overall totals were entered")
    outcome = models.CharField(max_length=14, choices=Outcome.choices, default=Outcome.PLAYED, blank=True,
                               help_text="'' (an older team match) counts as played")
    status = models.CharField(max_length=12, choices=STATUSES, default=SCHEDULED)
    bullseyes_a = models.PositiveSmallIntegerField(default=0)
    bullseyes_b = models.PositiveSmallIntegerField(default=0)
    chalks_a = models.PositiveIntegerField(default=0)
    chalks_b = models.PositiveIntegerField(default=0)
    chalks_known = models.BooleanField(default=True, help_text="False when the totals were recorded without chalks")
    hang_jacks_a = models.PositiveIntegerField(default=0)  # summed over every game of every table
    hang_jacks_b = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=1, choices=Winner.choices, blank=True, help_text="'' while open")
    pairing_flags = models.JSONField(default=list, blank=True, help_text="Why the pairing engine made this pairing")
    group = models.CharField(max_length=20, blank=True)
    bracket_position = models.PositiveSmallIntegerField(null=True, blank=True,
                                                        help_text="Knockout: the tie's place in its round (1, 2, …)")
    third_place = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round__number", "id"]
        constraints = [models.CheckConstraint(condition=~Q(team_a=models.F("team_b")), name="team_match_sides_differ"),
                       one_of("status", MatchStatus, name="team_match_status_known"),
                       one_of("outcome", Outcome, blank=True, name="team_match_outcome_known"),
                       one_of("winner", Winner, blank=True, name="team_match_winner_known"),
                       one_of("result_level", ResultLevel, name="team_match_result_level_known")]

    def __str__(self) -> str:
        return f"{self.team_a_name} v {self.team_b_name}"


class Match(models.Model):
    SCHEDULED, IN_PROGRESS, COMPLETE = MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS, MatchStatus.COMPLETE
    STATUSES = MatchStatus.choices
    PLAYED, FORFEIT_A, FORFEIT_B, DOUBLE_FORFEIT = (Outcome.PLAYED, Outcome.FORFEIT_A, Outcome.FORFEIT_B,
                                                    Outcome.DOUBLE_FORFEIT)
    OUTCOMES = Outcome.choices

    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="matches")
    round = models.ForeignKey("draw.Round", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches")
    side_a = models.ForeignKey(Partnership, on_delete=models.PROTECT, related_name="matches_as_a")
    side_b = models.ForeignKey(Partnership, on_delete=models.PROTECT, related_name="matches_as_b")
    # a side named by its two players: two names of 120 characters joined by " & " take 243
    side_a_name = models.CharField(max_length=250, help_text="The name at the time of the match")
    side_b_name = models.CharField(max_length=250, help_text="The name at the time of the match")
    table = models.CharField(max_length=40, blank=True)
    venue = models.CharField(max_length=80, blank=True, validators=[validate_plain_text],
                             help_text="Where the match is played (a club's own fixture list names it)")
    scheduled_at = models.DateTimeField(null=True, blank=True)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=12, choices=STATUSES, default=SCHEDULED)
    games_a = models.PositiveSmallIntegerField(default=0)
    games_b = models.PositiveSmallIntegerField(default=0)
    winner = models.CharField(max_length=1, choices=Winner.choices, blank=True,
                              help_text="'d' for a table of a team match that ended level")
    scorekeepers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scorekeeping")
    entry_token = models.CharField(max_length=40, unique=True, default=new_token)
    entry_token_revoked = models.BooleanField(default=False)
    team_match = models.ForeignKey(TeamMatch, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="table_matches")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    result_level = models.CharField(max_length=6, choices=RESULT_LEVELS, default=HAND_LEVEL,
                                    help_text="The level the result was entered at")
    outcome = models.CharField(max_length=14, choices=OUTCOMES, default=PLAYED)
    chalks_a = models.PositiveIntegerField(default=0, help_text="Chalks over all games (kept by settling)")
    chalks_b = models.PositiveIntegerField(default=0)
    chalks_known = models.BooleanField(default=True, help_text="False when totals were entered without chalks")
    hang_jacks_a = models.PositiveIntegerField(default=0, help_text="Over all games (kept by settling)")
    hang_jacks_b = models.PositiveIntegerField(default=0)
    pairing_flags = models.JSONField(default=list, blank=True, help_text="Why the pairing engine made this pairing")
    group = models.CharField(max_length=20, blank=True)
    bracket_position = models.PositiveSmallIntegerField(null=True, blank=True,
                                                        help_text="Knockout: the tie's place in its round (1, 2, …)")
    third_place = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every hand committed")
    held_by_table = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="The online table (tables.Table id) playing the match: while set, its results change at that table "
                  "only (a forfeit aside, which ends the table). Set when the table opens, cleared when it stops")
    bot_played = models.BooleanField(
        default=False, help_text="Played online with a bot in the seat of a player who did not come (the competition's "
                                 "no-show rule): marked on the sheet, and rated only if the competition says so")
    settled_version = models.PositiveIntegerField(default=0, help_text="The version the settle task computed")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round__number", "id"]
        constraints = [models.CheckConstraint(condition=~Q(side_a=models.F("side_b")), name="match_sides_differ"),
                       one_of("status", MatchStatus, name="match_status_known"),
                       one_of("outcome", Outcome, name="match_outcome_known"),
                       one_of("winner", Winner, blank=True, name="match_winner_known"),
                       one_of("result_level", ResultLevel, name="match_result_level_known")]
        indexes = [models.Index(fields=["competition", "status"])]

    def __str__(self) -> str:
        return f"{self.side_a_name} v {self.side_b_name}"

    @property
    def table_label(self) -> str:
        return table_label(self.table)

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
    winner = models.CharField(max_length=1, choices=Side.choices, blank=True)
    next_dealer = models.PositiveSmallIntegerField(default=0, help_text="Who deals the next hand (R3, R12, R27)")
    hands_counted = models.PositiveSmallIntegerField(default=0)
    entered = models.BooleanField(default=False, help_text="Entered as a game result, not hand by hand")
    scores_known = models.BooleanField(default=True, help_text="False when a game result was entered without chalks")

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="unique_game_number"),
                       one_of("winner", Side, blank=True, name="game_winner_known")]

    def __str__(self) -> str:
        return f"Game {self.number} of {self.match}"

    @property
    def is_complete(self) -> bool:
        return bool(self.winner)


class Hand(models.Model):
    """The current version of one hand; every version (including the first) is a ``HandVersion`` row."""

    CHALK, RECORD = HandMode.CHALK, HandMode.RECORD
    MODES = HandMode.choices

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    mode = models.CharField(max_length=6, choices=MODES)
    dealer = models.PositiveSmallIntegerField()
    dealer_given = models.BooleanField(
        default=False, help_text="The scorekeeper gave the dealer (the table dealt out of turn): kept as given, and "
                                 "the deal passes on from it")
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
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="unique_hand_number"),
                       one_of("mode", HandMode, name="hand_mode_known")]

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
        constraints = [models.UniqueConstraint(fields=["hand", "version"], name="unique_hand_version"),
                       one_of("mode", HandMode, name="hand_version_mode_known")]


class ResultVersion(models.Model):
    """One change to a result entered above the hand level — a game result, match totals, a forfeit, their
    corrections and clearing — with who, when and why: the history the sheet shows (hands keep theirs in
    ``HandVersion``)."""

    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="result_versions")
    team_match = models.ForeignKey(TeamMatch, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="result_versions")
    action = models.CharField(max_length=24, choices=ResultAction.choices)
    data = models.JSONField(default=dict, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    author_label = models.CharField(max_length=150)
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.action} by {self.author_label}"


class IdempotentRequest(models.Model):
    """A write sent with an ``Idempotency-Key``: what it asked and what it was answered, so that a phone resending
    it (its answer lost to a bar's bad signal) gets the same answer and nothing is stored twice. A key is the
    caller's own (``caller``: ``user:<id>``, or ``link:<match id>`` for a match's private entry link), so two
    scorekeepers who happen to pick the same key never see each other's answers."""

    key = models.CharField(max_length=128)
    caller = models.CharField(max_length=40, help_text="user:<id>, or link:<match id> for the private entry link")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="idempotent_requests")
    endpoint = models.CharField(max_length=20, help_text="hands, games or totals")
    body_sha256 = models.CharField(max_length=64, help_text="SHA-256 of the request's body as canonical JSON")
    status = models.PositiveSmallIntegerField(default=0, help_text="The answer's HTTP status (0 while in progress)")
    response = models.JSONField(null=True, blank=True, help_text="The answer's JSON body")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["caller", "key"], name="unique_idempotency_key_per_caller")]

    def __str__(self) -> str:
        return f"{self.endpoint} {self.key} by {self.caller}"


from games.agreement_models import Agreement, AgreementAction, AgreementState, AgreementStep  # noqa: E402, F401
