"""Pages of a match: the scoresheet, the scorekeeper's entry page (an account's or the private link's) and
corrections (the organiser's page for scorekeepers and the link is ``games.views_scorekeepers``).

Thin views: reads through ``league.selectors``, writes through ``games.entry`` and ``games.matches``, and
every permission checked with ``league.permissions`` on every request, GET and POST alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games import scoresheet as sheets
from games.agreement_selectors import waiting_for
from games.common import EntryError
from games.entry import (
    DuplicateHandError,
    StaleVersionError,
    correct_hand,
    delete_hand,
    enter_hand,
    hand_to_enter,
    takes_hands,
    undo_last_hand,
)
from games.forms import ChalkCorrectionForm, ChalkEntryForm, ReasonForm, RecordCorrectionForm, RecordEntryForm
from games.models import Hand, Match
from games.offline import answer_queued, card_data, errors_of, next_summary, stored_hand, wants_json
from games.selectors import scorekeeper_matches
from games.sheet_sections import sheet_sections
from league.checkins import check_ins_for
from league.permissions import can_enter_hands, can_view_match, is_organiser

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
SUITS = [("C", "♣", "clubs"), ("D", "♦", "diamonds"), ("H", "♥", "hearts"), ("S", "♠", "spades")]


@dataclass(frozen=True)
class EntryAccess:
    """How the scorekeeper reached the match: as a logged-in account (``token`` is ``None``) or through the
    private link; the page's own links stay on the same route."""

    match: Match
    token: str | None

    def url(self, name: str, *extra: Any) -> str:
        if self.token is not None:
            return reverse(f"token_{name}", args=[self.token, *extra])
        return reverse(f"match_{name}", args=[self.match.pk, *extra])


def refuse_match_page(request: HttpRequest, match: Match, message: str) -> HttpResponse:
    """A draft the user may not see → 404, for anonymous visitors too (as for no match at all); anonymous → log
    in; otherwise 403."""
    if not can_view_match(request.user, match):
        raise Http404("No such match.")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(message)


def entry_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Resolve the match from ``pk`` (a scorekeeper's or organiser's account) or ``token`` (the private link)
    and check ``can_enter_hands`` before the view runs."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, pk: int | None = None, token: str | None = None,
                **kwargs: Any) -> HttpResponse:
        if token is not None:
            response = _by_private_link(request, view, token, *args, **kwargs)
            # the link's token never leaves for another site in a Referer header; "no-referrer" would also make
            # Chromium send "Origin: null" with the page's own posts, which Django's CSRF check refuses
            response["Referrer-Policy"] = "same-origin"
            return response
        else:
            assert pk is not None  # the URL gives a pk or a token
            match = sheets.match_for_pages(pk)
            if match is None:
                raise Http404("No such match.")
            if not can_enter_hands(request.user, match):
                return refuse_match_page(request, match, "You are not a scorekeeper of this match.")
        return view(request, EntryAccess(match, token), *args, **kwargs)

    return wrapper


UNUSABLE_LINK = ("This entry link does not open a match: it may be mistyped, or the organiser may have revoked it. "
                 "Ask the organiser for the current link.")


def _by_private_link(request: HttpRequest, view: Callable[..., HttpResponse], token: str, *args: Any,
                     **kwargs: Any) -> HttpResponse:
    """The view for the match of a private link. A link that does not open it — unknown, revoked, or of a round
    still a draft — gets one and the same 404, so that a guess learns nothing about which tokens exist."""
    match = sheets.match_by_token(token)
    if match is None or not can_enter_hands(request.user, match, token):
        return render(request, "404.html", {"exception": UNUSABLE_LINK}, status=404)
    return view(request, EntryAccess(match, token), *args, **kwargs)


# ----------------------------------------------------------------------------- my matches
@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    """The matches the signed-in scorekeeper keeps score for: those to play or finish, with their entry
    pages, then the last finished ones."""
    to_play, finished = scorekeeper_matches(request.user)
    return render(request, "games/my_matches.html", {"to_play": to_play, "finished": finished,
                                                     "check_ins": check_ins_for(request.user),
                                                     "to_confirm": waiting_for(request.user)})


