"""Public pages of the league: home and a club (a competition's page and its standings: ``pages``), and the checks
of every competition page: :func:`visible_competition` (who may see it) and :func:`organiser_view` (its club's
organisers only).

Reads go through ``league.selectors``; an unpublished competition is a 404 for everyone but its club's
organisers (``league.permissions.can_view_competition``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league import selectors
from league.models import Club, Competition
from league.pagination import paginate
from league.permissions import can_view_competition, is_organiser

COMPETITIONS_PER_PAGE = 30
CLUBS_PER_PAGE = 60


def home(request: HttpRequest) -> HttpResponse:
    found = selectors.home_page(request.user)
    competitions = paginate(request, found["competitions"], per_page=COMPETITIONS_PER_PAGE)
    clubs = paginate(request, found["clubs"], per_page=CLUBS_PER_PAGE, param="clubs_page")
    return render(request, "league/home.html", {"competitions": list(competitions), "competitions_page": competitions,
                                                "clubs": list(clubs), "clubs_page": clubs})


def club(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    found = selectors.club_page(club, request.user)
    competitions = paginate(request, found["competitions"], per_page=COMPETITIONS_PER_PAGE)
    organiser = is_organiser(request.user, club)
    return render(request, "league/club.html", {"club": club, "competitions": list(competitions),
                                                "competitions_page": competitions, "has_archive": found["has_archive"],
                                                "is_organiser": organiser,
                                                "invitations": selectors.invitations_of_club(club) if organiser
                                                else None})


def club_archive(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's archived competitions: finished, kept, out of the club's list."""
    club = get_object_or_404(Club, slug=club_slug)
    competitions = paginate(request, selectors.club_archive(club, request.user), per_page=COMPETITIONS_PER_PAGE)
    return render(request, "league/club_archive.html", {"club": club, "competitions": list(competitions),
                                                        "competitions_page": competitions})


def visible_competition(request: HttpRequest, club_slug: str, competition_slug: str) -> Competition:
    """The competition named by the URL's slugs, or a 404 for anyone who may not see it (every page's check)."""
    competition = selectors.competition_by_slugs(club_slug, competition_slug)
    if competition is None or not can_view_competition(request.user, competition):
        raise Http404("No such competition.")
    return competition


def refuse_competition_page(request: HttpRequest, message: str, visible: bool = True) -> HttpResponse:
    """What the user may not see → 404, for anonymous visitors too (as for no competition at all); anonymous →
    log in; otherwise 403."""
    if not visible:
        raise Http404("No such competition.")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(message)


def organiser_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Resolve the competition from the URL's slugs and let only its club's organisers through."""

    @wraps(view)
    def wrapper(request: HttpRequest, club_slug: str, competition_slug: str, **kwargs: Any) -> HttpResponse:
        competition = selectors.competition_by_slugs(club_slug, competition_slug)
        if competition is None:
            raise Http404("No such competition.")
        if not is_organiser(request.user, competition.club_id):
            return refuse_competition_page(
                request, f"Only organisers of {competition.club.name} set up its competitions.",
                visible=can_view_competition(request.user, competition))
        return view(request, competition, **kwargs)

    return wrapper
