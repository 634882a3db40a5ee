"""The API of a match played online, for its club's organisers: ``GET /api/matches/<id>/moves/`` (every move of its
online tables with the time each took, and each player's summary: ``tables.move_export``) and ``POST
/api/matches/<id>/void/`` with ``{"reason"}`` (the match voided and played again at a fresh table:
``tables.voiding``). Actions joined to the matches' API in ``config.api_urls``: ``tables`` gives its part and the
matches' view set (``games``, ``draw``) never imports it.

Who may: a match the caller may not read is a 404 as for one that does not exist; a reader who is not one of the
club's organisers, a 403. A void refused by the match's state (never played online, a result entered above the hand
level, a later round published, nothing played) is a 409; a missing reason, a 400 naming ``reason``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import Match
from games.serializers import MatchSerializer
from games.voiding import REASON_MAX
from league.api import require_organiser
from league.serializers import ErrorsSerializer
from tables.move_export import match_moves
from tables.voiding import void_and_replay

if TYPE_CHECKING:
    # the actions go into the matches' view set (games.api_matches.MatchViewSet, through draw.api)
    from games.api_matches import MatchViewSet as ActionsBase
else:
    ActionsBase = object

READ_ERRORS = {403: ErrorsSerializer, 404: ErrorsSerializer, 409: ErrorsSerializer}  # 409: never played online
VOID_ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer, 409: ErrorsSerializer}


class MoveSerializer(serializers.Serializer):
    table = serializers.IntegerField(help_text="The online table's id")
    hand = serializers.IntegerField(help_text="The hand's number at that table (1, 2, … over its life)")
    game = serializers.IntegerField(help_text="The match's game the hand was of")
    seat = serializers.IntegerField(help_text="1 to 4: side A at seats 1 and 3, side B at 2 and 4")
    side = serializers.CharField(help_text="The side's name")
    player = serializers.CharField(help_text="The match's player at the seat")
    moved_by = serializers.CharField(help_text="Who made the move: the seat's login (or '<name> (seat link)'), "
                                               "'bot (the clock ran out)', 'covered by bot' or 'bot'")
    by = serializers.ChoiceField(choices=["player", "bot", "clock", "cover"])
    action = serializers.CharField(help_text="The move as the engine writes it: stand, beg, give, run or a card (JH)")
    in_words = serializers.CharField(help_text="The move in words: stood, begged, gave one, ran the pack, played J♥")
    seconds = serializers.FloatField(help_text="How long the move took: from its turn's start (the hand's previous "
                                               "move, or its deal) to the move")
    at = serializers.DateTimeField(help_text="When the move was made")


class PlayerSummarySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    side = serializers.CharField()
    player = serializers.CharField()
    login = serializers.CharField(help_text="'' for a player without one")
    moves = serializers.IntegerField(help_text="Every move made at the seat")
    own_moves = serializers.IntegerField(help_text="The moves the player made")
    average_seconds = serializers.FloatField(allow_null=True, help_text="Of the player's own moves")
    longest_seconds = serializers.FloatField(allow_null=True, help_text="Of the player's own moves")
    by_clock = serializers.IntegerField(help_text="Moves a bot made when the player's clock ran out")
    by_cover = serializers.IntegerField(help_text="Moves a bot made covering the player while away")
    by_bot = serializers.IntegerField(help_text="Moves of a bot that owned the seat")


class LeftOutSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    hand = serializers.IntegerField()


class MatchMovesSerializer(serializers.Serializer):
    match = serializers.DictField(help_text="id, side_a, side_b, status")
    made_at = serializers.DateTimeField()
    seconds_measured = serializers.CharField()
    in_play_left_out = LeftOutSerializer(many=True, help_text="The hand each open table is playing: left out until "
                                                              "it ends")
    summary = PlayerSummarySerializer(many=True)
    moves = MoveSerializer(many=True)


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=REASON_MAX, help_text="Why the match is voided: the players and the "
                                                                    "scoresheet's history are told")


class VoidedSerializer(serializers.Serializer):
    match = MatchSerializer()
    table = serializers.IntegerField(help_text="The fresh table the match is played again at")
    table_url = serializers.URLField()
    closed_tables = serializers.ListField(child=serializers.IntegerField(), help_text="The open tables closed")
    hands_struck_out = serializers.IntegerField()
    forfeit_cleared = serializers.BooleanField()


class MatchOnlineActions(ActionsBase):
    """``/api/matches/<id>/moves/`` and ``…/void/`` (the matches' view set gives ``get_object``, which answers 404
    for a match the caller may not read)."""

    @extend_schema(responses={200: MatchMovesSerializer, **READ_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def moves(self, request: Request, pk: str | None = None) -> Response:
        """Every move of the match's online tables, in order, with how long each took and who made it, and each
        player's summary (the club's organisers). The hand an open table is playing is left out until it ends;
        the columns are those of the CSV on the match's online page."""
        match: Match = self.get_object()
        require_organiser(request.user, match.competition.club, "review its matches' moves")
        return Response(match_moves(match).as_dict())

    @extend_schema(request=VoidSerializer, responses={200: VoidedSerializer, **VOID_ERRORS})
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        """Void the match played online and have it played again (the club's organisers): its open tables close
        saying why, every hand is struck out (kept in its history with the reason) and a forfeit cleared, the
        standings follow, and a fresh table opens with the same seats; its players with a login are told. 409
        when the match was not played online, its result was entered above the hand level, a later round is
        published, or nothing was played yet."""
        match: Match = self.get_object()
        require_organiser(request.user, match.competition.club, "void its matches")
        data = request.data if isinstance(request.data, dict) else {}
        serializer = VoidSerializer(data=data)
        serializer.is_valid(raise_exception=True)
        replay = void_and_replay(match, request.user, serializer.validated_data["reason"])
        return Response({
            "match": MatchSerializer(Match.objects.get(pk=match.pk)).data,
            "table": replay.table.pk,
            "table_url": request.build_absolute_uri(reverse("table", args=[replay.table.pk])),
            "closed_tables": replay.closed,
            "hands_struck_out": replay.hands,
            "forfeit_cleared": replay.forfeit_cleared,
        })
