"""The entry page with no signal: the web app manifest and the service worker that keep the page
working offline, and the JSON shapes the page's queue (static/js/offline_entry.js) reads from the entry views.

Nothing here knows a rule of the game: the queue sends the entry form's own fields, the form and the engine check
and score them on arrival, and these answers only report what was stored (or why not) and where the next hand
goes, as the server decided it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from engine.cards import RANK_LETTERS, SUIT_LETTERS, SUIT_SYMBOLS
from games import scoresheet as sheets
from games.common import EntryError
from games.entry import NextHand, hand_to_enter
from games.forms import SUIT_INPUT, ChalkEntryForm
from games.idempotency import HEADER as IDEMPOTENCY_HEADER
from games.idempotency import answer_once, check_key
from games.models import MATCH_LEVEL, Game, Hand, Match

QUEUE_HEADER = "X-Entry-Queue"
SERVICE_WORKER_PATH = "/entry-sw.js"
CACHE_VERSION = "entry-v4"
"""Named in the service worker's caches: change it to make every phone drop what it cached."""


def wants_json(request: HttpRequest) -> bool:
    """Whether the entry page's queue sent the request (it asks for JSON): answer it with JSON, not a redirect."""
    return request.headers.get(QUEUE_HEADER) == "1" or "application/json" in request.headers.get("Accept", "")


def form_body(request: HttpRequest) -> dict[str, list[str]]:
    """The posted fields as the idempotency key's body: the CSRF token left out, since a phone resending a hand
    after a reload sends another (masked) token for the same hand."""
    return {name: values for name, values in request.POST.lists() if name != "csrfmiddlewaretoken"}


def card_data() -> dict[str, Any]:
    """The card texts the engine reads (R1), shipped in the page so that a card typed offline is checked at once
    from the same data: ranks (with ``10`` for ``T``), suits, their symbols, and the suit symbols the entry form
    reads as letters (``games.forms.normalise_card``)."""
    return {"ranks": [*RANK_LETTERS, "10"], "suits": list(SUIT_LETTERS),
            "symbols": dict(zip(SUIT_LETTERS, SUIT_SYMBOLS, strict=True)),
            "aliases": {chr(code): letter for code, letter in SUIT_INPUT.items()}}


# ----------------------------------------------------------------------------- answers of the JSON mode
def stored_hand(hand: Hand, edit_url: str) -> dict[str, Any]:
    """A stored hand as the queue shows it: its place, the score after it, its version (for a correction's stale
    check) and its chalk as the entry form's field values (``fields``), so that the phone shows theirs and
    yours the same way."""
    fields = ChalkEntryForm.initial_from_entry(hand.entry) if hand.mode == Hand.CHALK else None
    return {"id": hand.pk, "game": hand.game.number, "number": hand.number, "version": hand.version,
            "mode": hand.mode, "score_a_after": hand.score_a_after, "score_b_after": hand.score_b_after,
            "points_a": hand.points_a, "points_b": hand.points_b, "dealer": hand.dealer,
            "entered_by": hand.entered_by, "deleted": hand.deleted, "void_reason": hand.void_reason,
            "fields": fields, "edit_url": edit_url}


def upcoming(match: Match) -> NextHand | None:
    """Where the next hand goes, or ``None`` when the match takes no more hands (over, or kept at another
    level)."""
    match.refresh_from_db()
    target = hand_to_enter(match)
    return None if target is None or target.game.winner else target


def next_summary(match: Match) -> dict[str, Any] | None:
    """The next hand as the server decided it: its game, number, dealer and the score before it."""
    target = upcoming(match)
    if target is None:
        return None
    names = sheets.seat_names(match, match.competition.players)
    return {"game": target.game.number, "number": target.number, "dealer": target.dealer,
            "dealer_label": sheets.dealer_label(names, target.dealer), "score": list(target.score_before)}


def errors_of(form: Any) -> dict[str, list[str]]:
    """The form's reasons by field name (``__all__`` for the form as a whole), as the page shows them."""
    return {field: [str(reason) for reason in reasons] for field, reasons in form.errors.items()}


