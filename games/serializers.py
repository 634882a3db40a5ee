"""The API's shape for matches, games, hands and their versions, and the inputs of hand entry.

Only the form is checked here; the engine (through ``games.entry``) decides whether a hand could
happen, and the views decide who may do what.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.choices import Outcome, Winner
from games.models import MAX_NUMBER, SIDES, Game, Hand, HandVersion, Match, TeamMatch
from league.models import Partnership, Team
from league.permissions import visible_competitions
from league.serializers import ErrorsSerializer

"""The largest game or hand number, and games won, the database holds (a small-integer column)."""
MAX_COUNT = 2**31 - 1
"""The largest count of chalks or hang jacks the database holds; the rules allow far fewer (``engine.limits``,
checked by ``games.checks`` with the competition's ruleset, which a serializer does not know)."""
MAX_ROUND_NUMBER = 32767  # the largest round number the database holds (a small-integer column)
BOUNDED_BY_RULES = "at most what the competition's rules allow (the reason is given)"
ENTRY_HELP = ('A chalk entry (engine/chalk.py) or a hand record (docs/hand-record.md); "players", "dealer", '
              '"score_before" and "ruleset" are filled in from the match.')


@extend_schema_field(OpenApiTypes.INT)
class VisibleCompetitionField(serializers.PrimaryKeyRelatedField):
    """A competition the requesting user may see (others are reported as not existing)."""

    def get_queryset(self):
        return visible_competitions(self.context["request"].user)


RESULT_WINNERS = Winner.choices
"""A match's or team match's ``winner``; the empty string while undecided (schema: ``ResultWinnerEnum``)."""


def winner_field(choices: list[tuple[str, str]], help_text: str) -> serializers.ChoiceField:
    """A read-only winner declared as the values it takes, the empty string (while undecided) among them."""
    return serializers.ChoiceField(choices=choices, allow_blank=True, read_only=True, help_text=help_text)


# ----------------------------------------------------------------------------- hands
class HandSerializer(serializers.ModelSerializer):
    game_number = serializers.IntegerField(source="game.number", read_only=True)
    match = serializers.IntegerField(source="game.match_id", read_only=True)
    counts = serializers.BooleanField(read_only=True, help_text="Not deleted and not void")

    class Meta:
        model = Hand
        fields = ["id", "match", "game", "game_number", "number", "mode", "dealer", "entry", "result", "points_a",
                  "points_b", "score_a_after", "score_b_after", "deleted", "void_reason", "counts", "version",
                  "entered_by", "created_at", "updated_at"]
        read_only_fields = fields


class HandConflictSerializer(ErrorsSerializer):
    """A hand refused because its number is taken (409): the error, and the stored hand that holds the number, so
    that the phone can show both versions (the scorekeeper keeps the stored one, or corrects it with a reason)."""

    hand = HandSerializer(required=False, allow_null=True,
                          help_text="The stored hand holding that number (only when the number is taken)")


class HandVersionSerializer(serializers.ModelSerializer):
    author: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True, help_text="The account, or null for the private link")

    class Meta:
        model = HandVersion
        fields = ["version", "mode", "entry", "result", "deleted", "author", "author_label", "reason", "created_at"]
        read_only_fields = fields


DEALER_HELP = ("The seat that dealt (0–3, side A's seats 0 and 2), only when the table dealt out of turn; left out: "
               "whose deal it was. The deal passes on from the seat given.")
VERSION_HELP = ("The hand's version the correction was made on (the hand's `version`): if the hand changed since, the "
                "correction is refused with 409, naming who changed it and when")


class HandEntrySerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER,
                                      help_text="The hand the scorekeeper believes is next")
    mode = serializers.ChoiceField(choices=Hand.MODES)
    entry: serializers.Field = serializers.DictField(help_text=ENTRY_HELP)  # narrowed by games.entry_schema
    dealer = serializers.IntegerField(min_value=0, max_value=3, required=False, help_text=DEALER_HELP)


class HandCorrectionSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=Hand.MODES, required=False, help_text="Left out: the hand's current mode")
    entry: serializers.Field = serializers.DictField(help_text=ENTRY_HELP)  # narrowed by games.entry_schema
    reason = serializers.CharField(max_length=300, help_text="Why the hand is corrected")
    version = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text=VERSION_HELP)
    dealer = serializers.IntegerField(min_value=0, max_value=3, required=False, help_text=DEALER_HELP)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, help_text="Why the hand is struck out")


class HandDeletionSerializer(ReasonSerializer):
    version = serializers.IntegerField(min_value=1, max_value=2**31 - 1,
                                       help_text="The hand's version being struck out: refused (409) if it changed")


class UndoSerializer(serializers.Serializer):
    hand = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False,
                                    help_text="The hand meant (its id): refused (409) if it is no longer the last one")
    version = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False,
                                       help_text="Its version: refused (409) if it changed")


