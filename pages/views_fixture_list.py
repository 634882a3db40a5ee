"""The organiser's fixture list of a competition whose fixtures are set by hand: its rounds with their fixtures
and byes, and the forms to add a round, a fixture or a bye, change a round's date or name, publish a draft
round, and take off a fixture without a result or a bye — each form and button posting to a view of its own.
Every write goes through ``draw.fixtures`` (and ``draw.publishing``); its errors land next to the field they
name, on the page shown again."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from draw import fixtures, public_rounds, publishing
from draw.forms_fixtures import FIXTURE_SIDES, ByeForm, FixtureForm, RoundEditForm, RoundForm, active_entries
from draw.models import Bye, Round
from engine.errors import FieldError
from games.models import Match, TeamMatch
from league.forms import add_setup_error, form_status
from league.models import Competition
from league.views import organiser_view


def _manual_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Organisers only, and only for a competition whose fixtures are set by hand (else a 404)."""

    @organiser_view
    @wraps(view)
    def wrapper(request: HttpRequest, competition: Competition, **kwargs: Any) -> HttpResponse:
        if competition.system != Competition.MANUAL or competition.entrant_kind == Competition.INDIVIDUAL:
            raise Http404("The rounds of this competition are paired, not set by hand.")
        return view(request, competition, **kwargs)

    return wrapper


@require_GET
@_manual_only
def fixture_list(request: HttpRequest, competition: Competition) -> HttpResponse:
    return _page(request, competition)


def _page(request: HttpRequest, competition: Competition, bound: dict[str, Any] | None = None,
          edited: RoundEditForm | None = None) -> HttpResponse:
    """The fixture list with its forms: empty ones, or ``bound`` (by the context's name) and ``edited`` (a round's
    date and name) as the POST left them, with their errors."""
    rounds = list(competition.rounds.order_by("number"))
    entries = active_entries(competition)
    last = rounds[-1] if rounds else None
    forms: dict[str, Any] = {
        "round_form": RoundForm(prefix="round", initial={"number": fixtures.next_round_number(competition)}),
        "fixture_form": FixtureForm(prefix="fixture", competition=competition, entries=entries, last_round=last),
        "bye_form": ByeForm(prefix="bye", competition=competition, entries=entries, last_round=last),
        **(bound or {}),
    }
    edit_forms = {r.number: RoundEditForm(prefix=_edit_prefix(r.number), initial={"starts_on": r.starts_on,
                                                                                   "name": r.name}) for r in rounds}
    if edited is not None:
        edit_forms = {number: edited if form.prefix == edited.prefix else form for number, form in edit_forms.items()}
    page_rounds = public_rounds.results_by_round(rounds)
    for item in page_rounds:
        item.edit_form = edit_forms[item.round.number]  # type: ignore[attr-defined]  # for the template
    return render(request, "pages/setup/fixtures.html", {
        "club": competition.club, "competition": competition, "rounds": page_rounds, "entries": len(entries),
        **forms,
    }, status=form_status(*forms.values(), *edit_forms.values()))


def _edit_prefix(number: int) -> str:
    return f"edit-{number}"


def _back(competition: Competition) -> HttpResponse:
    return redirect("competition_fixture_list", competition.club.slug, competition.slug)


# ----------------------------------------------------------------------------- the forms: done, or the page again
@require_POST
@_manual_only
def add_round(request: HttpRequest, competition: Competition) -> HttpResponse:
    form = RoundForm(request.POST, prefix="round")
    if form.is_valid() and _done(form, fixtures.add_round, competition, form.cleaned_data["number"],
                                 starts_on=form.cleaned_data["starts_on"], name=form.cleaned_data["name"],
                                 draft=form.cleaned_data["draft"]):
        messages.success(request, "Round added." if not form.cleaned_data["draft"]
                         else "Round added as a draft: publish it when its fixtures are in.")
        return _back(competition)
    return _page(request, competition, bound={"round_form": form})


