"""The API of both sides agreeing a match's result (``games.agreement``): where it stands, and a side's player
confirming or disputing it, an organiser deciding — actions of the matches' API (``MatchViewSet``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from games import agreement as agreements
from games.agreement_models import Agreement, AgreementAction, AgreementState, AgreementStep
from games.api_base import ENTRY_ERRORS, READ_ERRORS, require_readable, validated
from games.choices import Side
from games.models import Match
from league.permissions import is_organiser


class AgreementStepSerializer(serializers.ModelSerializer):
    action = serializers.ChoiceField(choices=AgreementAction.choices)
    side = serializers.ChoiceField(choices=[("", "Neither (an organiser)"), *Side.choices])

    class Meta:
        model = AgreementStep
        fields = ["action", "side", "version", "result", "their_result", "reason", "author_label", "created_at"]


class AgreementSerializer(serializers.Serializer):
    confirmation_required = serializers.BooleanField(
        help_text="Whether the competition asks both sides to confirm each result")
    state = serializers.ChoiceField(choices=[("", "Nothing entered yet"), *AgreementState.choices], allow_blank=True)
    entered_by_side = serializers.ChoiceField(choices=[("", "Neither known"), *Side.choices], allow_blank=True)
    match_version = serializers.IntegerField(help_text="Send it back to confirm or dispute this very result")
    steps = AgreementStepSerializer(many=True)


class ConfirmSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1,
                                       help_text="The match's version the caller saw: refused (409) if it changed")


class DisputeSerializer(ConfirmSerializer):
    reason = serializers.CharField(max_length=300, help_text="What is wrong, for the organiser who decides")
    their_games_a = serializers.IntegerField(min_value=0, max_value=99, required=False, allow_null=True)
    their_games_b = serializers.IntegerField(min_value=0, max_value=99, required=False, allow_null=True)
    their_score = serializers.CharField(max_length=120, required=False, allow_blank=True,
                                        help_text="The score as the disputing side makes it, in its own words")


class DecideSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=300, required=False, allow_blank=True)


def agreement_data(match: Match) -> dict:
    found = Agreement.objects.filter(match=match).first()
    return {"confirmation_required": bool(match.competition.confirm_results), "state": found.state if found else "",
            "entered_by_side": found.entered_by_side if found else "", "match_version": match.version,
            "steps": AgreementStepSerializer(AgreementStep.objects.filter(match=match), many=True).data}


if TYPE_CHECKING:
    from rest_framework.viewsets import GenericViewSet as ActionsBase  # what MatchViewSet gives: get_object
else:
    ActionsBase = object


class AgreementActions(ActionsBase):
    """``/api/matches/<id>/agreement/`` and its ``confirm``, ``dispute`` and ``decide``, joined to the matches'
    API (``games.api_matches.MatchViewSet``, which gives ``get_object``)."""

    @extend_schema(responses={200: AgreementSerializer, **READ_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def agreement(self, request: Request, pk: str | None = None) -> Response:
        """Where both sides stand on the match's result, and every step with who and when."""
        match: Match = self.get_object()
        require_readable(request, match)
        return Response(agreement_data(match))

    @extend_schema(request=ConfirmSerializer, responses={200: AgreementSerializer, **ENTRY_ERRORS})
    @action(detail=True, methods=["post"], url_path="agreement/confirm")
    def confirm_result(self, request: Request, pk: str | None = None) -> Response:
        """A player of the side that did not enter the result confirms it (409 when it changed since ``version``,
        or is no longer waiting)."""
        match: Match = self.get_object()
        data = validated(ConfirmSerializer, request.data)
        agreements.confirm(match, side=_players_side(request, match), seen_version=data["version"], user=request.user)
        return Response(agreement_data(Match.objects.get(pk=match.pk)))

    @extend_schema(request=DisputeSerializer, responses={200: AgreementSerializer, **ENTRY_ERRORS})
    @action(detail=True, methods=["post"], url_path="agreement/dispute")
    def dispute_result(self, request: Request, pk: str | None = None) -> Response:
        """A player of the side that did not enter the result disputes it, with a reason and its own version; the
        organisers are mailed and decide."""
        match: Match = self.get_object()
        data = validated(DisputeSerializer, request.data)
        agreements.dispute(match, side=_players_side(request, match), seen_version=data["version"],
                           reason=data["reason"], their_games_a=data.get("their_games_a"),
                           their_games_b=data.get("their_games_b"), their_score=data.get("their_score", ""),
                           user=request.user)
        return Response(agreement_data(Match.objects.get(pk=match.pk)))

    @extend_schema(request=DecideSerializer, responses={200: AgreementSerializer, **ENTRY_ERRORS})
    @action(detail=True, methods=["post"], url_path="agreement/decide")
    def decide_result(self, request: Request, pk: str | None = None) -> Response:
        """An organiser decides the result stands as it is now (correct it first to decide otherwise)."""
        match: Match = self.get_object()
        require_readable(request, match)
        if not is_organiser(request.user, match.competition.club_id):
            raise PermissionDenied("Only the club's organisers decide a result.")
        data = validated(DecideSerializer, request.data)
        agreements.decide(match, user=request.user, note=data.get("note", ""))
        return Response(agreement_data(Match.objects.get(pk=match.pk)))


def _players_side(request: Request, match: Match) -> str:
    require_readable(request, match)
    if not request.user.is_authenticated:
        raise NotAuthenticated("Log in as a player of the match to confirm or dispute its result.")
    side = agreements.side_of(match, request.user)
    if not side:
        raise PermissionDenied("Only the match's players confirm or dispute its result.")
    return side
