"""An organiser's pages for the club itself: a new club, its details, its organisers and its players (made,
edited, linked to a login, merged, deleted). The pages are GETs; each of their forms posts to a view of its own,
which redirects when done or shows the page again with the form's errors. Thin views over ``league.people``."""

from __future__ import annotations

from functools import wraps

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from league import people, player_claims
from league.forms import (
    ClubForm,
    DeletePlayerForm,
    LoginLinkForm,
    MergeForm,
    OrganiserForm,
    PlayerForm,
    add_setup_error,
    form_status,
)
from league.models import Club, ClubRole, Player
from league.pagination import paginate, search, search_text
from league.permissions import is_organiser
from league.setup_errors import SetupError

PLAYERS_PER_PAGE = 50


def organiser_page(view):
    """Resolve the club from the URL and let only its organisers through (a visitor is sent to log in)."""

    @wraps(view)
    def wrapper(request: HttpRequest, club_slug: str, *args, **kwargs) -> HttpResponse:
        club = get_object_or_404(Club, slug=club_slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_organiser(request.user, club):
            raise PermissionDenied(f"Only organisers of {club.name} run its pages.")
        return view(request, club, *args, **kwargs)

    return wrapper


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    """A new club; whoever makes it is its first organiser."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = people.create_club_for(user=request.user, **form.cleaned_data)
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"{club.name} is made: you are its organiser.")
            return redirect("club_people", club.slug)
    return render(request, "league/clubs/club_form.html", {"form": form}, status=form_status(form))


@require_safe  # HEAD too, as before
@organiser_page
def club_people(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's details, its organisers and its players, each with its form (each form posts to a view below)."""
    return _people_page(request, club)


def _people_page(request: HttpRequest, club: Club, **bound: forms.Form) -> HttpResponse:
    """The people page with empty forms, or ``bound`` ones (by the context's name) as the POST left them."""
    shown: dict[str, forms.Form] = {
        "details": ClubForm(initial={"name": club.name, "town": club.town}, prefix="club"),  # three forms on one
        "organiser_form": OrganiserForm(prefix="organiser"),  # page: each its own field ids
        "player_form": PlayerForm(prefix="player"),
        **bound,
    }
    q = search_text(request)
    players = paginate(request, search(Player.objects.filter(home_club=club).select_related("user")
                                       .order_by("name", "id"), q, "name", "nickname"), per_page=PLAYERS_PER_PAGE,
                       path=reverse("club_people", args=[club.slug]))
    organisers = (ClubRole.objects.filter(club=club, role=ClubRole.ORGANISER).select_related("user")
                  .order_by("user__username"))
    return render(request, "league/clubs/people.html", {
        "club": club, **shown, "organisers": organisers, "players": list(players), "page": players, "q": q,
        "claims": player_claims.waiting_at(club.pk),
    }, status=form_status(*shown.values()))


def _refused(form: forms.Form, error: SetupError) -> None:
    """The service's reason next to the form's field; a similar name asks the organiser to confirm."""
    add_setup_error(form, error)
    if isinstance(form, PlayerForm):  # the only form that asks: only a player's name can be like another's
        form.asks_to_confirm = isinstance(error, people.SimilarName)


@require_POST
@organiser_page
def club_save(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's name and town."""
    form = ClubForm(request.POST, prefix="club")
    if form.is_valid():
        try:
            people.edit_club(club=club, **form.cleaned_data)
        except SetupError as error:
            _refused(form, error)
        else:
            messages.success(request, "The club's details are saved.")
            return redirect("club_people", club.slug)
    return _people_page(request, club, details=form)


@require_POST
@organiser_page
def organiser_add(request: HttpRequest, club: Club) -> HttpResponse:
    form = OrganiserForm(request.POST, prefix="organiser")
    if form.is_valid():
        try:
            people.add_organiser(club=club, username=form.cleaned_data["username"])
        except SetupError as error:
            _refused(form, error)
        else:
            messages.success(request, f"{form.cleaned_data['username']} is now an organiser.")
            return redirect("club_people", club.slug)
    return _people_page(request, club, organiser_form=form)


@require_POST
@organiser_page
def organiser_remove(request: HttpRequest, club: Club, user_pk: int) -> HttpResponse:
    """A button with no form of its own: a refusal is a message at the top of the page."""
    try:
        people.remove_organiser(club=club, user_id=user_pk, by=request.user)
    except SetupError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, "The organiser was removed.")
    return redirect("club_people", club.slug)


@require_POST
@organiser_page
def player_add(request: HttpRequest, club: Club) -> HttpResponse:
    form = PlayerForm(request.POST, prefix="player")
    if form.is_valid():
        try:
            made = people.create_player(club=club, **form.values())
        except SetupError as error:
            _refused(form, error)
        else:
            messages.success(request, f"{made.name} is one of the club's players.")
            return redirect("club_people", club.slug)
    return _people_page(request, club, player_form=form)


# ----------------------------------------------------------------------------- one player
def player_page(view):
    """Organisers only (as ``organiser_page``), with the club's player the URL names (else a 404)."""

    @organiser_page
    @wraps(view)
    def wrapper(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
        return view(request, club, get_object_or_404(Player, pk=pk, home_club=club))

    return wrapper


@require_safe  # HEAD too, as before
@player_page
def player_edit(request: HttpRequest, club: Club, player: Player) -> HttpResponse:
    """One player: name and nickname, the login linked, the merge of a duplicate record into it (said in full, then
    confirmed), and the deletion of a record with no result; each form posts to a view below."""
    return _player_page(request, club, player)


def _player_page(request: HttpRequest, club: Club, player: Player, plan: people.MergePlan | None = None,
                 **bound: forms.Form) -> HttpResponse:
    """The player's page with empty forms, or ``bound`` ones (by the context's name) as the POST left them, and the
    merge's ``plan`` to confirm."""
    shown: dict[str, forms.Form] = {
        "details": PlayerForm(initial={"name": player.name, "nickname": player.nickname}),
        "login": LoginLinkForm(initial={"username": player.user.get_username() if player.user else ""}),
        "merge": MergeForm(player=player),
        "delete": DeletePlayerForm(),
        **bound,
    }
    return render(request, "league/clubs/player.html", {
        "club": club, "player": player, **shown, "merge_plan": plan,
        "why_not_deletable": people.why_not_deletable(player),
    }, status=form_status(*shown.values()))


@require_POST
@player_page
def player_save(request: HttpRequest, club: Club, player: Player) -> HttpResponse:
    """The player's name and nickname."""
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            people.edit_player(player=player, **form.values())
        except SetupError as error:
            _refused(form, error)
        else:
            messages.success(request, f"{player.name} is saved.")
            return redirect("club_player", club.slug, player.pk)
    return _player_page(request, club, player, details=form)


@require_POST
@player_page
def player_link_login(request: HttpRequest, club: Club, player: Player) -> HttpResponse:
    form = LoginLinkForm(request.POST)
    if form.is_valid():
        try:
            people.link_login(player=player, username=form.cleaned_data["username"])
        except SetupError as error:
            _refused(form, error)
        else:
            messages.success(request, "The login is linked." if player.user_id else "No login is linked now.")
            return redirect("club_player", club.slug, player.pk)
    return _player_page(request, club, player, login=form)


@require_POST
@player_page
def player_merge_plan(request: HttpRequest, club: Club, player: Player) -> HttpResponse:
    """First what the merge of the duplicate would move, for the organiser to confirm (nothing changes yet)."""
    form = MergeForm(request.POST, player=player)
    plan = None
    if form.is_valid():
        try:
            plan = people.merge_plan(keep=player, duplicate=form.cleaned_data["duplicate"])
        except SetupError as error:
            _refused(form, error)
    return _player_page(request, club, player, plan=plan, merge=form)


@require_POST
@player_page
def player_merge(request: HttpRequest, club: Club, player: Player) -> HttpResponse:
    """The confirmed merge: the duplicate's partnerships, entries and results become the player's."""
    form = MergeForm(request.POST, player=player)
    if form.is_valid():
        duplicate = form.cleaned_data["duplicate"]
        name = duplicate.name
        try:
            people.merge_players(keep=player, duplicate=duplicate)
        except SetupError as error:
            _refused(form, error)
        else:
            messages.success(request, f"{name}'s record is merged into {player.name}: its results are theirs now.")
            return redirect("club_player", club.slug, player.pk)
    return _player_page(request, club, player, merge=form)


@require_POST
@player_page
def player_delete(request: HttpRequest, club: Club, player: Player) -> HttpResponse:
    """Delete a record with no partnership, entry or result (the form's box ticked)."""
    form = DeletePlayerForm(request.POST)
    if form.is_valid():
        try:
            people.delete_player(player=player)
        except SetupError as error:
            _refused(form, error)
        else:
            messages.success(request, f"{player.name}'s record is deleted.")
            return redirect("club_people", club.slug)
    return _player_page(request, club, player, delete=form)
