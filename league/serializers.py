"""The API's shape for clubs, players, partnerships, competitions, entries and standings.

Serializers check the form of the input (and the ruleset through the engine); who may do what is
checked by the views through ``league.permissions``, and writes go through ``league.services``.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine import Ruleset, RulesetError
from league.competition_options import check_competition
from league.models import Club, Competition, Entry, EntryInvitation, Partnership, Player
from league.permissions import visible_partnerships
from league.setup_errors import SetupError


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "town", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"slug": {"required": False}}


class PlayerSerializer(serializers.ModelSerializer):
    confirm_similar_name = serializers.BooleanField(
        write_only=True, required=False, default=False,
        help_text="True to save a name like another player's of the club but for capitals, spaces or accents "
                  "(else a 409 names the field)")

    class Meta:
        model = Player
        fields = ["id", "name", "nickname", "home_club", "confirm_similar_name", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"home_club": {"allow_null": False, "required": True}}


class PartnershipSerializer(serializers.ModelSerializer):
    display_name = serializers.CharField(read_only=True)
    size = serializers.IntegerField(read_only=True, help_text="1 (2-player game) or 2 (4-player game)")

    class Meta:
        model = Partnership
        fields = ["id", "name", "display_name", "size", "player_one", "player_two", "club", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"club": {"allow_null": False, "required": True}}

    def validate(self, attrs: dict) -> dict:
        one = attrs.get("player_one", getattr(self.instance, "player_one", None))
        two = attrs.get("player_two", getattr(self.instance, "player_two", None))
        if one is not None and one == two:
            raise serializers.ValidationError({"player_two": "the partners must be two different players"})
        return attrs


class CompetitionSerializer(serializers.ModelSerializer):
    ruleset = serializers.JSONField(required=False, help_text="Overrides of the engine's variant keys (docs/rules.md)")
    tiebreaks = serializers.ListField(
        child=serializers.CharField(), required=False, allow_empty=True,
        help_text="Standings metrics in order of precedence (keys of standings.metrics.METRICS, e.g. "
                  '["bullseyes_for", "bullseyes_against", "hang_jacks_for", "hang_jacks_against"])')
    bye_score = serializers.JSONField(
        required=False, help_text="A fixed bye's credit: bullseyes_for (default: the games a match needs), "
                                  "bullseyes_against, chalks_for, chalks_against, hang_jacks_for, hang_jacks_against")

    class Meta:
        model = Competition
        fields = ["id", "club", "name", "slug", "season", "players", "ruleset", "match_format", "match_games",
                  "published", "system", "entrant_kind", "result_level", "planned_rounds", "avoid_same_club",
                  "tiebreaks", "points_win", "points_draw", "points_loss", "bye_policy", "bye_score",
                  "division_ranking", "third_place_match", "group_count", "advance_per_group", "team_tables",
                  "team_mode", "team_target", "team_games_per_table", "confirm_results",
                  "unconfirmed_results", "play_online", "online_grace_minutes", "online_no_show",
                  "online_bot_rated", "online_next_round", "online_tie_by_tie", "online_clock_minutes",
                  "online_increment_seconds", "online_increment_per", "online_spectators", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"slug": {"required": False}, "match_games": {"min_value": 1},
                        "planned_rounds": {"min_value": 1}}
        validators: list = []  # the (club, slug) check is in ``validate``: the slug may be left to the server

    def validate_ruleset(self, ruleset: object) -> object:
        return self._an_object(ruleset, '{"target": 10}')

    def validate_bye_score(self, bye_score: object) -> object:
        return self._an_object(bye_score, '{"bullseyes_for": 2}')

    @staticmethod
    def _an_object(value: object, example: str) -> object:
        if not isinstance(value, dict):  # null too: the column holds an object ({} for none)
            raise serializers.ValidationError(f"must be a JSON object, e.g. {example} or {{}}, got {value!r}")
        return value

    def validate(self, attrs: dict) -> dict:
        club = attrs.get("club", getattr(self.instance, "club", None))
        self._check_ruleset(attrs.get("ruleset"))
        self._check_slug(club, attrs.get("slug"))
        options = {name: value for name, value in attrs.items() if name not in ("club", "name", "slug", "season")}
        try:
            check_competition(options, self.instance)
        except SetupError as error:
            raise serializers.ValidationError({error.field: error.reason}) from None
        return attrs

    @staticmethod
    def _check_ruleset(ruleset: object) -> None:
        try:
            Ruleset.from_dict(ruleset)
        except RulesetError as error:
            raise serializers.ValidationError({error.field: error.reason}) from None

    def _check_slug(self, club: Club | None, slug: str | None) -> None:
        if not slug or club is None:
            return
        taken = Competition.objects.filter(club=club, slug=slug)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError({"slug": f"{club.name} already has a competition {slug!r}"})


class CompetitionUpdateSerializer(CompetitionSerializer):
    """A competition stays in its club."""

    class Meta(CompetitionSerializer.Meta):
        read_only_fields = ["club", "created_at"]


class SeasonCopySerializer(serializers.Serializer):
    """A competition copied into a new season: its format, tiebreaks, byes and, unless ``entrants`` is false,
    its entrants (seeds, groups, divisions, a team league's teams), as a draft."""

    season = serializers.CharField(max_length=60, help_text="The new season's name, e.g. 2027")
    name = serializers.CharField(max_length=160, required=False, allow_blank=True,
                                 help_text="Blank: the same name as the season copied")
    entrants = serializers.BooleanField(required=False, default=True)


class EntrySerializer(serializers.ModelSerializer):
    """An entrant: a partnership, a team (team competitions) or a player (individual events)."""

    entrant_name = serializers.CharField(source="display_name", read_only=True)
    partnership_name = serializers.CharField(source="partnership.display_name", read_only=True, allow_null=True)
    group = serializers.CharField(required=False, allow_blank=True, max_length=20)
    division = serializers.CharField(required=False, allow_blank=True, max_length=40)

    class Meta:
        model = Entry
        fields = ["id", "partnership", "partnership_name", "team", "player", "entrant_name", "seed", "group",
                  "division", "joined_round", "withdrawn", "withdrawn_after_round"]
        read_only_fields = ["joined_round", "withdrawn", "withdrawn_after_round"]
        extra_kwargs = {"seed": {"min_value": 1}}
        validators: list = []  # entering again re-enters a withdrawn entrant (``league.entries.enter``)

    def validate_partnership(self, partnership: Partnership | None) -> Partnership | None:
        competition = self.context["competition"]
        if partnership is not None and partnership.size * 2 != competition.players:
            raise serializers.ValidationError(
                f"{partnership.display_name} has {partnership.size} player(s); "
                f"{competition.name} is a {competition.players}-player game")
        return partnership


# ----------------------------------------------------------------------------- errors (league.api_errors)
class ErrorSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="What is wrong: an input field (number, low, ruleset.target, …)")
    reason = serializers.CharField(help_text="Why, worded for the person who entered it")


