"""Who plays and how events are organised: clubs, players, partnerships, competitions, entries and teams.

A competition's rounds and byes live in ``draw.models``, its standings and the players' ratings in
``standings.models``."""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Greatest, Least

from engine import Ruleset, RulesetError
from league.choices import ClockIncrement, OnlineNextRound, OnlineNoShow, OnlineSpectators, UnconfirmedResults

CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def validate_plain_text(value: str) -> None:
    """A name is one line of text: no line break, tab or other control character (they would break a printed
    sheet, a CSV file and a spreadsheet that reads it as a formula)."""
    found = CONTROL_CHARACTERS.search(value or "")
    if found:
        raise ValidationError(f"must be one line of plain text: it holds a control character "
                              f"({found.group()!r} at position {found.start() + 1})")


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True, validators=[validate_plain_text])
    slug = models.SlugField(max_length=120, unique=True)
    town = models.CharField(max_length=120, blank=True, validators=[validate_plain_text])
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="clubs_made",
                                   help_text="Who made the club on the site (an account makes a few a day)")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubRole(models.Model):
    """A user's role in a club. Organisers run the club's competitions; scorekeepers enter the hands of every
    match of the club's published competitions (or of one competition, ``competition``)."""

    ORGANISER = "organiser"
    SCOREKEEPER = "scorekeeper"
    ROLES = [(ORGANISER, "Organiser"), (SCOREKEEPER, "Scorekeeper")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles")
    role = models.CharField(max_length=20, choices=ROLES, default=ORGANISER)
    competition = models.ForeignKey("Competition", null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="scorekeeper_roles",
                                    help_text="A scorekeeper of this competition only (else of the whole club)")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], condition=Q(competition__isnull=True),
                                    name="unique_club_role"),
            models.UniqueConstraint(fields=["club", "user", "role", "competition"],
                                    condition=Q(competition__isnull=False), name="unique_competition_role"),
            models.CheckConstraint(condition=Q(role="scorekeeper") | Q(competition__isnull=True),
                                   name="club_role_competition_only_for_a_scorekeeper"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} of {self.club}"


class Player(models.Model):
    name = models.CharField(max_length=120, validators=[validate_plain_text])
    nickname = models.CharField(max_length=60, blank=True, validators=[validate_plain_text])
    home_club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="player_records",
                             help_text="The person's account: one record at each club they play for")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["user", "home_club"], condition=Q(user__isnull=False),
                                               name="one_record_a_club")]

    def __str__(self) -> str:
        return f"{self.name} ({self.nickname})" if self.nickname else self.name


class Partnership(models.Model):
    """A pair of players (4-player game) or one player (2-player game)."""

    name = models.CharField(max_length=120, blank=True, validators=[validate_plain_text])
    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="partnerships_first")
    player_two = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="partnerships_second")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="partnerships")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(player_one=models.F("player_two")), name="partners_differ"),
            # the same two players are one partnership, in either order and whatever its name
            models.UniqueConstraint(Least("player_one", "player_two"), Greatest("player_one", "player_two"),
                                    condition=Q(player_two__isnull=False), name="unique_partners"),
            models.UniqueConstraint(fields=["player_one"], condition=Q(player_two__isnull=True),
                                    name="unique_single_partner"),
        ]

    @property
    def size(self) -> int:
        return 1 if self.player_two_id is None else 2

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        names = [self.player_one.name] + ([self.player_two.name] if self.player_two is not None else [])
        return " & ".join(names)

    def __str__(self) -> str:
        return self.display_name


# Upper bounds of a competition's numbers: far above what any club plays, far below what the database holds (and
# what a season's totals summed from them must fit in). Each is said in the field's help text and in its error.
MAX_MATCH_GAMES = 25
MAX_PLANNED_ROUNDS = 50
MAX_MATCH_POINTS = 100
MAX_GROUPS = 64
MAX_ADVANCE_PER_GROUP = 64
MAX_TEAM_TABLES = 50
MAX_TEAM_TARGET = 200
MAX_TEAM_GAMES_PER_TABLE = 25
MAX_SEED = 10_000
MAX_ONLINE_GRACE_MINUTES = 120
MAX_ONLINE_CLOCK_MINUTES = 600
MAX_ONLINE_INCREMENT_SECONDS = 300


