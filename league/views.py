"""Public pages of the league: home and a club (a competition's page: ``draw.views_public``; its standings:
``standings.views``), and :func:`visible_competition`, every competition page's check.

Reads go through ``league.selectors``; an unpublished competition is a 404 for everyone but its club's
organisers (``league.permissions.can_view_competition``).
"""

from __future__ import annotations

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
