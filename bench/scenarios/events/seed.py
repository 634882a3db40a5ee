"""The events benchmark's club: a Swiss of pairs and a knockout of teams, both played online (tables opened as a round
is published, the next round paired and published by itself), every player with a login and a signed-in session —
made through the app's own services, as an organiser's setup pages make them.

The knockout's teams each have exactly ``TEAM_TABLES`` pairs on their roster, as many as a team match has tables: no
captain has a line-up to choose, so each team match is seated by itself as its round is published
(``games.team_seating``) and its tables open with the round's. A tie is a race to ``team_target`` bullseyes (games
won over both tables): a race cannot end level, as a knockout tie must not.

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
TEAM_TABLES = 2  # tables a team match, and pairs a team


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


def seed_events(*, swiss_pairs: int, swiss_rounds: int, knockout_teams: int, team_target: int, target: int,
                grace_minutes: int, run: str) -> EventSeed:
    """One club, its organiser, and two published competitions played online (``online_next_round="publish"``, a
    no-show forfeits, ``grace_minutes`` to wait), games to ``target``: a Swiss of ``swiss_pairs`` pairs over
    ``swiss_rounds`` rounds, and a knockout of ``knockout_teams`` teams (seeded 1…N) of ``TEAM_TABLES`` pairs each,
    each tie a race to ``team_target`` bullseyes at ``TEAM_TABLES`` tables. Every player has a login."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from league.competition_options import set_published, update_competition
    from league.entries import enter
    from league.models import ClubRole, Competition
    from league.services import create_club, create_competition
    from league.teams import create_team

    user_model = get_user_model()
    club = create_club(name=f"Events Club {run}", slug=f"events-{run}", town="San Fernando")
    organiser = user_model.objects.create(username=f"ev-{run}-organiser", password=make_password(None))
    ClubRole.objects.create(club=club, user=organiser, role=ClubRole.ORGANISER)
    seed = EventSeed(club=club.slug)
    if swiss_pairs:
        competition = create_competition(club=club, name=f"Online Swiss {run}", slug=f"swiss-{run}", season="2026",
                                         players=4, ruleset={"target": target}, system=Competition.SWISS,
                                         planned_rounds=swiss_rounds)
        _online(update_competition, competition, grace_minutes)
        for index in range(swiss_pairs):
            partnership = _pair(seed, club, run, SWISS, f"Swiss Pair {index + 1}", f"{index + 1:02d}")
            enter(competition=competition, partnership=partnership, seed=index + 1, refresh=False)
        set_published(competition=competition, published=True)
        seed.competitions[SWISS] = competition.pk
    if knockout_teams:
        competition = create_competition(club=club, name=f"Online Team Cup {run}", slug=f"knockout-{run}",
                                         season="2026", players=4, ruleset={"target": target},
                                         system=Competition.KNOCKOUT, entrant_kind=Competition.TEAMS,
                                         team_tables=TEAM_TABLES, team_mode=Competition.TEAM_RACE,
                                         team_target=team_target)
        _online(update_competition, competition, grace_minutes)
        for index in range(knockout_teams):
            pairs = [_pair(seed, club, run, KNOCKOUT, f"Team {index + 1} Pair {place}",
                           f"{index + 1:02d}{place}") for place in range(1, TEAM_TABLES + 1)]
            create_team(competition=competition, name=f"Team {index + 1}", club=club, partnerships=pairs,
                        seed=index + 1, refresh=False)
        set_published(competition=competition, published=True)
        seed.competitions[KNOCKOUT] = competition.pk
    return seed


def _online(update_competition: Any, competition: Any, grace_minutes: int) -> None:
    """Played online, a no-show forfeiting after ``grace_minutes``, each next round paired and published by itself."""
    update_competition(competition=competition, play_online=True, online_grace_minutes=grace_minutes,
                       online_no_show="forfeit", online_next_round="publish")


def _pair(seed: EventSeed, club: Any, run: str, key: str, name: str, tag: str) -> Any:
    """A pair of two new players of ``club``, each with a login and a signed-in session (``seed.players``)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from league.partnerships import create_partnership
    from league.people import create_player, link_login

    members = []
    for place in "ab":
        username = f"ev-{run}-{key[:2]}{tag}{place}"
        user = get_user_model().objects.create(username=username, password=make_password(None))
        player = create_player(club=club, name=f"{name} Player {place.upper()}")
        members.append(link_login(player=player, username=username))
        seed.players.append(BenchPlayer(username, user.pk, signed_in_session(user), key))
    return create_partnership(club=club, player_one=members[0], player_two=members[1], name=name)


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
