"""The organiser's setup pages: create and edit a competition (its format, points, byes, tiebreak order,
team settings and rule variants), publish it, and run its entries (add, late entries, seeds, groups,
withdraw, reinstate) and teams. Club organisers only: someone not logged in is sent to log in, a draft is a
404 for everyone else, and otherwise it is a 403.

They combine the domains: the competition and its entries (``league``), the draw's forms and checks (``draw``).
Who may is ``league.views.organiser_view``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from draw.forms_competition import CompetitionForm, PublishForm, SeasonCopyForm
from draw.forms_entries import ArrangeForm, EntryForm, TeamForm
from draw.lifecycle import why_not_deletable
from league import entries as setup
from league import invitations, selectors, services
from league.competition_options import set_published, update_competition
from league.forms import add_setup_error, form_status
from league.models import Club, Competition, Entry, EntryInvitation, InvitationState, Team
from league.pagination import paginate, search, search_text
from league.partnerships import create_partnership
from league.permissions import is_organiser
from league.seeding import arrange
from league.setup_errors import NeedsInvitation, SetupError
from league.teams import create_team, edit_team
from league.views import organiser_view, refuse_competition_page

ENTRY_RELATED = ("partnership__player_one", "partnership__player_two", "partnership__club", "team__club",
                 "player__home_club")


# ----------------------------------------------------------------------------- a competition
@require_http_methods(["GET", "POST"])
def competition_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    if not is_organiser(request.user, club):
        return refuse_competition_page(request, f"Only organisers of {club.name} create its competitions.")
    form = CompetitionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        competition = services.create_competition(club=club, **form.values())
        messages.success(request, f"{competition.name} was created as a draft: enter its entrants, then publish it.")
        return redirect("competition_entries", club.slug, competition.slug)
    return render(request, "pages/setup/competition_form.html", {
        "club": club, "competition": None, "form": form,
    }, status=form_status(form))


@require_http_methods(["GET", "POST"])
@organiser_view
def competition_edit(request: HttpRequest, competition: Competition) -> HttpResponse:
    editing = Competition.objects.select_related("club").get(pk=competition.pk)  # the form changes its instance
    form = CompetitionForm(request.POST or None, instance=editing, club=competition.club)
    if request.method == "POST" and form.is_valid():
        try:
            competition = update_competition(competition=competition, **form.values())
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"{competition.name} was saved.")
            return redirect("competition_edit", competition.club.slug, competition.slug)
    return render(request, "pages/setup/competition_form.html", {
        "club": competition.club, "competition": competition, "form": form,
        "publish_form": PublishForm(initial={"published": not competition.published}),
        "deletable_reason": why_not_deletable(competition),
    }, status=form_status(form))


@organiser_view
def competition_copy(request: HttpRequest, competition: Competition) -> HttpResponse:
    """Copy the competition into a new season; the form again with its error next to the field."""
    form = SeasonCopyForm(request.POST or None, initial={"entrants": True})
    if request.method == "POST" and form.is_valid():
        try:
            new = services.copy_to_new_season(competition=competition, **form.cleaned_data)
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"{new.name} ({new.season}) was made with {new.entries.count()} entrants: a "
                                      "draft until you publish it.")
            return redirect("competition_edit", new.club.slug, new.slug)
    return render(request, "pages/setup/season_copy.html", {
        "club": competition.club, "competition": competition, "form": form,
    }, status=form_status(form))


@require_POST
@organiser_view
def competition_publish(request: HttpRequest, competition: Competition) -> HttpResponse:
    form = PublishForm(request.POST)
    published = form.is_valid() and form.cleaned_data["published"]
    set_published(competition=competition, published=published)
    if published:
        messages.success(request, f"{competition.name} is published: everyone can follow it.")
        for warning in selectors.publishing_warnings(competition):
            messages.warning(request, warning)
    else:
        messages.success(request, f"{competition.name} is a draft again: only the club's organisers see it.")
    return redirect("competition_edit", competition.club.slug, competition.slug)


# ----------------------------------------------------------------------------- entries
ENTRIES_PER_PAGE = 50


def _entries(competition: Competition, text: str = "") -> Any:
    """The competition's entries, seeds first; those whose entrant's name holds ``text`` when given."""
    entries = search(competition.entries.select_related(*ENTRY_RELATED), text, "partnership__name",
                     "partnership__player_one__name", "partnership__player_two__name", "team__name", "player__name")
    return entries.order_by(F("seed").asc(nulls_last=True), "id")


def _listed(request: HttpRequest, competition: Competition) -> tuple[str, Any, list[Entry]]:
    """The search text, the page of the list (``?q=`` and ``?page=``) and its rows: seeds and groups are arranged a
    page at a time."""
    text = search_text(request)
    page = paginate(request, _entries(competition, text), per_page=ENTRIES_PER_PAGE,
                    path=reverse("competition_entries", args=[competition.club.slug, competition.slug]))
    return text, page, list(page)


def _back_to_list(request: HttpRequest, competition: Competition) -> HttpResponse:
    """The same page of the list (the forms post with the list's query)."""
    query = f"?{request.GET.urlencode()}" if request.GET else ""
    return redirect(reverse("competition_entries", args=[competition.club.slug, competition.slug]) + query)


def _add_entry(form: EntryForm, competition: Competition, user: Any) -> Entry | EntryInvitation | None:
    """The entry made, or for another club's partnership or player the invitation sent to that club (it is
    entered once the club or the players accept)."""
    data = form.cleaned_data
    try:
        with transaction.atomic():
            partnership = data.get("partnership")
            if competition.entrant_kind == Competition.PAIRS and partnership is None:
                partnership = create_partnership(
                    club=competition.club, player_one=data["player_one"], player_two=data.get("player_two"),
                    name=data.get("pair_name") or "")
            try:
                with transaction.atomic():
                    return setup.enter(competition=competition, partnership=partnership, team=data.get("team"),
                                       player=data.get("player"), seed=data.get("seed"),
                                       group=data.get("group") or "", division=data.get("division") or "")
            except NeedsInvitation:
                return invitations.invite(competition=competition, by=user, partnership=partnership,
                                          player=data.get("player"))
    except SetupError as error:
        add_setup_error(form, error, {"name": "pair_name"})
        return None


@require_GET
@organiser_view
def competition_entries(request: HttpRequest, competition: Competition) -> HttpResponse:
    """The entrants (seeds, groups and divisions a page at a time, a row's withdraw, reinstate and remove
    buttons) and the form to add one; each form and button posts to a view of its own."""
    return _entries_page(request, competition, _listed(request, competition))


def _entries_page(request: HttpRequest, competition: Competition, listed: tuple[str, Any, list[Entry]],
                  add_form: EntryForm | None = None, arrange_form: ArrangeForm | None = None) -> HttpResponse:
    """The entries page with empty forms, or the one the POST left with its errors."""
    text, page, rows = listed
    add_form = add_form or EntryForm(competition=competition)
    arrange_form = arrange_form or ArrangeForm(entries=rows)
    teams = list(competition.teams.select_related("club").prefetch_related("partnerships__player_one",
                                                                             "partnerships__player_two"))
    return render(request, "pages/setup/entries.html", {
        "club": competition.club, "competition": competition, "rows": rows, "page": page, "q": text,
        "list_query": f"?{request.GET.urlencode()}" if request.GET else "",
        "add_form": add_form, "arrange_form": arrange_form, "next_round": setup.first_unpaired_round(competition),
        "active": competition.entries.filter(withdrawn=False).count(), "teams": teams,
        "invitations": competition.invitations.filter(state=InvitationState.PENDING).select_related(
            "club", "partnership__player_one", "partnership__player_two", "player").order_by("asked_at", "id"),
    }, status=form_status(add_form, arrange_form))


@require_POST
@organiser_view
def entry_add(request: HttpRequest, competition: Competition) -> HttpResponse:
    """Enter a partnership (an existing one or two players), a team or a player; another club's entrant is
    invited instead."""
    form = EntryForm(request.POST, competition=competition)
    if form.is_valid() and (entry := _add_entry(form, competition, request.user)) is not None:
        if isinstance(entry, EntryInvitation):
            messages.success(request, f"{entry.entrant_name} plays for {entry.club.name}: an invitation is sent. "
                                      f"They are entered once {entry.club.name}'s organisers or the players "
                                      "accept.")
        else:
            late = f" (a late entry: it plays from round {entry.joined_round})" if entry.joined_round > 1 else ""
            messages.success(request, f"{entry.display_name} is entered{late}.")
        return redirect("competition_entries", competition.club.slug, competition.slug)
    return _entries_page(request, competition, _listed(request, competition), add_form=form)


@require_POST
@organiser_view
def entries_arrange(request: HttpRequest, competition: Competition) -> HttpResponse:
    """Save the seeds, groups and divisions of the page of the list the form showed."""
    listed = _listed(request, competition)
    form = ArrangeForm(request.POST, entries=listed[2])
    if form.is_valid():
        try:
            changed = arrange(competition=competition, seeds=form.seeds(), groups=form.groups(),
                              divisions=form.divisions())
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"Seeds, groups and divisions saved ({len(changed)} changed).")
            return _back_to_list(request, competition)
    return _entries_page(request, competition, listed, arrange_form=form)


