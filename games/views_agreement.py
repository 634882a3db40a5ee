"""Pages of the sides' agreement on a result (``games.agreement``): the confirm page of a side — reached by a
player of the match signed in, or by the side's own link — and the organisers' page of results to confirm and
disputed, where they decide. Thin views: the rules are in ``games.agreement``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games import agreement as agreements
from games import agreement_selectors as selectors
from games import scoresheet as sheets
from games.forms_results import DisputeForm
from games.models import SIDE_A, Match
from games.views import refuse_match_page
from league import selectors as league_selectors
from league.permissions import can_view_match, is_organiser

UNUSABLE_LINK = ("This link does not open a result to confirm: it may be mistyped. Ask the organiser for your "
                 "side's link.")


@login_required
@require_http_methods(["GET", "POST"])
def match_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of the match confirms or disputes the result the other side entered."""
    match = sheets.match_for_pages(pk)
    if match is None or not can_view_match(request.user, match):
        raise Http404("No such match.")
    side = agreements.side_of(match, request.user)
    if not side:
        return refuse_match_page(request, match, "Only the match's players confirm its result.")
    return _confirm_page(request, match, side, here=reverse("match_confirm", args=[match.pk]))


@require_http_methods(["GET", "POST"])
def token_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """A side's own link: its player confirms or disputes with no account."""
    found = selectors.agreement_by_link(token)
    if found is None or not can_view_match(None, found[0].match):
        return render(request, "404.html", {"exception": UNUSABLE_LINK}, status=404)
    agreement, side = found
    match = sheets.match_for_pages(agreement.match_id)
    assert match is not None
    response = _confirm_page(request, match, side, here=reverse("token_confirm", args=[token]))
    response["Referrer-Policy"] = "same-origin"
    return response


def _confirm_page(request: HttpRequest, match: Match, side: str, *, here: str) -> HttpResponse:
    form = DisputeForm(match=match)
    status = 200
    if request.method == "POST":
        answer = request.POST.get("answer")
        try:
            if answer == "confirm":
                agreements.confirm(match, side=side, seen_version=request.POST.get("version"), user=request.user)
                messages.success(request, "Thank you: the result is confirmed by both sides.")
                return redirect(here)
            form = DisputeForm(request.POST, match=match)
            if answer == "dispute" and form.is_valid():
                data = form.cleaned_data
                agreements.dispute(match, side=side, seen_version=request.POST.get("version"),
                                   reason=data["reason"], their_games_a=data["their_games_a"],
                                   their_games_b=data["their_games_b"], their_score=data["their_score"],
                                   user=request.user)
                messages.success(request, "Your dispute is with the organiser, who decides. Both versions are kept.")
                return redirect(here)
        except agreements.AgreementError as error:
            if error.field in form.fields:
                form.add_entry_error(error)
            else:
                messages.error(request, error.reason)
                return redirect(here)
        status = 422
    return render(request, "games/confirm.html", {
        "match": match, "competition": match.competition, "club": match.competition.club, "side": side,
        "side_name": match.side_name(side), "other_name": match.side_name("b" if side == SIDE_A else "a"),
        "agreement": getattr(match, "agreement", None), "result": agreements.result_now(match),
        "steps": selectors.steps_of(match), "form": form, "here": here,
    }, status=status)


# ----------------------------------------------------------------------------- the organisers
def _organisers_competition(request: HttpRequest, club_slug: str, competition_slug: str) -> Any:
    competition = league_selectors.competition_by_slugs(club_slug, competition_slug)
    if competition is None or not is_organiser(request.user, competition.club_id):
        if competition is not None and competition.published and request.user.is_authenticated:
            raise PermissionDenied("Only the club's organisers decide disputed results.")
        raise Http404("No such competition.")
    return competition


def competition_disputes(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    """Results still to confirm, and the disputed ones with both versions and the reason, to decide."""
    competition = _organisers_competition(request, club_slug, competition_slug)
    pending = [(agreement, selectors.last_dispute(agreement.match)) for agreement in
               selectors.pending_agreements(competition)]
    return render(request, "games/disputes.html", {
        "competition": competition, "club": competition.club, "pending": pending,
    })


@require_POST
def match_decide(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser decides the result stands as it is now."""
    match = sheets.match_for_pages(pk)
    if match is None:
        raise Http404("No such match.")
    if not is_organiser(request.user, match.competition.club_id):
        return refuse_match_page(request, match, "Only the club's organisers decide disputed results.")
    try:
        agreements.decide(match, user=request.user, note=request.POST.get("note", ""))
    except agreements.AgreementError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, f"Decided: the result of {match} stands as entered.")
    competition = match.competition
    return redirect("competition_disputes", competition.club.slug, competition.slug)
