"""A league fixture played online: the match's online page, for its organisers and scorekeepers — the link between a
fixture (``games``) and its online table (``tables``).

``/matches/<id>/online/`` shows the match's open table (or a button that opens one:
``tables.fixtures.open_fixture``), each seat's player — their login, and the seat's private link to hand out, with a
copy button — a Start button, and for organisers the button that ends online play (``tables.fixtures.end_fixture``);
each seat's link is renewed or revoked there (``tables.seat_links``). Anyone else gets a 403 that says who may open
it (a draft they may not see: 404; not logged in: the login page). Tables that stopped are listed with why. A seat
left to its private link because its player's login already sits elsewhere in the event is flagged
(``tables.one_seat``). For the club's organisers, a match played online also shows each player's moves and times,
with every move as a CSV file, and the way to void the match and play it again (``pages.views_online_review``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games.models import HAND_LEVEL, Match
from league.permissions import can_enter_hands, can_view_match, is_organiser
from tables import changes, dealing, fixtures, match_clock, move_export, one_seat, seat_links, voiding
from tables.forms import seat_label
from tables.models import Seat, Table

NOT_ALLOWED = "Only the match's organisers and its scorekeepers open it online and hand out its seat links."
HISTORY = 10
"""Earlier tables of the match listed on its online page."""


def _match_for(request: HttpRequest, pk: int) -> Match:
    """The match, if the request may open its online page (else 404, the login page, or 403 in words)."""
    match = (Match.objects.select_related("competition__club", "round", "side_a__player_one__user",
                                          "side_a__player_two__user", "side_b__player_one__user",
                                          "side_b__player_two__user").filter(pk=pk).first())
    if match is None:
        raise Http404("No such match.")
    if can_enter_hands(request.user, match):
        return match
    if not can_view_match(request.user, match):
        raise Http404("No such match.")
    if not request.user.is_authenticated:
        raise _LoginFirst()
    raise PermissionDenied(NOT_ALLOWED)


class _LoginFirst(Exception):
    pass


def guarded(view):
    """The view of a match's online page (``view(request, match, **kwargs)``), for those ``_match_for`` lets in."""
    def wrapper(request: HttpRequest, pk: int, **kwargs: int) -> HttpResponse:
        try:
            match = _match_for(request, pk)
        except _LoginFirst:
            return redirect_to_login(request.get_full_path())
        return view(request, match, **kwargs)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


def seat_link(request: HttpRequest, table: Table, seat: Seat) -> str:
    return request.build_absolute_uri(reverse("table", args=[table.pk]) + "?" + urlencode({"seat": seat.seat_token}))


def _why_not_online(match: Match) -> str:
    """Why the match cannot be opened online now ("" when it can)."""
    if match.outcome != Match.PLAYED:
        return "The match was recorded as a forfeit."
    if match.status == Match.COMPLETE:
        return "The match is complete."
    if match.result_level != HAND_LEVEL:
        return "The match's result is entered above the hand level (game results or totals): it is not played online."
    return ""


@require_http_methods(["GET", "POST"])
@guarded
def match_online(request: HttpRequest, match: Match) -> HttpResponse:
    """GET: the match's online table and its seats' links; POST: open the match online (or go to its open
    table)."""
    if request.method == "POST":
        try:
            opened = fixtures.open_fixture(match, request.user)
        except changes.TableError as error:
            messages.error(request, error.reason)
        else:
            messages.success(request, f"Table {opened.pk} is open for this match: hand out the seats' links, then "
                                      "start it when the players are there.")
        return redirect("match_online", pk=match.pk)
    table = fixtures.fixture_table(match)
    players = fixtures.fixture_players(match)
    seats = []
    if table is not None:
        for row in table.seats.select_related("user").order_by("index"):
            seats.append({"number": row.index + 1, "label": seat_label(row.index, table.players),
                          "player": players[row.index].name if row.index < len(players) else "",
                          "login": row.user.get_username() if row.user else "",
                          "link": "" if row.link_revoked else seat_link(request, table, row),
                          "revoked": row.link_revoked, "covering": row.covering,
                          "here": row.connected > 0, "away": row.away_since is not None,
                          "side": match.side_a_name if row.index % 2 == 0 else match.side_b_name})
    earlier = (Table.objects.filter(kind=Table.FIXTURE, match=match).exclude(status__in=changes.OPEN)
               .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("index")))[:HISTORY])
    organiser = is_organiser(request.user, match.competition.club_id)
    return render(request, "pages/online/fixture.html", {
        "match": match, "competition": match.competition, "table": table, "seats": seats,
        "earlier": earlier,
        "why_not": _why_not_online(match) if table is None else "",
        "can_end": organiser,
        "left_to_links": one_seat.seats_left_to_links(table, match, players) if table is not None else [],
        **(_review(match, table is not None or bool(earlier)) if organiser else {}),
    })