@require_POST
@_manual_only
def add_fixture(request: HttpRequest, competition: Competition) -> HttpResponse:
    form = FixtureForm(request.POST, prefix="fixture", competition=competition, entries=active_entries(competition))
    if form.is_valid() and (made := _done(form, fixtures.add_fixture, form.cleaned_data["round"],
                                          form.cleaned_data["entry_a"], form.cleaned_data["entry_b"],
                                          venue=form.cleaned_data["venue"],
                                          scheduled_at=form.cleaned_data["scheduled_at"])):
        messages.success(request, f"{made} added to {form.cleaned_data['round']}.")
        return _back(competition)
    return _page(request, competition, bound={"fixture_form": form})


@require_POST
@_manual_only
def add_bye(request: HttpRequest, competition: Competition) -> HttpResponse:
    form = ByeForm(request.POST, prefix="bye", competition=competition, entries=active_entries(competition))
    if form.is_valid() and _done(form, fixtures.add_bye, form.cleaned_data["round"], form.cleaned_data["entry"]):
        messages.success(request, f"{form.cleaned_data['entry'].display_name} has a bye in "
                                  f"{form.cleaned_data['round']}.")
        return _back(competition)
    return _page(request, competition, bound={"bye_form": form})


@require_POST
@_manual_only
def edit_round(request: HttpRequest, competition: Competition, number: int) -> HttpResponse:
    """Change a round's date or name."""
    round_ = _round(competition, number)
    form = RoundEditForm(request.POST, prefix=_edit_prefix(number))
    if form.is_valid() and _done(form, fixtures.edit_round, round_, **form.cleaned_data):
        messages.success(request, f"{round_} saved.")
        return _back(competition)
    return _page(request, competition, edited=form)


# ----------------------------------------------------------------------------- the buttons without a form
def _one_click(view: Callable[..., None]) -> Callable[..., HttpResponse]:
    """A button without a form of its own: POST only, organisers only; the view says what it did in a message (the
    operation's refusal becomes an error message) and the organiser is back on the fixture list."""

    @require_POST
    @_manual_only
    @wraps(view)
    def wrapper(request: HttpRequest, competition: Competition, **kwargs: Any) -> HttpResponse:
        try:
            view(request, competition, **kwargs)
        except FieldError as error:
            messages.error(request, error.reason)
        return _back(competition)

    return wrapper


@_one_click
def publish_round(request: HttpRequest, competition: Competition, number: int) -> None:
    round_ = _round(competition, number)
    publishing.publish_round(round_, request.user)
    messages.success(request, publishing.published_message(round_))


@_one_click
def unpublish_round(request: HttpRequest, competition: Competition, number: int) -> None:
    round_ = _round(competition, number)
    publishing.unpublish_round(round_, request.user)
    messages.success(request, f"{round_} is a draft again: only organisers see it.")


@_one_click
def remove_fixture(request: HttpRequest, competition: Competition, fixture_pk: int) -> None:
    """Take off a fixture without a result."""
    model = TeamMatch if competition.entrant_kind == Competition.TEAMS else Match
    fixture = model.objects.filter(competition=competition, pk=fixture_pk).first()
    if fixture is None:
        raise Http404("No such fixture.")
    name = str(fixture)
    fixtures.remove_fixture(fixture)
    messages.success(request, f"{name} was taken off the list.")


@_one_click
def remove_bye(request: HttpRequest, competition: Competition, bye_pk: int) -> None:
    bye = (Bye.objects.filter(round__competition=competition, pk=bye_pk)
           .select_related("round", "entry__partnership", "entry__team").first())
    if bye is None:
        raise Http404("No such bye.")
    fixtures.remove_bye(bye)
    messages.success(request, f"{bye.entry.display_name} no longer has a bye in {bye.round}.")


def _done(form, operation, *args, **kwargs):
    """The operation's result, or None with its error next to the form's field."""
    try:
        return operation(*args, **kwargs)
    except FieldError as error:  # the draw's RoundError, or games' EntryError from making the match
        add_setup_error(form, error, FIXTURE_SIDES)
    return None


def _round(competition: Competition, number: int) -> Round:
    found = competition.rounds.filter(number=number).first()
    if found is None:
        raise Http404("No such round.")
    return found
