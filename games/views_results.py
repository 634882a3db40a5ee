"""Pages for results kept at a coarser level than hand by hand, team matches and printable sheets (forfeits are
``games.views_forfeits``).

- game by game and match totals: for whoever may enter the match's hands (``can_enter_hands``: organisers,
  the match's scorekeepers, the private link);
- team match creation and a team match's overall totals: the club's organisers (``is_organiser``);
- the team match page and the printable scoresheet: anyone who may see the competition.

Thin views: reads through ``games.selectors`` / ``league.selectors``, writes through ``games.results`` and
``games.teams``; every permission is checked on GET and POST alike.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.timezone import localtime
from django.views.decorators.http import require_http_methods, require_POST

from games import print_layout
from games import scoresheet as sheets
from games import selectors as game_selectors
from games.common import EntryError, lock_match
from games.forms import ReasonForm
from games.forms_results import GameResultForm, MatchTotalsForm, TeamMatchForm, TeamTotalsForm
from games.models import HAND_LEVEL, MATCH_LEVEL, Match, ResultVersion, TeamMatch
from games.offline import (
    GAME_FIELDS,
    SEEN_FIELD,
    TOTALS_FIELDS,
    answer_queued,
    errors_of,
    form_values,
    game_values,
    shown_fields,
    stamp,
    totals_values,
    wants_json,
)
from games.results import (
    clear_entered_result,
    delete_game_result,
    enter_game_result,
    record_match_totals,
)
from games.teams import clear_team_totals, create_team_match, record_team_totals
from games.views import EntryAccess, entry_view, offline_config
from league import selectors
from league.models import Competition
from league.pagination import paginate
from league.permissions import can_enter_hands, can_view_competition, can_view_match, is_organiser
from league.views import visible_competition

BLANK_ROWS = {1: 18, 2: 16, 3: 12, 4: 12}  # rows a blank game gets on the printed sheet, by games on the page
MAX_PRINTED_GAMES = 6


def _sheet_url(access: EntryAccess) -> str:
    if access.token is None:
        return reverse("match_sheet", args=[access.match.pk])
    return access.url("enter")


def _level_context(request: HttpRequest, access: EntryAccess) -> dict[str, Any]:
    match = access.match
    return {
        "access": access, "match": match, "competition": match.competition, "club": match.competition.club,
        "back": _sheet_url(access), "target_points": match.competition.engine_ruleset().target,
        "is_organiser": is_organiser(request.user, match.competition.club_id),
        "urls": {"games": access.url("game_results"), "totals": access.url("match_totals"),
                 "clear_totals": access.url("match_totals_clear"), "enter": access.url("enter")},
    }


# ----------------------------------------------------------------------------- game by game
@require_http_methods(["GET", "POST"])
@entry_view
def game_results(request: HttpRequest, access: EntryAccess) -> HttpResponse:
    """Enter a match game by game: each game's winner and hang jacks, its chalks if kept; correct a game by
    entering its number again."""
    match = access.match
    if request.method == "POST" and wants_json(request):
        return _game_json(request, access)
    games = list(match.games.filter(entered=True).order_by("number"))
    status = 200
    if request.method == "POST":
        form = GameResultForm(request.POST, match=match)
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = enter_game_result(
                    match, number=data["number"], winner=data["winner"], hang_jacks_a=data["hang_jacks_a"],
                    hang_jacks_b=data["hang_jacks_b"], score_a=data["score_a"], score_b=data["score_b"],
                    user=request.user, reason=data.get("reason") or "")
            except EntryError as error:
                form.add_entry_error(error)
            else:
                messages.success(request, f"Game {game.number} saved: won by {match.side_name(game.winner)}.")
                return redirect(access.url("game_results"))
        status = 422
    else:
        number = request.GET.get("game", "")
        correcting = next((g for g in games if str(g.number) == number), None)
        if correcting is not None:
            form = GameResultForm(match=match, initial={
                "number": correcting.number, "winner": correcting.winner, "hang_jacks_a": correcting.hang_jacks_a,
                "hang_jacks_b": correcting.hang_jacks_b,
                "score_a": correcting.score_a if correcting.scores_known else None,
                "score_b": correcting.score_b if correcting.scores_known else None})
        else:
            form = GameResultForm(match=match, initial={"number": len(games) + 1})
    context = _level_context(request, access)
    context.update({"form": form, "games": games, "delete_form": ReasonForm(),
                    "correcting": request.GET.get("game", "") if request.method == "GET" else "",
                    "offline": offline_config(request, access, kind="game", send=access.url("game_results"),
                                              games=_games_shown(match))})
    return render(request, "games/game_results.html", context, status=status)


# ----------------------------------------------------------------------------- the queue's JSON modes
def _games_shown(match: Match) -> dict[str, Any]:
    """The games as the server has them, for the queue: the next game's number and each entered game's seen
    stamp (what a game result typed now was typed over)."""
    entered = list(match.games.filter(entered=True).order_by("number"))
    return {"next": len(entered) + 1, "seen": {str(game.number): stamp(game_values(game)) for game in entered}}


def _game_json(request: HttpRequest, access: EntryAccess) -> HttpResponse:
    """A game result posted by the page's queue (static/js/offline_entry.js): the same form and
    ``enter_game_result`` as the page, answered in JSON, once per ``Idempotency-Key`` (endpoint ``entry-games``) —
    201 with the game as stored, 422 with the reasons by field, 409 when game N changed since the page showed it
    (``conflict``: theirs, with its stamp to correct it) or the match is held."""
    form = GameResultForm(request.POST, match=access.match)
    if not form.is_valid():
        return JsonResponse({"errors": errors_of(form)}, status=422)
    return answer_queued(request, access.match, "entry-games", lambda: _store_game(request, access, form))


def _store_game(request: HttpRequest, access: EntryAccess, form: GameResultForm) -> tuple[int, Any]:
    match, data = access.match, form.cleaned_data
    number, mine = data["number"], form_values(data, GAME_FIELDS)
    seen = request.POST.get(SEEN_FIELD)
    with transaction.atomic():
        lock_match(match)  # no one stores game N between the check and us (the lock order every writer keeps)
        theirs = game_values(match.games.filter(number=number).first())
        if seen is not None and seen != stamp(theirs):
            if theirs == mine:  # someone else entered the very same result: nothing to store
                return 201, _game_answer(match, number, f"Game {number} was already stored as you typed it.")
            changed = "changed" if seen != "none" else "entered"
            by, when = _changed_by(game_selectors.last_result_change(match, game=number))
            return 409, {"conflict": True, "errors": {"number": [
                f"game {number} was {changed} by {by}{when} since this page showed it"]},
                "theirs": {"number": number, "fields": shown_fields(theirs), "seen": stamp(theirs),
                           "entered_by": by},
                "games": _games_shown(match)}
        try:
            game = enter_game_result(match, number=number, winner=data["winner"], hang_jacks_a=data["hang_jacks_a"],
                                     hang_jacks_b=data["hang_jacks_b"], score_a=data["score_a"],
                                     score_b=data["score_b"], user=request.user, reason=data.get("reason") or "")
        except EntryError as error:
            form.add_entry_error(error)
            return (409 if error.conflict else 422), {"refused": True, "errors": errors_of(form),
                                                      "games": _games_shown(match)}
    message = f"Game {game.number} saved: won by {match.side_name(game.winner)}."
    messages.success(request, message)  # shown by the page the queue reloads once it is empty
    return 201, _game_answer(match, number, message)


def _changed_by(change: ResultVersion | None) -> tuple[str, str]:
    """Who made a change and " at <time>" (the club's local time), for a conflict's reason."""
    if change is None:
        return "someone else", ""
    return change.author_label or "someone else", f" at {localtime(change.created_at):%H:%M}"


def _game_answer(match: Match, number: int, message: str) -> dict[str, Any]:
    game = match.games.get(number=number)
    values = game_values(game)
    return {"stored": {"number": number, "fields": shown_fields(values), "seen": stamp(values)}, "message": message,
            "games": _games_shown(match)}


def _totals_json(request: HttpRequest, access: EntryAccess) -> HttpResponse:
    """The match totals posted by the page's queue: ``record_match_totals`` as for the page, answered in JSON, once
    per ``Idempotency-Key`` (endpoint ``entry-totals``) — 201 with the totals as stored, 422 with the reasons, 409
    when the totals changed since the page showed them (``conflict``, theirs) or the match is held."""
    form = MatchTotalsForm(request.POST, match=access.match)
    if not form.is_valid():
        return JsonResponse({"errors": errors_of(form)}, status=422)
    return answer_queued(request, access.match, "entry-totals", lambda: _store_totals(request, access, form))


def _store_totals(request: HttpRequest, access: EntryAccess, form: MatchTotalsForm) -> tuple[int, Any]:
    match = access.match
    mine = form_values(form.cleaned_data, TOTALS_FIELDS)
    seen = request.POST.get(SEEN_FIELD)
    with transaction.atomic():
        locked = lock_match(match)
        theirs = totals_values(locked)
        if seen is not None and seen != stamp(theirs) and theirs != mine:
            by, when = _changed_by(game_selectors.last_result_change(match))
            return 409, {"conflict": True, "errors": {"__all__": [
                f"the match totals were recorded by {by}{when} since this page showed them"]},
                "theirs": {"fields": shown_fields(theirs), "seen": stamp(theirs), "entered_by": by}}
        try:
            if theirs != mine:
                record_match_totals(match, user=request.user, **form.cleaned_data)
        except EntryError as error:
            form.add_entry_error(error)
            return (409 if error.conflict else 422), {"refused": True, "errors": errors_of(form)}
    match.refresh_from_db()
    values = totals_values(match)
    message = "Match totals saved."
    messages.success(request, message)
    return 201, {"stored": {"fields": shown_fields(values), "seen": stamp(values)}, "message": message}


@require_POST
@entry_view
def game_result_delete(request: HttpRequest, access: EntryAccess, number: int) -> HttpResponse:
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say why the game is deleted.")
    else:
        try:
            delete_game_result(access.match, number=number, reason=form.cleaned_data["reason"],
                                        user=request.user)
        except EntryError as error:
            messages.error(request, error.reason)
        else:
            messages.success(request, f"Game {number} deleted.")
    return redirect(access.url("game_results"))


# ----------------------------------------------------------------------------- match totals
@require_http_methods(["GET", "POST"])
@entry_view
def match_totals(request: HttpRequest, access: EntryAccess) -> HttpResponse:
    """Record only the match's totals (the clear button posts to ``match_totals_clear``)."""
    match = access.match
    status = 200
    if request.method == "POST" and wants_json(request):
        return _totals_json(request, access)
    if request.method == "POST":
        form = MatchTotalsForm(request.POST, match=match)
        if form.is_valid():
            try:
                record_match_totals(match, user=request.user, **form.cleaned_data)
            except EntryError as error:
                form.add_entry_error(error)
            else:
                messages.success(request, "Match totals saved.")
                return redirect(access.url("match_totals"))
        status = 422
    elif match.result_level == MATCH_LEVEL:
        form = MatchTotalsForm(match=match, initial={
            "games_a": match.games_a, "games_b": match.games_b, "hang_jacks_a": match.hang_jacks_a,
            "hang_jacks_b": match.hang_jacks_b, "chalks_a": match.chalks_a if match.chalks_known else None,
            "chalks_b": match.chalks_b if match.chalks_known else None})
    else:
        form = MatchTotalsForm(match=match)
    context = _level_context(request, access)
    context["form"] = form
    context["offline"] = offline_config(request, access, kind="totals", send=access.url("match_totals"),
                                        totals={"seen": stamp(totals_values(match))})
    return render(request, "games/match_totals.html", context, status=status)


@require_POST
@entry_view
def match_totals_clear(request: HttpRequest, access: EntryAccess) -> HttpResponse:
    """Clear what was entered as game results or totals, so that the match can be entered at another level (a
    plain form, also for the offline queue's page)."""
    try:
        clear_entered_result(access.match, user=request.user)
    except EntryError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, "The entered result was cleared: the match can be entered at any level.")
    return redirect(access.url("match_totals"))