def _review(match: Match, played_online: bool) -> dict:
    """The organisers' part of the page for a match played online: each player's moves and times
    (``tables.move_export``), the CSV of every move, and voiding the match to play it again."""
    if not played_online:
        return {}
    export = move_export.match_moves(match)
    return {"review": export, "can_void": not voiding.why_not_void(match)}


@require_POST
@guarded
def match_online_start(request: HttpRequest, match: Match) -> HttpResponse:
    """Deal the first hand of the match's open table."""
    table = fixtures.fixture_table(match)
    if table is None:
        messages.error(request, "The match has no open online table: open one first.")
        return redirect("match_online", pk=match.pk)
    try:
        dealing.start(table)
    except changes.TableError as error:
        messages.error(request, error.reason)
        return redirect("match_online", pk=match.pk)
    messages.success(request, f"Table {table.pk} started: the cards are dealt.")
    return redirect("match_online", pk=match.pk)


@require_POST
@guarded
def match_online_end(request: HttpRequest, match: Match) -> HttpResponse:
    """The organiser ends online play: the table closes and the match's pages take its results again."""
    table = fixtures.fixture_table(match)
    if table is None:
        messages.error(request, "The match has no open online table.")
        return redirect("match_online", pk=match.pk)
    if not is_organiser(request.user, match.competition.club_id):
        raise PermissionDenied("Only the club's organisers end online play of a match.")
    try:
        table = fixtures.end_fixture(table, request.user)
    except changes.TableError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, table.end_reason)
    return redirect("match_online", pk=match.pk)


@require_POST
@guarded
def match_online_give_time(request: HttpRequest, match: Match) -> HttpResponse:
    """The organiser gives the player who ran out of time (the table on hold, ``tables.match_clock``) more minutes:
    the table plays on."""
    if not is_organiser(request.user, match.competition.club_id):
        raise PermissionDenied("Only the club's organisers give a player more time.")
    table = fixtures.fixture_table(match)
    if table is None:
        messages.error(request, "The match has no open online table.")
        return redirect("match_online", pk=match.pk)
    try:
        minutes = int(request.POST.get("minutes", ""))
    except ValueError:
        messages.error(request, f"Minutes: a whole number from 1 to {match_clock.MAX_GIVEN_MINUTES}, please.")
        return redirect(reverse("match_online", args=[match.pk]) + "#on-hold")
    try:
        match_clock.give_time(table.pk, minutes=minutes)
    except changes.TableError as error:
        messages.error(request, f"{error.field.capitalize()}: {error.reason}.")
        return redirect(reverse("match_online", args=[match.pk]) + "#on-hold")
    messages.success(request, f"{minutes} more minute{'s' if minutes != 1 else ''} given: the table plays on.")
    return redirect("match_online", pk=match.pk)


@require_POST
@guarded
def match_online_seat_link(request: HttpRequest, match: Match, number: int, what: str) -> HttpResponse:
    """Renew (``what="renew"``: a new link, the old one refused) or revoke (the link refused until renewed) the
    private link of seat ``number`` of the match's open table (``tables.seat_links``)."""
    table = fixtures.fixture_table(match)
    if table is None:
        messages.error(request, "The match has no open online table.")
        return redirect("match_online", pk=match.pk)
    change = seat_links.renew_seat_link if what == "renew" else seat_links.revoke_seat_link
    try:
        change(table, number - 1, request.user)
    except changes.TableError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, f"Seat {number} has a new private link: the old one no longer opens the seat."
                         if what == "renew" else f"Seat {number}'s private link is revoked: it no longer opens the "
                         "seat (a player with a login still plays by it). Renew it to hand out a new one.")
    return redirect(reverse("match_online", args=[match.pk]) + f"#seat-{number}")


def match_online_seat_renew(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return match_online_seat_link(request, pk, number=number, what="renew")


def match_online_seat_revoke(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return match_online_seat_link(request, pk, number=number, what="revoke")
