"""The organiser's fixture list of a competition whose fixtures are set by hand: its rounds with their fixtures
and byes, and the forms to add a round, a fixture or a bye, change a round's date or name, publish a draft
round, and take off a fixture without a result or a bye. Every write goes through ``draw.fixtures`` (and
``draw.publishing``); its errors land next to the field they name."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from draw import fixtures, publishing
from draw import selectors as round_selectors
from draw.forms_fixtures import FIXTURE_SIDES, ByeForm, FixtureForm, RoundEditForm, RoundForm, active_entries
from draw.views_setup import organiser_view
from engine.errors import FieldError
from engine.numbers import whole_number
from games.models import Match, TeamMatch
from league.forms import add_setup_error, form_status
from league.models import Bye, Competition, Round


@require_http_methods(["GET", "POST"])
@organiser_view
def fixture_list(request: HttpRequest, competition: Competition) -> HttpResponse:
    if competition.system != Competition.MANUAL or competition.entrant_kind == Competition.INDIVIDUAL:
        raise Http404("The rounds of this competition are paired, not set by hand.")
    rounds = list(competition.rounds.order_by("number"))
    entries = active_entries(competition)
    last = rounds[-1] if rounds else None
    forms: dict[str, Any] = {
        "round_form": RoundForm(prefix="round", initial={"number": fixtures.next_round_number(competition)}),
        "fixture_form": FixtureForm(prefix="fixture", competition=competition, entries=entries, last_round=last),
        "bye_form": ByeForm(prefix="bye", competition=competition, entries=entries, last_round=last),
    }
    edit_forms = {r.number: RoundEditForm(prefix=f"edit-{r.number}", initial={"starts_on": r.starts_on,
                                                                               "name": r.name}) for r in rounds}
    if request.method == "POST":
        done = _act(request, competition, rounds, entries, forms, edit_forms)
        if done is not None:
            return done
    page_rounds = round_selectors.results_by_round(rounds)
    for item in page_rounds:
        item.edit_form = edit_forms[item.round.number]  # type: ignore[attr-defined]  # for the template
    return render(request, "league/setup/fixtures.html", {
        "club": competition.club, "competition": competition, "rounds": page_rounds, "entries": len(entries),
        **forms,
    }, status=form_status(*forms.values(), *edit_forms.values()))


def _act(request: HttpRequest, competition: Competition, rounds: list[Round], entries, forms: dict[str, Any],
         edit_forms: dict[int, RoundEditForm]) -> HttpResponse | None:
    """Do what the POST asks; a redirect when done, None to show the page again with the form's errors."""
    back = redirect("competition_fixture_list", competition.club.slug, competition.slug)
    action = request.POST.get("action", "")
    form: Any  # the form of the action
    if action == "round":
        form = forms["round_form"] = RoundForm(request.POST, prefix="round")
        if form.is_valid() and _done(form, fixtures.add_round, competition, form.cleaned_data["number"],
                                     starts_on=form.cleaned_data["starts_on"], name=form.cleaned_data["name"],
                                     draft=form.cleaned_data["draft"]):
            messages.success(request, "Round added." if not form.cleaned_data["draft"]
                             else "Round added as a draft: publish it when its fixtures are in.")
            return back
        return None
    if action == "fixture":
        form = forms["fixture_form"] = FixtureForm(request.POST, prefix="fixture", competition=competition,
                                                   entries=entries)
        if form.is_valid() and (made := _done(form, fixtures.add_fixture, form.cleaned_data["round"],
                                              form.cleaned_data["entry_a"], form.cleaned_data["entry_b"],
                                              venue=form.cleaned_data["venue"],
                                              scheduled_at=form.cleaned_data["scheduled_at"])):
            messages.success(request, f"{made} added to {form.cleaned_data['round']}.")
            return back
        return None
    if action == "bye":
        form = forms["bye_form"] = ByeForm(request.POST, prefix="bye", competition=competition, entries=entries)
        if form.is_valid() and _done(form, fixtures.add_bye, form.cleaned_data["round"], form.cleaned_data["entry"]):
            messages.success(request, f"{form.cleaned_data['entry'].display_name} has a bye in "
                                      f"{form.cleaned_data['round']}.")
            return back
        return None
    if action == "edit":
        round_ = _round(rounds, request.POST.get("round"))
        form = edit_forms[round_.number] = RoundEditForm(request.POST, prefix=f"edit-{round_.number}")
        if form.is_valid() and _done(form, fixtures.edit_round, round_, **form.cleaned_data):
            messages.success(request, f"{round_} saved.")
            return back
        return None
    try:
        _one_click(request, competition, rounds, action)
    except FieldError as error:
        messages.error(request, error.reason)
    return back


def _one_click(request: HttpRequest, competition: Competition, rounds: list[Round], action: str) -> None:
    """The buttons without a form of their own: publish or unpublish a round, remove a fixture or a bye."""
    if action in ("publish", "unpublish"):
        round_ = _round(rounds, request.POST.get("round"))
        if action == "publish":
            publishing.publish_round(round_, request.user)
            messages.success(request, publishing.published_message(round_))
        else:
            publishing.unpublish_round(round_, request.user)
            messages.success(request, f"{round_} is a draft again: only organisers see it.")
    elif action == "remove_fixture":
        model = TeamMatch if competition.entrant_kind == Competition.TEAMS else Match
        fixture = model.objects.filter(competition=competition, pk=_pk(request, "fixture")).first()
        if fixture is None:
            raise Http404("No such fixture.")
        name = str(fixture)
        fixtures.remove_fixture(fixture)
        messages.success(request, f"{name} was taken off the list.")
    elif action == "remove_bye":
        bye = (Bye.objects.filter(round__competition=competition, pk=_pk(request, "bye"))
               .select_related("round", "entry__partnership", "entry__team").first())
        if bye is None:
            raise Http404("No such bye.")
        fixtures.remove_bye(bye)
        messages.success(request, f"{bye.entry.display_name} no longer has a bye in {bye.round}.")
    else:
        messages.error(request, "Unknown action.")


def _done(form, operation, *args, **kwargs):
    """The operation's result, or None with its error next to the form's field."""
    try:
        return operation(*args, **kwargs)
    except FieldError as error:  # the draw's RoundError, or games' EntryError from making the match
        add_setup_error(form, error, FIXTURE_SIDES)
    return None


def _pk(request: HttpRequest, name: str) -> int:
    return whole_number(request.POST.get(name, "")) or 0


def _round(rounds: list[Round], number: str | None) -> Round:
    found = {r.number: r for r in rounds}.get(whole_number(number or "") or 0)
    if found is None:
        raise Http404("No such round.")
    return found
