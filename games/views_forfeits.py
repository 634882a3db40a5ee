"""The organiser's forfeit page of a match: record a no-show (the page's form), or clear it (a button posting
to a view of its own). Organisers of the match's club only; writes through ``games.results``."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games import scoresheet as sheets
from games.common import EntryError
from games.forms_results import ForfeitForm
from games.models import Match
from games.results import clear_forfeit, record_forfeit
from games.views import refuse_match_page
from league.permissions import is_organiser


def _organisers_match(request: HttpRequest, pk: int) -> tuple[Match, HttpResponse | None]:
    match = sheets.match_for_pages(pk)
    if match is None:
        raise Http404("No such match.")
    if not is_organiser(request.user, match.competition.club_id):
        return match, refuse_match_page(request, match, "Only the club's organisers record forfeits.")
    return match, None


@require_http_methods(["GET", "POST"])
def forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a no-show. Organisers only."""
    match, refused = _organisers_match(request, pk)
    if refused is not None:
        return refused
    status = 200
    form = ForfeitForm(match=match, initial={"outcome": match.outcome if match.outcome != Match.PLAYED else None})
    if request.method == "POST":
        form = ForfeitForm(request.POST, match=match)
        if form.is_valid():
            try:
                record_forfeit(match, outcome=form.cleaned_data["outcome"], user=request.user)
            except EntryError as error:
                form.add_entry_error(error)
            else:
                messages.success(request, "Forfeit recorded.")
                return redirect("match_sheet", pk=match.pk)
        status = 422
    return render(request, "games/forfeit.html", {
        "match": match, "competition": match.competition, "club": match.competition.club, "form": form,
    }, status=status)


@require_POST
def forfeit_clear(request: HttpRequest, pk: int) -> HttpResponse:
    """Clear the forfeit: the match is to be played again. Organisers only."""
    match, refused = _organisers_match(request, pk)
    if refused is not None:
        return refused
    try:
        clear_forfeit(match, user=request.user)
    except EntryError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, "The forfeit was cleared.")
    return redirect("match_forfeit", pk=match.pk)