# ----------------------------------------------------------------------------- the printable scoresheet
def print_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """One table's scoresheet on one page: filled with what was entered, or blank (``?blank=1``) for the
    scorekeeper's pen."""
    sheet = sheets.scoresheet(pk)
    if sheet is None:
        raise Http404("No such match.")
    match, games = sheet
    if not can_view_match(request.user, match) and not can_enter_hands(request.user, match):
        raise Http404("No such match.")
    competition = match.competition
    blank = request.GET.get("blank") not in (None, "", "0")
    blocks = [] if blank else [_printed_game(game) for game in games if game.game.entered or game.rows]
    if blank or (match.status != Match.COMPLETE and match.result_level == HAND_LEVEL
                 and match.outcome == Match.PLAYED):
        while len(blocks) < min(_planned_games(match, competition), MAX_PRINTED_GAMES):
            blocks.append({"number": len(blocks) + 1, "rows": [], "entered": None})
    rows = BLANK_ROWS.get(len(blocks), 10)
    for block in blocks:  # rows to write in, numbered on from the hands entered; none under a game won
        won = block["entered"] or (block.get("game") is not None and block["game"].winner)
        block["blank_rows"] = range(0) if won else range(len(block["rows"]) + 1, max(rows, len(block["rows"])) + 1)
    seats = sheets.seat_names(match, competition.players)
    sides = [f"{match.side_a_name} — seat 1: {', seat 3: '.join(seats[0::2])}",
             f"{match.side_b_name} — seat 2: {', seat 4: '.join(seats[1::2])}"]
    result = "" if blank else f"Result: games 0 – 0, won by {max(match.side_a_name, match.side_b_name, key=len)}"
    head_mm = print_layout.head_extra_mm(f"{competition.club.name} · {competition.name}", sides, result)
    return render(request, "games/print_sheet.html", {
        "match": match, "competition": competition, "club": competition.club, "blank": blank, "blocks": blocks,
        "seats": seats, "target_points": competition.engine_ruleset().target, "two_columns": len(blocks) > 1,
        "row_mm": print_layout.row_height(blocks, columns=2 if len(blocks) > 1 else 1, head_mm=head_mm),
    })


