"""What the API for matches, games and hands shares (the views are ``games.api_matches``, ``games.api_team_matches``
and ``games.api_hands``): the OpenAPI parameters and error shapes, who may read a match and enter its hands,
reading the input, and the idempotent answer. The API covers reading the sheet, entering, correcting and striking
out hands, results entered game by game or as match totals, forfeits, team matches, and the organiser's
scorekeepers and private entry link.

Reading follows ``can_view_competition`` (an unpublished competition is a 404 for the public), and whoever may
enter a match's hands may read that match. Entering and correcting hands is for the club's organisers, the match's
scorekeepers and holders of its private link (the ``X-Entry-Token`` header; ``?token=`` also works but is
discouraged: URLs end up in histories and logs) while it is not revoked; so are game results and match totals.
Forfeits and team matches (creating them, their overall totals) are for the club's organisers. Every operation goes
through the app's services (``games.entry``, ``games.results``, ``games.matches``, ``games.teams``). Entering a
hand, a game result or the match totals may carry an ``Idempotency-Key`` header, which makes sending it again safe
(``answered_once``, ``games.idempotency``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.http import Http404
from django.urls import NoReverseMatch, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.common import EntryError
from games.entry import DuplicateHandError, NextHand, next_hand
from games.idempotency import HEADER as IDEMPOTENCY_HEADER
from games.idempotency import answer_once, check_key
from games.models import HAND_LEVEL, Match
from games.serializers import (
    HandSerializer,
)
from league.api import require_organiser
from league.api_errors import errors
from league.permissions import can_enter_hands, can_view_match
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
