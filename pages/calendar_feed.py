"""iCalendar feeds (RFC 5545) that a phone's calendar subscribes to: a competition's fixtures and a player's own.

Each match with a time is an event of ``MATCH_DURATION`` from ``Match.scheduled_at`` (a table of a team match
takes its team match's time and venue); a match without one whose round has a date (``Round.starts_on``) is an
all-day event on that date; any other is left out. An event names the sides and the competition, where it is
played (the venue and the table: "Blue Dollar Bar · Table 7"), its round, its outcome once there is one (a
forfeit too) and the link to its scoresheet. Its UID (``match-<id>@<the site's host>``) stays the same from
one reading to the next, so a calendar moves an event whose time changes instead of adding it again; its
DTSTAMP and LAST-MODIFIED are the match's last change, so the feed reads the same until something changes.
Times are written in UTC, the site's time zone named as the calendar's (X-WR-TIMEZONE).

Which matches a feed holds is decided by the selectors the pages use: a competition's feed the competition
page's (``games.selectors.competition_matches``: a draft round's matches for its organisers only), a player's
the player page's (``league.permissions.public_match_filter``: published competitions, outside draft rounds).
Each feed takes a fixed number of queries whatever its number of matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import QuerySet
from django.utils.timezone import localtime
from icalendar import Calendar, Event, vDuration, vText

from games.models import Match, table_label
from games.selectors import competition_matches
from league.models import Competition, Player
from league.permissions import in_draft_round, public_match_filter
from standings.ratings import player_matches_filter

MATCH_DURATION = timedelta(hours=2)  # a fixture's length in the calendar: a match's time says only when it starts
REFRESH_EVERY = timedelta(hours=1)  # how often a subscribed calendar is asked to read the feed again
PRODID = "-//All Fours League//Fixtures//EN"
FEED_RELATED = ("competition", "round", "team_match")  # all an event reads besides the match itself

ScoresheetUrl = Callable[[Match], str]  # the absolute link to a match's public scoresheet


# ----------------------------------------------------------------------------- the matches
def competition_feed_matches(competition: Competition, *, include_drafts: bool = False) -> QuerySet[Match]:
    """The matches of the competition page (a draft round's only for the organisers: ``include_drafts``)."""
    return competition_matches(competition, include_drafts=include_drafts).select_related(*FEED_RELATED)


def player_feed_matches(player: Player) -> QuerySet[Match]:
    """The public matches in which the player plays: either side, either seat of a partnership, a table of a team
    match too; of published competitions and outside draft rounds, as on the player's page."""
    return (Match.objects.filter(player_matches_filter(player.pk), public_match_filter())
            .select_related(*FEED_RELATED))


# ----------------------------------------------------------------------------- an event
def starts(match: Match) -> datetime | date | None:
    """When the match starts (in UTC); else the day of its round, for an all-day event; None: no time at all."""
    team_match = match.team_match
    at = match.scheduled_at or (team_match.scheduled_at if team_match is not None else None)
    if at is not None:
        return at.astimezone(UTC)
    if match.round is not None and match.round.starts_on is not None:
        return match.round.starts_on
    return None


def place(venue: str, table: str) -> str:
    """Where the match is played: the venue and the table, as people say it.

    >>> place("Blue Dollar Bar", "7"), place("", "verandah"), place("Blue Dollar Bar", ""), place("", "")
    ('Blue Dollar Bar · Table 7', 'Verandah', 'Blue Dollar Bar', '')
    """
    return " · ".join(part for part in (venue.strip(), table_label(table)) if part)


def outcome(match: Match) -> str:
    """The match's outcome in words once it has one (a forfeit, a result, play under way); "" before."""
    a, b = match.side_a_name, match.side_b_name
    if match.outcome == Match.DOUBLE_FORFEIT:
        return "Not played: neither side played."
    if match.outcome == Match.FORFEIT_A:
        return f"{a} forfeited: {b} win by forfeit."
    if match.outcome == Match.FORFEIT_B:
        return f"{b} forfeited: {a} win by forfeit."
    if match.status == Match.IN_PROGRESS:
        return "In progress."
    if match.status != Match.COMPLETE:
        return ""
    score = f"{a} {match.games_a}–{match.games_b} {b}"
    if match.winner in ("a", "b"):
        return f"Result: {score}, {a if match.winner == 'a' else b} won."
    return f"Result: {score}, drawn."


def description(match: Match, scoresheet: str) -> str:
    team_match = match.team_match
    lines = [str(match.round) if match.round is not None else ""]
    if team_match is not None:
        lines.append(f"Team match: {team_match.team_a_name} v {team_match.team_b_name}")
    if in_draft_round(match):
        lines.append("A draft: the round's pairings are not published yet.")
    lines += [outcome(match), f"Scoresheet: {scoresheet}"]
    return "\n".join(line for line in lines if line)


def event(match: Match, at: datetime | date, scoresheet: str, host: str) -> Event:
    team_match = match.team_match
    venue = match.venue or (team_match.venue if team_match is not None else "")
    event = Event()
    event.add("uid", f"match-{match.pk}@{host}")
    event.add("dtstamp", match.updated_at.astimezone(UTC))
    event.add("last-modified", match.updated_at.astimezone(UTC))
    event.add("dtstart", at)
    # an all-day event ends the next day (DTEND is not part of the event); a timed one after MATCH_DURATION
    event.add("dtend", at + MATCH_DURATION if isinstance(at, datetime) else at + timedelta(days=1))
    event.add("summary", f"{match.side_a_name} v {match.side_b_name} — {match.competition.name}")
    location = place(venue, match.table)
    if location:
        event.add("location", location)
    event.add("description", description(match, scoresheet))
    event.add("url", scoresheet)
    event.add("status", "TENTATIVE" if in_draft_round(match) else "CONFIRMED")
    return event


# ----------------------------------------------------------------------------- the calendar
def uid_host() -> str:
    """The host name in every UID: the site's own (``SITE_URL``), whatever host the feed was read through."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def _sort_key(item: tuple[datetime | date, Match]) -> tuple[date, float, int]:
    """By the day (the site's), a day's all-day events first, then by the time."""
    at, match = item
    if isinstance(at, datetime):
        return localtime(at).date(), at.timestamp(), match.pk
    return at, float("-inf"), match.pk


def fixtures_calendar(name: str, matches: Iterable[Match], scoresheet_url: ScoresheetUrl, *,
                      about: str = "") -> Calendar:
    """A calendar called ``name`` of the matches that have a time or a round's date, in the order they are played."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", vText(name))
    if about:
        calendar.add("x-wr-caldesc", vText(about))
    calendar.add("x-wr-timezone", settings.TIME_ZONE)
    calendar.add("refresh-interval", vDuration(REFRESH_EVERY), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH_EVERY))
    host = uid_host()
    timed = [(at, match) for match in matches if (at := starts(match)) is not None]
    for at, match in sorted(timed, key=_sort_key):
        calendar.add_component(event(match, at, scoresheet_url(match), host))
    return calendar


def competition_calendar(competition: Competition, scoresheet_url: ScoresheetUrl, *,
                         include_drafts: bool = False) -> Calendar:
    """The competition's fixtures (two queries with the competition's own)."""
    return fixtures_calendar(competition.name, competition_feed_matches(competition, include_drafts=include_drafts),
                             scoresheet_url, about=f"Fixtures of {competition.name}, {competition.club.name}")


def player_calendar(player: Player, scoresheet_url: ScoresheetUrl) -> Calendar:
    """The player's own fixtures (two queries with the player's own)."""
    return fixtures_calendar(player.name, player_feed_matches(player), scoresheet_url,
                             about=f"The fixtures of {player.name}")
