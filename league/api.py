"""The API for clubs, players, partnerships and competitions with their entries (a competition's matches and
standings are the actions of ``games.api_matches`` and ``standings.api``, joined to it in ``config.api_urls``).

Reading is public, except that competitions (and everything in them) follow
``league.permissions.visible_competitions``; clubs are created by staff, everything else by the
organisers of the club it belongs to.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, NotAuthenticated, NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response

from league import entries as setup
from league import invitations, people, services
from league.competition_options import update_competition
from league.models import Club, Competition, Entry, EntryInvitation, Player
from league.partnerships import create_partnership, update_partnership
from league.permissions import is_organiser, visible_competitions, visible_partnerships
from league.serializers import (
    ClubSerializer,
    CompetitionSerializer,
    CompetitionUpdateSerializer,
    EntrySerializer,
    ErrorsSerializer,
    InvitationSerializer,
    PartnershipSerializer,
    PlayerSerializer,
    SeasonCopySerializer,
)
from league.setup_errors import SetupError

ID = r"[0-9]+"
ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer}
ERRORS_OF_A_LIST = {400: ErrorsSerializer, 404: ErrorsSerializer}  # 400: a bad ``limit`` or ``offset``
NO_DELETE = ["get", "post", "put", "patch", "head", "options"]
ENTRY_RELATED = ("partnership__player_one", "partnership__player_two", "team", "player")
ENTRY_ID = OpenApiParameter("entry_id", int, OpenApiParameter.PATH, description="The entry's id")
INVITATION_ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer, 409: ErrorsSerializer,
                     422: ErrorsSerializer}
INVITATION_RELATED = ("competition__club", "club", "partnership__player_one", "partnership__player_two", "player",
                      "asked_by", "answered_by", "cancelled_by")


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
    """Players, made and renamed through ``league.people``: a name like another player's of the club but for
    capitals, spaces or accents is a 409 naming ``name`` until ``confirm_similar_name`` is true."""

    queryset = Player.objects.select_related("home_club")
    serializer_class = PlayerSerializer
    club_field = "home_club"
    doing = "add or change its players"

    def perform_create(self, serializer) -> None:
        data = serializer.validated_data
        require_organiser(self.request.user, data["home_club"], self.doing)
        serializer.instance = people.create_player(club=data["home_club"], name=data["name"],
                                                   nickname=data.get("nickname", ""),
                                                   confirmed=data.get("confirm_similar_name", False))

    def perform_update(self, serializer) -> None:
        data, player = serializer.validated_data, serializer.instance
        new_club = data.get("home_club")
        if new_club is not None and new_club != player.home_club:
            require_organiser(self.request.user, new_club, self.doing)
            player.home_club = new_club
        serializer.instance = people.edit_player(player=player, name=data.get("name", player.name),
                                                 nickname=data.get("nickname", player.nickname),
                                                 confirmed=data.get("confirm_similar_name", False))
        if new_club is not None:
            player.save(update_fields=["home_club"])


class PartnershipViewSet(ClubObjectViewSet):
    """Partnerships: the same players (either order) are one partnership, whatever its name. Those only a draft
    has made or used are the organisers' (``league.permissions.visible_partnerships``)."""

    serializer_class = PartnershipSerializer
    doing = "add or change its partnerships"

    def get_queryset(self):
        return visible_partnerships(self.request.user).select_related("player_one", "player_two", "club")

    def perform_create(self, serializer) -> None:
        require_organiser(self.request.user, serializer.validated_data[self.club_field], self.doing)
        serializer.instance = _setup(create_partnership, reuse=False, **serializer.validated_data)

    def perform_update(self, serializer) -> None:
        new_club = serializer.validated_data.get(self.club_field)
        if new_club is not None:
            require_organiser(self.request.user, new_club, self.doing)
        serializer.instance = _setup(update_partnership, partnership=serializer.instance,
                                     **serializer.validated_data)


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

    def perform_update(self, serializer) -> None:
        """Through ``league.competition_options.update_competition``: the standings are rewritten, since the
        tiebreaks, points and byes decide them."""
        try:
            serializer.instance = update_competition(competition=serializer.instance,
                                                     **serializer.validated_data)
        except SetupError as error:
            raise ValidationError({error.field: error.reason}) from None

    def get_object(self) -> Competition:
        competition = super().get_object()
        if self.request.method not in permissions.SAFE_METHODS:
            require_organiser(self.request.user, competition.club, "change its competitions")
        return competition

    @extend_schema(responses={200: EntrySerializer(many=True), **ERRORS_OF_A_LIST})
    @action(detail=True, methods=["get"])  # paginated as every list (settings: DEFAULT_PAGINATION_CLASS)
    def entries(self, request, pk=None) -> Response:
        """The competition's entrants (partnerships, teams or players), withdrawn ones included, a page at a
        time."""
        entries = self.get_object().entries.select_related(*ENTRY_RELATED)
        return self._page_of(entries.order_by("id"), EntrySerializer)

    def _page_of(self, rows, serializer_class) -> Response:
        """``{"count", "next", "previous", "results"}``, as every list of the API answers."""
        return self.get_paginated_response(serializer_class(self.paginate_queryset(rows), many=True).data)

    @extend_schema(request=EntrySerializer, responses={201: EntrySerializer, **ERRORS})
    @entries.mapping.post
    def enter(self, request, pk=None) -> Response:
        """Enter a partnership, a team or a player, as the competition's ``entrant_kind`` asks (organisers of
        the club). Once a round has been paired it is a late entry, playing from the next round
        (``joined_round``); entering a withdrawn entrant again reinstates it."""
        competition = self.get_object()
        serializer = EntrySerializer(data=request.data, context={"competition": competition})
        serializer.is_valid(raise_exception=True)
        entry = _setup(setup.enter, competition=competition, **serializer.validated_data)
        return Response(EntrySerializer(entry).data, status=201)

    @extend_schema(request=None, parameters=[ENTRY_ID], responses={200: EntrySerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]+)/withdraw")
    def withdraw(self, request, pk=None, entry_id=None) -> Response:
        """Withdraw an entrant between rounds: its results stand and it is not paired again
        (``withdrawn_after_round`` is the last round with a published pairing)."""
        entry = _setup(setup.withdraw, entry=self._entry(entry_id))
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, parameters=[ENTRY_ID], responses={200: EntrySerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]+)/reinstate")
    def reinstate(self, request, pk=None, entry_id=None) -> Response:
        """Take a withdrawal back: the entrant is paired again from the next round."""
        entry = _setup(setup.reinstate, entry=self._entry(entry_id))
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=SeasonCopySerializer, responses={201: CompetitionSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="copy")
    def copy_season(self, request, pk=None) -> Response:
        """Copy the competition into a new season (organisers of the club): the same format, tiebreaks, bye rules,
        rule variants and team settings, and its entrants unless ``entrants`` is false; a draft with no round."""
        competition = self.get_object()
        serializer = SeasonCopySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        new = _setup(services.copy_to_new_season, competition=competition, **serializer.validated_data)
        return Response(CompetitionSerializer(new).data, status=201)

    @extend_schema(responses={200: InvitationSerializer(many=True), **ERRORS_OF_A_LIST, 403: ErrorsSerializer})
    @action(detail=True, methods=["get"])  # paginated as every list
    def invitations(self, request, pk=None) -> Response:
        """The invitations the competition's organisers have sent to other clubs, the newest first."""
        competition = self.get_object()
        require_organiser(request.user, competition.club, "see its invitations")
        rows = competition.invitations.select_related(*INVITATION_RELATED).order_by("-asked_at", "-id")
        return self._page_of(rows, InvitationSerializer)

    @extend_schema(request=InvitationSerializer, responses={201: InvitationSerializer, **INVITATION_ERRORS})
    @invitations.mapping.post
    def invite(self, request, pk=None) -> Response:
        """Invite a partnership or a player of another club (or, in a team competition, a club's team: ``club`` and
        ``team_name``) to enter; it is entered once that club's organisers or the players accept. 409 when an
        invitation for it is already waiting or it is already entered; 422 when it needs no invitation (the
        competition's own club's people and guests are entered directly) or cannot enter this competition."""
        competition = self.get_object()
        serializer = InvitationSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        invitation = _answerable(invitations.invite, competition=competition, by=request.user,
                                 **serializer.validated_data)
        return Response(InvitationSerializer(invitation).data, status=201)

    def _entry(self, entry_id: str | None) -> Entry:
        competition = self.get_object()
        # The ignore: no id finds no entry, a 404 below.
        entry = competition.entries.select_related(*ENTRY_RELATED).filter(pk=entry_id).first()  # type: ignore[misc]
        if entry is None:
            raise NotFound(f"{competition.name} has no entry {entry_id}")
        return entry


