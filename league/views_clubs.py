"""An organiser's pages for the club itself: a new club, its details, its organisers and its players (made,
edited, linked to a login, merged). Thin views over ``league.people``."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from league import people
from league.entries import SetupError
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


@organiser_page
def club_people(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's details, its organisers and its players, each with its form."""
    action = request.POST.get("action") if request.method == "POST" else None
    details = ClubForm(request.POST if action == "club" else None, initial={"name": club.name, "town": club.town},
                       prefix="club")  # three forms on one page: each its own field ids
    organiser = OrganiserForm(request.POST if action == "organiser" else None, prefix="organiser")
    player = PlayerForm(request.POST if action == "player" else None, prefix="player")
    done = _act(request, club, action, details, organiser, player)
    if done is not None:
        return done
    q = search_text(request)
    players = paginate(request, search(Player.objects.filter(home_club=club).select_related("user")
                                       .order_by("name", "id"), q, "name", "nickname"), per_page=PLAYERS_PER_PAGE)
    organisers = (ClubRole.objects.filter(club=club, role=ClubRole.ORGANISER).select_related("user")
                  .order_by("user__username"))
    return render(request, "league/clubs/people.html", {
        "club": club, "details": details, "organiser_form": organiser, "player_form": player,
        "organisers": organisers, "players": list(players), "page": players, "q": q,
    }, status=form_status(details, organiser, player))


def _act(request, club, action, details, organiser, player) -> HttpResponse | None:
    try:
        if action == "club" and details.is_valid():
            people.edit_club(club=club, **details.cleaned_data)
            messages.success(request, "The club's details are saved.")
        elif action == "organiser" and organiser.is_valid():
            people.add_organiser(club=club, username=organiser.cleaned_data["username"])
            messages.success(request, f"{organiser.cleaned_data['username']} is now an organiser.")
        elif action == "remove_organiser":
            people.remove_organiser(club=club, user_id=_int(request.POST.get("user")), by=request.user)
            messages.success(request, "The organiser was removed.")
        elif action == "player" and player.is_valid():
            made = people.create_player(club=club, **player.values())
            messages.success(request, f"{made.name} is one of the club's players.")
        else:
            return None
    except SetupError as error:
        form = {"club": details, "organiser": organiser, "player": player}.get(action)
        if form is None:  # a button with no form of its own (remove): the reason at the top of the page
            messages.error(request, error.reason)
            return redirect("club_people", club.slug)
        add_setup_error(form, error)
        form.asks_to_confirm = isinstance(error, people.SimilarName)
        return None
    return redirect("club_people", club.slug)


def _int(text: str | None) -> int:
    return int(text) if text is not None and text.isdigit() else 0


@organiser_page
def player_edit(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    """One player: name and nickname, the login linked, the merge of a duplicate record into it (said in full, then
    confirmed), and the deletion of a record with no result."""
    player = get_object_or_404(Player, pk=pk, home_club=club)
    action = request.POST.get("action") if request.method == "POST" else None
    details = PlayerForm(request.POST if action == "details" else None,
                         initial={"name": player.name, "nickname": player.nickname})
    login = LoginLinkForm(request.POST if action == "login" else None,
                          initial={"username": player.user.get_username() if player.user else ""})
    merge = MergeForm(request.POST if action in ("merge", "merge_confirm") else None, player=player)
    delete = DeletePlayerForm(request.POST if action == "delete" else None)
    plan = None
    try:
        if action == "details" and details.is_valid():
            people.edit_player(player=player, **details.values())
            messages.success(request, f"{player.name} is saved.")
            return redirect("club_player", club.slug, player.pk)
        if action == "login" and login.is_valid():
            people.link_login(player=player, username=login.cleaned_data["username"])
            messages.success(request, "The login is linked." if player.user_id else "No login is linked now.")
            return redirect("club_player", club.slug, player.pk)
        if action == "merge" and merge.is_valid():  # first what would move, to confirm
            plan = people.merge_plan(keep=player, duplicate=merge.cleaned_data["duplicate"])
        if action == "merge_confirm" and merge.is_valid():
            duplicate = merge.cleaned_data["duplicate"]
            name = duplicate.name
            people.merge_players(keep=player, duplicate=duplicate)
            messages.success(request, f"{name}'s record is merged into {player.name}: its results are theirs now.")
            return redirect("club_player", club.slug, player.pk)
        if action == "delete" and delete.is_valid():
            people.delete_player(player=player)
            messages.success(request, f"{player.name}'s record is deleted.")
            return redirect("club_people", club.slug)
    except SetupError as error:
        form = {"details": details, "login": login, "merge": merge, "merge_confirm": merge, "delete": delete}[
            action or ""]  # an error comes from one of these actions
        add_setup_error(form, error)
        form.asks_to_confirm = isinstance(error, people.SimilarName)  # type: ignore[attr-defined]  # for the template
    return render(request, "league/clubs/player.html", {
        "club": club, "player": player, "details": details, "login": login, "merge": merge, "merge_plan": plan,
        "delete": delete, "why_not_deletable": people.why_not_deletable(player),
    }, status=form_status(details, login, merge, delete))

