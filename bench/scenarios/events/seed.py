"""The events benchmark's club: a Swiss and a knockout of pairs, both played online (tables opened as a round is
published, the next round paired and published by itself), every player with a login and a signed-in session —
made through the app's own services, as an organiser's setup pages make them.

The sessions are written as a login writes them (``django.contrib.auth``'s keys in a database session): a login
through the page would hash a password for each of the players, seconds of CPU that are no part of what is
measured. The first round of each competition is paired by the pairing task and published once: from then on
nobody presses a button.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

SWISS, KNOCKOUT = "swiss", "knockout"


@dataclass
class BenchPlayer:
    username: str
    user_id: int
    session: str  # the ``sessionid`` cookie
    competition: str  # SWISS or KNOCKOUT


@dataclass
class EventSeed:
    club: str
    competitions: dict[str, int] = field(default_factory=dict)  # SWISS / KNOCKOUT → competition id
    players: list[BenchPlayer] = field(default_factory=list)


def signed_in_session(user: Any) -> str:
    """A session in which ``user`` is signed in, as ``django.contrib.auth.login`` stores it; its key."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_backends
    from django.contrib.sessions.backends.db import SessionStore

    backend = next(backend for backend in get_backends() if hasattr(backend, "get_user"))  # the one login records
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = f"{type(backend).__module__}.{type(backend).__qualname__}"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None  # create() saved it
    return session.session_key


def seed_events(*, swiss_pairs: int, swiss_rounds: int, knockout_pairs: int, target: int, grace_minutes: int,
                run: str) -> EventSeed:
    """One club, its organiser, and two published competitions played online (``online_next_round="publish"``, a
    no-show forfeits, ``grace_minutes`` to wait): a Swiss of ``swiss_pairs`` pairs over ``swiss_rounds`` rounds and a
    knockout of ``knockout_pairs`` pairs (seeded 1…N), single games to ``target``. Every player has a login."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from league.competition_options import set_published, update_competition
    from league.entries import enter
    from league.models import ClubRole, Competition
    from league.partnerships import create_partnership
    from league.people import create_player, link_login
    from league.services import create_club, create_competition

    user_model = get_user_model()
    password = make_password(None)
    club = create_club(name=f"Events Club {run}", slug=f"events-{run}", town="San Fernando")
    organiser = user_model.objects.create(username=f"ev-{run}-organiser", password=password)
    ClubRole.objects.create(club=club, user=organiser, role=ClubRole.ORGANISER)
    seed = EventSeed(club=club.slug)
    sizes = {SWISS: (Competition.SWISS, swiss_pairs), KNOCKOUT: (Competition.KNOCKOUT, knockout_pairs)}
    for key, (system, pairs) in sizes.items():
        if not pairs:
            continue
        competition = create_competition(club=club, name=f"Online {key.title()} {run}", slug=f"{key}-{run}",
                                         season="2026", players=4, ruleset={"target": target}, system=system,
                                         planned_rounds=swiss_rounds if system == Competition.SWISS else None)
        update_competition(competition=competition, play_online=True, online_grace_minutes=grace_minutes,
                           online_no_show="forfeit", online_next_round="publish")
        for index in range(pairs):
            members = []
            for place in (1, 2):
                username = f"ev-{run}-{key[:2]}{index + 1:02d}{'ab'[place - 1]}"
                user = user_model.objects.create(username=username, password=password)
                player = create_player(club=club, name=f"{key.title()} Player {index + 1}{'AB'[place - 1]}")
                members.append(link_login(player=player, username=username))
                seed.players.append(BenchPlayer(username, user.pk, signed_in_session(user), key))
            partnership = create_partnership(club=club, player_one=members[0], player_two=members[1],
                                             name=f"{key.title()} Pair {index + 1}")
            enter(competition=competition, partnership=partnership, seed=index + 1, refresh=False)
        set_published(competition=competition, published=True)
        seed.competitions[key] = competition.pk
    return seed


def pair_first_rounds(seed: EventSeed, timeout: float = 120.0) -> dict[str, int]:
    """Each competition's first round asked of the pairing task (the worker's) as an organiser asks, and waited
    for; returns the rounds' ids. Not yet published."""
    from draw.models import Round
    from draw.request import request_pairing
    from league.models import Competition

    rounds = {key: request_pairing(Competition.objects.get(pk=pk)).pk for key, pk in seed.competitions.items()}
    deadline = time.monotonic() + timeout
    while True:
        states = dict(Round.objects.filter(pk__in=rounds.values()).values_list("pk", "pairing_state"))
        if all(state == Round.DONE for state in states.values()):
            return rounds
        failed = {pk: state for pk, state in states.items() if state == Round.FAILED}
        if failed or time.monotonic() > deadline:
            messages = list(Round.objects.filter(pk__in=rounds.values()).values_list("pairing_message", flat=True))
            raise RuntimeError(f"the first rounds were not paired: {states} {messages}")
        time.sleep(0.2)


def publish_first_rounds(rounds: dict[str, int]) -> None:
    """The one press of a button: each competition's first round published (its tables open:
    ``tables.events``)."""
    from draw.models import Round
    from draw.publishing import publish_round

    for round_id in rounds.values():
        publish_round(Round.objects.get(pk=round_id))