# ----------------------------------------------------------------------------- the scoresheet
def match_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    match = sheets.match_for_pages(pk)
    if match is None:
        raise Http404("No such match.")
    can_enter = can_enter_hands(request.user, match)
    if not can_enter and not can_view_match(request.user, match):
        raise Http404("No such match.")
    return render(request, "games/sheet.html", {
        "match": match, "competition": match.competition, "club": match.competition.club,
        "sections": sheet_sections(match, can_enter=can_enter),
        "can_enter": can_enter, "can_manage": is_organiser(request.user, match.competition.club_id),
        "seats": sheets.seat_names(match, match.competition.players),
        "share_text": f"{match.side_a_name} v {match.side_b_name} ({match.competition.name}): games "
                      f"{match.games_a} – {match.games_b}",
    })


# ----------------------------------------------------------------------------- entering hands
def _entry_context(request: HttpRequest, access: EntryAccess, form: Any, mode: str) -> dict[str, Any]:
    match = access.match
    by_hand = takes_hands(match)
    target = hand_to_enter(match)
    names = sheets.seat_names(match, match.competition.players)
    last = sheets.last_counting_hand(match)
    recent = sheets.recent_hands(match)
    for row in recent:
        row.edit_url = access.url("hand_edit", row.hand.pk)
    return {
        "access": access, "match": match, "competition": match.competition, "form": form, "mode": mode,
        "target": target, "dealer": sheets.dealer_label(names, target.dealer) if target else "",
        "score": target.score_before if target else None,
        "game_won": bool(target and target.game.winner),
        "recent": recent, "undo_hand": last,
        "urls": {"enter": access.url("enter"), "record": access.url("enter_record"), "undo": access.url("undo"),
                 "games": access.url("game_results"), "totals": access.url("match_totals")},
        "by_hand": by_hand,
        "ranks": RANKS, "suits": SUITS, "target_points": match.competition.engine_ruleset().target,
        "seat_names": [name or f"Seat {seat + 1}" for seat, name in enumerate(names)],
        "can_view_sheet": can_view_match(request.user, match) or access.token is None,
        "offline": offline_config(request, access, kind="hand" if mode == Hand.CHALK else "record",
                                  send=access.url("enter" if mode == Hand.CHALK else "enter_record"),
                                  next=_next_hand(target)),
    }


def offline_config(request: HttpRequest, access: EntryAccess, *, kind: str, send: str,
                   **extra: Any) -> dict[str, Any]:
    """What the page's queue (static/js/offline_entry.js) needs, shipped in the page: whose queue it is, what the
    page enters (``kind``: ``hand``, ``record``, ``game`` or ``totals``) and where to send it, the card data to check
    a card typed offline, and what the server confirmed (``extra``: the next hand, the games shown, …)."""
    match = access.match
    owner = f"user:{request.user.pk}" if request.user.is_authenticated else f"link:{match.pk}"
    return {"match": match.pk, "owner": owner, "kind": kind, "enter": send,
            "sides": [match.side_a_name, match.side_b_name], "cards": card_data(),
            "service_worker": reverse("entry_service_worker"), **extra}


def _next_hand(target: Any) -> dict[str, Any] | None:
    return {"game": target.game.number, "number": target.number, "dealer": target.dealer,
            "score": list(target.score_before)} if target else None


def _saved_message(hand: Hand, match: Match) -> str:
    text = f"Hand {hand.number} saved: {match.side_a_name} {hand.score_a_after} · {match.side_b_name} " \
           f"{hand.score_b_after}."
    winner = hand.result.get("winner") if isinstance(hand.result, dict) else None
    if winner in (0, 1):
        text += f" Game {hand.game.number} to {match.side_a_name if winner == 0 else match.side_b_name}!"
    return text


def _enter(request: HttpRequest, access: EntryAccess, form_class: type, mode: str, template: str) -> HttpResponse:
    match = access.match
    status = 200
    if request.method == "POST" and wants_json(request):
        return _enter_json(request, access, form_class, mode)
    if request.method == "POST":
        form = form_class(request.POST, request.FILES, match=match)
        if form.is_valid():
            try:
                hand = enter_hand(match=match, number=form.cleaned_data["number"], mode=mode,
                                           entry=form.entry(), user=request.user, dealer=form.given_dealer())
            except DuplicateHandError as error:
                # a double tap, or another scorekeeper got there first: say so and show the next hand's form
                messages.error(request, error.reason)
                return redirect(access.url("enter" if mode == Hand.CHALK else "enter_record"))
            except EntryError as error:
                form.add_entry_error(error)
            else:
                messages.success(request, _saved_message(hand, match))
                return redirect(access.url("enter" if mode == Hand.CHALK else "enter_record"))
        status = 422
    context = _entry_context(request, access, None, mode)
    if request.method != "POST":
        target = context["target"]
        dealer = target.dealer if target else None
        form = form_class(initial={"number": target.number if target else 1, "dealer": dealer,
                                   "dealer_shown": dealer}, match=match)
    context["form"] = form
    return render(request, template, context, status=status)


