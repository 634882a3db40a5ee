"""The API for clubs, players, partnerships and competitions (with their entries, matches and standings).

Reading is public, except that competitions (and everything in them) follow
``league.permissions.visible_competitions``; clubs are created by staff, everything else by the
organisers of the club it belongs to.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.response import Response

from games.selectors import competition_matches
from games.serializers import ErrorsSerializer, MatchSerializer
from league import selectors, services
from league.models import Club, Competition, Partnership, Player
from league.permissions import is_organiser, visible_competitions
from league.serializers import (
    ClubSerializer,
    CompetitionSerializer,
    CompetitionUpdateSerializer,
    EntrySerializer,
    PartnershipSerializer,
    PlayerSerializer,
    StandingRowSerializer,
)

ID = r"[0-9]+"
ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer}
NO_DELETE = ["get", "post", "put", "patch", "head", "options"]


def require_organiser(user: Any, club: Club | None, doing: str) -> None:
    """Raise 403 unless ``user`` organises ``club`` (a club-less object: superusers only)."""
    if user is None or not user.is_authenticated:
        raise NotAuthenticated(f"log in as an organiser to {doing}")
    allowed = is_organiser(user, club) if club is not None else user.is_superuser
    if not allowed:
        raise PermissionDenied(f"only organisers of {club.name if club else 'the club'} may {doing}")


class ClubViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Clubs: anyone reads them; staff create them."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    lookup_value_regex = ID

    def get_permissions(self):
        if self.action == "create":
            return [permissions.IsAdminUser()]
        return super().get_permissions()

    def perform_create(self, serializer) -> None:
        serializer.instance = services.create_club(**serializer.validated_data)


class ClubObjectViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Objects that belong to a club (``club_field``): anyone reads them, the club's organisers write them."""

    club_field = "club"
    doing = "change it"
    http_method_names = NO_DELETE
    lookup_value_regex = ID
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def perform_create(self, serializer) -> None:
        require_organiser(self.request.user, serializer.validated_data[self.club_field], self.doing)
        serializer.save()

    def perform_update(self, serializer) -> None:
        new_club = serializer.validated_data.get(self.club_field)
        if new_club is not None:
            require_organiser(self.request.user, new_club, self.doing)
        serializer.save()

    def get_object(self):
        obj = super().get_object()
        if self.request.method not in permissions.SAFE_METHODS:
            require_organiser(self.request.user, getattr(obj, self.club_field), self.doing)
        return obj


class PlayerViewSet(ClubObjectViewSet):
    queryset = Player.objects.select_related("home_club")
    serializer_class = PlayerSerializer
    club_field = "home_club"
    doing = "add or change its players"


class PartnershipViewSet(ClubObjectViewSet):
    queryset = Partnership.objects.select_related("player_one", "player_two", "club")
    serializer_class = PartnershipSerializer
    doing = "add or change its partnerships"


class CompetitionViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Competitions the user may see (published ones, and drafts of the clubs they organise)."""

    http_method_names = NO_DELETE
    lookup_value_regex = ID
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        return visible_competitions(self.request.user).select_related("club").order_by("-created_at", "name")

    def get_serializer_class(self):
        if self.action in ("update", "partial_update"):
            return CompetitionUpdateSerializer
        return CompetitionSerializer

    def perform_create(self, serializer) -> None:
        data = serializer.validated_data
        require_organiser(self.request.user, data["club"], "create its competitions")
        serializer.instance = services.create_competition(**data)

    def get_object(self) -> Competition:
        competition = super().get_object()
        if self.request.method not in permissions.SAFE_METHODS:
            require_organiser(self.request.user, competition.club, "change its competitions")
        return competition

    @extend_schema(responses={200: StandingRowSerializer(many=True), 404: ErrorsSerializer})
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request, pk=None) -> Response:
        """The competition's standings, as the settle task last wrote them."""
        rows = selectors.standings(self.get_object())
        return Response(StandingRowSerializer(rows, many=True).data)

    @extend_schema(responses={200: MatchSerializer(many=True), 404: ErrorsSerializer})
    @action(detail=True, methods=["get"], pagination_class=None)
    def matches(self, request, pk=None) -> Response:
        """The competition's matches, round by round (also ``/api/matches/?competition=``)."""
        matches = competition_matches(self.get_object())
        return Response(MatchSerializer(matches, many=True).data)

    @extend_schema(responses={200: EntrySerializer(many=True), 404: ErrorsSerializer})
    @action(detail=True, methods=["get"], pagination_class=None)
    def entries(self, request, pk=None) -> Response:
        """The partnerships entered in the competition."""
        entries = self.get_object().entries.select_related("partnership__player_one", "partnership__player_two")
        return Response(EntrySerializer(entries.order_by("id"), many=True).data)

    @extend_schema(request=EntrySerializer, responses={201: EntrySerializer, **ERRORS})
    @entries.mapping.post
    def enter(self, request, pk=None) -> Response:
        """Enter a partnership (organisers of the club)."""
        competition = self.get_object()
        serializer = EntrySerializer(data=request.data, context={"competition": competition})
        serializer.is_valid(raise_exception=True)
        entry = services.enter_partnership(competition=competition, **serializer.validated_data)
        return Response(EntrySerializer(entry).data, status=201)