def at_most(limit: int) -> MaxValueValidator:
    return MaxValueValidator(limit, message=f"at most {limit:,}")


def validate_ruleset(value: object) -> None:
    try:
        Ruleset.from_dict(value)
    except RulesetError as error:
        raise ValidationError(str(error)) from None


def default_tiebreaks() -> list[str]:
    return ["wins", "bullseye_difference", "chalk_difference"]


PLAYER_CHOICES = [(2, "2 players (All Twos)"), (4, "4 players")]


def match_format_words(match_format: str, games: int | str) -> str:
    """A match format in words with its number of games: "Best of 3 games", "First to 1 game", "A single
    game". Where the number is not known (a choice's label) ``games`` names the field that holds it."""
    if match_format == "single":
        return "A single game"
    plural = "" if games == 1 else "s"
    return f"{'Best of' if match_format == 'best_of' else 'First to'} {games} game{plural}"


def team_mode_words(team_mode: str, target: int | str, games_per_table: int | str) -> str:
    """How a team match is won, in words: "First team to 22 bullseyes", "Most bullseyes after 3 games a
    table" (a choice's label names the fields instead)."""
    if team_mode == "race":
        return f"First team to {target} bullseyes"
    return f"Most bullseyes after {games_per_table} game{'' if games_per_table == 1 else 's'} a table"