def _setup(operation, **kwargs):
    """Run a setup service (``league.entries`` and its siblings, or ``league.services``); its error is a 400 naming
    the field, or a 409 when the stored state stands in the way (another club's entrant that has not accepted an
    invitation)."""
    try:
        return operation(**kwargs)
    except SetupError as error:
        if error.conflict:
            raise  # league.api_errors: 409, naming the field
        raise ValidationError({error.field: error.reason}) from None


class Unprocessable(APIException):
    status_code = 422
    default_detail = "the request cannot be carried out"
    default_code = "unprocessable"


def _answerable(operation, **kwargs):
    """Run a ``league.invitations`` operation: a state that moved on is a 409, any other refusal a 422, each
    naming the field."""
    try:
        return operation(**kwargs)
    except SetupError as error:
        if error.conflict:
            raise
        raise Unprocessable({error.field: error.reason}) from None


class InvitationViewSet(viewsets.ReadOnlyModelViewSet):
    """Invitations between clubs that the user may read: those to the clubs they organise or naming their player
    record (which they may answer), and those the competitions of their clubs have sent."""

    serializer_class = InvitationSerializer
    lookup_value_regex = ID
    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self):
        return (invitations.visible_to(self.request.user).select_related(*INVITATION_RELATED)
                .order_by("-asked_at", "-id"))

    @extend_schema(request=None, responses={200: InvitationSerializer, **INVITATION_ERRORS})
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None) -> Response:
        """Accept (the invited club's organisers, or the players invited): the entrant is entered at once."""
        return self._answer(invitations.accept)

    @extend_schema(request=None, responses={200: InvitationSerializer, **INVITATION_ERRORS})
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None) -> Response:
        """Decline (the invited club's organisers, or the players invited): nothing is entered."""
        return self._answer(invitations.decline)

    @extend_schema(request=None, responses={200: InvitationSerializer, **INVITATION_ERRORS})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None) -> Response:
        """Cancel an invitation still waiting for an answer (the organisers of the club whose competition sent it):
        the invited club and players no longer see it on their pages, and the entrant may be invited again. 404
        for an invitation the user cannot see, 403 for the invited side, 409 once it is answered or cancelled."""
        invitation: EntryInvitation = self.get_object()
        if not invitations.may_cancel(request.user, invitation):
            raise PermissionDenied(f"only {invitation.competition.club.name}'s organisers may cancel the invitations "
                                   f"of {invitation.competition.name}")
        _answerable(invitations.cancel, invitation=invitation, by=request.user)
        return Response(InvitationSerializer(self.get_queryset().get(pk=invitation.pk)).data)

    def _answer(self, operation) -> Response:
        invitation: EntryInvitation = self.get_object()
        if not invitations.may_answer(self.request.user, invitation):
            raise PermissionDenied(f"only {invitation.club.name}'s organisers or the players invited may answer")
        _answerable(operation, invitation=invitation, by=self.request.user)
        invitation = self.get_queryset().get(pk=invitation.pk)
        return Response(InvitationSerializer(invitation).data)
