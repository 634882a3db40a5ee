"""The API of team matches: the list and a team match with its tables, creating one, its tables, its overall
totals and forfeits (the club's organisers')."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games.api_base import (
    READ_ERRORS,
    WRITE_ERRORS,
    SameNotFound,
    is_id,
    validated,
)
from games.models import TeamMatch
from games.selectors import team_match_page
from games.serializers import (
    ForfeitSerializer,
    TeamMatchCreateSerializer,
    TeamMatchDetailSerializer,
    TeamMatchSerializer,
    TeamTablesSerializer,
    TeamTotalsSerializer,
)
from games.teams import (
    clear_team_forfeit,
    clear_team_totals,
    create_team_match,
    record_team_forfeit,
    record_team_totals,
    set_team_tables,
)
from league.api import ID, require_organiser
from league.permissions import can_view_match, visible_matches_filter
from league.serializers import ErrorsSerializer


class TeamMatchViewSet(SameNotFound, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Team matches of the competitions the user may see: each table is a match (``table_matches``)."""

    not_found = "No such team match."
    lookup_value_regex = ID
    serializer_class = TeamMatchSerializer

    def get_queryset(self):
        if self.action != "list":
            return TeamMatch.objects.select_related("competition__club")
        team_matches = (TeamMatch.objects.filter(visible_matches_filter(self.request.user)).distinct()
                        .order_by("competition_id", "round__number", "id"))
        competition = self.request.query_params.get("competition")
        if competition is None:
            return team_matches
        if not is_id(competition):
            raise ValidationError({"competition": "must be a competition's id"})
        return team_matches.filter(competition_id=int(competition))

    def get_object(self) -> TeamMatch:
        team_match = super().get_object()
        if not can_view_match(self.request.user, team_match):
            raise NotFound("No such team match.")
        return team_match

    def _require_organiser(self, team_match: TeamMatch, doing: str) -> None:
        require_organiser(self.request.user, team_match.competition.club, doing)

    @staticmethod
    def _detail(team_match: TeamMatch) -> dict[str, Any]:
        return TeamMatchDetailSerializer(team_match_page(team_match.pk)).data

    @extend_schema(parameters=[OpenApiParameter("competition", OpenApiTypes.INT, description="A competition's id")],
                   responses={200: TeamMatchSerializer(many=True), 400: ErrorsSerializer})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(responses={200: TeamMatchDetailSerializer, **READ_ERRORS})
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """The team match with its totals and its tables."""
        return Response(self._detail(self.get_object()))

    @extend_schema(request=TeamMatchCreateSerializer, responses={201: TeamMatchDetailSerializer, **WRITE_ERRORS})
    def create(self, request: Request) -> Response:
        """A team match between two teams, with a pair of each team at each table (organisers of the club)."""
        if not request.user.is_authenticated:
            raise NotAuthenticated("log in as an organiser to create team matches")
        data = validated(TeamMatchCreateSerializer, request.data, context={"request": request})
        competition = data.pop("competition")
        require_organiser(request.user, competition.club, "create its team matches")
        team_match = create_team_match(competition, data.pop("team_a"), data.pop("team_b"), **data)
        return Response(self._detail(team_match), status=201)

    @extend_schema(request=TeamTablesSerializer, responses={200: TeamMatchDetailSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def tables(self, request: Request, pk: str | None = None) -> Response:
        """Seat the pairs of a team match created without tables (organisers of the club)."""
        team_match = self.get_object()
        self._require_organiser(team_match, "seat its team matches")
        set_team_tables(team_match, validated(TeamTablesSerializer, request.data)["tables"])
        return Response(self._detail(team_match))

    @extend_schema(request=TeamTotalsSerializer, responses={200: TeamMatchDetailSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def totals(self, request: Request, pk: str | None = None) -> Response:
        """Record only the team match's overall totals (organisers of the club); its empty tables are removed."""
        team_match = self.get_object()
        self._require_organiser(team_match, "record team match results")
        data = validated(TeamTotalsSerializer, request.data)
        record_team_totals(team_match, user=request.user, **data)
        return Response(self._detail(team_match))

    @extend_schema(request=None, responses={200: TeamMatchDetailSerializer, **WRITE_ERRORS})
    @totals.mapping.delete
    def clear_totals(self, request: Request, pk: str | None = None) -> Response:
        team_match = self.get_object()
        self._require_organiser(team_match, "record team match results")
        clear_team_totals(team_match, user=request.user)
        return Response(self._detail(team_match))

    @extend_schema(request=ForfeitSerializer, responses={200: TeamMatchDetailSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str | None = None) -> Response:
        """A team did not turn up (organisers of the club)."""
        team_match = self.get_object()
        self._require_organiser(team_match, "record forfeits")
        outcome = validated(ForfeitSerializer, request.data)["outcome"]
        record_team_forfeit(team_match, outcome=outcome, user=request.user)
        return Response(self._detail(team_match))

    @extend_schema(request=None, responses={200: TeamMatchDetailSerializer, **WRITE_ERRORS})
    @forfeit.mapping.delete
    def clear_forfeit(self, request: Request, pk: str | None = None) -> Response:
        team_match = self.get_object()
        self._require_organiser(team_match, "record forfeits")
        clear_team_forfeit(team_match, user=request.user)
        return Response(self._detail(team_match))
