"""The live page of an event played online (``clubs/<club>/<competition>/live/``): the round's tables in play with
their scores and clocks, its results as they finish, the standings, and the next round's coming
(``pages.event_live``). A live page (``live.pages``): every move at one of its tables, every result and every
standings refresh renders it again over the real-time layer, at most once a second; its clocks count down in the
page between renderings (``static/js/event_live.js``). It needs no login and shows what a visitor sees."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from league.permissions import is_organiser
from league.views import visible_competition
from pages.event_live import WATCHING_WORDS, event_page


def event_live(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    if not competition.play_online:
        raise Http404("This competition is not played online: it has no live tables.")
    found = event_page(competition)
    return render(request, "pages/event_live.html", {
        "competition": competition, "club": competition.club, "now": timezone.now(),
        "is_organiser": is_organiser(request.user, competition.club_id),
        "watching_words": WATCHING_WORDS[found["watching"]], **found, "hide_ranking": False})
