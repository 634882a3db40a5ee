"""A round's clock: its reading as JSON for every page that shows it (the scoresheet, the entry page, the big
screen; ``static/js/round-clock.js`` counts down between readings), and the organiser's buttons on the round's
page (set the limit and the rule at time up, start, pause, resume, extend for all or one table, take it away)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from draw import round_clock
from draw.clock_models import MAX_MINUTES, TimeUpRule
from draw.errors import RoundError
from draw.models import Round
from draw.round_clock import MAX_EXTENSION
from draw.views import round_action
from games.models import Match
from league.models import Competition
from league.permissions import can_view_competition, is_organiser
from league.selectors import competition_by_slugs


class ClockForm(forms.Form):
    minutes = forms.IntegerField(label="Time limit (minutes)", min_value=1, max_value=MAX_MINUTES,
                                 error_messages={"required": "Give the round's time limit in minutes."})
    at_time_up = forms.ChoiceField(label="At time up", choices=TimeUpRule.choices, initial=TimeUpRule.FINISH_HAND)


class ExtendForm(forms.Form):
    minutes = forms.IntegerField(label="Add (minutes)", min_value=1, max_value=MAX_EXTENSION,
                                 error_messages={"required": "Give the minutes to add."})
    match = forms.IntegerField(required=False)


@require_GET
def clock_reading(request: HttpRequest, club_slug: str, competition_slug: str, number: int) -> JsonResponse:
    """The clock now (for one table with ``?match=<id>``): what a visitor may see of the round, else 404."""
    competition = competition_by_slugs(club_slug, competition_slug)
    if competition is None or not can_view_competition(request.user, competition):
        raise Http404("No such competition.")
    round_ = competition.rounds.filter(number=number).first()
    if round_ is None or not (round_.is_published or is_organiser(request.user, competition.club_id)):
        raise Http404("No such round.")
    match = None
    if (request.GET.get("match") or "").isdecimal():
        match = Match.objects.filter(pk=int(request.GET["match"]), round=round_).first()
    response = JsonResponse(round_clock.reading(round_clock.clock_of(round_), match).as_json())
    response["Cache-Control"] = "no-store"
    return response


def _valid(form: forms.Form) -> dict:
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise RoundError(field, str(errors[0]))
    return form.cleaned_data


def _clock(round_: Round):
    clock = round_clock.clock_of(round_)
    if clock is None:
        raise RoundError("clock", f"{round_} has no clock: set its time limit first")
    return clock


@round_action
def clock_set(request: HttpRequest, competition: Competition, round_: Round) -> None:
    data = _valid(ClockForm(request.POST))
    clock = round_clock.set_clock(round_=round_, minutes=data["minutes"], at_time_up=data["at_time_up"])
    messages.success(request, f"{round_}: {clock.minutes} minutes; at time up, {clock.get_at_time_up_display()}.")


@round_action
def clock_start(request: HttpRequest, competition: Competition, round_: Round) -> None:
    round_clock.start(clock=_clock(round_))
    messages.success(request, "The clock is running.")


@round_action
def clock_pause(request: HttpRequest, competition: Competition, round_: Round) -> None:
    round_clock.pause(clock=_clock(round_))
    messages.success(request, "The clock is paused.")


@round_action
def clock_resume(request: HttpRequest, competition: Competition, round_: Round) -> None:
    round_clock.resume(clock=_clock(round_))
    messages.success(request, "The clock is running again.")


@round_action
def clock_extend(request: HttpRequest, competition: Competition, round_: Round) -> None:
    data = _valid(ExtendForm(request.POST))
    match = None
    if data.get("match"):
        match = Match.objects.filter(pk=data["match"], round=round_).first()
        if match is None:
            raise RoundError("match", "that match is not in this round")
    round_clock.extend(clock=_clock(round_), minutes=data["minutes"], match=match)
    where = match.table_label or f"{match.side_a_name} v {match.side_b_name}" if match else "every table"
    messages.success(request, f"{data['minutes']} minutes added for {where}.")


@round_action
def clock_reset(request: HttpRequest, competition: Competition, round_: Round) -> None:
    round_clock.reset(clock=_clock(round_))
    messages.success(request, f"{round_} has no clock now.")
