"""Pages of the online tables: the lobby (open tables, games to watch, a new table) and the table page, whose
seats panel posts to the views below.

Thin views: every write goes through the modules that change a table (``tables.seating``, ``tables.dealing``, …) and
its ``TableError`` is shown to the user in the service's words. Who reads the page: the seat of the private seat
link (``?seat=<token>``) or of the session's user; anyone else watches, and a private table's spectators bring its
invite (``?invite=<token>``) — without it a private table is a 404. An event's table (``tables.spectators``) is
watched from its competition's live page with no invite, a trick behind or not at all as its organiser set, and
never by a player of its match (sent to their seat). Only the table's creator adds or removes bots,
starts and rematches; every permission is checked on every request. The live part of the page
(``static/js/table.js``) talks to ``tables.consumers`` with the same tokens.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Min, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.models import Hand, Match
from games.replay import ReplayUnavailable, build_record_replay
from games.views_replay import render_replay
from tables import changes, dealing, fixtures, one_seat, reader_views, seating, spectators
from tables import live as table_live
from tables.forms import BOT_CHOICES, CreateTableForm, form_field_for, seat_label
from tables.models import Seat, Table, TableHand
from tables.state import table_ruleset

LOBBY_LIMIT = 50
"""Tables listed in each part of the lobby."""
"""A bot's name in a replay, as the table's felt says it (with its seat's number: two bots of a kind told apart)."""
HANDS_LISTED = 12
"""Finished hands listed (with their replays) on a table's page, the latest first."""


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
        try:
            row = seating.seat_by_token(seat_token, request.user)
        except one_seat.SeatElsewhere as error:  # one seat per player per event
            raise PermissionDenied(error.reason) from None
        if row is None or row.table_id != table.pk:
            raise Http404("no such seat link")
        return Reader(table, row.index, seat_token=seat_token)
    seat = seating.seat_of_user(table, request.user)
    invited = _same(invite, table.invite_token)
    if table.visibility == Table.PRIVATE and seat is None and not invited and not is_creator(request, table) \
            and not spectators.rule_of(table).public:  # an event's tables are watched from its page, no invite
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
                table = seating.create_table(request.user, data["players"], None, data["visibility"],
                                             form.bots(), seat=data["seat"], bot_pace=settings.TABLES_BOT_PACE)
            except changes.TableError as error:
                form.add_error(form_field_for(error.field), error.reason)
            else:
                return redirect("table", table.pk)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    public = Table.objects.filter(visibility=Table.PUBLIC, kind=Table.CASUAL).prefetch_related(seats)
    mine = Table.objects.none()
    if request.user.is_authenticated:
        mine = (Table.objects.filter(seats__user=request.user, status__in=changes.OPEN).distinct()
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
    not_watched = _not_a_spectator(request, reader, reverse("table", args=[table.pk]))
    if not_watched is not None:
        return not_watched
    if reader.seat is not None:
        frame = reader_views.view_for(table, reader.seat)
    else:
        frame = table_live.spectators_frame(reader_views.spectator_view(table), spectators.rule_of(table).watching,
                                            table)
    creator = is_creator(request, table)
    if table.end_reason and table.status not in changes.OPEN:  # a fixture's table says why it stopped
        messages.info(request, table.end_reason)
    invite_url = None
    if table.visibility == Table.PRIVATE and (creator or reader.seat is not None):
        invite_url = request.build_absolute_uri(reverse("table", args=[table.pk]) + "?" +
                                                urlencode({"invite": table.invite_token}))
    match = fixture_match(table)
    names = seat_names(table, match) if match is not None else None
    return render(request, "tables/table.html", {
        "table": table, "reader": reader, "frame": frame, "creator": creator, "invite_url": invite_url,
        "match": match, "seat_rows": _seat_rows(request, table, reader, creator, names),
        "page_info": {"names": names or [], "target": table_ruleset(table).target, "kind": table.kind,
                      "hands": reverse("table", args=[table.pk]) + "hands/", "query": reader.query,
                      **_fixture_info(table, match, names)},
        "hands": finished_hands(table),
        "socket_path": f"/ws/tables/{table.pk}/", "bot_choices": BOT_CHOICES[1:],
        "can_start": creator and table.status == Table.LOBBY,
        "can_rematch": creator and table.kind == Table.CASUAL and table.status == Table.FINISHED,
    })


def _fixture_info(table: Table, match: Match | None, names: list[str] | None) -> dict:
    """What a fixture's table page shows beyond the frame: the sides by name, the match's format, the games won
    and the score on the sheet before the first deal (a match opened online again goes on from its sheet), and
    the match's result once it is over."""
    if match is None:
        return {}
    info = {"sides": list(side_names(table, names or [], match)), "format": match.competition.format_label.lower(),
            "games_won": [match.games_a, match.games_b]}
    if table.status == Table.LOBBY:
        last = (Hand.objects.filter(game__match=match, game__winner="", deleted=False, void_reason="")
                .order_by("-game__number", "-number").values_list("score_a_after", "score_b_after").first())
        info["score"] = list(last) if last else [0, 0]
    if table.status == Table.FINISHED:  # the winner's name ("" for none: a double forfeit)
        info["winner"] = {"a": match.side_a_name, "b": match.side_b_name}.get(match.winner, "")
    return info


def fixture_match(table: Table) -> Match | None:
    """The league match a fixture's table plays, with its sides' players (``None`` at a casual table)."""
    if table.kind != Table.FIXTURE or table.match_id is None:
        return None
    return (Match.objects.select_related("competition", "side_a__player_one", "side_a__player_two",
                                         "side_b__player_one", "side_b__player_two").filter(pk=table.match_id).first())


def seat_names(table: Table, match: Match | None = None) -> list[str]:
    """Who sits where, by seat index: at a fixture its players by name (whether they play by their login or by
    their seat's link), at a casual table its users and bots (``Ben (normal bot)``; ``""``: an open seat)."""
    if match is not None:
        return [player.name for player in fixtures.fixture_players(match)]
    return [row.display_name for row in table.seats.select_related("user").order_by("index")]


def side_names(table: Table, names: list[str], match: Match | None = None) -> tuple[str, str]:
    """Side A's and side B's names: a fixture's partnerships, a casual table's seats (``pat & Cleo (normal bot)``)."""
    if match is not None:
        return match.side_a_name, match.side_b_name
    named = [name or f"Seat {index + 1}" for index, name in enumerate(names)]
    if table.players == 2:
        return named[0], named[1]
    return f"{named[0]} & {named[2]}", f"{named[1]} & {named[3]}"


def finished_hands(table: Table, limit: int = HANDS_LISTED) -> list[dict]:
    """The table's finished hands, the latest first: game, hand of the game, points and score after (a hand in
    play is not listed: its cards are hidden until it ends)."""
    rows = list(TableHand.objects.filter(table=table, finished_at__isnull=False, record__isnull=False)
                .order_by("-number").values("number", "game_number", "result", "stored_hand__number")[:limit])
    firsts = dict(TableHand.objects.filter(table=table, game_number__in={row["game_number"] for row in rows})
                  .values_list("game_number").annotate(first=Min("number")))
    out = []
    for row in rows:
        result = row["result"] if isinstance(row["result"], dict) else {}
        points, after = result.get("points") or [0, 0], result.get("score_after") or [0, 0]
        out.append({"number": row["number"], "game": row["game_number"],
                    "in_game": row["stored_hand__number"]  # a fixture's: its number on the sheet
                    or row["number"] - firsts.get(row["game_number"], row["number"]) + 1,
                    "points": points, "score_after": after, "redeal": bool(result.get("redeal")),
                    "won": result.get("winner") in (0, 1)})
    return out


@require_safe
def table_replay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A finished hand of the table stepped through trick by trick (``games.replay``, the scoresheet's replay page),
    for whoever may read the table: its players and spectators (a private table's with its invite). A hand still
    in play is refused (404): its cards are hidden until it ends."""
    reader = reader_of(request, pk)
    table = reader.table
    not_watched = _not_a_spectator(request, reader, reverse("table_replay", args=[table.pk, number]))
    if not_watched is not None:
        return not_watched
    hand = TableHand.objects.filter(table=table, number=number).first()
    if hand is None:
        return _not_found(request, f"table {table.pk} has dealt no hand {number}.")
    if hand.record is None or not isinstance(hand.result, dict) or hand.finished_at is None:
        return _not_found(request, f"hand {number} of table {table.pk} is still being played: its cards stay hidden "
                                   "until it ends, then it can be replayed.")
    match = fixture_match(table)
    names = seat_names(table, match)
    if hand.stored_hand is not None:  # a fixture's hand: its number on the match's sheet
        in_game = hand.stored_hand.number
    else:
        in_game = TableHand.objects.filter(table=table, game_number=hand.game_number, number__lte=hand.number).count()
    where = f"hand {in_game} of game {hand.game_number} at table {table.pk}"
    try:
        replay = build_record_replay(hand.record, hand.result, where=where, names=names,
                                     side_names=side_names(table, names, match), number=in_game,
                                     game_number=hand.game_number,
                                     game_points=table_ruleset(table).game_points)
    except ReplayUnavailable as refusal:
        return _not_found(request, refusal.reason)
    return render_replay(request, replay, {"table": table, "match": None, "reader": reader,
                                           "back_url": reader.url(), "back_text": f"Back to table {table.pk}"},
                         query=reader.query.removeprefix("?"))


def _not_a_spectator(request: HttpRequest, reader: Reader, path: str) -> HttpResponse | None:
    """An event table's reader who may not watch it (``tables.spectators``): a player of the match, or a browser
    that opened one of its seat links, is sent to their seat at ``path``; while the event keeps its tables out of
    sight, a spectator is told so (403). A browser opening an event table with a seat link remembers it, so that
    the same browser cannot come back as a spectator. ``None``: the reader reads on."""
    table = reader.table
    if reader.seat_token:
        if table.kind == Table.FIXTURE and spectators.rule_of(table).is_event:
            spectators.remember_link(request.session, table, reader.seat_token)
        return None
    if reader.seat is not None:
        return None
    rule = spectators.rule_of(table)
    refusal = spectators.why_not_spectator(table, rule, request.user, request.session.get(spectators.SEAT_LINKS_KEY))
    if refusal is None:
        return None
    if refusal.seat_token:
        messages.info(request, refusal.reason)
        return redirect(path + "?" + urlencode({"seat": refusal.seat_token}))
    match = fixture_match(table)
    return render(request, "tables/not_watched.html", {"table": table, "reason": refusal.reason, "match": match,
                                                       "competition": match.competition if match else None},
                  status=403)


def _not_found(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "404.html", {"exception": message}, status=404)


def _seat_rows(request: HttpRequest, table: Table, reader: Reader, creator: bool,
               names: list[str] | None = None) -> list[dict]:
    casual_lobby = table.kind == Table.CASUAL and table.status == Table.LOBBY
    rows = []
    for row in table.seats.select_related("user").order_by("index"):
        empty = row.is_empty
        mine = reader.seat == row.index
        rows.append({
            "index": row.index, "number": row.index + 1, "label": seat_label(row.index, table.players),
            "name": names[row.index] if names and row.index < len(names) and names[row.index] else row.display_name,
            "login": row.user.get_username() if names and row.user is not None else "",
            "mine": mine, "bot": row.bot, "covering": row.covering,
            "can_take": empty and reader.seat is None and table.kind == Table.CASUAL and table.status in changes.OPEN
            and not reader.seat_token,
            "can_leave": mine and not reader.seat_token and table.kind == Table.CASUAL and request.user.is_authenticated
            and row.user_id == request.user.pk and table.status in changes.OPEN,
            "can_add_bot": creator and casual_lobby and empty,
            "can_remove_bot": creator and casual_lobby and bool(row.bot),
        })
    return rows


# ----------------------------------------------------------------------------- the seats panel's forms
def _back(reader: Reader) -> HttpResponse:
    return redirect(reader.url())


def _run(request: HttpRequest, reader: Reader, call, done: str) -> HttpResponse:
    try:
        call()
    except changes.TableError as error:
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
    return _run(request, reader, lambda: seating.take_seat(reader.table, number - 1, request.user),
                f"You sit at seat {number}.")


@require_POST
def leave_seat(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    reader = reader_of(request, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reader.url())
    return _run(request, reader, lambda: seating.leave_seat(reader.table, number - 1, request.user),
                f"You left seat {number}.")


@require_POST
def add_bot(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    reader = reader_of(request, pk)
    _creator_only(request, reader)
    kind = request.POST.get("bot", "")
    return _run(request, reader, lambda: seating.add_bot(reader.table, number - 1, kind),
                f"A bot plays seat {number}.")


@require_POST
def remove_bot(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    reader = reader_of(request, pk)
    _creator_only(request, reader)
    return _run(request, reader, lambda: seating.remove_bot(reader.table, number - 1),
                f"Seat {number} is open again.")


@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    reader = reader_of(request, pk)
    _creator_only(request, reader)
    return _run(request, reader, lambda: dealing.start(reader.table), "The cards are dealt.")


@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    reader = reader_of(request, pk)
    _creator_only(request, reader)
    return _run(request, reader, lambda: dealing.rematch(reader.table), "A new game: the cards are dealt.")