class Competition(models.Model):
    SINGLE, BEST_OF, FIRST_TO = "single", "best_of", "first_to"
    MATCH_FORMATS = [(value, match_format_words(value, "match_games")) for value in (SINGLE, BEST_OF, FIRST_TO)]
    ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS, KNOCKOUT, GROUPS_KNOCKOUT, MANUAL = (
        "round_robin", "double_round_robin", "swiss", "knockout", "groups_knockout", "manual")
    SYSTEMS = [(ROUND_ROBIN, "Round robin"), (DOUBLE_ROUND_ROBIN, "Double round robin"), (SWISS, "Swiss"),
               (KNOCKOUT, "Knockout"), (GROUPS_KNOCKOUT, "Groups, then knockout"), (MANUAL, "Fixtures set by hand")]
    PAIRS, TEAMS, INDIVIDUAL = "pairs", "teams", "individual"
    ENTRANT_KINDS = [(PAIRS, "Partnerships"), (TEAMS, "Club teams of pairs"),
                     (INDIVIDUAL, "Individuals with rotating partners")]
    HAND, GAME, MATCH = "hand", "game", "match"
    RESULT_LEVELS = [(HAND, "Hand by hand"), (GAME, "Game by game"), (MATCH, "Match totals only")]
    RANK_OVERALL, RANK_BY_DIVISION = "overall", "division"
    DIVISION_RANKINGS = [(RANK_OVERALL, "Ranked overall, shown by division"),
                         (RANK_BY_DIVISION, "Each division ranked on its own")]
    BYE_FIXED, BYE_AVERAGE = "fixed", "average"
    BYE_POLICIES = [(BYE_FIXED, "A win, its columns credited as set"),
                    (BYE_AVERAGE, "Not played: the entrant's averages from its other matches")]
    TEAM_RACE, TEAM_FIXED = "race", "fixed"
    TEAM_MODES = [(value, team_mode_words(value, "team_target", "team_games_per_table"))
                  for value in (TEAM_RACE, TEAM_FIXED)]

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="competitions")
    name = models.CharField(max_length=160, validators=[validate_plain_text])
    slug = models.SlugField(max_length=160)
    season = models.CharField(max_length=60, blank=True, validators=[validate_plain_text])
    players = models.PositiveSmallIntegerField(choices=PLAYER_CHOICES, default=4)
    ruleset = models.JSONField(default=dict, blank=True, validators=[validate_ruleset])
    match_format = models.CharField(max_length=10, choices=MATCH_FORMATS, default=SINGLE)
    match_games = models.PositiveSmallIntegerField(default=1, validators=[at_most(MAX_MATCH_GAMES)],
                                                   help_text=f"Best of N or first to N: 1 to {MAX_MATCH_GAMES}")
    published = models.BooleanField(default=False)
    archived = models.BooleanField(default=False, help_text="Finished and kept: out of the club's and home lists, "
                                                            "still at its address and in the club's archive")
    system = models.CharField(max_length=20, choices=SYSTEMS, default=ROUND_ROBIN)
    entrant_kind = models.CharField(max_length=12, choices=ENTRANT_KINDS, default=PAIRS)
    result_level = models.CharField(max_length=6, choices=RESULT_LEVELS, default=HAND,
                                    help_text="The level at which the club usually keeps results")
    planned_rounds = models.PositiveSmallIntegerField(null=True, blank=True, validators=[at_most(MAX_PLANNED_ROUNDS)],
                                                      help_text=f"Swiss: rounds declared, 1 to {MAX_PLANNED_ROUNDS}")
    avoid_same_club = models.BooleanField(default=False, help_text="Swiss: keep pairs of one club apart")
    tiebreaks = models.JSONField(default=default_tiebreaks, blank=True,
                                 help_text="Standings metrics in order of precedence")
    points_win = models.PositiveSmallIntegerField(default=2, validators=[at_most(MAX_MATCH_POINTS)],
                                                  help_text=f"0 to {MAX_MATCH_POINTS}")
    points_draw = models.PositiveSmallIntegerField(default=1, validators=[at_most(MAX_MATCH_POINTS)],
                                                   help_text=f"0 to {MAX_MATCH_POINTS}")
    points_loss = models.PositiveSmallIntegerField(default=0, validators=[at_most(MAX_MATCH_POINTS)],
                                                   help_text=f"0 to {MAX_MATCH_POINTS}")
    bye_policy = models.CharField(max_length=8, choices=BYE_POLICIES, default=BYE_FIXED)
    division_ranking = models.CharField(max_length=8, choices=DIVISION_RANKINGS, default=RANK_OVERALL,
                                        help_text="With divisions: one table ranked as a whole, or each division "
                                                  "ranked on its own")
    bye_score = models.JSONField(default=dict, blank=True,
                                 help_text="A bye won: each column's credit, a number or a rule "
                                           "(target, average_down, average_nearest, average_exact, none)")
    third_place_match = models.BooleanField(default=False)
    group_count = models.PositiveSmallIntegerField(default=0, validators=[at_most(MAX_GROUPS)],
                                                   help_text=f"Groups before the knockout: 0 to {MAX_GROUPS}")
    advance_per_group = models.PositiveSmallIntegerField(default=2, validators=[at_most(MAX_ADVANCE_PER_GROUP)],
                                                         help_text=f"0 to {MAX_ADVANCE_PER_GROUP}")
    team_tables = models.PositiveSmallIntegerField(default=3, validators=[at_most(MAX_TEAM_TABLES)],
                                                   help_text=f"1 to {MAX_TEAM_TABLES}")
    team_mode = models.CharField(max_length=6, choices=TEAM_MODES, default=TEAM_RACE)
    team_target = models.PositiveSmallIntegerField(default=22, validators=[at_most(MAX_TEAM_TARGET)],
                                                   help_text=f"Race: bullseyes a team needs, 1 to {MAX_TEAM_TARGET}")
    team_games_per_table = models.PositiveSmallIntegerField(
        default=3, validators=[at_most(MAX_TEAM_GAMES_PER_TABLE)],
        help_text=f"Fixed: games at each table, 1 to {MAX_TEAM_GAMES_PER_TABLE}")
    confirm_results = models.BooleanField(
        default=False, help_text="A result entered by one side is confirmed by the other (or decided by an "
                                 "organiser when they disagree)")
    unconfirmed_results = models.CharField(max_length=8, choices=UnconfirmedResults.choices,
                                           default=UnconfirmedResults.COUNTED)
    play_online = models.BooleanField(
        default=False, help_text="Each match is played at an online table, opened when its round is published")
    online_grace_minutes = models.PositiveSmallIntegerField(
        default=10, validators=[at_most(MAX_ONLINE_GRACE_MINUTES)],
        help_text=f"Played online: minutes a table waits for an empty seat, 0 to {MAX_ONLINE_GRACE_MINUTES}")
    online_no_show = models.CharField(max_length=8, choices=OnlineNoShow.choices, default=OnlineNoShow.FORFEIT)
    online_bot_rated = models.BooleanField(
        default=False, help_text="Played online: a match a bot played in for an absent player counts for ratings")
    online_next_round = models.CharField(max_length=8, choices=OnlineNextRound.choices,
                                         default=OnlineNextRound.REVIEW)
    online_tie_by_tie = models.BooleanField(
        default=False, help_text="Played online, a knockout: a tie's next match opens as soon as both its feeding "
                                 "ties are decided, without waiting for the whole round")
    online_clock_minutes = models.PositiveSmallIntegerField(
        default=0, validators=[at_most(MAX_ONLINE_CLOCK_MINUTES)],
        help_text=f"Played online: each player's time for the whole match, 0 to {MAX_ONLINE_CLOCK_MINUTES} "
                  "(0: no match clock, each turn has the table's own time)")
    online_increment_seconds = models.PositiveSmallIntegerField(
        default=0, validators=[at_most(MAX_ONLINE_INCREMENT_SECONDS)],
        help_text=f"Played online with a match clock: seconds added, 0 to {MAX_ONLINE_INCREMENT_SECONDS}")
    online_increment_per = models.CharField(max_length=5, choices=ClockIncrement.choices,
                                            default=ClockIncrement.MOVE)
    online_spectators = models.CharField(max_length=5, choices=OnlineSpectators.choices,
                                         default=OnlineSpectators.TRICK_BEHIND)
    standings_version = models.PositiveIntegerField(
        default=0, help_text="The ResultsClock version the standings rows were computed from")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="unique_competition_slug"),
            models.CheckConstraint(condition=Q(players__in=[2, 4]), name="competition_players_2_or_4"),
            models.CheckConstraint(condition=Q(match_games__gte=1), name="competition_match_games_positive"),
            models.CheckConstraint(condition=Q(unconfirmed_results__in=UnconfirmedResults.values),
                                   name="competition_unconfirmed_results_known"),
            models.CheckConstraint(condition=Q(online_grace_minutes__lte=MAX_ONLINE_GRACE_MINUTES),
                                   name="competition_online_grace_minutes_bounded"),
            models.CheckConstraint(condition=Q(online_no_show__in=OnlineNoShow.values),
                                   name="competition_online_no_show_known"),
            models.CheckConstraint(condition=Q(online_next_round__in=OnlineNextRound.values),
                                   name="competition_online_next_round_known"),
            models.CheckConstraint(condition=Q(online_clock_minutes__lte=MAX_ONLINE_CLOCK_MINUTES),
                                   name="competition_online_clock_minutes_bounded"),
            models.CheckConstraint(condition=Q(online_increment_seconds__lte=MAX_ONLINE_INCREMENT_SECONDS),
                                   name="competition_online_increment_bounded"),
            models.CheckConstraint(condition=Q(online_increment_per__in=ClockIncrement.values),
                                   name="competition_online_increment_per_known"),
            models.CheckConstraint(condition=Q(online_spectators__in=OnlineSpectators.values),
                                   name="competition_online_spectators_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def engine_ruleset(self) -> Ruleset:
        return Ruleset.from_dict(self.ruleset or None)

    @property
    def format_label(self) -> str:
        """The match format in words: "A single game", "Best of 3 games", "First to 2 games"."""
        return match_format_words(self.match_format, self.match_games)

    @property
    def team_mode_label(self) -> str:
        """How a team match is won, in words: "First team to 22 bullseyes"."""
        return team_mode_words(self.team_mode, self.team_target, self.team_games_per_table)

    def games_to_win(self) -> int:
        """Games a side needs to win a match under the match format."""
        if self.match_format == self.SINGLE:
            return 1
        if self.match_format == self.BEST_OF:
            return self.match_games // 2 + 1
        return self.match_games

    def clean(self) -> None:
        if self.match_format == self.BEST_OF and self.match_games % 2 == 0:
            raise ValidationError({"match_games": f"best of {self.match_games} games has no majority: a best-of "
                                                  "match needs an odd number of games (3, 5, 7, …)"})
        if not isinstance(self.tiebreaks, list) or not all(isinstance(key, str) for key in self.tiebreaks):
            raise ValidationError({"tiebreaks": "must be a list of metric names"})


class ResultsClock(models.Model):
    """Counts the result changes of a competition, and notes whether a settle task is queued for it. Kept apart
    from the Competition row, which the standings refresh locks: a settled match ticks the clock, and a
    committed hand asks for a settle, without waiting for a refresh in progress."""

    competition = models.OneToOneField(Competition, primary_key=True, on_delete=models.CASCADE,
                                       related_name="results_clock")
    version = models.PositiveBigIntegerField(default=0)
    settle_requested_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when a settle task was queued for the competition's new results and "
                                         "cleared as it starts: commits in between queue no task of their own")


