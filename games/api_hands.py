"""The API of games and hands: a game with its hands and running totals, a hand, correcting or striking it
out, and its versions."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from games.api_base import (
    ENTRY_ERRORS,
    READ_ERRORS,
    TOKEN_PARAMETERS,
    SameNotFound,
    body_or_query,
    require_entry_rights,
    require_readable,
    validated,
)
from games.entry import correct_hand, delete_hand
from games.entry_schema import HAND_CORRECTION
from games.models import Game, Hand, HandVersion
from games.serializers import (
    GameSerializer,
    HandCorrectionSerializer,
    HandDeletionSerializer,
    HandSerializer,
    HandVersionSerializer,
)
from league.api import ID


class GameViewSet(SameNotFound, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A game of a match with its hands and running totals."""

    not_found = "No such game."
    lookup_value_regex = ID
    serializer_class = GameSerializer
    queryset = (Game.objects.select_related("match__competition__club")
                .prefetch_related("hands__game"))

    def get_object(self) -> Game:
        game = super().get_object()
        require_readable(self.request, game.match, "game")
        return game

    @extend_schema(parameters=TOKEN_PARAMETERS, responses={200: GameSerializer, **READ_ERRORS})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)


class HandViewSet(SameNotFound, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A hand: read it, correct it (a new version), strike it out, and list its versions."""

    not_found = "No such hand."
    lookup_value_regex = ID
    serializer_class = HandSerializer
    queryset = Hand.objects.select_related("game__match__competition__club")

    def get_object(self) -> Hand:
        hand = super().get_object()
        require_readable(self.request, hand.game.match, "hand")
        return hand

    @extend_schema(parameters=TOKEN_PARAMETERS, responses={200: HandSerializer, **READ_ERRORS})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(parameters=TOKEN_PARAMETERS, request=HAND_CORRECTION,
                   responses={200: HandSerializer, **ENTRY_ERRORS})
    def update(self, request: Request, pk: str | None = None) -> Response:
        """Correct the hand: a new version; the later hands and the totals are recomputed."""
        hand = self.get_object()
        require_entry_rights(request, hand.game.match)
        data = validated(HandCorrectionSerializer, request.data)
        hand = correct_hand(hand=hand, mode=data.get("mode", hand.mode), entry=data["entry"],
                                     reason=data["reason"], version=data["version"], dealer=data.get("dealer"),
                                     user=request.user)
        hand.refresh_from_db()
        return Response(HandSerializer(hand).data)

    @extend_schema(parameters=TOKEN_PARAMETERS, request=HAND_CORRECTION,
                   responses={200: HandSerializer, **ENTRY_ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Same as PUT; ``mode`` may be left out (the hand's current mode)."""
        return self.update(request, pk)

    @extend_schema(parameters=[*TOKEN_PARAMETERS,
                               OpenApiParameter("reason", OpenApiTypes.STR, description="Or in the body"),
                               OpenApiParameter("version", OpenApiTypes.INT, description="Or in the body")],
                   request=HandDeletionSerializer, responses={200: HandSerializer, **ENTRY_ERRORS})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Strike the hand out; it is kept as a deleted version, with the reason. ``version`` is the hand's
        version being struck out: 409 if another scorekeeper changed it since."""
        hand = self.get_object()
        require_entry_rights(request, hand.game.match)
        data = validated(HandDeletionSerializer, {**body_or_query(request, "reason"),
                                                  **body_or_query(request, "version")})
        hand = delete_hand(hand=hand, reason=data["reason"], version=data.get("version"), user=request.user)
        hand.refresh_from_db()
        return Response(HandSerializer(hand).data)

    @extend_schema(parameters=TOKEN_PARAMETERS, responses={200: HandVersionSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def versions(self, request: Request, pk: str | None = None) -> Response:
        """Every version of the hand: who, when, why, the entry and the engine's result."""
        versions = HandVersion.objects.filter(hand=self.get_object()).select_related("author").order_by("version")
        return Response(HandVersionSerializer(versions, many=True).data)
