"""The pages of invitations between clubs: the invitations an account may answer (its clubs' and its player
record's) with the accept / decline button that the club page and that list show; a team competition's page that
invites another club's team; and the button that cancels an invitation still waiting (on the entries page and the
club page). Thin views over ``league.invitations``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from league import invitations, selectors
from league.forms import CancelInvitationForm, TeamInvitationForm, add_setup_error, form_status
from league.models import Competition
from league.permissions import can_view_competition, is_organiser
from league.setup_errors import SetupError

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
    return redirect(_back(request) or reverse("my_invitations"))


@require_http_methods(["GET", "POST"])
def team_invitation(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    """A team competition's organisers invite another club to enter a team: it is entered once that club's
    organisers accept (the same checks and refusals as the API's)."""
    competition = selectors.competition_by_slugs(club_slug, competition_slug)
    if competition is None or not can_view_competition(request.user, competition):
        raise Http404("No such competition.")
    if not is_organiser(request.user, competition.club_id):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(f"Only organisers of {competition.club.name} invite clubs into its competitions.")
    if competition.entrant_kind != Competition.TEAMS:
        raise Http404("Not a team competition.")
    form = TeamInvitationForm(request.POST or None, competition=competition)
    if request.method == "POST" and form.is_valid():
        club = form.cleaned_data["club"]
        try:
            invitation = invitations.invite(competition=competition, by=request.user, club=club,
                                            team_name=form.cleaned_data["team_name"])
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"{club.name} is invited to enter a team, {invitation.team_name}. It is entered "
                                      f"once {club.name}'s organisers accept; then they or you add its pairs.")
            return redirect("competition_entries", competition.club.slug, competition.slug)
    return render(request, "league/team_invitation.html", {
        "club": competition.club, "competition": competition, "form": form,
    }, status=form_status(form))


@require_POST
@login_required
def invitation_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back an invitation still waiting for an answer (the inviting competition's organisers). Unconfirmed or
    already answered, the invitation is shown again with the reason beside its button."""
    invitation = (invitations.visible_to(request.user)
                  .select_related("competition__club", "club", "partnership__player_one", "partnership__player_two",
                                  "player", "asked_by").filter(pk=pk).first())
    if invitation is None:
        raise Http404("No such invitation.")
    if not invitations.may_cancel(request.user, invitation):
        raise PermissionDenied(f"Only {invitation.competition.club.name}'s organisers may cancel the invitations of "
                               f"{invitation.competition.name}.")
    competition = invitation.competition
    back = _back(request) or reverse("competition_entries", args=[competition.club.slug, competition.slug])
    form, refusal, status = CancelInvitationForm(request.POST), "", 422
    if form.is_valid():
        name, club = invitation.entrant_name, invitation.club.name
        try:
            invitations.cancel(invitation=invitation, by=request.user)
        except SetupError as error:
            refusal, status = f"{error.reason}.", 409 if error.conflict else 422
            invitation.refresh_from_db()
        else:
            messages.success(request, f"The invitation to {name} is cancelled: {club} no longer sees it. You may "
                                      "invite them again later.")
            return redirect(back)
    return render(request, "league/invitation_cancel.html", {
        "invitation": invitation, "cancel_form": form, "refusal": refusal, "cancel_next": back,
    }, status=status)


def _back(request: HttpRequest) -> str:
    """The page the form came from (``next``), when it is this site's."""
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return back
    return ""