@require_POST
@organiser_view
def entry_withdraw(request: HttpRequest, competition: Competition, entry_pk: int) -> HttpResponse:
    return _change_entry(request, competition, entry_pk, setup.withdraw, "has withdrawn; its results stand")


@require_POST
@organiser_view
def entry_reinstate(request: HttpRequest, competition: Competition, entry_pk: int) -> HttpResponse:
    return _change_entry(request, competition, entry_pk, setup.reinstate,
                         "is back in: it is paired from the next round")


@require_POST
@organiser_view
def entry_remove(request: HttpRequest, competition: Competition, entry_pk: int) -> HttpResponse:
    return _change_entry(request, competition, entry_pk, setup.remove_entry, "was taken off the entries")


def _change_entry(request: HttpRequest, competition: Competition, entry_pk: int,
                  operation: Callable[..., Any], done: str) -> HttpResponse:
    """A row's button: the operation on the entry, its outcome in a message, back on the same page of the list."""
    entry = competition.entries.select_related(*ENTRY_RELATED).filter(pk=entry_pk).first()
    if entry is None:
        raise Http404("No such entry.")
    name = entry.display_name
    try:
        operation(entry=entry)
    except SetupError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, f"{name} {done}.")
    return _back_to_list(request, competition)


# ----------------------------------------------------------------------------- teams
def _team_pairs(form: TeamForm, competition: Competition) -> list:
    pairs = list(form.cleaned_data.get("partnerships") or [])
    one = form.cleaned_data.get("player_one")
    if one is not None:
        pairs.append(create_partnership(club=form.cleaned_data.get("club") or competition.club,
                                        player_one=one, player_two=form.cleaned_data.get("player_two")))
    return pairs


