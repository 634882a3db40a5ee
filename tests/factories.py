"""Plain helper functions that create clubs, players, partnerships, competitions, matches and users.

Each takes keyword arguments for what a test cares about and fills in the rest. Also: a club's scene with a
match (``make_scene``), a chalk entry (``sweep``) and a service call run as a real commit (``committing``).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

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
    """Each password is hashed once per test session (a hash takes a good fraction of a second), with the site's
    hasher, named: hashed with whatever hasher a test had set at the time (a quick one), the hash would not verify
    in the tests after it."""
    return make_password(password, hasher="pbkdf2_sha256")


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


def make_scene(club_name: str, *, organiser: str, scorekeeper: str, **options) -> dict:
    """A club with its organiser, a competition (``options``: ``make_competition``'s) and a match in it between
    the club's Lions and Tigers, with its scorekeeper; the two users named as given."""
    club = make_club(club_name)
    organiser_user = make_organiser(club, make_user(organiser))
    scorekeeper_user = make_user(scorekeeper)
    competition = make_competition(club=club, **options)
    match = make_match(competition, side_a=make_partnership(club=club, name="Lions"),
                       side_b=make_partnership(club=club, name="Tigers"), scorekeepers=[scorekeeper_user])
    return {"club": club, "organiser": organiser_user, "scorekeeper": scorekeeper_user, "competition": competition,
            "match": match}


def sweep(team: int) -> dict:
    """A chalk entry in which ``team`` (0: side A) takes High, Low, Jack and Game: 4 chalks."""
    return {"kicks": ["5S"], "beg": "stand", "high": {"team": team}, "low": {"team": team},
            "jack": {"team": team}, "game": {"team": team}}


def committing(capture_on_commit_callbacks) -> Callable[..., Any]:
    """``do(function, *args, **kwargs)``: the call, then the on-commit callbacks it queued (the settle task), as a
    real commit would run them; ``capture_on_commit_callbacks`` is pytest-django's
    ``django_capture_on_commit_callbacks`` fixture."""

    def do(function, *args, **kwargs):
        with capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    return do
