"""The pages that answer invitations between clubs: the invitations an account may answer (its clubs' and its
player record's), and the accept / decline button that the club page and that list show. Thin views over
``league.invitations``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from league import invitations, selectors
from league.entries import SetupError

ANSWERS = {"accept": (invitations.accept, "is entered in"), "decline": (invitations.decline, "was declined for")}


@login_required
def my_invitations(request: HttpRequest) -> HttpResponse:
    """Invitations to enter other clubs' competitions that the account may answer: waiting ones, then the last
    answered."""
    waiting, answered = selectors.invitations_to_answer(request.user)
    return render(request, "league/invitations.html", {"waiting": waiting, "answered": answered})


@require_POST
@login_required
def invitation_answer(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = invitations.visible_to(request.user).select_related("competition", "club").filter(pk=pk).first()
    if invitation is None:
        raise Http404("No such invitation.")
    if not invitations.may_answer(request.user, invitation):
        raise PermissionDenied(f"Only {invitation.club.name}'s organisers or the players invited may answer.")
    answer = request.POST.get("answer", "")
    if answer not in ANSWERS:
        messages.error(request, "Choose Accept or Decline.")
    else:
        operation, done = ANSWERS[answer]
        name = invitation.entrant_name
        try:
            operation(invitation=invitation, by=request.user)
        except SetupError as error:
            messages.error(request, f"{name}: {error.reason}")
        else:
            messages.success(request, f"{name} {done} {invitation.competition.name}.")
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(back)
    return redirect("my_invitations")
