"""The API of a club's own fixture list: a competition's rounds (``/api/competitions/<id>/rounds/``, an action of
the competitions' API joined to it in ``config.api_urls``), a round (``/api/rounds/<id>/``: its date and name,
publishing it) and its byes; and the matches' and team matches' create, which in a competition whose fixtures are
set by hand goes through ``draw.fixtures.add_fixture`` (an entrant plays once a round), and their delete, which
takes such a fixture off the list while it has no result.

Reading follows the competition (``visible_competitions``), and a draft round is the organisers' alone: for
anyone else it does not exist (404). Writing is for the club's organisers. A refusal is a 400 naming the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Q
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from draw import fixtures, publishing
from draw.errors import RoundError
from draw.models import Bye, Round
from draw.serializers import (
    ByeCreateSerializer,
    ByeSerializer,
    RoundCreateSerializer,
    RoundSerializer,
    RoundUpdateSerializer,
)
from games import api_base, api_matches, api_team_matches
from games.models import Match, TeamMatch
from games.serializers import (
    MatchCreateSerializer,
    MatchSerializer,
    TeamMatchCreateSerializer,
    TeamMatchDetailSerializer,
)
from games.teams import set_team_tables
from league.api import ERRORS, ERRORS_OF_A_LIST, ID, require_organiser
from league.models import ClubRole, Competition, Entry
from league.permissions import visible_competitions

BYE_ID = OpenApiParameter("bye_id", int, OpenApiParameter.PATH, description="The bye's id")


def visible_rounds(user: Any):
    """Rounds of the competitions the user may see; draft rounds only of the clubs the user organises."""
    rounds = Round.objects.filter(competition__in=visible_competitions(user))
    if user is not None and user.is_authenticated and user.is_superuser:
        return rounds
    organised = Q(pk__in=[])
    if user is not None and user.is_authenticated:
        organised = Q(competition__club__in=ClubRole.objects.filter(user=user, role=ClubRole.ORGANISER)
                      .values("club_id"))
    return rounds.filter(Q(status=Round.PUBLISHED) | organised)


if TYPE_CHECKING:
    # the actions go into league.api.CompetitionViewSet
    from league.api import CompetitionViewSet as ActionsBase
else:
    ActionsBase = object


class CompetitionRoundsActions(ActionsBase):
    """``/api/competitions/<id>/rounds/``: the competition's rounds (``league.api.CompetitionViewSet`` gives
    ``get_object`` and ``_page_of``)."""

    @extend_schema(responses={200: RoundSerializer(many=True), **ERRORS_OF_A_LIST})
    @action(detail=True, methods=["get"])  # paginated as every list
    def rounds(self, request, pk=None) -> Response:
        """The competition's rounds in order, with their dates; draft rounds only for the club's organisers."""
        competition = self.get_object()
        rounds = visible_rounds(request.user).filter(competition=competition).order_by("number")
        return self._page_of(rounds, RoundSerializer)

    @extend_schema(request=RoundCreateSerializer, responses={201: RoundSerializer, **ERRORS})
    @rounds.mapping.post
    def add_round(self, request, pk=None) -> Response:
        """Add a round to a competition whose fixtures are set by hand (organisers of the club): published at
        once unless ``status`` is draft; numbered after the last round unless ``number`` is given."""
        competition: Competition = self.get_object()
        require_organiser(request.user, competition.club, "add rounds to its competitions")
        data = api_base.validated(RoundCreateSerializer, request.data)
        round_ = fixtures.add_round(competition, data.get("number"), starts_on=data.get("starts_on"),
                                    name=data.get("name", ""), draft=data["status"] == Round.DRAFT)
        return Response(RoundSerializer(round_).data, status=201)


class RoundViewSet(api_base.SameNotFound, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A round: anyone who may see it reads it (a draft only the club's organisers); they change its date and
    name, publish it, and give and take its byes."""

    not_found = "No such round."
    lookup_value_regex = ID
    serializer_class = RoundSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        return visible_rounds(self.request.user).select_related("competition__club")

    def _organiser(self, round_: Round, doing: str) -> None:
        require_organiser(self.request.user, round_.competition.club, doing)

    @extend_schema(request=RoundUpdateSerializer, responses={200: RoundSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Change the round's date (``starts_on``) or name."""
        round_ = self.get_object()
        self._organiser(round_, "change its rounds")
        data = api_base.validated(RoundUpdateSerializer, request.data)
        return Response(RoundSerializer(fixtures.edit_round(round_, **data)).data)

    @extend_schema(request=None, responses={200: RoundSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str | None = None) -> Response:
        """Publish a draft round: its fixtures and byes become public (once the competition is)."""
        round_ = self.get_object()
        self._organiser(round_, "publish its rounds")
        return Response(RoundSerializer(publishing.publish_round(round_, request.user)).data)

    @extend_schema(request=None, responses={200: RoundSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def unpublish(self, request: Request, pk: str | None = None) -> Response:
        """Take a round back to a draft while nothing has been entered in it and it is the last round."""
        round_ = self.get_object()
        self._organiser(round_, "publish its rounds")
        return Response(RoundSerializer(publishing.unpublish_round(round_, request.user)).data)

    @extend_schema(responses={200: ByeSerializer(many=True), **ERRORS_OF_A_LIST})
    @action(detail=True, methods=["get"])  # paginated as every list
    def byes(self, request: Request, pk: str | None = None) -> Response:
        """The entrants that sit the round out."""
        byes = (Bye.objects.filter(round=self.get_object())
                .select_related("entry__partnership__player_one", "entry__partnership__player_two", "entry__team",
                                "entry__player").order_by("id"))
        page = self.paginate_queryset(byes)
        return self.get_paginated_response(ByeSerializer(page, many=True).data)

    @extend_schema(request=ByeCreateSerializer, responses={201: ByeSerializer, **ERRORS})
    @byes.mapping.post
    def add_bye(self, request: Request, pk: str | None = None) -> Response:
        """Give an entrant of the competition a bye in the round (it plays nothing else in it); the standings
        credit it as the competition's bye rules say once the round is published."""
        round_ = self.get_object()
        self._organiser(round_, "give byes")
        fixtures.require_manual(round_.competition)
        data = api_base.validated(ByeCreateSerializer, request.data)
        entry = Entry.objects.filter(pk=data["entry"], competition=round_.competition).first()
        if entry is None:
            raise RoundError("entry", f"{round_.competition.name} has no entry {data['entry']}")
        return Response(ByeSerializer(fixtures.add_bye(round_, entry)).data, status=201)

    @extend_schema(request=None, parameters=[BYE_ID], responses={204: None, **ERRORS})
    @action(detail=True, methods=["delete"], url_path=r"byes/(?P<bye_id>[0-9]+)")
    def remove_bye(self, request: Request, pk: str | None = None, bye_id: str | None = None) -> Response:
        """Take the bye away: the entrant no longer sits the round out."""
        round_ = self.get_object()
        self._organiser(round_, "take byes away")
        # The ignore: the URL always gives bye_id (digits); None would find no bye, a 404 below.
        bye = Bye.objects.filter(round=round_, pk=bye_id).select_related("round").first()  # type: ignore[misc]
        if bye is None:
            raise NotFound(f"{round_} has no bye {bye_id}")
        fixtures.remove_bye(bye)
        return Response(status=204)


def _entry(competition: Competition, field: str, **entrant: Any) -> Entry:
    entry = Entry.objects.filter(competition=competition, **entrant).select_related("partnership", "team").first()
    if entry is None:
        raise RoundError(field, f"{next(iter(entrant.values()))} is not entered in {competition.name}")
    return entry


def _hand_set(data: dict) -> bool:
    """The fixture goes in a round of a competition whose fixtures are set by hand: through ``add_fixture``."""
    return data.get("round") is not None and data["competition"].system == Competition.MANUAL


class MatchViewSet(api_matches.MatchViewSet):
    """The matches' API, whose create puts a hand-set fixture through the draw's checks."""

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer, **api_base.WRITE_ERRORS})
    def create(self, request: Request) -> Response:
        """Schedule a match between two entrants (organisers of the club), where (``venue``) and when
        (``scheduled_at``) it is played, in a round given by id (``round``) or number (``round_number``). In a
        competition whose fixtures are set by hand an entrant plays once a round."""
        data = api_base.validated(MatchCreateSerializer, request.data, context={"request": request})
        if not _hand_set(data):
            return super().create(request)
        competition = data["competition"]
        require_organiser(request.user, competition.club, "schedule its matches")
        if data["round"].competition_id != competition.pk:
            raise RoundError("round", f"{data['round']} is not a round of {competition.name}")
        match = fixtures.add_fixture(data["round"], _entry(competition, "side_a", partnership=data["side_a"]),
                                     _entry(competition, "side_b", partnership=data["side_b"]),
                                     venue=data.get("venue", ""), scheduled_at=data.get("scheduled_at"),
                                     table=data.get("table", ""))
        return Response(MatchSerializer(match).data, status=201)

    @extend_schema(request=None, responses={204: None, **api_base.WRITE_ERRORS})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Take a fixture of a competition whose fixtures are set by hand off its list (organisers of the club),
        while nothing has been entered in it."""
        return _remove(request, self.get_object())


def _remove(request: Request, fixture: Match | TeamMatch) -> Response:
    require_organiser(request.user, fixture.competition.club, "take fixtures off its list")
    fixtures.require_manual(fixture.competition)
    fixtures.remove_fixture(fixture)
    return Response(status=204)


class TeamMatchViewSet(api_team_matches.TeamMatchViewSet):
    """The team matches' API, whose create puts a hand-set fixture through the draw's checks."""

    @extend_schema(request=TeamMatchCreateSerializer,
                   responses={201: TeamMatchDetailSerializer, **api_base.WRITE_ERRORS})
    def create(self, request: Request) -> Response:
        """A team match between two teams (organisers of the club), where and when it is played, in a round by
        id or number, with a pair of each team at each table (``tables``, or set later). In a competition whose
        fixtures are set by hand a team plays once a round."""
        if not request.user.is_authenticated:
            raise NotAuthenticated("log in as an organiser to create team matches")
        data = api_base.validated(TeamMatchCreateSerializer, request.data, context={"request": request})
        if not _hand_set(data):
            return super().create(request)
        competition = data["competition"]
        require_organiser(request.user, competition.club, "create its team matches")
        if data["round"].competition_id != competition.pk:
            raise RoundError("round", f"{data['round']} is not a round of {competition.name}")
        with transaction.atomic():
            team_match = fixtures.add_fixture(data["round"], _entry(competition, "team_a", team=data["team_a"]),
                                              _entry(competition, "team_b", team=data["team_b"]),
                                              venue=data.get("venue", ""), scheduled_at=data.get("scheduled_at"))
            assert isinstance(team_match, TeamMatch)  # a fixture of two teams
            if data.get("tables") is not None:
                set_team_tables(team_match, data["tables"])
        return Response(self._detail(team_match), status=201)

    @extend_schema(request=None, responses={204: None, **api_base.WRITE_ERRORS})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Take a team match of a competition whose fixtures are set by hand off its list (organisers of the
        club), while nothing has been entered in it or its tables."""
        return _remove(request, self.get_object())