def answer_queued(request: HttpRequest, match: Match, endpoint: str,
                  run: Callable[[], tuple[int, Any]]) -> HttpResponse:
    """The answer to a form the page's queue posted, checked already: ``run`` (the service, its status and JSON
    body) once per ``Idempotency-Key`` under ``endpoint`` (``games.idempotency``; the same key again gets the kept
    answer, ``Idempotent-Replayed: true``), or at once without a key. A bad key → 400, a key used for another
    request → 409, both naming the header."""
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        status, body = run()
        return JsonResponse(body, status=status)
    try:
        answer = answer_once(key=check_key(key), user=request.user, match=match, endpoint=endpoint,
                             body=form_body(request), run=run)
    except EntryError as error:  # a bad key, or a key used for another request
        return JsonResponse({"errors": {error.field: [error.reason]}, "idempotency": True},
                            status=409 if error.conflict else 400)
    response = JsonResponse(answer.body, status=answer.status)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


# ----------------------------------------------------------------------------- game results and totals: seen stamps
SEEN_FIELD = "seen"
"""Posted by the queue with a game result or the totals: the stamp of what the page showed when it was typed
(``NOTHING`` for a game, or totals, not entered yet). Stored meanwhile by someone else → a conflict."""
NOTHING = "none"

GAME_FIELDS = ("winner", "hang_jacks_a", "hang_jacks_b", "score_a", "score_b")
TOTALS_FIELDS = ("games_a", "games_b", "hang_jacks_a", "hang_jacks_b", "chalks_a", "chalks_b")


def stamp_of(values: dict[str, Any]) -> str:
    """A short digest of a result's values: equal for the same result, whoever entered it."""
    text = json.dumps(values, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_values(game: Game | None) -> dict[str, Any] | None:
    """An entered game's result as the game form's values (chalks ``None`` when not kept); ``None`` for none."""
    if game is None or not game.entered:
        return None
    return {"winner": game.winner, "hang_jacks_a": game.hang_jacks_a, "hang_jacks_b": game.hang_jacks_b,
            "score_a": game.score_a if game.scores_known else None,
            "score_b": game.score_b if game.scores_known else None}


def totals_values(match: Match) -> dict[str, Any] | None:
    """The match's recorded totals as the totals form's values; ``None`` when the match is not kept as totals."""
    if match.result_level != MATCH_LEVEL:
        return None
    return {"games_a": match.games_a, "games_b": match.games_b, "hang_jacks_a": match.hang_jacks_a,
            "hang_jacks_b": match.hang_jacks_b, "chalks_a": match.chalks_a if match.chalks_known else None,
            "chalks_b": match.chalks_b if match.chalks_known else None}


def stamp(values: dict[str, Any] | None) -> str:
    return NOTHING if values is None else stamp_of(values)


def form_values(cleaned: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """A checked form's result values, shaped as ``game_values`` / ``totals_values`` (blank counts as 0)."""
    values = {name: cleaned.get(name) for name in names}
    for name in ("hang_jacks_a", "hang_jacks_b"):
        values[name] = values[name] or 0
    return values


def shown_fields(values: dict[str, Any] | None) -> dict[str, str] | None:
    """Result values as the form's field values (text, blank for ``None``), as the phone shows both versions."""
    if values is None:
        return None
    return {name: "" if value is None else str(value) for name, value in values.items()}


# ----------------------------------------------------------------------------- installable, and served offline
@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the entry page can be put on a phone's home screen."""
    icon = static("img/entry-icon.svg")
    body = {
        "name": "All Fours League · scorekeeper", "short_name": "All Fours",
        "description": "Enter a match's hands at the table, with or without signal.",
        "start_url": request.GET.get("start", "/my/matches/") if _is_local_path(request.GET.get("start", ""))
        else "/my/matches/",
        "scope": "/", "display": "standalone", "background_color": "#111111", "theme_color": "#111111",
        "icons": [{"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }
    response = JsonResponse(body, content_type="application/manifest+json", json_dumps_params={"indent": 1})
    response["Cache-Control"] = "no-cache"
    return response


def _is_local_path(path: str) -> bool:
    return path.startswith("/") and not path.startswith("//") and "\\" not in path


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker of the entry pages (games/templates/games/entry_sw.js), at the site's root so that its scope
    covers both routes (``/matches/<id>/enter/`` and ``/enter/<token>/``); never cached by the browser's HTTP
    cache, so that a new version reaches the phones."""
    script = render_to_string("games/entry_sw.js", {"cache_version": CACHE_VERSION, "static_prefix": static("")})
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