def _planned_games(match: Match, competition: Competition) -> int:
    """The games a sheet has room for: the most the match can take."""
    team = match.team_match
    if team is not None:
        return team.games_per_table if team.mode == Competition.TEAM_FIXED else 3
    if competition.match_format == Competition.BEST_OF:
        return competition.match_games
    if competition.match_format == Competition.FIRST_TO:
        return 2 * competition.match_games - 1
    return 1


def _printed_game(sheet: Any) -> dict[str, Any]:
    game = sheet.game
    rows = [row for row in sheet.rows if not row.struck]
    return {"number": game.number, "rows": rows, "game": game, "entered": game if game.entered else None}


# ----------------------------------------------------------------------------- team matches
def _visible_team_match(request: HttpRequest, pk: int) -> TeamMatch:
    team_match = game_selectors.team_match_page(pk)
    if team_match is None or not can_view_match(request.user, team_match):
        raise Http404("No such team match.")
    return team_match


def team_match(request: HttpRequest, pk: int) -> HttpResponse:
    """Table by table, the race (or the fixed games) as a progress bar, each table's sheet."""
    team_match = _visible_team_match(request, pk)
    competition = team_match.competition
    return render(request, "games/team_match.html", {
        "team_match": team_match, "competition": competition, "club": competition.club,
        "tables": list(team_match.table_matches.all()), "progress": game_selectors.race_progress(team_match),
        "is_organiser": is_organiser(request.user, competition.club_id),
    })




