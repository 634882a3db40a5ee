"""The entry page with no signal (issue 13): the web app manifest and the service worker that keep the page
working offline, and the JSON shapes the page's queue (static/js/offline_entry.js) reads from the entry views.

Nothing here knows a rule of the game: the queue sends the entry form's own fields, the form and the engine check
and score them on arrival, and these answers only report what was stored (or why not) and where the next hand
goes, as the server decided it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from engine.cards import RANK_LETTERS, SUIT_LETTERS, SUIT_SYMBOLS
from games import scoresheet as sheets
from games.entry import NextHand, hand_to_enter
from games.forms import SUIT_INPUT, ChalkEntryForm
from games.models import Hand, Match

QUEUE_HEADER = "X-Entry-Queue"
SERVICE_WORKER_PATH = "/entry-sw.js"
CACHE_VERSION = "entry-v1"
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
    """The service worker of the entry pages (templates/games/entry_sw.js), at the site's root so that its scope
    covers both routes (``/matches/<id>/enter/`` and ``/enter/<token>/``); never cached by the browser's HTTP
    cache, so that a new version reaches the phones."""
    script = render_to_string("games/entry_sw.js", {"cache_version": CACHE_VERSION, "static_prefix": static("")})
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