class ErrorsSerializer(serializers.Serializer):
    errors = ErrorSerializer(many=True)  # type: ignore[assignment]  # a field: DRF's metaclass takes it off the class


# ----------------------------------------------------------------------------- invitations between clubs
class InvitationSerializer(serializers.ModelSerializer):
    """An invitation to enter a competition for a partnership or a player of another club, or for a team of that
    club (``club`` and ``team_name``): ``pending`` until the club's organisers or the players answer, or until the
    competition's organisers cancel it."""

    entrant_name = serializers.CharField(read_only=True)
    competition_name = serializers.CharField(source="competition.name", read_only=True)
    asked_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True)
    answered_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True)
    cancelled_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True)
    team_name = serializers.CharField(required=False, allow_blank=True, max_length=120,
                                      help_text="A team competition: the team's name (blank: the club's name)")

    class Meta:
        model = EntryInvitation
        fields = ["id", "competition", "competition_name", "club", "partnership", "player", "team_name",
                  "entrant_name", "state", "asked_by", "asked_at", "answered_by", "answered_at", "cancelled_by",
                  "cancelled_at", "entry"]
        read_only_fields = ["competition", "state", "asked_at", "answered_at", "cancelled_at", "entry"]
        extra_kwargs = {"club": {"required": False, "allow_null": True,
                                 "help_text": "A team competition: the club invited (else the entrant's own)"}}
        validators: list = []  # one waiting invitation per entrant: ``league.invitations`` says so (409)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is not None:  # another club's draft partnership is no one else's to name (not even its id)
            # The ignore: djangorestframework-stubs declare RelatedField.queryset as a manager's descriptor.
            partnership = self.fields["partnership"]
            partnership.queryset = visible_partnerships(request.user)  # type: ignore[attr-defined]
