"""Invitations to a club's people: the organisers' page that makes them (a link, a QR code, a WhatsApp message, or a
mail) and lists them with who invited whom; and the page the link opens, where the invited person accepts."""

from __future__ import annotations

from urllib.parse import quote

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league import role_invitations
from league.forms import add_setup_error
from league.models import Club, Competition, InvitedRole, Player, RoleInvitation
from league.qr import qr_svg
from league.setup_errors import SetupError
from league.views_clubs import organiser_page


class RoleInvitationForm(forms.Form):
    role = forms.ChoiceField(label="Invite them to be", choices=InvitedRole.choices, widget=forms.RadioSelect)
    competition = forms.ModelChoiceField(label="Scorekeeper of", queryset=Competition.objects.none(), required=False,
                                         empty_label="every competition of the club")
    player = forms.ModelChoiceField(label="The player record they will claim", queryset=Player.objects.none(),
                                    required=False, empty_label="choose the player")
    email = forms.EmailField(label="Their e-mail address (optional)", required=False,
                             help_text="We mail them the link. Leave it blank to give the link yourself: a QR code "
                                       "or a WhatsApp message.")

    def __init__(self, *args, club: Club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["competition"].queryset = club.competitions.order_by("name")  # type: ignore[attr-defined]
        self.fields["player"].queryset = Player.objects.filter(  # type: ignore[attr-defined]
            home_club=club, user__isnull=True).order_by("name")


def _invitations_page(request: HttpRequest, club: Club, form: RoleInvitationForm | None = None) -> HttpResponse:
    form = form or RoleInvitationForm(club=club)
    invitations = (RoleInvitation.objects.filter(club=club)
                   .select_related("competition", "player", "invited_by", "used_by", "revoked_by")[:100])
    return render(request, "league/role_invitations/list.html", {"club": club, "form": form,
                                                                "invitations": invitations},
                  status=400 if form.errors else 200)


@organiser_page
def invitations(request: HttpRequest, club: Club) -> HttpResponse:
    if request.method != "POST":
        return _invitations_page(request, club)
    form = RoleInvitationForm(request.POST, club=club)
    if form.is_valid():
        try:
            with transaction.atomic():
                invitation = role_invitations.invite(club=club, by=request.user, **form.cleaned_data)
                if invitation.email:
                    role_invitations.send_link(invitation, join_link(request, invitation))
        except SetupError as error:
            add_setup_error(form, error)
        else:
            if invitation.email:
                messages.success(request, f"The invitation is on its way to {invitation.email}.")
            return redirect("club_role_invitation", club.slug, invitation.pk)
    return _invitations_page(request, club, form)


def join_link(request: HttpRequest, invitation: RoleInvitation) -> str:
    return request.build_absolute_uri(reverse("join", args=[invitation.token]))


@organiser_page
def invitation(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    """One invitation: its link to copy, as a QR code to scan, and as a WhatsApp message to send."""
    found = get_object_or_404(RoleInvitation.objects.select_related("competition", "player", "invited_by"),
                              pk=pk, club=club)
    link = join_link(request, found)
    text = f"{request.user.get_username()} invites you to be {found.what} on All Fours League: {link}"
    qr = qr_svg(link, "The invitation's link", scale=5)
    return render(request, "league/role_invitations/invitation.html", {
        "club": club, "invitation": found, "link": link, "qr": qr,
        "whatsapp": f"https://wa.me/?text={quote(text)}"})


@require_POST
@organiser_page
def invitation_revoke(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    found = get_object_or_404(RoleInvitation, pk=pk, club=club)
    try:
        role_invitations.revoke(invitation=found, by=request.user)
    except SetupError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, "The invitation is revoked: its link no longer works.")
    return redirect("club_role_invitations", club.slug)


def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation's link: what it offers, and (logged in) the button that accepts it."""
    try:
        found = role_invitations.usable(token)
    except role_invitations.InvitationUnusable as error:
        return render(request, "league/role_invitations/join.html", {"refusal": error.reason}, status=410)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            role_invitations.accept(token=token, user=request.user)
        except SetupError as error:
            return render(request, "league/role_invitations/join.html", {"refusal": error.reason}, status=409)
        messages.success(request, f"You are now {found.what}.")
        return redirect("club", found.club.slug)
    return render(request, "league/role_invitations/join.html", {"invitation": found})
