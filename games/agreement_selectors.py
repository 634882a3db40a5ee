"""Reads of the sides' agreement on results (``games.agreement_models``): what waits for a player's side, what
waits for an organiser, and a match's steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from games.agreement_models import PENDING, Agreement, AgreementAction, AgreementState, AgreementStep
from games.models import SIDE_A, SIDE_B, Match
from league.models import Competition
from league.permissions import players_user_filter


@dataclass(frozen=True)
class ToConfirm:
    """A match whose result waits for ``side`` (the viewer's) to confirm or dispute it."""

    match: Match
    side: str


def waiting_for(user: Any) -> list[ToConfirm]:
    """The results the signed-in ``user``'s side is asked to confirm: of matches they play in, entered by the other
    side (or by a scorekeeper of neither), not yet answered."""
    if user is None or not user.is_authenticated:
        return []
    rows = (Agreement.objects.filter(state=AgreementState.TO_CONFIRM, match__competition__confirm_results=True,
                                     match__competition__published=True)
            .filter(players_user_filter(user, "match__side_a__") | players_user_filter(user, "match__side_b__"))
            .select_related("match__competition__club", "match__round", "match__side_a__player_one",
                            "match__side_a__player_two", "match__side_b__player_one", "match__side_b__player_two")
            .order_by("-updated_at"))
    waiting = []
    for agreement in rows:
        match = agreement.match
        for side, pair in ((SIDE_A, match.side_a), (SIDE_B, match.side_b)):
            if agreement.entered_by_side != side and any(
                    p is not None and p.user_id == user.pk for p in (pair.player_one, pair.player_two)):
                waiting.append(ToConfirm(match, side))
                break
    return waiting


def pending_agreements(competition: Competition) -> QuerySet[Agreement]:
    """The competition's results not agreed: disputed first (they wait for an organiser), then those to confirm."""
    return (Agreement.objects.filter(match__competition=competition, state__in=PENDING)
            .select_related("match__round", "match__competition")
            .order_by("-state", "match__round__number", "match_id"))


def states_of(match_ids: list[int]) -> dict[int, str]:
    """Each match's agreement state, for the matches that have one (a list of results marks those to confirm)."""
    return dict(Agreement.objects.filter(match_id__in=match_ids).values_list("match_id", "state"))


@dataclass(frozen=True)
class PendingEntrants:
    """Who has a result still to confirm or disputed, as the standings rows name them: partnerships, their
    players (an individual event's rows) and teams (of the team matches the tables are of)."""

    pairs: frozenset[int] = frozenset()
    players: frozenset[int] = frozenset()
    teams: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.pairs)


def pending_entrants(competition: Competition) -> PendingEntrants:
    if not competition.confirm_results:
        return PendingEntrants()
    rows = list(Agreement.objects.filter(match__competition=competition, state__in=PENDING).values_list(
        "match__side_a_id", "match__side_b_id", "match__side_a__player_one_id", "match__side_a__player_two_id",
        "match__side_b__player_one_id", "match__side_b__player_two_id", "match__team_match__team_a_id",
        "match__team_match__team_b_id"))
    return PendingEntrants(pairs=frozenset(v for row in rows for v in row[:2]),
                           players=frozenset(v for row in rows for v in row[2:6] if v is not None),
                           teams=frozenset(v for row in rows for v in row[6:] if v is not None))


def steps_of(match: Match) -> list[AgreementStep]:
    return list(AgreementStep.objects.filter(match=match).select_related("author"))


def last_dispute(match: Match) -> AgreementStep | None:
    return (AgreementStep.objects.filter(match=match, action=AgreementAction.DISPUTED)
            .order_by("-created_at", "-id").first())


def agreement_by_link(token: str) -> tuple[Agreement, str] | None:
    """The agreement a side's own confirmation link opens, and that side; None for an unknown link."""
    if not token or len(token) > 40:
        return None
    agreement = (Agreement.objects.filter(Q(link_a=token) | Q(link_b=token))
                 .select_related("match__competition__club").first())
    if agreement is None:
        return None
    return agreement, SIDE_A if agreement.link_a == token else SIDE_B