class Team(models.Model):
    """A club's side of pairs in a team competition; each team match seats one of its pairs at each table."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="teams")
    name = models.CharField(max_length=120, validators=[validate_plain_text])
    partnerships = models.ManyToManyField(Partnership, blank=True, related_name="teams")

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["competition", "name"], name="unique_team_name")]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """One entrant of a competition: a partnership, a club team, or a player (individual events)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
    partnership = models.ForeignKey(Partnership, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="entries")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True, validators=[at_most(MAX_SEED)],
                                       help_text=f"1 to {MAX_SEED:,}")
    group = models.CharField(max_length=20, blank=True, validators=[validate_plain_text])
    division = models.CharField(max_length=40, blank=True, validators=[validate_plain_text],
                                help_text="A league's division or conference (its standings show them grouped)")
    joined_round = models.PositiveSmallIntegerField(default=1, help_text="A late entry plays from this round")
    withdrawn = models.BooleanField(default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True,
                                                             help_text="The last round the entrant played")

    class Meta:
        ordering = ["seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "partnership"], name="unique_entry"),
            models.UniqueConstraint(fields=["competition", "team"], name="unique_team_entry"),
            models.UniqueConstraint(fields=["competition", "player"], name="unique_player_entry"),
            models.CheckConstraint(
                condition=(Q(partnership__isnull=False, team__isnull=True, player__isnull=True)
                           | Q(partnership__isnull=True, team__isnull=False, player__isnull=True)
                           | Q(partnership__isnull=True, team__isnull=True, player__isnull=False)),
                name="entry_is_one_kind"),
        ]

    @property
    def entrant(self):
        return self.partnership or self.team or self.player

    @property
    def display_name(self) -> str:
        entrant = self.entrant
        return getattr(entrant, "display_name", None) or str(entrant)


def new_token() -> str:
    return secrets.token_urlsafe(18)


# invitations (between clubs, and of people to a club) and entry fees live in modules of their own; imported here so
# that ``league.models`` names them too
from league.checkin_models import AbsentAs, CheckIn, CheckInHow, CheckInWindow  # noqa: E402, F401
from league.entry_request_models import (  # noqa: E402, F401
    EntryRequest,
    EntryRequestEvent,
    EntryRequestState,
    EntryRequestStep,
    EntryWindow,
)
from league.fee_models import CompetitionFee, EntryFee, FeePer, FeeState  # noqa: E402, F401
from league.invitation_models import EntryInvitation, InvitationState  # noqa: E402, F401
from league.player_claim_models import ClaimState, PlayerClaim  # noqa: E402, F401
from league.role_invitation_models import InvitedRole, RoleInvitation, RoleInvitationState  # noqa: E402, F401
from league.venue_models import VenueTable  # noqa: E402, F401
