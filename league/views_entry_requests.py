"""Entering a competition open for entries: the entrants' page (ask with a partner, confirm or decline as the partner,
withdraw; each request's state and steps) and the organiser's (the window: open, deadline, cap, approval; the
requests to approve or refuse, the waiting list in order, who did what and when)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from league import entry_requests
from league.entry_request_models import MAX_CAP, EntryRequest, EntryRequestState
from league.forms import add_setup_error
from league.models import Competition, Partnership, Player
from league.permissions import can_view_competition, is_organiser
from league.selectors import competition_by_slugs
from league.setup_errors import SetupError
from league.views import organiser_view

State = EntryRequestState


class AskForm(forms.Form):
    partner = forms.ModelChoiceField(label="Your partner", queryset=Player.objects.none(), required=False,
                                     empty_label="Choose your partner",
                                     help_text="A player of the club with an account: they confirm before you are "
                                               "entered.")

    team_name = forms.CharField(label="Your team's name", max_length=120, required=False)
    pairs = forms.ModelMultipleChoiceField(label="Its pairs", queryset=Partnership.objects.none(), required=False,
                                           widget=forms.CheckboxSelectMultiple,
                                           help_text="The club's pairs who play for the team, one a table at least.")

    def __init__(self, *args: Any, partners: Any = None, pairs: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if partners is None:
            del self.fields["partner"]
        else:
            partner = self.fields["partner"]
            assert isinstance(partner, forms.ModelChoiceField)
            partner.queryset = partners
        if pairs is None:
            del self.fields["team_name"], self.fields["pairs"]
        else:
            chosen = self.fields["pairs"]
            assert isinstance(chosen, forms.ModelMultipleChoiceField)
            chosen.queryset = pairs


class WindowForm(forms.Form):
    is_open = forms.BooleanField(label="Open for entries: players enter themselves", required=False)
    closes_at = forms.DateTimeField(label="Deadline", required=False, input_formats=["%Y-%m-%dT%H:%M"],
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                               format="%Y-%m-%dT%H:%M"),
                                    help_text="Blank: until you close them.")
    cap = forms.IntegerField(label="The most entrants", required=False, min_value=2, max_value=MAX_CAP,
                             help_text="Blank: no cap. Those who enter later go on the waiting list.",
                             widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    needs_approval = forms.BooleanField(label="I approve each entry", required=False)


def _visible_competition(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The competition of the URL's slugs, as its public page shows it (404 when that would)."""

    @wraps(view)
    def wrapper(request: HttpRequest, club_slug: str, competition_slug: str, **kwargs: Any) -> HttpResponse:
        competition = competition_by_slugs(club_slug, competition_slug)
        if competition is None or not can_view_competition(request.user, competition):
            raise Http404("No such competition.")
        return view(request, competition, **kwargs)

    return wrapper


# ----------------------------------------------------------------------------- the entrants
def _entering_page(request: HttpRequest, competition: Competition, form: AskForm | None = None) -> HttpResponse:
    window = entry_requests.window_of(competition)
    player = entry_requests.player_of(request.user, competition)
    mine = entry_requests.mine(competition, request.user)
    current = next((r for r in mine if r.is_live), None)
    waiting = entry_requests.waiting_list(competition)
    place = next((n for n, r in enumerate(waiting, 1) if current and r.pk == current.pk), None)
    can_ask = bool(window and window.taking_entries and player and not any(r.is_live for r in mine))
    if can_ask and form is None:
        form = _ask_form(competition, player)
    return render(request, "league/entering/enter.html", {
        "competition": competition, "club": competition.club, "window": window, "player": player,
        "current": current, "place": place, "earlier": [r for r in mine if not r.is_live],
        "form": form if can_ask or (form is not None and form.errors) else None,
        "places_left": entry_requests.places_left(competition, window),
        "entered": competition.entries.filter(withdrawn=False).count(),
        "waiting": waiting,
        "organiser": is_organiser(request.user, competition.club_id)},
        status=400 if form is not None and form.errors else 200)


def _ask_form(competition: Competition, player: Player | None, data: Any = None) -> AskForm:
    teams = entry_requests.takes_teams(competition)
    partners = (entry_requests.partners_for(competition, player)
                if player and entry_requests.needs_partner(competition) and not teams else None)
    return AskForm(data, partners=partners, pairs=entry_requests.pairs_for(competition) if teams else None)