# ----------------------------------------------------------------------------- games and matches
class GameSerializer(serializers.ModelSerializer):
    hands = HandSerializer(many=True, read_only=True)
    winner = winner_field(SIDES, "a or b; empty while the game is open")

    class Meta:
        model = Game
        fields = ["id", "match", "number", "first_dealer", "score_a", "score_b", "hang_jacks_a", "hang_jacks_b",
                  "winner", "next_dealer", "hands_counted", "entered", "scores_known", "hands"]
        read_only_fields = fields


LEVEL_HELP = "The level the result was entered at: hand (hand by hand), game (game results) or match (totals only)"


class MatchSerializer(serializers.ModelSerializer):
    result_level = serializers.CharField(read_only=True, help_text=LEVEL_HELP)
    winner = winner_field(RESULT_WINNERS, "a or b; d for a table of a team match that ended level; empty while "
                                          "undecided and after a double forfeit")

    class Meta:
        model = Match
        fields = ["id", "competition", "round", "side_a", "side_b", "side_a_name", "side_b_name", "table",
                  "venue", "scheduled_at", "first_dealer", "status", "games_a", "games_b", "winner", "outcome",
                  "result_level", "chalks_a", "chalks_b", "chalks_known", "hang_jacks_a", "hang_jacks_b",
                  "team_match", "table_number", "created_at"]
        read_only_fields = fields


class NextHandSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game.number", help_text="The game's number in the match")
    number = serializers.IntegerField()
    dealer = serializers.IntegerField(help_text="The dealer's seat index (0 to 3: seat 1 to seat 4)")
    score_before = serializers.ListField(child=serializers.IntegerField(), help_text="[side A, side B]")


class MatchDetailSerializer(MatchSerializer):
    games = GameSerializer(many=True, read_only=True)
    score = serializers.SerializerMethodField(help_text="The current (or last) game's score")
    next_hand = serializers.SerializerMethodField(help_text="Where the next hand goes; null when none can be entered")

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "score", "next_hand", "games"]
        read_only_fields = fields

    @extend_schema_field({"type": "object", "properties": {"game": {"type": "integer"}, "a": {"type": "integer"},
                                                           "b": {"type": "integer"}}, "nullable": True})
    def get_score(self, match: Match) -> dict | None:
        upcoming = self.context.get("next_hand")
        if upcoming is not None:
            return {"game": upcoming.game.number, "a": upcoming.score_before[0], "b": upcoming.score_before[1]}
        games = list(match.games.all())
        if not games:
            return None
        return {"game": games[-1].number, "a": games[-1].score_a, "b": games[-1].score_b}

    @extend_schema_field(NextHandSerializer(allow_null=True))
    def get_next_hand(self, match: Match) -> dict | None:
        upcoming = self.context.get("next_hand")
        return NextHandSerializer(upcoming).data if upcoming is not None else None


def venue_field() -> serializers.CharField:
    return serializers.CharField(max_length=Match._meta.get_field("venue").max_length, required=False,
                                 allow_blank=True, help_text="Where the fixture is played (a club's own list)")


class FixtureCreateSerializer(serializers.Serializer):
    """What a match and a team match are created with: the competition, its round (by id, or by its number in
    the competition: ``round_number``), where and when it is played."""

    competition = VisibleCompetitionField()
    # draw's rounds, found through the app registry: games sits below draw and does not import it
    round = serializers.PrimaryKeyRelatedField(queryset=apps.get_model("draw", "Round").objects.all(),
                                               required=False, allow_null=True, help_text="The round's id")
    round_number = serializers.IntegerField(min_value=1, max_value=MAX_ROUND_NUMBER,
                                            required=False, allow_null=True, write_only=True,
                                            help_text="Or the round's number in the competition (instead of round)")
    venue = venue_field()
    scheduled_at = serializers.DateTimeField(required=False, allow_null=True, help_text="When it is played")

    def validate(self, data: dict) -> dict:
        number = data.pop("round_number", None)
        if number is None:
            return data
        if data.get("round") is not None:
            raise serializers.ValidationError({"round_number": "give the round's id (round) or its number "
                                                               "(round_number), not both"})
        competition = data["competition"]
        round_ = competition.rounds.filter(number=number).first()
        if round_ is None:
            raise serializers.ValidationError({"round_number": f"{competition.name} has no round {number}"})
        data["round"] = round_
        return data


class MatchCreateSerializer(FixtureCreateSerializer):
    side_a = serializers.PrimaryKeyRelatedField(queryset=Partnership.objects.all())
    side_b = serializers.PrimaryKeyRelatedField(queryset=Partnership.objects.all())
    table = serializers.CharField(max_length=40, required=False, allow_blank=True)
    first_dealer = serializers.IntegerField(min_value=0, max_value=3, required=False,
                                            help_text="The seat that deals the first hand: a seat index 0–3 "
                                                      "(seat 1 to 4)")


