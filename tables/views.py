"""Pages of the online tables: the lobby (open tables, games to watch, a new table) and the table page, whose
seats panel posts to the views below.

Thin views: every write goes through ``tables.services`` and its ``TableError`` is shown to the user in the
service's words. Who reads the page: the seat of the private seat link (``?seat=<token>``) or of the session's
user; anyone else watches, and a private table's spectators bring its invite (``?invite=<token>``) — without it a
private table is a 404. Only the table's creator adds or removes bots, starts and rematches; every permission is
checked on every request. The live part of the page (``static/js/table.js``) talks to ``tables.consumers`` with
the same tokens.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from tables import services
from tables.forms import BOT_CHOICES, CreateTableForm, form_field_for, seat_label
from tables.models import Seat, Table

LOBBY_LIMIT = 50
"""Tables listed in each part of the lobby."""


@dataclass(frozen=True)
class Reader:
    """Who reads a table page: the seat they play (``None``: a spectator) and the token that let them in, carried
    on to the socket and the seats panel's forms."""

    table: Table
    seat: int | None
    seat_token: str = ""
    invite: str = ""

    @property
    def query(self) -> str:
        """The query string that opens the same view again (``""`` for a public table or a seated user)."""
        if self.seat_token:
            return "?" + urlencode({"seat": self.seat_token})
        if self.invite:
            return "?" + urlencode({"invite": self.invite})
        return ""

    def url(self) -> str:
        return reverse("table", args=[self.table.pk]) + self.query


def _same(given: str, expected: str) -> bool:
    return bool(given) and secrets.compare_digest(given.encode(), expected.encode())


def reader_of(request: HttpRequest, pk: int) -> Reader:
    """The reader of table ``pk`` from the request's tokens (query or form) and session; a 404 for a private
    table they may not see, or a seat link of another table."""
    table = get_object_or_404(Table, pk=pk)
    params = request.POST if request.method == "POST" else request.GET
    seat_token, invite = params.get("seat", ""), params.get("invite", "")
    if seat_token:
        row = services.seat_by_token(seat_token)
        if row is None or row.table_id != table.pk:
            raise Http404("no such seat link")
        return Reader(table, row.index, seat_token=seat_token)
    seat = services.seat_of_user(table, request.user)
    invited = _same(invite, table.invite_token)
    if table.visibility == Table.PRIVATE and seat is None and not invited and not is_creator(request, table):
        raise Http404("a private table: open it with its invite link")
    return Reader(table, seat, invite=invite if invited else "")


def is_creator(request: HttpRequest, table: Table) -> bool:
    return request.user.is_authenticated and table.created_by_id == request.user.pk


# ----------------------------------------------------------------------------- the lobby
@require_http_methods(["GET", "POST"])
def lobby(request: HttpRequest) -> HttpResponse:
    """Open public tables, public games in progress to watch, the user's own tables, and the form for a new
    table (signing in needed to create one)."""
    form = CreateTableForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = CreateTableForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                table = services.create_table(request.user, data["players"], None, data["visibility"],
                                              form.bots(), seat=data["seat"])
            except services.TableError as error:
                form.add_error(form_field_for(error.field), error.reason)
            else:
                return redirect("table", table.pk)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    public = Table.objects.filter(visibility=Table.PUBLIC, kind=Table.CASUAL).prefetch_related(seats)
    mine = Table.objects.none()
    if request.user.is_authenticated:
        mine = (Table.objects.filter(seats__user=request.user, status__in=services.OPEN).distinct()
                .prefetch_related(seats)[:LOBBY_LIMIT])
    return render(request, "tables/lobby.html", {
        "form": form,
        "open_tables": public.filter(status=Table.LOBBY)[:LOBBY_LIMIT],
        "playing_tables": public.filter(status=Table.PLAYING)[:LOBBY_LIMIT],
        "my_tables": mine,
    })


