"""The API for matches, games and hands: reading the sheet, entering, correcting and striking out hands,
results entered game by game or as match totals, forfeits, team matches, and the organiser's scorekeepers and
private entry link.

Reading follows ``can_view_competition`` (an unpublished competition is a 404 for the public), and
whoever may enter a match's hands may read that match. Entering and correcting hands is for the
club's organisers, the match's scorekeepers and holders of its private link (the ``X-Entry-Token`` header;
``?token=`` also works but is discouraged: URLs end up in histories and logs) while it is not revoked; so
are game results and match totals. Forfeits and team matches (creating them, their overall totals) are for
the club's organisers. Every operation goes through the app's services (``games.entry``, ``games.results``,
``games.matches``, ``games.teams``). Entering a hand, a game result or the match totals may carry an
``Idempotency-Key`` header, which makes sending it again safe (``answered_once``, ``games.idempotency``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.http import Http404
from django.urls import NoReverseMatch, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied, ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.common import EntryError
from games.entry import DuplicateHandError, NextHand, correct_hand, delete_hand, enter_hand, next_hand, undo_last_hand
from games.entry_schema import HAND_CORRECTION, HAND_ENTRY, HAND_ENTRY_EXAMPLES
from games.idempotency import HEADER as IDEMPOTENCY_HEADER
from games.idempotency import answer_once, check_key
from games.matches import add_scorekeeper, create_match, remove_scorekeeper, renew_entry_link, revoke_entry_link
from games.models import HAND_LEVEL, Game, Hand, HandVersion, Match, TeamMatch
from games.results import (
    clear_entered_result,
    clear_forfeit,
    delete_game_result,
    enter_game_result,
    record_forfeit,
    record_match_totals,
)
from games.selectors import competition_matches, match_sheet, team_match_page
from games.serializers import (
    EntryLinkActionSerializer,
    EntryLinkSerializer,
    ForfeitSerializer,
    GameResultSerializer,
    GameSerializer,
    HandConflictSerializer,
    HandCorrectionSerializer,
    HandDeletionSerializer,
    HandEntrySerializer,
    HandSerializer,
    HandVersionSerializer,
    MatchCreateSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    MatchTotalsSerializer,
    ReasonSerializer,
    ScorekeeperSerializer,
    TeamMatchCreateSerializer,
    TeamMatchDetailSerializer,
    TeamMatchSerializer,
    TeamTablesSerializer,
    TeamTotalsSerializer,
    UndoSerializer,
    UsernameSerializer,
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
from league.api_errors import errors
from league.permissions import can_enter_hands, can_view_match, is_organiser, visible_matches_filter
from league.serializers import ErrorsSerializer

TOKEN_PARAMETERS = [
    OpenApiParameter("X-Entry-Token", OpenApiTypes.STR, OpenApiParameter.HEADER,
                     description="The match's private entry token (instead of an account)"),
    OpenApiParameter("token", OpenApiTypes.STR, OpenApiParameter.QUERY, deprecated=True,
                     description="Same as X-Entry-Token, which is preferred: a URL is kept in browser histories "
                                 "and proxies' logs, and may leave in a Referer header (the app's own logs redact "
                                 "it)"),
]
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    IDEMPOTENCY_HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, pattern="^[A-Za-z0-9_-]{8,128}$",
    description="A key the client makes for this request (8 to 128 of A-Z a-z 0-9 - _, e.g. a UUID), so that "
                "sending it again is safe: the same key with the same body gets the first answer again (status and "
                "body, with the header `Idempotent-Replayed: true`) and stores nothing more, even when the request "
                "would now be refused; with another body, 409. A refusal by the service (400, 409) is kept and "
                "given again; a bad key, a refused right (403, 404) or a malformed body is not. Keys are the "
                "caller's own (the account, or the match's private link) and kept 7 days.")
IDEMPOTENT_PARAMETERS = [*TOKEN_PARAMETERS, IDEMPOTENCY_PARAMETER]
READ_ERRORS = {404: ErrorsSerializer}
WRITE_ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer}
ENTRY_ERRORS = {**WRITE_ERRORS, 409: ErrorsSerializer}
ENTRY_RIGHTS = ("only the club's organisers, the match's scorekeepers and holders of its private entry link "
                "may enter, correct or delete its hands")


# ----------------------------------------------------------------------------- who may do what
def entry_token(request: Request) -> str | None:
    return request.headers.get("X-Entry-Token") or request.query_params.get("token")


def can_read_match(request: Request, match: Match) -> bool:
    return can_view_match(request.user, match) or can_enter_hands(request.user, match, entry_token(request))


def require_entry_rights(request: Request, match: Match) -> None:
    if not can_enter_hands(request.user, match, entry_token(request)):
        raise PermissionDenied(ENTRY_RIGHTS)


def require_match_organiser(request: Request, match: Match) -> None:
    require_organiser(request.user, match.competition.club, "manage its matches' scorekeepers and links")


def require_readable(request: Request, match: Match, what: str = "match") -> None:
    """404 for a match the user may not read, worded as for one that does not exist (a draft's ids say nothing)."""
    if not can_read_match(request, match):
        raise NotFound(f"No such {what}.")


class SameNotFound:
    """A view set whose missing object is a 404 worded as for one the user may not read (``not_found``): an id
    answers the same whether it is a draft's or nobody's."""

    not_found = "No such object."

    def get_object(self):
        try:
            return super().get_object()
        except Http404:
            raise NotFound(self.not_found) from None


# ----------------------------------------------------------------------------- input
MAX_ID = 2**63 - 1  # the largest id a BigAutoField holds


def is_id(text: str) -> bool:
    """A query parameter that can be an object's id (a larger number would overflow the database's integer)."""
    return text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_ID


def validated(serializer_class: type[serializers.Serializer], data: Any, **kwargs: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def body_or_query(request: Request, key: str) -> dict[str, Any]:
    """``{key: value}`` from the JSON body, else from the query string (DELETE bodies are optional)."""
    body = request.data if isinstance(request.data, dict) else {}
    value = body.get(key, request.query_params.get(key))
    return {} if value is None else {key: value}


def entry_page_url(request: Request, match: Match) -> str:
    """The private entry page for the match's token, or the API's hand entry when there is no such page."""
    try:
        path = reverse("token_enter", kwargs={"token": match.entry_token})
    except NoReverseMatch:
        path = reverse("api:match-hands", kwargs={"pk": match.pk}) + f"?token={match.entry_token}"
    return request.build_absolute_uri(path)


def refusal(error: EntryError) -> Response:
    """The service's refusal in the API's error shape; a hand whose number is taken comes with the stored hand."""
    body: dict[str, Any] = errors(error.field, error.reason)
    if isinstance(error, DuplicateHandError) and error.existing is not None:
        body["hand"] = HandSerializer(error.existing).data
    return Response(body, status=409 if error.conflict else 400)


def answered_once(request: Request, match: Match, endpoint: str, operation: Callable[[], Response]) -> Response:
    """The answer of ``operation`` (a write of ``match``, run after the caller's rights and the body's shape were
    checked); with an ``Idempotency-Key``, given once and stored under the key (``games.idempotency``)."""
    def run() -> Response:
        try:
            return operation()
        except EntryError as error:
            return refusal(error)

    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return run()
    key = check_key(key)

    def run_as_json() -> tuple[int, Any]:
        response = run()
        return response.status_code, json.loads(JSONRenderer().render(response.data))

    answer = answer_once(key=key, user=request.user, match=match, endpoint=endpoint, body=request.data,
                         run=run_as_json)
    return Response(answer.body, status=answer.status,
                    headers={"Idempotent-Replayed": "true"} if answer.replayed else None)


def upcoming_hand(match: Match) -> NextHand | None:
    """Where the next hand goes, or ``None`` when the match is over, is kept at another level than hand by hand
    (or forfeited), or a won game awaits settling."""
    if match.status == Match.COMPLETE or match.result_level != HAND_LEVEL or match.outcome != Match.PLAYED:
        return None
    target = next_hand(match)
    return None if target.game.winner else target


# ----------------------------------------------------------------------------- matches
class MatchViewSet(SameNotFound, mixins.ListModelMixin, viewsets.GenericViewSet):
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


# ----------------------------------------------------------------------------- team matches
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


# ----------------------------------------------------------------------------- games and hands
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
