"""A match played online reviewed by its organisers: every move with the time it took, as a CSV file
(``tables.move_export``; the per-player summary is on the match's online page), and the match voided and played
again at a fresh table (``tables.voiding``), with a reason and a confirmation step.

Both are the club's organisers' (the match's scorekeepers open its online page, but review nobody's moves and void
nothing): anyone else who may open the online page gets a 403 in words; one who may not, as there (404, the login
page).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from games.models import Hand, Match
from games.voiding import REASON_MAX
from importer.export import write_rows
from league.permissions import is_organiser
from pages.views_online import guarded
from tables import changes, move_export, voiding
from tables.models import Table, TableHand

ONLY_ORGANISERS = "Only the club's organisers review a match's moves and void a match played online."


class VoidForm(forms.Form):
    reason = forms.CharField(
        label="Why is the match voided?", max_length=REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="The players are told, and every hand struck out keeps it in its history (e.g. \"disconnect storm "
                  "in game 2\", \"a player was helped\").",
        error_messages={"required": "Say why the match is voided: the players and the scoresheet's history are "
                                    "told."})
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)


def _organiser_only(request: HttpRequest, match: Match) -> None:
    if not is_organiser(request.user, match.competition.club_id):
        raise PermissionDenied(ONLY_ORGANISERS)


@require_safe
@guarded
def match_online_moves(request: HttpRequest, match: Match) -> HttpResponse:
    """Every move of the match's online tables as a CSV file (the club's organisers): its columns are
    ``tables.move_export.COLUMNS``; the hand an open table is playing is left out until it ends."""
    _organiser_only(request, match)
    try:
        export = move_export.match_moves(match)
    except changes.TableError as error:
        messages.error(request, error.reason)
        return redirect("match_online", pk=match.pk)
    response = HttpResponse(write_rows(export.rows()), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-moves.csv"'
    return response


@require_http_methods(["GET", "POST"])
@guarded
def match_online_void(request: HttpRequest, match: Match) -> HttpResponse:
    """GET: what voiding the match does, and the form (a reason); POST: the confirmation step (the reason shown
    again, one button to do it), then — confirmed — the match voided and played again at a fresh table."""
    _organiser_only(request, match)
    why_not = voiding.why_not_void(match)
    form = VoidForm(request.POST if request.method == "POST" else None)
    confirming = False
    if request.method == "POST" and not why_not and form.is_valid():
        if form.cleaned_data["confirmed"]:
            try:
                replay = voiding.void_and_replay(match, request.user, form.cleaned_data["reason"])
            except changes.TableError as error:
                if error.field == "reason":
                    form.add_error("reason", error.reason)
                else:
                    messages.error(request, error.reason)
                    return redirect("match_online_void", pk=match.pk)
            else:
                messages.success(request, _done(replay))
                return redirect("match_online", pk=match.pk)
        else:
            confirming = True
            form = VoidForm(initial={"reason": form.cleaned_data["reason"], "confirmed": True})
    return render(request, "pages/online/void.html", {
        "match": match, "competition": match.competition, "form": form, "why_not": why_not,
        "confirming": confirming, "reason": form.initial.get("reason", ""), **_what_is_voided(match),
    })


def _what_is_voided(match: Match) -> dict:
    """What the page says voiding strikes out and closes."""
    hands = Hand.objects.filter(game__match=match, deleted=False)
    return {
        "hands": hands.count(),
        "hands_online": hands.filter(online__isnull=False).distinct().count(),
        "open_tables": list(Table.objects.filter(match=match, status__in=changes.OPEN).order_by("pk")),
        "hand_in_play": TableHand.objects.filter(table__match=match, table__status=Table.PLAYING,
                                                 record__isnull=True).exists(),
        "forfeit": match.outcome != Match.PLAYED,
    }


def _done(replay: voiding.Replay) -> str:
    struck = f"{replay.hands} hand{'s' if replay.hands != 1 else ''} struck out" if replay.hands else "no hand"
    cleared = ", the forfeit cleared" if replay.forfeit_cleared else ""
    closed = f", table {', '.join(map(str, replay.closed))} closed" if replay.closed else ""
    return (f"The match is voided ({struck}{cleared}{closed}) and is played again at table {replay.table.pk}: its "
            "players with a login are told; send the others their seats' new links.")
