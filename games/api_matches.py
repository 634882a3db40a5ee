"""The API of matches: the list and a match's sheet, entering and correcting its hands, its results game by
game or as totals, forfeits, scorekeepers and the private entry link; and the competition's matches, an action
joined to the competitions' API. Who may do what, and the input, are ``games.api_base``'s."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games.api_agreement import AgreementActions
from games.api_base import (
    ENTRY_ERRORS,
    IDEMPOTENT_PARAMETERS,
    READ_ERRORS,
    TOKEN_PARAMETERS,
    WRITE_ERRORS,
    SameNotFound,
    answered_once,
    body_or_query,
    entry_page_url,
    is_id,
    require_entry_rights,
    require_match_organiser,
    require_readable,
    upcoming_hand,
    validated,
)
from games.entry import enter_hand, undo_last_hand
from games.entry_schema import HAND_ENTRY, HAND_ENTRY_EXAMPLES
from games.matches import add_scorekeeper, create_match, remove_scorekeeper, renew_entry_link, revoke_entry_link
from games.models import Game, Hand, Match
from games.results import (
    clear_entered_result,
    clear_forfeit,
    delete_game_result,
    enter_game_result,
    record_forfeit,
    record_match_totals,
)
from games.selectors import competition_matches, match_sheet
from games.serializers import (
    EntryLinkActionSerializer,
    EntryLinkSerializer,
    ForfeitSerializer,
    GameResultSerializer,
    GameSerializer,
    HandConflictSerializer,
    HandEntrySerializer,
    HandSerializer,
    MatchCreateSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    MatchTotalsSerializer,
    ReasonSerializer,
    ScorekeeperSerializer,
    UndoSerializer,
    UsernameSerializer,
)
from league.api import ID, require_organiser
from league.permissions import is_organiser, visible_matches_filter
from league.serializers import ErrorsSerializer


class MatchViewSet(SameNotFound, AgreementActions, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Matches of the competitions the user may see."""

    not_found = "No such match."
    lookup_value_regex = ID
    serializer_class = MatchSerializer

    def get_queryset(self):
        if self.action != "list":
            return Match.objects.select_related("competition__club")
        matches = (Match.objects.filter(visible_matches_filter(self.request.user)).distinct()
                   .select_related("round").order_by("competition_id", "round__number", "id"))
        competition = self.request.query_params.get("competition")
        if competition is None:
            return matches
        if not is_id(competition):
            raise ValidationError({"competition": "must be a competition's id"})
        return matches.filter(competition_id=int(competition))

    def get_object(self) -> Match:
        match = super().get_object()
        require_readable(self.request, match)
        return match

    @extend_schema(parameters=[OpenApiParameter("competition", OpenApiTypes.INT, description="A competition's id")],
                   responses={200: MatchSerializer(many=True), 400: ErrorsSerializer})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(parameters=TOKEN_PARAMETERS, responses={200: MatchDetailSerializer, **READ_ERRORS})
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """The match with its games, every hand and the running totals, the score, and the next hand."""
        upcoming = upcoming_hand(self.get_object())
        assert pk is not None  # a detail route: get_object found it
        sheet = match_sheet(int(pk))
        return Response(MatchDetailSerializer(sheet, context={"request": request, "next_hand": upcoming}).data)

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer, **WRITE_ERRORS})
    def create(self, request: Request) -> Response:
        """Schedule a match between two entrants (organisers of the club)."""
        if not request.user.is_authenticated:
            raise NotAuthenticated("log in as an organiser to schedule matches")
        data = validated(MatchCreateSerializer, request.data, context={"request": request})
        require_organiser(request.user, data["competition"].club, "schedule its matches")
        match = create_match(**data)
        return Response(MatchSerializer(match).data, status=201)

    @extend_schema(parameters=TOKEN_PARAMETERS, responses={200: HandSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def hands(self, request: Request, pk: str | None = None) -> Response:
        """Every hand of the match, game by game (struck-out and void ones too)."""
        hands = (Hand.objects.filter(game__match=self.get_object()).select_related("game")
                 .order_by("game__number", "number"))
        return Response(HandSerializer(hands, many=True).data)

    @extend_schema(parameters=IDEMPOTENT_PARAMETERS, request=HAND_ENTRY, examples=HAND_ENTRY_EXAMPLES,
                   responses={201: HandSerializer, **ENTRY_ERRORS, 409: HandConflictSerializer})
    @hands.mapping.post
    def enter_hand(self, request: Request, pk: str | None = None) -> Response:
        """Enter the next hand as a chalk entry or a hand record; 409 when that hand is already entered, with the
        stored hand that holds its number (``hand``). Safe to send again with an ``Idempotency-Key``."""
        match = self.get_object()
        require_entry_rights(request, match)
        data = validated(HandEntrySerializer, request.data)

        def enter() -> Response:
            hand = enter_hand(match=match, user=request.user, **data)
            hand.refresh_from_db()
            return Response(HandSerializer(hand).data, status=201)

        return answered_once(request, match, "hands", enter)

    @extend_schema(parameters=TOKEN_PARAMETERS, request=UndoSerializer, responses={200: HandSerializer, **ENTRY_ERRORS})
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str | None = None) -> Response:
        """Strike out the last hand entered (kept as a deleted version); with ``hand`` and ``version``, only if
        that is still the last hand as it was (409 otherwise)."""
        match = self.get_object()
        require_entry_rights(request, match)
        data = validated(UndoSerializer, request.data if isinstance(request.data, dict) else {})
        hand = undo_last_hand(match=match, user=request.user, hand_id=data.get("hand"),
                                       version=data.get("version"))
        hand.refresh_from_db()
        return Response(HandSerializer(hand).data)

    @extend_schema(responses={200: ScorekeeperSerializer(many=True), **WRITE_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def scorekeepers(self, request: Request, pk: str | None = None) -> Response:
        """The accounts that may enter this match's hands (organisers of the club)."""
        match = self.get_object()
        require_match_organiser(request, match)
        return Response(ScorekeeperSerializer(match.scorekeepers.order_by("username"), many=True).data)

    @extend_schema(request=UsernameSerializer, responses={201: ScorekeeperSerializer(many=True), **WRITE_ERRORS})
    @scorekeepers.mapping.post
    def add_scorekeeper(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        require_match_organiser(request, match)
        add_scorekeeper(match=match, user=validated(UsernameSerializer, request.data)["username"])
        return Response(ScorekeeperSerializer(match.scorekeepers.order_by("username"), many=True).data, status=201)

    @extend_schema(parameters=[OpenApiParameter("username", OpenApiTypes.STR, description="Or in the body")],
                   request=UsernameSerializer, responses={200: ScorekeeperSerializer(many=True), **WRITE_ERRORS})
    @scorekeepers.mapping.delete
    def remove_scorekeeper(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        require_match_organiser(request, match)
        user = validated(UsernameSerializer, body_or_query(request, "username"))["username"]
        remove_scorekeeper(match=match, user=user)
        return Response(ScorekeeperSerializer(match.scorekeepers.order_by("username"), many=True).data)

    @extend_schema(responses={200: EntryLinkSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def link(self, request: Request, pk: str | None = None) -> Response:
        """The private entry link (organisers of the club)."""
        match = self.get_object()
        require_match_organiser(request, match)
        return Response(self._link(request, match))

    @extend_schema(request=EntryLinkActionSerializer, responses={200: EntryLinkSerializer, **WRITE_ERRORS})
    @link.mapping.post
    def change_link(self, request: Request, pk: str | None = None) -> Response:
        """Revoke the private link, or renew it (a new token; the old one stops working)."""
        match = self.get_object()
        require_match_organiser(request, match)
        change = validated(EntryLinkActionSerializer, request.data)["action"]
        if change == "revoke":
            match = revoke_entry_link(match=match)
        else:
            match = renew_entry_link(match=match)
        return Response(self._link(request, match))

    # ------------------------------------------------------------------------- results at a coarser level
    @extend_schema(parameters=IDEMPOTENT_PARAMETERS, request=GameResultSerializer,
                   responses={201: GameSerializer, **ENTRY_ERRORS})
    @action(detail=True, methods=["post"], url_path="games")
    def game_results(self, request: Request, pk: str | None = None) -> Response:
        """Enter (or correct, with an entered game's number) a game's result: winner, hang jacks, and the final
        chalks when kept. The match is then kept game by game."""
        match = self.get_object()
        require_entry_rights(request, match)
        data = validated(GameResultSerializer, request.data)

        def enter() -> Response:
            game = enter_game_result(match, user=request.user, **data)
            return Response(GameSerializer(Game.objects.prefetch_related("hands").get(pk=game.pk)).data, status=201)

        return answered_once(request, match, "games", enter)

    @extend_schema(parameters=[*TOKEN_PARAMETERS, OpenApiParameter("reason", OpenApiTypes.STR,
                                                                   description="Or in the body")],
                   request=ReasonSerializer, responses={200: MatchSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["delete"], url_path=r"games/(?P<number>[0-9]+)")
    def delete_game_result(self, request: Request, pk: str | None = None, number: str = "") -> Response:
        """Delete the last entered game result."""
        match = self.get_object()
        require_entry_rights(request, match)
        reason = validated(ReasonSerializer, body_or_query(request, "reason"))["reason"]
        delete_game_result(match, number=int(number), reason=reason, user=request.user)
        return Response(MatchSerializer(Match.objects.get(pk=match.pk)).data)

    @extend_schema(parameters=IDEMPOTENT_PARAMETERS, request=MatchTotalsSerializer,
                   responses={200: MatchSerializer, **ENTRY_ERRORS})
    @action(detail=True, methods=["post"])
    def totals(self, request: Request, pk: str | None = None) -> Response:
        """Record only the match's totals (games, hang jacks, chalks when kept); the winner follows from the
        match format. Recording again corrects them."""
        match = self.get_object()
        require_entry_rights(request, match)
        data = validated(MatchTotalsSerializer, request.data)

        def record() -> Response:
            record_match_totals(match, user=request.user, **data)
            return Response(MatchSerializer(Match.objects.get(pk=match.pk)).data)

        return answered_once(request, match, "totals", record)

    @extend_schema(parameters=TOKEN_PARAMETERS, request=None, responses={200: MatchSerializer, **WRITE_ERRORS})
    @totals.mapping.delete
    def clear_totals(self, request: Request, pk: str | None = None) -> Response:
        """Clear the game results or match totals entered: the match is unplayed, hand by hand again."""
        match = self.get_object()
        require_entry_rights(request, match)
        clear_entered_result(match, user=request.user)
        return Response(MatchSerializer(Match.objects.get(pk=match.pk)).data)

    @extend_schema(request=ForfeitSerializer, responses={200: MatchSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str | None = None) -> Response:
        """Record a no-show (organisers of the club): ``forfeit_a`` — side A did not play, side B wins;
        ``forfeit_b``; ``double_forfeit`` — neither played."""
        match = self.get_object()
        require_organiser(request.user, match.competition.club, "record forfeits")
        outcome = validated(ForfeitSerializer, request.data)["outcome"]
        record_forfeit(match, outcome=outcome, user=request.user)
        return Response(MatchSerializer(Match.objects.get(pk=match.pk)).data)

    @extend_schema(request=None, responses={200: MatchSerializer, **WRITE_ERRORS})
    @forfeit.mapping.delete
    def clear_forfeit(self, request: Request, pk: str | None = None) -> Response:
        """Clear a forfeit (organisers of the club)."""
        match = self.get_object()
        require_organiser(request.user, match.competition.club, "record forfeits")
        clear_forfeit(match, user=request.user)
        return Response(MatchSerializer(Match.objects.get(pk=match.pk)).data)

    @staticmethod
    def _link(request: Request, match: Match) -> dict[str, Any]:
        return {"url": entry_page_url(request, match),
                "api_url": request.build_absolute_uri(reverse("api:match-hands", kwargs={"pk": match.pk})),
                "token": match.entry_token, "revoked": match.entry_token_revoked}


if TYPE_CHECKING:
    # the actions go into league.api.CompetitionViewSet
    from league.api import CompetitionViewSet as ActionsBase
else:
    ActionsBase = object


class CompetitionMatchesActions(ActionsBase):
    """``/api/competitions/<id>/matches/``: an action of the competitions' API (``league.api.CompetitionViewSet``,
    which gives ``get_object`` and ``_page_of``), joined to it in ``config.api_urls``."""

    @extend_schema(responses={200: MatchSerializer(many=True), 400: ErrorsSerializer, 404: ErrorsSerializer})
    @action(detail=True, methods=["get"])  # paginated as every list (settings: DEFAULT_PAGINATION_CLASS)
    def matches(self, request, pk=None) -> Response:
        """The competition's matches, round by round, a page at a time (also ``/api/matches/?competition=``);
        those of draft rounds only for the club's organisers."""
        competition = self.get_object()
        matches = competition_matches(competition, include_drafts=is_organiser(request.user, competition.club_id))
        return self._page_of(matches, MatchSerializer)
