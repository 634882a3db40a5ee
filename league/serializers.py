"""The API's shape for clubs, players, partnerships, competitions, entries and standings.

Serializers check the form of the input (and the ruleset through the engine); who may do what is
checked by the views through ``league.permissions``, and writes go through ``league.services``.
"""

from __future__ import annotations

from rest_framework import serializers

from engine import Ruleset, RulesetError
from league.models import Club, Competition, Entry, Partnership, Player, StandingRow


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "town", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"slug": {"required": False}}


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "nickname", "home_club", "created_at"]
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
    ruleset = serializers.JSONField(required=False, help_text="Overrides of the engine's variant keys (RULES.md)")

    class Meta:
        model = Competition
        fields = ["id", "club", "name", "slug", "season", "players", "ruleset", "match_format", "match_games",
                  "published", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"slug": {"required": False}, "match_games": {"min_value": 1}}
        validators: list = []  # the (club, slug) check is in ``validate``: the slug may be left to the server

    def validate(self, attrs: dict) -> dict:
        club = attrs.get("club", getattr(self.instance, "club", None))
        self._check_ruleset(attrs.get("ruleset"))
        self._check_match_format(attrs)
        self._check_slug(club, attrs.get("slug"))
        self._check_locked(attrs)
        return attrs

    @staticmethod
    def _check_ruleset(ruleset: object) -> None:
        try:
            Ruleset.from_dict(ruleset)
        except RulesetError as error:
            raise serializers.ValidationError({error.field: error.reason}) from None

    def _check_match_format(self, attrs: dict) -> None:
        match_format = attrs.get("match_format", getattr(self.instance, "match_format", Competition.SINGLE))
        games = attrs.get("match_games", getattr(self.instance, "match_games", 1))
        if match_format == Competition.BEST_OF and games % 2 == 0:
            raise serializers.ValidationError({"match_games": "best of N needs an odd N (3, 5, 7, …)"})

    def _check_slug(self, club: Club | None, slug: str | None) -> None:
        if not slug or club is None:
            return
        taken = Competition.objects.filter(club=club, slug=slug)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError({"slug": f"{club.name} already has a competition {slug!r}"})

    def _check_locked(self, attrs: dict) -> None:
        """Players, ruleset and club stay as they are once the competition has matches."""
        if self.instance is None or not self.instance.matches.exists():
            return
        for field in ("club", "players", "ruleset"):
            if field in attrs and attrs[field] != getattr(self.instance, field):
                raise serializers.ValidationError({field: "cannot change once the competition has matches"})


class CompetitionUpdateSerializer(CompetitionSerializer):
    """A competition stays in its club."""

    class Meta(CompetitionSerializer.Meta):
        read_only_fields = ["club", "created_at"]


class EntrySerializer(serializers.ModelSerializer):
    partnership_name = serializers.CharField(source="partnership.display_name", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "partnership", "partnership_name", "seed", "withdrawn"]
        read_only_fields = ["withdrawn"]
        validators: list = []  # entering again re-enters a withdrawn partnership

    def validate_partnership(self, partnership: Partnership) -> Partnership:
        competition = self.context["competition"]
        if partnership.size * 2 != competition.players:
            raise serializers.ValidationError(
                f"{partnership.display_name} has {partnership.size} player(s); "
                f"{competition.name} is a {competition.players}-player game")
        return partnership


class StandingRowSerializer(serializers.ModelSerializer):
    partnership_name = serializers.CharField(source="partnership.display_name", read_only=True)
    bullseye_difference = serializers.IntegerField(read_only=True)
    chalk_difference = serializers.IntegerField(read_only=True)

    class Meta:
        model = StandingRow
        fields = ["rank", "partnership", "partnership_name", "played", "won", "lost", "bullseyes_for",
                  "bullseyes_against", "bullseye_difference", "chalks_for", "chalks_against", "chalk_difference",
                  "hang_jacks_for", "hang_jacks_against", "updated_at"]
