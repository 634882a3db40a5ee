"""The iCalendar feeds (``pages.calendar_feed``) a phone's calendar subscribes to: a competition's fixtures, seen
as its public page is (an unpublished competition is a 404 but for its organisers, a draft round's matches are
theirs only), and a player's own fixtures in published competitions and rounds."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.text import slugify
from icalendar import Calendar

from games.models import Match
from league.models import Player
from league.permissions import is_organiser
from league.views import visible_competition
from pages.calendar_feed import ScoresheetUrl, competition_calendar, player_calendar

CONTENT_TYPE = "text/calendar; charset=utf-8"


def scoresheet_links(request: HttpRequest) -> ScoresheetUrl:
    def link(match: Match) -> str:
        return request.build_absolute_uri(reverse("match_sheet", args=[match.pk]))

    return link


def ics_response(calendar: Calendar, filename: str) -> HttpResponse:
    """The calendar as a file the phone opens (``inline``) rather than one it only saves."""
    response = HttpResponse(calendar.to_ical(), content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}.ics"'
    return response


def competition_feed(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    calendar = competition_calendar(competition, scoresheet_links(request),
                                    include_drafts=is_organiser(request.user, competition.club_id))
    return ics_response(calendar, competition.slug)


def player_feed(request: HttpRequest, pk: int) -> HttpResponse:
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise Http404("No such player.")
    return ics_response(player_calendar(player, scoresheet_links(request)), slugify(player.name) or f"player-{pk}")
