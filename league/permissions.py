"""Who may do what — one place, used by every page and API view.

- Organisers (``ClubRole``) run their club's competitions: create, edit, assign scorekeepers,
  revoke private links, correct any hand.
- Scorekeepers enter and correct hands for the matches they are given, either as an account in
  ``Match.scorekeepers`` or through the match's private link (``entry_token``) until it is revoked; a club's
  scorekeepers (``ClubRole.SCOREKEEPER``) for every match of its competitions, or of one.
- Everyone (players and the public) may read published competitions; organisers also see drafts.
- Drafts never leak: a match (or team match, or bye) of a draft round, and anything of an unpublished
  competition, is shown, exported, counted in the standings or rated for nobody but the club's organisers
  (``published_round_filter``, ``public_match_filter``); a match's scorekeepers and its private link open the
  match (not its competition) once the competition is published and the match's round too.
- So are the partnerships a draft made: pairing an individual event's round makes the partnerships of its tables
  as it writes the draft. A partnership is public once it is entered (alone or in a team) in a published
  competition or plays a public match; until then only the organisers of its club, or of a competition it plays
  or is entered in, see it (``public_partnership_filter``, ``visible_partnerships``).
"""

from __future__ import annotations

import hmac
from typing import Any

from django.apps import apps
from django.db.models import Exists, OuterRef, Q, QuerySet

from league.models import Club, ClubRole, Competition, Entry, Partnership, Team


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
    published = apps.get_model("draw", "Round").PUBLISHED  # from the app registry: league does not import draw
    return Q(**{f"{prefix}round__isnull": True}) | Q(**{f"{prefix}round__status": published})


def public_match_filter(prefix: str = ""):
    """``Match`` / ``TeamMatch`` rows anyone may see: of a published competition and outside any draft round
    (``prefix`` leads to the match from another model). Ratings and the players' pages use it."""
    return Q(**{f"{prefix}competition__published": True}) & published_round_filter(prefix)


def _plays_or_is_entered(competitions: QuerySet, *, published_rounds_only: bool = False) -> Q:
    """``Partnership`` rows that are a side of a match of one of ``competitions`` (outside draft rounds with
    ``published_rounds_only``) or are entered, alone or in a team, in one of them. The matches are games', read
    through the reverse relations of their sides (``matches_as_a`` / ``matches_as_b``): league never imports games."""
    partnership = OuterRef("pk")

    def plays(side: str) -> Exists:
        where = Q(**{f"{side}__competition__in": competitions})  # one filter(): the same match for both conditions
        if published_rounds_only:
            where &= published_round_filter(f"{side}__")
        return Exists(Partnership.objects.filter(where, pk=partnership))

    return (Q(plays("matches_as_a")) | Q(plays("matches_as_b"))
            | Q(Exists(Entry.objects.filter(partnership=partnership, competition__in=competitions)))
            | Q(Exists(Team.objects.filter(partnerships=partnership, competition__in=competitions))))


def public_partnership_filter() -> Q:
    """``Partnership`` rows anyone may see: entered (alone or in a team) in a published competition, or a side of
    a public match (``public_match_filter``). One that only a draft round, or an unpublished competition, has
    made or used is the draft's."""
    return _plays_or_is_entered(Competition.objects.filter(published=True), published_rounds_only=True)


def visible_partnerships_filter(user: Any) -> Q:
    """``Partnership`` rows the user may see: the public ones, and for organisers every partnership of their
    clubs and every one that plays or is entered in their clubs' competitions (drafts included)."""
    public = public_partnership_filter()
    if user is None or not user.is_authenticated:
        return public
    if user.is_superuser:
        return Q()
    return public | organised_partnerships_filter(
        ClubRole.objects.filter(user=user, role=ClubRole.ORGANISER).values("club_id"))


def organised_partnerships_filter(clubs: Any) -> Q:
    """``Partnership`` rows the organisers of ``clubs`` (club ids, or a query of them) see besides the public ones:
    their clubs' own, and those that play or are entered in their clubs' competitions."""
    return Q(club__in=clubs) | _plays_or_is_entered(Competition.objects.filter(club__in=clubs))


def visible_partnerships(user: Any) -> QuerySet[Partnership]:
    return Partnership.objects.filter(visible_partnerships_filter(user))


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
    """Organisers always; scorekeepers (an account given the match, or its private link) once the match is
    public: its competition published and its round not a draft, as "My matches" lists it — and the match's own
    players where both sides confirm each result (``Competition.confirm_results``)."""
    if user is not None and user.is_authenticated and is_organiser(user, match.competition.club_id):
        return True
    if not match.competition.published or in_draft_round(match):
        return False
    if token_matches(match, token):
        return True
    if user is None or not user.is_authenticated:
        return False
    return (match.scorekeepers.filter(pk=user.pk).exists()
            or club_scorekeeper(user, match.competition.club_id, match.competition_id)
            or (match.competition.confirm_results and plays_in(user, match)))


def plays_in(user: Any, match: Any) -> bool:
    """Whether the signed-in ``user`` is one of the match's players: in a competition where both sides confirm
    each result, a side enters its own match's hands and the other side confirms them."""
    return Partnership.objects.filter(pk__in=(match.side_a_id, match.side_b_id)).filter(
        players_user_filter(user)).exists()


def players_user_filter(user: Any, prefix: str = "") -> Q:
    """Partnerships (or, with ``prefix`` "side_a__", a match's side) with ``user`` as one of the players."""
    return Q(**{f"{prefix}player_one__user": user}) | Q(**{f"{prefix}player_two__user": user})


def club_scorekeeper(user: Any, club_id: int, competition_id: int) -> bool:
    """Whether ``user`` keeps score for every match of the club's competitions, or of this one (a
    ``ClubRole.SCOREKEEPER``, given by an invitation)."""
    return ClubRole.objects.filter(user=user, club_id=club_id, role=ClubRole.SCOREKEEPER).filter(
        Q(competition__isnull=True) | Q(competition_id=competition_id)).exists()


def visible_competitions(user: Any):
    """Competitions the user may read: published ones, plus drafts of clubs they organise."""
    query = Q(published=True)
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            return Competition.objects.all()
        query |= Q(club__roles__user=user, club__roles__role=ClubRole.ORGANISER)
    return Competition.objects.filter(query).distinct()