# ----------------------------------------------------------------------------- the queue's JSON mode
def _enter_json(request: HttpRequest, access: EntryAccess, form_class: type, mode: str) -> HttpResponse:
    """The entry form posted by the page's queue (static/js/offline_entry.js): the same form and the same service
    as the plain POST, answered in JSON — 201 with the stored hand and the next one, 422 with the reasons by field,
    409 when the number is taken (with the stored hand, ``theirs``) or the match is held. With an
    ``Idempotency-Key``, the answer is given once and kept under the key (``games.idempotency``): the same key
    again gets it back (``Idempotent-Replayed: true``) and stores nothing more."""
    match = access.match
    form = form_class(request.POST, request.FILES, match=match)
    if not form.is_valid():  # refused before the service ran: not kept under the key (the phone may fix it)
        return JsonResponse({"errors": errors_of(form)}, status=422)

    def run() -> tuple[int, Any]:
        return _store_entry(request, access, form, mode)

    return answer_queued(request, match, "entry" if mode == Hand.CHALK else "entry-record", run)


def _store_entry(request: HttpRequest, access: EntryAccess, form: Any, mode: str) -> tuple[int, Any]:
    """Enter the checked form's hand: the answer's status and JSON body (kept under the idempotency key)."""
    match = access.match
    try:
        hand = enter_hand(match=match, number=form.cleaned_data["number"], mode=mode, entry=form.entry(),
                          user=request.user, dealer=form.given_dealer())
    except DuplicateHandError as error:
        theirs = error.existing
        return 409, {"conflict": True, "errors": {"number": [error.reason]},
                     "theirs": stored_hand(theirs, access.url("hand_edit", theirs.pk)) if theirs else None,
                     "next": next_summary(match)}
    except EntryError as error:
        form.add_entry_error(error)
        return (409 if error.conflict else 422), {"refused": True, "errors": errors_of(form),
                                                  "next": next_summary(match)}
    hand.refresh_from_db()
    message = _saved_message(hand, match)
    messages.success(request, message)  # shown by the page the queue reloads once it is empty
    return 201, {"hand": stored_hand(hand, access.url("hand_edit", hand.pk)), "message": message,
                 "next": next_summary(match)}


@require_http_methods(["GET", "POST"])
@entry_view
def enter(request: HttpRequest, access: EntryAccess) -> HttpResponse:
    """The chalk entry page: kick, beg, runs, High, Low, Jack or Hang Jack, Game, penalty."""
    return _enter(request, access, ChalkEntryForm, Hand.CHALK, "games/enter.html")


@require_http_methods(["GET", "POST"])
@entry_view
def enter_record(request: HttpRequest, access: EntryAccess) -> HttpResponse:
    """Full entry: a hand record (docs/hand-record.md) pasted or uploaded."""
    return _enter(request, access, RecordEntryForm, Hand.RECORD, "games/enter_record.html")


@require_POST
@entry_view
def undo(request: HttpRequest, access: EntryAccess) -> HttpResponse:
    """Strike out the last counting hand. The form names the hand it means, so a second tap does not strike
    out the hand before it."""
    hand_id, version = (_whole_number(request.POST.get(key, "")) for key in ("hand", "version"))
    try:
        hand = undo_last_hand(match=access.match, user=request.user, hand_id=hand_id, version=version)
    except StaleVersionError:
        messages.error(request, "That hand was already undone, or another was entered since; the list below is "
                                "up to date.")
    except EntryError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, f"Hand {hand.number} of game {hand.game.number} undone.")
    return redirect(access.url("enter"))


def _whole_number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _after_correction(access: EntryAccess) -> str:
    if access.token is None:
        return reverse("match_sheet", args=[access.match.pk])
    return access.url("enter")


