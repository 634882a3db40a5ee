"""Pages of rounds: the organiser's round page (watch the pairing's progress, review the draft) and its buttons,
each a POST-only view on a URL of its own (pair, swap, set a match's sides, sit a match out, pair two byes,
publish, unpublish), the pairing task's status as JSON, and the public pages — a published round's pairings
(printable), results by round and the knockout bracket.

Thin views: reads through ``draw.selectors``, ``draw.organiser_round`` and ``draw.public_rounds``, writes
through ``draw.request``, ``draw.edits`` and ``draw.publishing``; the organiser's pages check
``league.permissions.is_organiser`` on every request, GET and POST alike (anonymous → log in, an unpublished
competition → 404, anyone else → 403). Draft rounds are never shown on a public page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Literal, cast, overload

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from draw import edits, organiser_round, public_rounds, publishing, round_clock, table_moves
from draw import selectors as round_selectors
from draw.bracket import waiting_ties, whole_bracket
from draw.clock_models import TimeUpRule
from draw.errors import RoundError
from draw.forms import EditForm, MatchForm, MoveTableForm, PairByesForm, SwapForm
from draw.models import Bye, Round
from draw.plan import number_after_last_round
from draw.request import request_pairing
from draw.share_text import pairings_text
from games.models import Match, TeamMatch
from league import selectors
from league.models import Competition, Partnership
from league.pagination import paginate
from league.permissions import can_view_competition, is_organiser
from league.views import visible_competition


def organisers_only(request: HttpRequest, club_slug: str, competition_slug: str):
    """The competition, or the refusal: 404 (a draft competition, for anonymous visitors too), log in
    (anonymous), 403 (anyone else)."""
    competition = selectors.competition_by_slugs(club_slug, competition_slug)
    if competition is None:
        raise Http404("No such competition.")
    if is_organiser(request.user, competition.club_id):
        return competition, None
    if not can_view_competition(request.user, competition):
        raise Http404("No such competition.")
    if not request.user.is_authenticated:
        return competition, redirect_to_login(request.get_full_path())
    raise PermissionDenied("Only the club's organisers pair and publish rounds.")


# ----------------------------------------------------------------------------- the organiser's round page
@require_GET
def manage(request: HttpRequest, club_slug: str, competition_slug: str, number: int) -> HttpResponse:
    competition, refusal = organisers_only(request, club_slug, competition_slug)
    if refusal is not None:
        return refusal
    _check_round_number(competition, number)
    page = organiser_round.manage_page(competition, number)
    clock = round_clock.clock_of(page.round)
    return render(request, "draw/rounds/manage.html", {
        "competition": competition, "club": competition.club, "page": page, "round": page.round,
        "swap_form": _swap_form(page.slots), "clock": clock, "clock_now": round_clock.reading(clock),
        "time_up_rules": TimeUpRule.choices,
    })


def _check_round_number(competition: Competition, number: int) -> None:
    """A round of the competition, or the next one to pair; anything else is a 404."""
    if number != number_after_last_round(competition) and not competition.rounds.filter(number=number).exists():
        raise Http404("No such round.")


RoundAction = Callable[[HttpRequest, Competition, Round], None]


def round_action(view: RoundAction) -> Callable[..., HttpResponse]:
    """A button of the round page: POST only, organisers only (as the page), on a round already paired; the view
    does its one thing and says how it went in a message, and the organiser is back on the round page (a refused
    form or a ``RoundError`` becomes an error message there)."""

    @require_POST
    @wraps(view)
    def wrapper(request: HttpRequest, club_slug: str, competition_slug: str, number: int) -> HttpResponse:
        competition, refusal = organisers_only(request, club_slug, competition_slug)
        if refusal is not None:
            return refusal
        _check_round_number(competition, number)
        back = redirect("round_manage", competition.club.slug, competition.slug, number)
        round_ = competition.rounds.filter(number=number).first()
        if round_ is None:
            messages.error(request, f"Round {number} has not been paired yet.")
            return back
        try:
            view(request, competition, round_)
        except _InvalidFormError as refused:
            for errors in refused.form.errors.values():
                for error in errors:
                    messages.error(request, error)
        except RoundError as error:
            messages.error(request, error.reason[:1].upper() + error.reason[1:] + ".")
        return back

    return wrapper


class _InvalidFormError(Exception):
    """A button's form did not validate: its errors become the page's messages."""

    def __init__(self, form) -> None:
        super().__init__("form refused")
        self.form = form


def _valid(form) -> dict:
    if not form.is_valid():
        raise _InvalidFormError(form)
    return form.cleaned_data


@require_POST
def pair(request: HttpRequest, club_slug: str, competition_slug: str, number: int) -> HttpResponse:
    """Pair the round (a Celery task), again when it has a draft: the only button for a round not paired yet."""
    competition, refusal = organisers_only(request, club_slug, competition_slug)
    if refusal is not None:
        return refusal
    _check_round_number(competition, number)
    try:
        _pairing_requested(request, request_pairing(competition, number, user=request.user))
    except RoundError as error:
        messages.error(request, error.reason[:1].upper() + error.reason[1:] + ".")
    return redirect("round_manage", competition.club.slug, competition.slug, number)


@round_action
def publish(request: HttpRequest, competition: Competition, round_: Round) -> None:
    round_ = publishing.publish_round(round_, request.user)
    messages.success(request, publishing.published_message(round_))


@round_action
def publish_with_competition(request: HttpRequest, competition: Competition, round_: Round) -> None:
    """Publish the round and its competition (still a draft) in one go."""
    round_ = publishing.publish_round(round_, request.user, with_competition=True)
    messages.success(request, publishing.published_message(round_))


@round_action
def unpublish(request: HttpRequest, competition: Competition, round_: Round) -> None:
    publishing.unpublish_round(round_, request.user)
    messages.success(request, f"{round_} is a draft again: only organisers see it.")


@round_action
def swap(request: HttpRequest, competition: Competition, round_: Round) -> None:
    page = organiser_round.manage_page(competition, round_.number, with_warnings=False)
    data = _valid(_swap_form(page.slots, request.POST))
    _warned(request, edits.swap_slots(round_, data["first"], data["second"], user=request.user), "Swapped.")


@round_action
def edit_match(request: HttpRequest, competition: Competition, round_: Round) -> None:
    """Set both sides of one match of the draft."""
    page = organiser_round.manage_page(competition, round_.number, with_warnings=False)
    form = EditForm(request.POST, entrants=page.entrants)
    form.fields["side_a"].error_messages["required"] = "Choose side A."
    form.fields["side_b"].error_messages["required"] = "Choose side B."
    data = _valid(form)
    match = _match(round_, data["match"])
    sides = Partnership.objects.in_bulk([data["side_a"], data["side_b"]])
    _warned(request, edits.edit_pairing(match, side_a=sides[data["side_a"]], side_b=sides[data["side_b"]],
                                         user=request.user), f"{match.table_label or 'The match'} changed.")


@round_action
def move_table(request: HttpRequest, competition: Competition, round_: Round) -> None:
    """Seat a match at another table (the match there takes its table)."""
    data = _valid(MoveTableForm(request.POST))
    match = table_moves.move_to_table(round_, _match(round_, data["match"]), data["table"], user=request.user)
    messages.success(request, f"{match.side_a_name} v {match.side_b_name}: now at {match.table_label}.")


@round_action
def sit_out(request: HttpRequest, competition: Competition, round_: Round) -> None:
    """Take a match out of the draft: both its sides sit the round out."""
    data = _valid(MatchForm(request.POST))
    match = _match(round_, data["match"], teams=competition.entrant_kind == Competition.TEAMS)
    _warned(request, edits.move_to_bye(round_, match, user=request.user), f"{match} taken out: both sides sit out.")


@round_action
def pair_byes(request: HttpRequest, competition: Competition, round_: Round) -> None:
    """Make a match of two entrants sitting the round out."""
    data = _valid(PairByesForm(request.POST))
    byes = Bye.objects.filter(round=round_).in_bulk([data["first"], data["second"]])
    if len(byes) != 2:
        raise RoundError("bye", "choose two different entrants sitting out")
    _warned(request, edits.pair_byes(round_, byes[data["first"]], byes[data["second"]], user=request.user),
            "New match made.")


def _pairing_requested(request: HttpRequest, round_: Round) -> None:
    """The message after "Pair": the task may have run already (in-process, without Redis) — then say how it
    went, not that the draft is on its way."""
    round_.refresh_from_db(fields=["pairing_state", "pairing_message", "name"])
    if round_.pairing_state == Round.DONE:
        messages.success(request, f"{round_} is paired: review the draft below, then publish it.")
    elif round_.pairing_state == Round.FAILED:
        messages.error(request, round_.pairing_message or f"Pairing {round_} failed.")
    else:
        messages.success(request, f"Pairing {round_}: the draft appears here when it is ready.")


def _swap_form(slots: list[tuple[str, str]], data=None) -> SwapForm:
    """The swap form with its second box on "choose…", so the two boxes never start on the same place."""
    form = SwapForm(data, slots=slots)
    cast(forms.ChoiceField, form.fields["second"]).choices = [("", "choose…"), *slots]
    form.fields["first"].error_messages["required"] = "Choose the place to swap."
    form.fields["second"].error_messages["required"] = "Choose the place to swap it with."
    return form


@overload
def _match(round_: Round, pk: int, teams: Literal[False] = ...) -> Match: ...
@overload
def _match(round_: Round, pk: int, teams: bool) -> Match | TeamMatch: ...
def _match(round_: Round, pk: int, teams: bool = False) -> Match | TeamMatch:
    match = (TeamMatch if teams else Match).objects.filter(round=round_, pk=pk).select_related("round").first()
    if match is None:
        raise RoundError("match", f"that match is not in {round_}")
    return match


def _warned(request: HttpRequest, warnings: list[dict], done: str) -> None:
    if warnings:
        messages.warning(request, f"{done} The pairings now break {len(warnings)} rule"
                                  f"{'s' if len(warnings) != 1 else ''}: see the warnings.")
    else:
        messages.success(request, f"{done} No rule is broken.")


@require_GET
def pairing_status(request: HttpRequest, club_slug: str, competition_slug: str, number: int) -> HttpResponse:
    """``{"state", "progress", "message", …}`` of the round's pairing, for the progress bar."""
    competition, refusal = organisers_only(request, club_slug, competition_slug)
    if refusal is not None:
        return refusal
    round_ = competition.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404("No such round.")
    response = JsonResponse(round_selectors.status(round_))
    response["Cache-Control"] = "no-store"
    return response


