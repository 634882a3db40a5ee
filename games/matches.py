"""Organising a match of two entrants: creating it, its scorekeepers and its private entry link.

A team match and its tables are organised in ``games.teams``.
"""

from __future__ import annotations

from typing import Any

from games.common import EntryError
from games.models import Match
from league.models import Competition, Entry, Partnership, new_token


def create_match(*, competition: Competition, side_a: Partnership, side_b: Partnership, round: Any = None,
                 table: str = "", venue: str = "", scheduled_at=None, first_dealer: int = 0) -> Match:
    """A match between two entrants of the competition, in ``round`` (draw's ``Round``, typed ``Any``: games
    does not import draw) or in none; the sides' names are kept as they are today."""
    if side_a.pk == side_b.pk:
        raise EntryError("side_b", "a side cannot play itself")
    for field, side in (("side_a", side_a), ("side_b", side_b)):
        _check_side(field, side, competition)
    if not 0 <= first_dealer < competition.players:
        raise EntryError("first_dealer", f"must be a seat from 0 to {competition.players - 1}, got {first_dealer}")
    if round is not None and round.competition_id != competition.pk:
        raise EntryError("round", f"{round} is not a round of {competition}")
    return Match.objects.create(competition=competition, side_a=side_a, side_b=side_b,
                                side_a_name=side_a.display_name, side_b_name=side_b.display_name, round=round,
                                table=table, venue=venue, scheduled_at=scheduled_at, first_dealer=first_dealer)


def _check_side(field: str, side: Partnership, competition: Competition) -> None:
    if not Entry.objects.filter(competition=competition, partnership=side, withdrawn=False).exists():
        raise EntryError(field, f"{side.display_name} is not entered in {competition.name}")
    if side.size * 2 != competition.players:
        each = "a pair" if competition.players == 4 else "one player"
        raise EntryError(field, f"{side.display_name} has {side.size} player(s), but {competition.name} is a "
                                f"{competition.players}-player game: each side is {each}")


def add_scorekeeper(*, match: Match, user) -> None:
    """``user`` may enter the match's results (once its round is published; organisers always may)."""
    match.scorekeepers.add(user)


def remove_scorekeeper(*, match: Match, user) -> None:
    """``user`` is no longer a scorekeeper of the match (an organiser still may enter its results)."""
    match.scorekeepers.remove(user)


def revoke_entry_link(*, match: Match) -> Match:
    """The private entry link stops working (until renewed)."""
    match.entry_token_revoked = True
    match.save(update_fields=["entry_token_revoked", "updated_at"])
    return match


def renew_entry_link(*, match: Match) -> Match:
    """A new private entry link; the old one stops working."""
    match.entry_token = new_token()
    match.entry_token_revoked = False
    match.save(update_fields=["entry_token", "entry_token_revoked", "updated_at"])
    return match


def mark_bot_played(*, match: Match | int) -> None:
    """The match is played online with a bot in the seat of a player who did not come (``tables.events``, by the
    competition's no-show rule): its sheet says so, and the ratings leave it out unless the competition rates such
    matches (``Competition.online_bot_rated``). The flag stays once set: a bot played part of the match."""
    match_id = match if isinstance(match, int) else match.pk
    Match.objects.filter(pk=match_id).update(bot_played=True)
