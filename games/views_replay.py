"""The replay page of a finished hand: the deal, then trick by trick, then the scoring (``games.replay``).

Public when the match is: the same check as the scoresheet's (``can_enter_hands`` or ``can_view_match``), so a
draft round's or an unpublished competition's hand is a 404 for anyone the sheet is one for. ``?trick=N`` picks
the step shown (0 the deal, 1 … n the tricks, n + 1 the scoring), so the page works without JavaScript;
``static/js/replay.js`` only steps without reloading and adds the arrow keys.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from games.replay import Replay, ReplayUnavailable, build_replay, hand_for_replay
from league.permissions import can_enter_hands, can_view_match

NO_SUCH_HAND = "No such hand in this match."


def _not_found(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "404.html", {"exception": message}, status=404)


@require_safe
def hand_replay(request: HttpRequest, pk: int, hand_pk: int) -> HttpResponse:
    hand = hand_for_replay(pk, hand_pk)
    if hand is None:
        return _not_found(request, NO_SUCH_HAND)
    match = hand.game.match
    if not can_enter_hands(request.user, match) and not can_view_match(request.user, match):
        return _not_found(request, NO_SUCH_HAND)  # as for no hand at all: a draft's hands are not told apart
    try:
        replay = build_replay(hand, match)
    except ReplayUnavailable as refusal:
        return _not_found(request, refusal.reason)
    back = reverse("match_sheet", args=[match.pk]) + f"#hand-{hand.game.number}-{hand.number}"
    context = {"replay": replay, "match": match, "competition": match.competition, "club": match.competition.club,
               "hand": hand, "game": hand.game, "back_url": back, "back_text": "Back to the scoresheet"}
    return render_replay(request, replay, context)


def render_replay(request: HttpRequest, replay: Replay, context: dict[str, Any], query: str = "") -> HttpResponse:
    """The replay page at the step ``?trick=N`` names (400 with the reason for a bad one); ``query``: the page's
    other parameters (``invite=…``), kept in its step links. Also the online tables' replay of a casual hand."""
    raw = request.GET.get("trick", "0")
    step = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 3 else None
    context = {**context, "replay": replay, "query": f"?{query}&" if query else "?"}
    if step is None or step >= replay.steps:
        context["error"] = (f"trick: must be a whole number from 0 (the deal) to {replay.scoring_step} (the scoring), "
                            f"got {raw[:20]!r}")
        return render(request, "games/replay.html", {**context, "step": 0}, status=400)
    return render(request, "games/replay.html", {**context, "step": step})