# ----------------------------------------------------------------------------- the table page
def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The table: the live part (cards, trick, score, clock) drawn by ``table.js`` from the reader's own frame,
    and the seats panel."""
    reader = reader_of(request, pk)
    table = reader.table
    frame = services.view_for(table, reader.seat) if reader.seat is not None else services.spectator_view(table)
    creator = is_creator(request, table)
    if table.end_reason and table.status not in services.OPEN:  # a fixture's table says why it stopped
        messages.info(request, table.end_reason)
    invite_url = None
    if table.visibility == Table.PRIVATE and (creator or reader.seat is not None):
        invite_url = request.build_absolute_uri(reverse("table", args=[table.pk]) + "?" +
                                                urlencode({"invite": table.invite_token}))
    return render(request, "tables/table.html", {
        "table": table, "reader": reader, "frame": frame, "creator": creator, "invite_url": invite_url,
        "seat_rows": _seat_rows(request, table, reader, creator),
        "socket_path": f"/ws/tables/{table.pk}/", "bot_choices": BOT_CHOICES[1:],
        "can_start": creator and table.status == Table.LOBBY,
        "can_rematch": creator and table.kind == Table.CASUAL and table.status == Table.FINISHED,
    })


def _seat_rows(request: HttpRequest, table: Table, reader: Reader, creator: bool) -> list[dict]:
    casual_lobby = table.kind == Table.CASUAL and table.status == Table.LOBBY
    rows = []
    for row in table.seats.select_related("user").order_by("index"):
        empty = row.is_empty
        mine = reader.seat == row.index
        rows.append({
            "index": row.index, "number": row.index + 1, "label": seat_label(row.index, table.players),
            "name": _name(row),
            "mine": mine, "bot": row.bot, "covering": row.covering,
            "can_take": empty and reader.seat is None and table.kind == Table.CASUAL and table.status in services.OPEN
            and not reader.seat_token,
            "can_leave": mine and not reader.seat_token and table.kind == Table.CASUAL and request.user.is_authenticated
            and row.user_id == request.user.pk and table.status in services.OPEN,
            "can_add_bot": creator and casual_lobby and empty,
            "can_remove_bot": creator and casual_lobby and bool(row.bot),
        })
    return rows


def _name(row: Seat) -> str:
    if row.bot:
        return f"{row.get_bot_display()} bot"
    return row.user.get_username() if row.user is not None else ""


# ----------------------------------------------------------------------------- the seats panel's forms
def _back(reader: Reader) -> HttpResponse:
    return redirect(reader.url())


def _run(request: HttpRequest, reader: Reader, call, done: str) -> HttpResponse:
    try:
        call()
    except services.TableError as error:
        messages.error(request, error.reason)
    else:
        messages.success(request, done)
    return _back(reader)


def _creator_only(request: HttpRequest, reader: Reader) -> None:
    if not is_creator(request, reader.table):
        raise PermissionDenied("only the table's creator may do this")


@require_POST
def take_seat(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    reader = reader_of(request, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reader.url())
    return _run(request, reader, lambda: services.take_seat(reader.table, number - 1, request.user),
                f"You sit at seat {number}.")


@require_POST
def leave_seat(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    reader = reader_of(request, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reader.url())
    return _run(request, reader, lambda: services.leave_seat(reader.table, number - 1, request.user),
                f"You left seat {number}.")


@require_POST
def add_bot(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    reader = reader_of(request, pk)
    _creator_only(request, reader)
    kind = request.POST.get("bot", "")
    return _run(request, reader, lambda: services.add_bot(reader.table, number - 1, kind),
                f"A bot plays seat {number}.")


@require_POST
def remove_bot(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    reader = reader_of(request, pk)
    _creator_only(request, reader)
    return _run(request, reader, lambda: services.remove_bot(reader.table, number - 1),
                f"Seat {number} is open again.")


@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    reader = reader_of(request, pk)
    _creator_only(request, reader)
    return _run(request, reader, lambda: services.start(reader.table), "The cards are dealt.")


@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    reader = reader_of(request, pk)
    _creator_only(request, reader)
    return _run(request, reader, lambda: services.rematch(reader.table), "A new game: the cards are dealt.")
