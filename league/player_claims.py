"""A person asks to be the player behind a record of a club (on the record's public page); one of the club's
organisers approves (the record is linked to their account) or refuses; each answer is mailed to the person. One
record a club for each account: a person who plays for several clubs has a record at each.

    claim = ask(player=ann_lee, user=ann)       # the club's organisers are mailed
    approve(claim=claim, by=olive)              # ann_lee.user == ann; any other claim of the record is refused
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league.models import ClubRole, Player
from league.player_claim_models import ClaimState, PlayerClaim
from league.setup_errors import SetupError
from league.signals import attention_needed_after_commit


def _check_claimable(player: Player, user: Any) -> None:
    if player.home_club_id is None:
        raise SetupError("player", f"{player.name} plays for no club: there is no organiser to ask")
    if player.user_id is not None:
        raise SetupError("player", f"{player.name} is already linked to an account")
    other = Player.objects.filter(user=user, home_club_id=player.home_club_id).exclude(pk=player.pk).first()
    if other is not None:
        raise SetupError("player", f"your account is already {other.name}'s at this club: ask its organiser to "
                                   "merge the two records")


def ask(*, player: Player, user: Any) -> PlayerClaim:
    with transaction.atomic():
        player = Player.objects.select_for_update(of=("self",)).select_related("home_club").get(pk=player.pk)
        _check_claimable(player, user)
        if PlayerClaim.objects.filter(player=player, user=user, state=ClaimState.WAITING).exists():
            raise SetupError("player", f"you have already asked to be {player.name}: the club's organiser answers")
        claim = PlayerClaim.objects.create(player=player, user=user)
        assert player.home_club is not None  # _check_claimable
        people_page = f"{settings.SITE_URL}{reverse('club_people', args=[player.home_club.slug])}"
        organisers = ClubRole.objects.filter(club=player.home_club, role=ClubRole.ORGANISER,
                                             user__email__gt="").values_list("user__email", flat=True)
        if organisers:
            send_mail(subject=f"{user.get_username()} asks to be {player.name}",
                      message=(f"{user.get_username()} asks to be the player {player.name} of "
                               f"{player.home_club.name}. Approve or refuse it on the club's people page:\n"
                               f"{people_page}\n"),
                      from_email=None, recipient_list=sorted(set(organisers)))
        for organiser_id in set(ClubRole.objects.filter(club=player.home_club, role=ClubRole.ORGANISER)
                                .values_list("user_id", flat=True)):
            attention_needed_after_commit(  # their phones too (notify), as they chose
                user_id=organiser_id, title=f"{user.get_username()} asks to be {player.name}",
                body=f"{player.home_club.name}: approve or refuse it on the people page.", url=people_page,
                key=f"claim:{claim.pk}:asked")
    return claim


def approve(*, claim: PlayerClaim, by: Any) -> PlayerClaim:
    """The record is the person's; any other claim of it waiting is refused."""
    with transaction.atomic():
        claim = _waiting(claim)
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        _check_claimable(player, claim.user)
        player.user = claim.user
        player.save(update_fields=["user"])
        _answer(claim, ClaimState.APPROVED, by)
        for other in PlayerClaim.objects.filter(player=player, state=ClaimState.WAITING).select_related("user"):
            _answer(other, ClaimState.REFUSED, by)
    return claim


def refuse(*, claim: PlayerClaim, by: Any) -> PlayerClaim:
    with transaction.atomic():
        claim = _waiting(claim)
        _answer(claim, ClaimState.REFUSED, by)
    return claim


def waiting_at(club_id: int) -> list[PlayerClaim]:
    return list(PlayerClaim.objects.filter(player__home_club_id=club_id, state=ClaimState.WAITING)
                .select_related("player", "user").order_by("asked_at", "id"))


@dataclass(frozen=True)
class ClaimOffer:
    """What the record's page offers the reader: to ask (``can_ask``), or their claim still waiting."""

    can_ask: bool
    waiting: PlayerClaim | None


def offer(player: Player, user: Any) -> ClaimOffer:
    if user is None or not user.is_authenticated or player.home_club_id is None or player.user_id is not None:
        return ClaimOffer(False, None)
    waiting = PlayerClaim.objects.filter(player=player, user=user, state=ClaimState.WAITING).first()
    mine_here = Player.objects.filter(user=user, home_club_id=player.home_club_id).exists()
    return ClaimOffer(waiting is None and not mine_here, waiting)


def _waiting(claim: PlayerClaim) -> PlayerClaim:
    claim = (PlayerClaim.objects.select_for_update(of=("self",)).select_related("player__home_club", "user")
             .get(pk=claim.pk))
    if claim.state != ClaimState.WAITING:
        raise SetupError("claim", f"this claim was {claim.get_state_display()} already")
    return claim


def _answer(claim: PlayerClaim, state: str, by: Any) -> None:
    claim.state, claim.answered_by, claim.answered_at = state, by, timezone.now()
    claim.save(update_fields=["state", "answered_by", "answered_at"])
    if claim.user.email:
        club = claim.player.home_club.name if claim.player.home_club else "the club"
        answer = "approved: the record is yours" if state == ClaimState.APPROVED else "refused"
        send_mail(subject=f"{club}: you as {claim.player.name}", from_email=None, recipient_list=[claim.user.email],
                  message=f"Your request to be the player {claim.player.name} of {club} was {answer}.\n")
    attention_needed_after_commit(  # their phones too (notify), as they chose
        user_id=claim.user_id, title=f"You as {claim.player.name}: {ClaimState(state).label}",
        body=f"Your request to be the player {claim.player.name} was "
             f"{'approved' if state == ClaimState.APPROVED else 'refused'}.",
        url=f"{settings.SITE_URL}{reverse('player', args=[claim.player_id])}", key=f"claim:{claim.pk}:{state}")
