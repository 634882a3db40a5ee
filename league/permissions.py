"""Who may do what — one place, used by every page and API view.

- Organisers (``ClubRole``) run their club's competitions: create, edit, assign scorekeepers,
  revoke private links, correct any hand.
- Scorekeepers enter and correct hands for the matches they are given, either as an account in
  ``Match.scorekeepers`` or through the match's private link (``entry_token``) until it is revoked.
- Everyone (players and the public) may read published competitions; organisers also see drafts.
- Drafts never leak: a match (or team match, or bye) of a draft round, and anything of an unpublished
  competition, is shown, exported, counted in the standings or rated for nobody but the club's organisers
  (``published_round_filter``, ``public_match_filter``); the organisers give a match's scorekeepers and its
  private link the match (not its competition) once its round is published.
"""

from __future__ import annotations

import hmac
from typing import Any

from django.db.models import Q

from league.models import Club, ClubRole, Competition, Round


def is_organiser(user: Any, club: Club | int) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    club_id = club if isinstance(club, int) else club.pk
    return ClubRole.objects.filter(user=user, club_id=club_id, role=ClubRole.ORGANISER).exists()


def can_view_competition(user: Any, competition: Competition) -> bool:
    return competition.published or is_organiser(user, competition.club_id)


def published_round_filter(prefix: str = ""):
    """Rows (matches, team matches, byes: ``prefix`` leads to their ``round``) outside any draft round: those of
    published rounds and those without a round. The standings and every public read use it."""
    return Q(**{f"{prefix}round__isnull": True}) | Q(**{f"{prefix}round__status": Round.PUBLISHED})


def public_match_filter(prefix: str = ""):
    """``Match`` / ``TeamMatch`` rows anyone may see: of a published competition and outside any draft round
    (``prefix`` leads to the match from another model). Ratings and the players' pages use it."""
    return Q(**{f"{prefix}competition__published": True}) & published_round_filter(prefix)


def in_draft_round(match: Any) -> bool:
    """The match (or team match) belongs to a round whose pairings are still a draft."""
    round_ = match.round if getattr(match, "round_id", None) else None
    return round_ is not None and not round_.is_published


def can_view_match(user: Any, match: Any) -> bool:
    """A match is public when its competition is published and its round is not a draft; organisers see all."""
    if is_organiser(user, match.competition.club_id):
        return True
    return match.competition.published and not in_draft_round(match)


def visible_matches_filter(user: Any):
    """``Match`` / ``TeamMatch`` rows the user may list: published rounds (or none) of the competitions the
    user may see, and every match of the clubs the user organises."""
    public = public_match_filter()
    if user is None or not user.is_authenticated:
        return public
    if user.is_superuser:
        return Q()
    return public | Q(competition__club__roles__user=user, competition__club__roles__role=ClubRole.ORGANISER)


def token_matches(match: Any, token: str | None) -> bool:
    """The private link's token is valid for this match and not revoked (compared in constant time)."""
    if not token or match.entry_token_revoked:
        return False
    return hmac.compare_digest(str(token).encode(), match.entry_token.encode())  # bytes: any text, no TypeError


def can_enter_hands(user: Any, match: Any, token: str | None = None) -> bool:
    """Organisers always; scorekeepers (an account given the match, or its private link) once the match's
    round is published."""
    if user is not None and user.is_authenticated and is_organiser(user, match.competition.club_id):
        return True
    if in_draft_round(match):
        return False
    if token_matches(match, token):
        return True
    if user is None or not user.is_authenticated:
        return False
    return match.scorekeepers.filter(pk=user.pk).exists()


def visible_competitions(user: Any):
    """Competitions the user may read: published ones, plus drafts of clubs they organise."""
    query = Q(published=True)
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            return Competition.objects.all()
        query |= Q(club__roles__user=user, club__roles__role=ClubRole.ORGANISER)
    return Competition.objects.filter(query).distinct()
