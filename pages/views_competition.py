"""A competition's public page: its fixtures and results by round (``draw``, ``games``) and its standings
(``standings``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from draw import public_rounds
from engine.variants import house_rules
from league.entry_requests import window_of
from league.pagination import paginate
from league.permissions import is_organiser
from league.views import visible_competition
from standings.columns import standings_of
from standings.share_text import standings_text

ROUNDS_PER_PAGE = 10  # rounds of fixtures a page


def competition(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    organiser = is_organiser(request.user, competition.club_id)
    rounds = paginate(request, public_rounds.fixture_rounds(competition, include_drafts=organiser),
                      per_page=ROUNDS_PER_PAGE, param="rounds_page")  # the page's rounds, then only their fixtures
    fixtures = public_rounds.fixtures_by_round(competition, list(rounds), include_drafts=organiser)
    found = standings_of(competition)
    return render(request, "pages/competition.html", {
        "competition": competition, "club": competition.club, "rounds": fixtures, "rounds_page": rounds,
        "is_organiser": organiser, "entry_window": window_of(competition),
        "house_rules": house_rules(competition.engine_ruleset()),
        **found, "share_text": standings_text(competition, found["standings"]),
    })