# ----------------------------------------------------------------------------- public pages
@require_GET
def round_detail(request: HttpRequest, club_slug: str, competition_slug: str, number: int) -> HttpResponse:
    """A published round's pairings: tables, sides, byes (printable). A draft is a 404 — for an organiser,
    the way to its page."""
    competition = visible_competition(request, club_slug, competition_slug)
    public = public_rounds.public_round(competition, number)
    if public is None:
        if is_organiser(request.user, competition.club_id) and competition.rounds.filter(number=number).exists():
            return redirect("round_manage", competition.club.slug, competition.slug, number)
        raise Http404("No such round.")
    return render(request, "draw/rounds/round.html", {
        "competition": competition, "club": competition.club, "public": public, "round": public.round,
        "is_organiser": is_organiser(request.user, competition.club_id),
        "has_knockout": public_rounds.has_knockout(competition),
        "share_text": pairings_text(competition, public.round, public.matches),
        "to_come": waiting_ties(public.round),  # a knockout round published tie by tie: its ties not paired yet
    })


ROUNDS_PER_PAGE = 10  # rounds of results a page


@require_GET
def round_list(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    """Results by round: every published round with its matches and byes; organisers also get every round's
    state and the way to pair the next one."""
    competition = visible_competition(request, club_slug, competition_slug)
    organiser = is_organiser(request.user, competition.club_id)
    rounds = paginate(request, round_selectors.published_rounds(competition), per_page=ROUNDS_PER_PAGE,
                      param="rounds_page")  # the page's rounds, then only their matches and byes
    context = {"competition": competition, "club": competition.club,
               "rounds": public_rounds.results_by_round(rounds), "rounds_page": rounds,
               "is_organiser": organiser, "has_knockout": public_rounds.has_knockout(competition)}
    if organiser:
        context.update(round_selectors.organiser_rounds(competition))
    return render(request, "draw/rounds/list.html", context)


@require_GET
def bracket(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    if not public_rounds.has_knockout(competition):
        raise Http404("This competition has no knockout.")
    return render(request, "draw/rounds/bracket.html", {
        "competition": competition, "club": competition.club,
        **whole_bracket(public_rounds.bracket(competition), competition.third_place_match),
        "is_organiser": is_organiser(request.user, competition.club_id),
    })
