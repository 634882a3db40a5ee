"""The live pages benchmark's league: one published competition of matches between distinct partnerships, each with
a scorekeeper account and its DRF token."""

from __future__ import annotations

from dataclasses import dataclass

from bench.support.entries import build_entry_competition

MATCH_GAMES = 25  # first to 25 games: a game takes 5 hands or more, so a match lasts 125 hands or more


@dataclass
class LiveMatch:
    id: int
    token: str  # the scorekeeper's DRF token
    side_a: str  # side A's partnership name, as the standings show it
    sheet: str  # the scoresheet's path


def seed_league(scorekeepers: int, *, run: str) -> tuple[str, list[LiveMatch]]:
    """One club, one published 4-player competition (first to ``MATCH_GAMES`` games) of ``scorekeepers`` matches
    between distinct partnerships (``build_entry_competition``'s), each match with a scorekeeper account
    and its DRF token. Returns the standings page's path and the matches."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.urls import reverse
    from rest_framework.authtoken.models import Token

    from games.matches import add_scorekeeper
    from games.models import Match
    from league.models import Competition

    competition, entries = build_entry_competition(scorekeepers, slug=f"live-{run}")
    Competition.objects.filter(pk=competition.pk).update(match_format=Competition.FIRST_TO, match_games=MATCH_GAMES)
    user_model = get_user_model()
    password = make_password(None)
    out = []
    for index, entry in enumerate(entries):
        user = user_model.objects.create(username=f"bl-{run}-{index}", password=password)
        match = Match.objects.select_related("side_a").get(pk=entry.id)
        add_scorekeeper(match=match, user=user)
        out.append(LiveMatch(match.pk, Token.objects.create(user=user).key, match.side_a.name,
                             reverse("match_sheet", args=[match.pk])))
    standings = reverse("competition_standings", args=[competition.club.slug, competition.slug])
    return standings, out