@require_http_methods(["GET", "POST"])
@organiser_view
def team_create(request: HttpRequest, competition: Competition) -> HttpResponse:
    if competition.entrant_kind != Competition.TEAMS:
        raise Http404("Not a team competition.")
    form = TeamForm(request.POST or None, competition=competition)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                data = form.cleaned_data
                team = create_team(competition=competition, name=data["name"], club=data.get("club"),
                                   partnerships=_team_pairs(form, competition), seed=data.get("seed"),
                                   group=data.get("group") or "", division=data.get("division") or "")
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"{team.name} is entered with {team.partnerships.count()} pairs.")
            return redirect("competition_entries", competition.club.slug, competition.slug)
    return render(request, "pages/setup/team_form.html", {
        "club": competition.club, "competition": competition, "team": None, "form": form,
    }, status=form_status(form))


@require_http_methods(["GET", "POST"])
@organiser_view
def team_edit(request: HttpRequest, competition: Competition, team_pk: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.select_related("club"), pk=team_pk, competition=competition)
    form = TeamForm(request.POST or None, competition=competition, team=team)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                edit_team(team=team, name=form.cleaned_data["name"], club=form.cleaned_data.get("club"),
                          partnerships=_team_pairs(form, competition))
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"{team.name} was saved.")
            return redirect("competition_entries", competition.club.slug, competition.slug)
    return render(request, "pages/setup/team_form.html", {
        "club": competition.club, "competition": competition, "team": team, "form": form,
    }, status=form_status(form))


