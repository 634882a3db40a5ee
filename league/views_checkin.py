"""Check-in on the night: the organiser's list at phone width (require check-in with a cut-off, tap entrants in and
out, close early, then pair those present), the projector's list (large, live), the venue's QR code and a player's
own check-in (by the code, or a tap on My matches)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from league import checkins
from league.checkin_models import AbsentAs, CheckInHow, CheckInWindow
from league.entries import first_unpaired_round
from league.forms import add_setup_error
from league.models import Competition, Entry
from league.permissions import can_view_competition
from league.qr import qr_svg
from league.selectors import competition_by_slugs
from league.setup_errors import SetupError
from league.views import organiser_view


class RequireForm(forms.Form):
    closes_at = forms.DateTimeField(label="Cut-off", input_formats=["%Y-%m-%dT%H:%M"],
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                               format="%Y-%m-%dT%H:%M"),
                                    help_text="Those not checked in by then are not paired in this round.")
    absent_as = forms.ChoiceField(label="The absent", choices=AbsentAs.choices, initial=AbsentAs.SITS_OUT,
                                  widget=forms.RadioSelect)


def _board_url(competition: Competition) -> str:
    return reverse("competition_check_in", args=[competition.club.slug, competition.slug])


def _venue_link(request: HttpRequest, window: CheckInWindow) -> str:
    return request.build_absolute_uri(reverse("venue_check_in", args=[window.venue_token]))


def _organiser_page(request: HttpRequest, competition: Competition, form: RequireForm | None = None) -> HttpResponse:
    number = first_unpaired_round(competition)
    window = checkins.window_for(competition, number)
    if form is None:
        soon = timezone.localtime(window.closes_at if window else timezone.now() + timedelta(minutes=30))
        form = RequireForm(initial={"closes_at": soon.replace(second=0, microsecond=0),
                                    "absent_as": window.absent_as if window else AbsentAs.SITS_OUT})
    context: dict[str, Any] = {"competition": competition, "club": competition.club, "number": number,
                               "window": window, "form": form}
    if window is not None:
        link = _venue_link(request, window)
        context.update(board=checkins.board(window), venue_link=link,
                       qr=qr_svg(link, "Check in at the venue", scale=4, omitsize=True))
    return render(request, "league/checkin/organiser.html", context, status=400 if form.errors else 200)


@organiser_view
def check_in_page(request: HttpRequest, competition: Competition) -> HttpResponse:
    if request.method != "POST":
        return _organiser_page(request, competition)
    form = RequireForm(request.POST)
    if form.is_valid():
        try:
            window = checkins.require_check_in(competition=competition, by=request.user, **form.cleaned_data)
        except SetupError as error:
            add_setup_error(form, error)
        else:
            messages.success(request, f"Round {window.round_number} requires check-in until "
                                      f"{timezone.localtime(window.closes_at):%H:%M}.")
            return redirect(_board_url(competition))
    return _organiser_page(request, competition, form)


def _coming(competition: Competition) -> CheckInWindow:
    window = checkins.coming_window(competition)
    if window is None:
        raise Http404("The next round does not require check-in.")
    return window


def _done(request: HttpRequest, competition: Competition, operation: Any, message: str, **kwargs: Any
          ) -> HttpResponse:
    try:
        operation(**kwargs)
    except SetupError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, message)
    return redirect(_board_url(competition))


@require_POST
@organiser_view
def check_in_close(request: HttpRequest, competition: Competition) -> HttpResponse:
    window = _coming(competition)
    return _done(request, competition, checkins.close_now, "Check-in is closed: pair the round with those present.",
                 window=window)


@require_POST
@organiser_view
def check_in_drop(request: HttpRequest, competition: Competition) -> HttpResponse:
    window = _coming(competition)
    return _done(request, competition, checkins.drop_check_in,
                 f"Round {window.round_number} no longer requires check-in.", window=window)


@require_POST
@organiser_view
def check_in_tap(request: HttpRequest, competition: Competition, entry_pk: int) -> HttpResponse:
    window = _coming(competition)
    entry = get_object_or_404(Entry, pk=entry_pk, competition=competition)
    response = _done(request, competition, checkins.check_in, f"{entry.display_name} is in.", window=window,
                     entry=entry, by=request.user, how=CheckInHow.ORGANISER)
    response["Location"] += f"#entry-{entry.pk}"
    return response


@require_POST
@organiser_view
def check_in_untap(request: HttpRequest, competition: Competition, entry_pk: int) -> HttpResponse:
    window = _coming(competition)
    entry = get_object_or_404(Entry, pk=entry_pk, competition=competition)
    response = _done(request, competition, checkins.check_out, f"{entry.display_name} is out again.",
                     window=window, entry=entry)
    response["Location"] += f"#entry-{entry.pk}"
    return response


# ----------------------------------------------------------------------------- the projector
def check_in_screen(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = competition_by_slugs(club_slug, competition_slug)
    if competition is None or not can_view_competition(request.user, competition):
        raise Http404("No such competition.")
    window = checkins.coming_window(competition)
    return render(request, "league/checkin/screen.html", {
        "competition": competition, "club": competition.club, "window": window,
        "board": checkins.board(window) if window else None})


# ----------------------------------------------------------------------------- the players
def venue_check_in(request: HttpRequest, token: str) -> HttpResponse:
    """The venue's QR code: a page with one big button (a GET checks nobody in: a scanner or a preview would)."""
    window = (CheckInWindow.objects.select_related("competition__club").filter(venue_token=token).first())
    if window is None:
        return render(request, "league/checkin/venue.html", {"unknown": True}, status=404)
    competition = window.competition
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            made = checkins.check_in_myself(window=window, user=request.user, how=CheckInHow.VENUE)
        except SetupError as error:
            messages.error(request, error.reason)
        else:
            messages.success(request, f"{made.entry.display_name}: you are in for round {window.round_number}.")
        return redirect(request.get_full_path())
    entry = checkins.entry_of(competition, request.user)
    checked = entry is not None and window.check_ins.filter(entry=entry).exists()
    return render(request, "league/checkin/venue.html", {
        "window": window, "competition": competition, "club": competition.club, "entry": entry,
        "checked": checked})


@require_POST
def check_in_myself(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    """A tap on My matches: the user's entry checks in for the next round."""
    competition = competition_by_slugs(club_slug, competition_slug)
    if competition is None or not can_view_competition(request.user, competition):
        raise Http404("No such competition.")
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("my_matches"))
    window = checkins.coming_window(competition)
    if window is None:
        messages.error(request, f"{competition.name}'s next round does not require check-in.")
    else:
        try:
            made = checkins.check_in_myself(window=window, user=request.user)
        except SetupError as error:
            messages.error(request, error.reason)
        else:
            messages.success(request, f"{made.entry.display_name}: you are in for round {window.round_number} of "
                                      f"{competition.name}.")
    return redirect("my_matches")
