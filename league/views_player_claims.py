"""Claiming a player record: the person's button on the record's page, the organiser's answers on the club's people
page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from league import player_claims
from league.models import Club, Player
from league.player_claim_models import PlayerClaim
from league.setup_errors import SetupError
from league.views_clubs import organiser_page


@require_POST
def player_claim(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    page = reverse("player", args=[player.pk])
    if not request.user.is_authenticated:
        return redirect_to_login(page)
    try:
        player_claims.ask(player=player, user=request.user)
    except SetupError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, f"Asked: {player.home_club.name if player.home_club else 'the club'}'s organiser "
                                  "answers, and you hear by mail.")
    return redirect(page)


def _answer(request: HttpRequest, club: Club, pk: int, approve: bool) -> HttpResponse:
    claim = get_object_or_404(PlayerClaim, pk=pk, player__home_club=club)
    try:
        if approve:
            player_claims.approve(claim=claim, by=request.user)
        else:
            player_claims.refuse(claim=claim, by=request.user)
    except SetupError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, f"{claim.user.get_username()} {'is now' if approve else 'is not'} "
                                  f"{claim.player.name}.")
    return redirect(reverse("club_people", args=[club.slug]) + "#claims")


@require_POST
@organiser_page
def claim_approve(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    return _answer(request, club, pk, approve=True)


@require_POST
@organiser_page
def claim_refuse(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    return _answer(request, club, pk, approve=False)
