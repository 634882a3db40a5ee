"""The public pages of a competition's standings: its table, and each team's page (its pairs, its season and its
other seasons, from ``pages.team_page``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league.models import Team
from league.views import visible_competition
from pages.team_page import team_page
from standings.columns import standings_of
from standings.share_text import standings_text


def standings(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    found = standings_of(competition)
    return render(request, "pages/standings.html", {
        "competition": competition, "club": competition.club, **found,
        "share_text": standings_text(competition, found["standings"])})


def team(request: HttpRequest, club_slug: str, competition_slug: str, team_pk: int) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    found = (Team.objects.filter(competition=competition, pk=team_pk).select_related("club")
             .prefetch_related("partnerships__player_one", "partnerships__player_two").first())
    if found is None:
        raise Http404("No such team.")
    page = team_page(found, request.user)
    return render(request, "pages/team.html", {"competition": competition, "club": competition.club,
                                               "team": found, "page": page})
