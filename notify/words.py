"""What the notifications say, in the table's words, and whom a fixture concerns."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.models import Match, TeamMatch
from league.models import Partnership, Team


def site_url(name: str, *args: object) -> str:
    return settings.SITE_URL + reverse(name, args=args)


def when_words(moment: datetime | date | None) -> str:
    """"Friday 14 March, 8 pm", "Friday 14 March, 8:30 pm", or a day alone ("Friday 14 March"); "" for none.

    >>> when_words(date(2025, 3, 14))
    'Friday 14 March'
    """
    if moment is None:
        return ""
    if not isinstance(moment, datetime):
        return f"{moment:%A} {moment.day} {moment:%B}"
    local = timezone.localtime(moment)
    hour = local.hour % 12 or 12
    time = f"{hour}{f':{local.minute:02d}' if local.minute else ''} {'am' if local.hour < 12 else 'pm'}"
    return f"{when_words(local.date())}, {time}"


def players_of(partnership: Partnership | None) -> list[int]:
    """The user ids of a side's players who have an account."""
    if partnership is None:
        return []
    players = [partnership.player_one, partnership.player_two]
    return [player.user_id for player in players if player is not None and player.user_id is not None]


def team_players(team: Team) -> list[int]:
    return sorted({user_id for pair in team.partnerships.all() for user_id in players_of(pair)})


PAIR_SIDES = ("side_a__player_one", "side_a__player_two", "side_b__player_one", "side_b__player_two")
TEAM_PLAYERS = ("team_a__partnerships__player_one", "team_a__partnerships__player_two",
                "team_b__partnerships__player_one", "team_b__partnerships__player_two")


def match_sides(match: Match) -> Iterable[tuple[int, str, str]]:
    """``(user id, side, opponents' name)`` for each player of the match with an account."""
    sides = (("a", match.side_a, match.side_b_name), ("b", match.side_b, match.side_a_name))
    for side, partnership, opponents in sides:
        for user_id in players_of(partnership):
            yield user_id, side, opponents


def team_match_sides(team_match: TeamMatch) -> Iterable[tuple[int, str, str]]:
    for side, team, opponents in (("a", team_match.team_a, team_match.team_b_name),
                                  ("b", team_match.team_b, team_match.team_a_name)):
        for user_id in team_players(team):
            yield user_id, side, opponents


def table_words(match: Match) -> str:
    """"Table 7", the club's name for it, or "" when no table is set."""
    return match.table_label or (f"Table {match.table_number}" if match.table_number else "")


def fixture_words(*, table: str, opponents: str, when: str, venue: str) -> str:
    """"Table 7 v Ann & Bob, Friday 14 March, 8 pm, at the Oval"."""
    text = f"{table} v {opponents}" if table else f"v {opponents}"
    return text + (f", {when}" if when else "") + (f", at {venue}" if venue else "")
