"""A competition's big screen (``clubs/<club>/<competition>/display/``) for a TV or a projector in the bar: the
round's pairings with their tables and its clock, the standings and the latest results, one view after another
(``static/js/display.js``; which views and how long each shows are in the page's address, chosen by the organiser
on the competition's page). A live page: every change of the competition re-renders it over the real-time layer.
It needs no login and shows what a visitor sees — drafts never, organiser or not."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from draw import public_rounds
from draw.round_clock import clock_of
from games.choices import MatchStatus
from games.selectors import competition_matches
from league.views import visible_competition
from standings.columns import standings_of

LATEST_RESULTS = 8
VIEWS = (("pairings", "Pairings and the clock"), ("standings", "Standings"), ("results", "Latest results"))
DEFAULT_SECONDS = 15


def display(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    published = [round_id for round_id in public_rounds.fixture_rounds(competition) if round_id is not None]
    current = public_rounds.fixtures_by_round(competition, published[-1:]) if published else []
    round_ = current[0].round if current else None
    results = (competition_matches(competition).filter(status=MatchStatus.COMPLETE)
               .select_related("round").order_by("-updated_at", "-id")[:LATEST_RESULTS])
    return render(request, "pages/display.html", {
        "competition": competition, "club": competition.club, "current": current[0] if current else None,
        "round": round_, "has_clock": clock_of(round_) is not None, "results": list(results),
        **standings_of(competition), "hide_ranking": True})