@require_http_methods(["GET", "POST"])
@entry_view
def hand_edit(request: HttpRequest, access: EntryAccess, hand_pk: int) -> HttpResponse:
    """Correct a hand: the entry form prefilled with the current version, and a required reason."""
    match = access.match
    hand = get_object_or_404(Hand.objects.select_related("game"), pk=hand_pk, game__match=match)
    initial = ChalkEntryForm.initial_from_entry(hand.entry) if hand.mode == Hand.CHALK else None
    as_json = initial is None or request.GET.get("as") == "json" or request.POST.get("as") == "json"
    status = 200
    if request.method == "POST" and wants_json(request):
        return _correct_json(request, access, hand)
    if request.method == "POST":
        form = RecordCorrectionForm(request.POST, request.FILES, match=match) if as_json \
            else ChalkCorrectionForm(request.POST, match=match)
        if form.is_valid():
            mode = hand.mode if as_json else Hand.CHALK
            try:
                correct_hand(hand=hand, mode=mode, entry=form.entry(), reason=form.cleaned_data["reason"],
                                      version=form.cleaned_data["version"], dealer=form.given_dealer(),
                                      user=request.user)
            except EntryError as error:
                form.add_entry_error(error)
            else:
                messages.success(request, f"Hand {hand.number} of game {hand.game.number} corrected.")
                return redirect(_after_correction(access))
        status = 422
    elif as_json:
        form = RecordCorrectionForm(initial={"record": json.dumps(hand.entry, indent=2), "version": hand.version,
                                             "dealer": hand.dealer, "dealer_shown": hand.dealer}, match=match)
    else:
        assert initial is not None  # not as JSON: a chalk entry, read into the form's fields
        form = ChalkCorrectionForm(initial={**initial, "version": hand.version, "dealer": hand.dealer,
                                            "dealer_shown": hand.dealer}, match=match)
    names = sheets.seat_names(match, match.competition.players)
    return render(request, "games/hand_edit.html", {
        "access": access, "match": match, "competition": match.competition, "hand": hand, "form": form,
        "as_json": as_json, "dealer": sheets.dealer_label(names, hand.dealer), "ranks": RANKS, "suits": SUITS,
        "back": _after_correction(access), "delete_url": access.url("hand_delete", hand.pk),
    }, status=status)


def _correct_json(request: HttpRequest, access: EntryAccess, hand: Hand) -> HttpResponse:
    """A correction posted by the page's queue (a conflict resolved with "Use mine"), of chalk or a full record
    (``record`` posted): the correction form
    and ``correct_hand`` as for the page, answered in JSON — 200 with the new version, 422 with the reasons by
    field, 409 when the hand changed since ``version`` (``stale``, with the hand as it is now)."""
    by_record = "record" in request.POST  # a full hand record kept over theirs
    form = RecordCorrectionForm(request.POST, request.FILES, match=access.match) if by_record \
        else ChalkCorrectionForm(request.POST, match=access.match)
    if not form.is_valid():
        return JsonResponse({"errors": errors_of(form)}, status=422)
    try:
        corrected = correct_hand(hand=hand, mode=Hand.RECORD if by_record else Hand.CHALK, entry=form.entry(),
                                 reason=form.cleaned_data["reason"],
                                 version=form.cleaned_data["version"], dealer=form.given_dealer(), user=request.user)
    except StaleVersionError as error:
        hand.refresh_from_db()
        return JsonResponse({"stale": True, "errors": {"version": [error.reason]},
                             "theirs": stored_hand(hand, access.url("hand_edit", hand.pk))}, status=409)
    except EntryError as error:
        form.add_entry_error(error)
        return JsonResponse({"refused": True, "errors": errors_of(form)}, status=409 if error.conflict else 422)
    corrected.refresh_from_db()
    message = f"Hand {corrected.number} of game {corrected.game.number} corrected."
    messages.success(request, message)
    return JsonResponse({"hand": stored_hand(corrected, access.url("hand_edit", corrected.pk)), "message": message,
                         "next": next_summary(access.match)})


@require_http_methods(["GET", "POST"])
@entry_view
def hand_delete(request: HttpRequest, access: EntryAccess, hand_pk: int) -> HttpResponse:
    match = access.match
    hand = get_object_or_404(Hand.objects.select_related("game"), pk=hand_pk, game__match=match)
    form = ReasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                delete_hand(hand=hand, reason=form.cleaned_data["reason"], user=request.user)
            except EntryError as error:
                form.add_error("reason" if error.field == "reason" else None, error.reason)
            else:
                messages.success(request, f"Hand {hand.number} of game {hand.game.number} deleted.")
                return redirect(_after_correction(access))
        status = 422
    return render(request, "games/hand_delete.html", {
        "access": access, "match": match, "competition": match.competition, "hand": hand, "form": form,
        "back": _after_correction(access),
    }, status=status)
