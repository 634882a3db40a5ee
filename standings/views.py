"""The public standings page of a competition."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.views import visible_competition
from standings.columns import standings_of


def standings(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    return render(request, "league/standings.html", {
        "competition": competition, "club": competition.club, **standings_of(competition)})
