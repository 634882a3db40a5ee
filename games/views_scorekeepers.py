"""The organiser's page of a match's scorekeepers and private entry link, and its buttons — add or remove a
scorekeeper, revoke or renew the link — each a POST-only view on a URL of its own. Organisers of the match's
club only (a draft is a 404 to others, anonymous visitors log in, anyone else gets a 403); writes through
``games.matches``."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import scoresheet as sheets
from games.forms import ScorekeeperForm
from games.matches import add_scorekeeper, remove_scorekeeper, renew_entry_link, revoke_entry_link
from games.models import Match
from games.views import refuse_match_page
from league.permissions import is_organiser


def organiser_match(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The match of the URL with its scorekeepers, for the club's organisers only."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, **kwargs) -> HttpResponse:
        match = sheets.match_with_scorekeepers(pk)
        if match is None:
            raise Http404("No such match.")
        if not is_organiser(request.user, match.competition.club_id):
            return refuse_match_page(request, match, "Only the club's organisers manage a match's scorekeepers.")
        return view(request, match, **kwargs)

    return wrapper


@require_GET
@organiser_match
def manage(request: HttpRequest, match: Match) -> HttpResponse:
    """The scorekeepers by username, and the private entry link with its buttons."""
    return _page(request, match, ScorekeeperForm())


def _page(request: HttpRequest, match: Match, form: ScorekeeperForm) -> HttpResponse:
    link = request.build_absolute_uri(reverse("token_enter", args=[match.entry_token]))
    return render(request, "games/manage.html", {
        "match": match, "competition": match.competition, "form": form, "link": link,
        "scorekeepers": list(match.scorekeepers.all()),
    }, status=422 if form.errors else 200)


@require_POST
@organiser_match
def scorekeeper_add(request: HttpRequest, match: Match) -> HttpResponse:
    form = ScorekeeperForm(request.POST)
    if not form.is_valid():
        return _page(request, match, form)
    user = form.cleaned_data["username"]
    add_scorekeeper(match=match, user=user)
    messages.success(request, f"{user.get_username()} can now enter hands for this match.")
    return redirect("match_manage", pk=match.pk)


@require_POST
@organiser_match
def scorekeeper_remove(request: HttpRequest, match: Match, user_pk: int) -> HttpResponse:
    removed = match.scorekeepers.filter(pk=user_pk).first()
    if removed is not None:
        remove_scorekeeper(match=match, user=removed)
        messages.success(request, f"{removed.get_username()} is no longer a scorekeeper of this match.")
    return redirect("match_manage", pk=match.pk)


@require_POST
@organiser_match
def link_revoke(request: HttpRequest, match: Match) -> HttpResponse:
    revoke_entry_link(match=match)
    messages.success(request, "The private link was revoked: it no longer opens the entry page.")
    return redirect("match_manage", pk=match.pk)


@require_POST
@organiser_match
def link_renew(request: HttpRequest, match: Match) -> HttpResponse:
    renew_entry_link(match=match)
    messages.success(request, "A new private link was made; the old one no longer works.")
    return redirect("match_manage", pk=match.pk)
