"""The public page of a team: its pairs, its season and its other seasons (``standings.teams``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league.models import Team
from league.views import visible_competition
from standings.teams import team_page


def team(request: HttpRequest, club_slug: str, competition_slug: str, team_pk: int) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    found = (Team.objects.filter(competition=competition, pk=team_pk).select_related("club")
             .prefetch_related("partnerships__player_one", "partnerships__player_two").first())
    if found is None:
        raise Http404("No such team.")
    page = team_page(found, request.user)
    return render(request, "standings/team.html", {"competition": competition, "club": competition.club,
                                                "team": found, "page": page})