@_visible_competition
def entering(request: HttpRequest, competition: Competition) -> HttpResponse:
    return _entering_page(request, competition)


@require_POST
@_visible_competition
def entering_ask(request: HttpRequest, competition: Competition) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(_page(competition))
    form = _ask_form(competition, entry_requests.player_of(request.user, competition), request.POST)
    if form.is_valid():
        try:
            asked = entry_requests.ask(competition=competition, user=request.user,
                                       partner=form.cleaned_data.get("partner"),
                                       team_name=form.cleaned_data.get("team_name") or "",
                                       pairs=form.cleaned_data.get("pairs") or ())
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, _told(asked))
            return redirect(_page(competition))
    return _entering_page(request, competition, form)


def _answer(operation: Callable[..., EntryRequest]) -> Callable[..., HttpResponse]:
    """A button of one request on the entrants' page: the operation as the user, its outcome in a message."""

    @require_POST
    @_visible_competition
    @wraps(operation)
    def view(request: HttpRequest, competition: Competition, request_pk: int) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(_page(competition))
        entry_request = get_object_or_404(EntryRequest, pk=request_pk, competition=competition)
        try:
            done = operation(request=entry_request, user=request.user)
        except SetupError as error:
            messages.error(request, error.reason)
            return redirect(_page(competition))
        messages.success(request, _told(done))
        return redirect(_page(competition))

    return view


entering_confirm = _answer(entry_requests.confirm)
entering_decline = _answer(entry_requests.decline)
entering_withdraw = _answer(entry_requests.withdraw)


def _told(request: EntryRequest) -> str:
    return f"{request.names}: {request.get_state_display()}."


def _page(competition: Competition) -> str:
    return reverse("competition_entering", args=[competition.club.slug, competition.slug])


# ----------------------------------------------------------------------------- the organiser
def _requests_page(request: HttpRequest, competition: Competition, form: WindowForm | None = None) -> HttpResponse:
    window = entry_requests.window_of(competition)
    if form is None:
        form = WindowForm(initial={
            "is_open": window.is_open if window else False, "cap": window.cap if window else None,
            "needs_approval": window.needs_approval if window else False,
            "closes_at": timezone.localtime(window.closes_at) if window and window.closes_at else None})
    found = list(entry_requests.requests_of(competition))
    return render(request, "league/entering/requests.html", {
        "competition": competition, "club": competition.club, "window": window, "form": form,
        "to_approve": [r for r in found if r.state == State.ASKED],
        "to_confirm": [r for r in found if r.state == State.PARTNER_TO_CONFIRM],
        "waiting": entry_requests.waiting_list(competition),
        "entered": [r for r in found if r.state == State.APPROVED],
        "closed": [r for r in found if not r.is_live],
        "places_left": entry_requests.places_left(competition, window)},
        status=400 if form.errors else 200)


@organiser_view
def entry_requests_page(request: HttpRequest, competition: Competition) -> HttpResponse:
    if request.method != "POST":
        return _requests_page(request, competition)
    form = WindowForm(request.POST)
    if form.is_valid():
        try:
            window = entry_requests.open_entries(competition=competition, by=request.user, **form.cleaned_data)
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, "Entries are open." if window.taking_entries else
                             "Entries are closed." if not window.is_open else "Saved: the deadline has passed.")
            return redirect("competition_entry_requests", competition.club.slug, competition.slug)
    return _requests_page(request, competition, form)


def _organiser_answer(operation: Callable[..., EntryRequest]) -> Callable[..., HttpResponse]:
    @require_POST
    @organiser_view
    @wraps(operation)
    def view(request: HttpRequest, competition: Competition, request_pk: int) -> HttpResponse:
        entry_request = get_object_or_404(EntryRequest, pk=request_pk, competition=competition)
        try:
            done = operation(request=entry_request, by=request.user)
        except SetupError as error:
            messages.error(request, error.reason)
        else:
            messages.success(request, _told(done))
        return redirect("competition_entry_requests", competition.club.slug, competition.slug)

    return view


entry_request_approve = _organiser_answer(entry_requests.approve)
entry_request_refuse = _organiser_answer(entry_requests.refuse)


def _withdraw_by_organiser(*, request: EntryRequest, by: Any) -> EntryRequest:
    return entry_requests.withdraw(request=request, user=by)


entry_request_withdraw = _organiser_answer(_withdraw_by_organiser)
