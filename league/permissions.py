"""Who may do what — one place, used by every page and API view.

- Organisers (``ClubRole``) run their club's competitions: create, edit, assign scorekeepers,
  revoke private links, correct any hand.
- Scorekeepers enter and correct hands for the matches they are given, either as an account in
  ``Match.scorekeepers`` or through the match's private link (``entry_token``) until it is revoked.
- Everyone (players and the public) may read published competitions; organisers also see drafts.
"""

from __future__ import annotations

import hmac
from typing import Any

from league.models import Club, ClubRole, Competition


def is_organiser(user: Any, club: Club | int) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    club_id = club if isinstance(club, int) else club.pk
    return ClubRole.objects.filter(user=user, club_id=club_id, role=ClubRole.ORGANISER).exists()


def can_view_competition(user: Any, competition: Competition) -> bool:
    return competition.published or is_organiser(user, competition.club_id)


def token_matches(match: Any, token: str | None) -> bool:
    """The private link's token is valid for this match and not revoked (compared in constant time)."""
    if not token or match.entry_token_revoked:
        return False
    return hmac.compare_digest(str(token).encode(), match.entry_token.encode())  # bytes: any text, no TypeError


def can_enter_hands(user: Any, match: Any, token: str | None = None) -> bool:
    if token_matches(match, token):
        return True
    if user is None or not user.is_authenticated:
        return False
    if is_organiser(user, match.competition.club_id):
        return True
    return match.scorekeepers.filter(pk=user.pk).exists()


def visible_competitions(user: Any):
    """Competitions the user may read: published ones, plus drafts of clubs they organise."""
    from django.db.models import Q

    query = Q(published=True)
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            return Competition.objects.all()
        query |= Q(club__roles__user=user, club__roles__role=ClubRole.ORGANISER)
    return Competition.objects.filter(query).distinct()