def team_match_list(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    competition = visible_competition(request, club_slug, competition_slug)
    organiser = is_organiser(request.user, competition.club_id)
    page = paginate(request, game_selectors.team_matches(competition, include_drafts=organiser), per_page=30)
    return render(request, "games/team_matches.html", {
        "competition": competition, "club": competition.club, "team_matches": list(page), "page": page,
        "is_organiser": organiser,
    })


def _organiser_only(request: HttpRequest, competition: Competition, message: str) -> HttpResponse | None:
    """``None`` for the club's organisers; a draft the user may not see → 404, for anonymous visitors too;
    anonymous → log in; else 403."""
    if is_organiser(request.user, competition.club_id):
        return None
    if not can_view_competition(request.user, competition):
        raise Http404("No such competition.")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(message)


@require_http_methods(["GET", "POST"])
def team_match_create(request: HttpRequest, club_slug: str, competition_slug: str) -> HttpResponse:
    """A new team match: two teams and a pair of each at each table. Organisers only."""
    competition = selectors.competition_by_slugs(club_slug, competition_slug)
    if competition is None:
        raise Http404("No such competition.")
    refused = _organiser_only(request, competition, "Only the club's organisers create team matches.")
    if refused is not None:
        return refused
    status = 200
    form = TeamMatchForm(request.POST or None, competition=competition)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                created = create_team_match(competition, data["team_a"], data["team_b"],
                                                          round=data.get("round"), tables=form.table_pairs())
            except EntryError as error:
                form.add_entry_error(error)
            else:
                messages.success(request, f"Team match {created} created.")
                return redirect("team_match", pk=created.pk)
        status = 422
    return render(request, "games/team_match_new.html", {
        "competition": competition, "club": competition.club, "form": form,
    }, status=status)


@require_http_methods(["GET", "POST"])
def team_match_totals(request: HttpRequest, pk: int) -> HttpResponse:
    """Record only the team match's overall totals (the clear button posts to ``team_match_totals_clear``).
    Organisers only."""
    team_match, refused = _organisers_team_match(request, pk)
    if refused is not None:
        return refused
    competition = team_match.competition
    status = 200
    if request.method == "POST":
        form = TeamTotalsForm(request.POST, team_match=team_match)
        if form.is_valid():
            try:
                record_team_totals(team_match, user=request.user, **form.cleaned_data)
            except EntryError as error:
                form.add_entry_error(error)
            else:
                messages.success(request, "Team match totals saved.")
                return redirect("team_match", pk=team_match.pk)
        status = 422
    else:
        initial = {}
        if team_match.result_level == MATCH_LEVEL:
            initial = {name: getattr(team_match, name) for name in (
                "bullseyes_a", "bullseyes_b", "hang_jacks_a", "hang_jacks_b", "chalks_a", "chalks_b")}
        form = TeamTotalsForm(team_match=team_match, initial=initial)
    return render(request, "games/team_totals.html", {
        "team_match": team_match, "competition": competition, "club": competition.club, "form": form,
        "has_tables": bool(list(team_match.table_matches.all())),
    }, status=status)


def _organisers_team_match(request: HttpRequest, pk: int) -> tuple[TeamMatch, HttpResponse | None]:
    team_match = game_selectors.team_match_page(pk)
    if team_match is None or not can_view_match(request.user, team_match):
        raise Http404("No such team match.")
    return team_match, _organiser_only(request, team_match.competition,
                                       "Only the club's organisers record team match results.")


@require_POST
def team_match_totals_clear(request: HttpRequest, pk: int) -> HttpResponse:
    team_match, refused = _organisers_team_match(request, pk)
    if refused is not None:
        return refused
    try:
        clear_team_totals(team_match, user=request.user)
    except EntryError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, "The overall totals were cleared.")
    return redirect("team_match", pk=team_match.pk)