# ----------------------------------------------------------------------------- results at a coarser level
def count(**kwargs) -> serializers.IntegerField:
    """Chalks or hang jacks: a whole number the database can hold (the rules' bound is the service's check)."""
    return serializers.IntegerField(min_value=0, max_value=MAX_COUNT, **kwargs)


class GameResultSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER,
                                      help_text="The game's number in the match (1, 2, …); an entered game's number "
                                                "corrects it")
    winner = serializers.ChoiceField(choices=SIDES)
    hang_jacks_a = count(default=0, help_text=f"Side A's hang jacks in the game, {BOUNDED_BY_RULES}")
    hang_jacks_b = count(default=0)
    score_a = count(required=False, allow_null=True,
                    help_text=f"Side A's final chalks, {BOUNDED_BY_RULES}; leave both out when not kept")
    score_b = count(required=False, allow_null=True)
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True,
                                   help_text="Why a game is corrected (kept in the log)")


class MatchTotalsSerializer(serializers.Serializer):
    games_a = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, help_text="Games (bullseyes) side A won")
    games_b = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER)
    hang_jacks_a = count(default=0, help_text=f"Over all games, {BOUNDED_BY_RULES}")
    hang_jacks_b = count(default=0)
    chalks_a = count(required=False, allow_null=True,
                     help_text=f"Chalks over all games, {BOUNDED_BY_RULES}; leave both out when not kept")
    chalks_b = count(required=False, allow_null=True)


class ForfeitSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Match.OUTCOMES, help_text="forfeit_a, forfeit_b or double_forfeit")


class TeamTotalsSerializer(serializers.Serializer):
    bullseyes_a = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER,
                                           help_text="Games team A won over all tables")
    bullseyes_b = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER)
    hang_jacks_a = count(default=0, help_text=f"Over all tables, {BOUNDED_BY_RULES}")
    hang_jacks_b = count(default=0)
    chalks_a = count(required=False, allow_null=True, help_text=f"Over all tables, {BOUNDED_BY_RULES}")
    chalks_b = count(required=False, allow_null=True)


class TeamMatchSerializer(serializers.ModelSerializer):
    mode = serializers.CharField(read_only=True, help_text="race (first team to target bullseyes) or fixed "
                                                          "(most bullseyes after games_per_table games a table)")
    result_level = serializers.CharField(read_only=True, help_text=LEVEL_HELP)
    winner = winner_field(RESULT_WINNERS, "a, b, d (a draw) or empty while open")
    outcome = serializers.ChoiceField(choices=Outcome.choices, allow_blank=True, read_only=True,
                                      help_text="played, a forfeit, or empty (an older team match: played)")

    class Meta:
        model = TeamMatch
        fields = ["id", "competition", "round", "team_a", "team_b", "team_a_name", "team_b_name", "venue",
                  "scheduled_at", "tables", "mode",
                  "target", "games_per_table", "result_level", "outcome", "status", "bullseyes_a", "bullseyes_b",
                  "chalks_a", "chalks_b", "chalks_known", "hang_jacks_a", "hang_jacks_b", "winner", "created_at"]
        read_only_fields = fields


class TeamMatchDetailSerializer(TeamMatchSerializer):
    table_matches = MatchSerializer(many=True, read_only=True, help_text="One match a table, in table order")

    class Meta(TeamMatchSerializer.Meta):
        fields = [*TeamMatchSerializer.Meta.fields, "table_matches"]
        read_only_fields = fields


def table_pairs() -> serializers.ListField:
    """One table: ``[pair of team A, pair of team B]``."""
    return serializers.ListField(child=serializers.PrimaryKeyRelatedField(queryset=Partnership.objects.all()),
                                 min_length=2, max_length=2)


class TeamMatchCreateSerializer(FixtureCreateSerializer):
    team_a = serializers.PrimaryKeyRelatedField(queryset=Team.objects.all())
    team_b = serializers.PrimaryKeyRelatedField(queryset=Team.objects.all())
    tables = serializers.ListField(child=table_pairs(), required=False, allow_null=True,
                                   help_text="[[pair of team A, pair of team B], …], one per table")


class TeamTablesSerializer(serializers.Serializer):
    tables = serializers.ListField(child=table_pairs(), help_text="[[pair of team A, pair of team B], …]")


# ----------------------------------------------------------------------------- scorekeepers and the link
class ScorekeeperSerializer(serializers.ModelSerializer):
    class Meta:
        model = get_user_model()
        fields = ["id", "username"]
        read_only_fields = fields


class UsernameSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)

    def validate_username(self, username: str):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise serializers.ValidationError(f"no user is called {username!r}")
        return user


class EntryLinkSerializer(serializers.Serializer):
    url = serializers.CharField(help_text="The private entry page (works without an account)")
    api_url = serializers.CharField(help_text="The API's hand entry for the link (send the token as X-Entry-Token)")
    token = serializers.CharField()
    revoked = serializers.BooleanField()


class EntryLinkActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=[("revoke", "Revoke the link"), ("renew", "Issue a new link")])


