"""Plain helper functions that create clubs, players, partnerships, competitions, matches and users.

Each takes keyword arguments for what a test cares about and fills in the rest.
"""

from __future__ import annotations

import functools
import itertools

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from games.models import Match
from league.models import Club, ClubRole, Competition, Entry, Partnership, Player

DEFAULT_PASSWORD = "pw-for-tests-1"
_serial = itertools.count(1)


def _next() -> int:
    return next(_serial)


@functools.cache
def _hashed(password: str) -> str:
    """Each password is hashed once per test session: a hash takes a good fraction of a second."""
    return make_password(password)


def make_user(username: str = "", *, staff: bool = False, password: str = DEFAULT_PASSWORD):
    username = username or f"user{_next()}"
    return get_user_model().objects.create(username=username, password=_hashed(password), is_staff=staff)


def make_club(name: str = "", *, organisers=()) -> Club:
    n = _next()
    name = name or f"Club {n}"
    club = Club.objects.create(name=name, slug=f"club-{n}", town="Port of Spain")
    for user in organisers:
        make_organiser(club, user)
    return club


def make_organiser(club: Club, user=None):
    user = user or make_user()
    ClubRole.objects.get_or_create(club=club, user=user, role=ClubRole.ORGANISER)
    return user


def make_player(name: str = "", *, club: Club | None = None, user=None) -> Player:
    return Player.objects.create(name=name or f"Player {_next()}", home_club=club, user=user)


def make_partnership(*, club: Club | None = None, players: int = 4, name: str = "") -> Partnership:
    """A pair for the 4-player game, or a single player for the 2-player game."""
    one = make_player(club=club)
    two = make_player(club=club) if players == 4 else None
    return Partnership.objects.create(player_one=one, player_two=two, club=club, name=name)


def make_competition(*, club: Club | None = None, players: int = 4, match_format: str = Competition.SINGLE,
                     match_games: int = 1, published: bool = True, ruleset: dict | None = None,
                     entrants: int = 0) -> Competition:
    """A competition, with ``entrants`` partnerships of the right size entered."""
    club = club or make_club()
    n = _next()
    competition = Competition.objects.create(
        club=club, name=f"Competition {n}", slug=f"competition-{n}", players=players, ruleset=ruleset or {},
        match_format=match_format, match_games=match_games, published=published)
    for _ in range(entrants):
        enter(competition, make_partnership(club=club, players=players))
    return competition


def enter(competition: Competition, partnership: Partnership) -> Entry:
    return Entry.objects.create(competition=competition, partnership=partnership)


def make_match(competition: Competition | None = None, *, side_a: Partnership | None = None,
               side_b: Partnership | None = None, first_dealer: int = 0, scorekeepers=()) -> Match:
    """A match between two entrants of the competition (entered here when not given)."""
    competition = competition or make_competition()
    sides = []
    for side in (side_a, side_b):
        if side is None:
            side = make_partnership(club=competition.club, players=competition.players)
        Entry.objects.get_or_create(competition=competition, partnership=side)
        sides.append(side)
    match = Match.objects.create(competition=competition, side_a=sides[0], side_b=sides[1],
                                 side_a_name=sides[0].display_name, side_b_name=sides[1].display_name,
                                 first_dealer=first_dealer)
    match.scorekeepers.add(*scorekeepers)
    return match
