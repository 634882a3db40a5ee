"""Everything that changes a table: creating it, seats, bots, starting, acting, the clock and closing.

Every write runs under ``select_for_update()`` on the ``Table`` row and bumps ``Table.version`` when the table's
picture changes; an accepted action is stored as a ``TableAction`` whose ``seq`` is the version after it. The
engine checks every action (seat, phase, turn and the rules) and its words are the refusal's reason. A hand that
ends is stored with its record; at a fixture table it goes through ``games.services.enter_hand`` in the same
transaction, and the next hand's dealer and score come from ``games.services.next_hand``, so the table and the
match's sheet always agree. After the commit ``tables.signals.table_changed`` tells the live layer.

Seats: the seat a caller acts for comes from the caller (the session or the seat's private link), never from a
message. Bots: a seat owned by a bot moves ``bot_pace`` seconds after its turn starts; a human's turn runs out at
``turn_seconds`` plus what is left of the seat's bank, and then a bot moves for it (``by="clock"``); a seat away
``AWAY_SECONDS`` is covered by a bot (``by="cover"``) until its player reclaims it, at their next turn.

The server keeps the clock, and charges it only for a turn its player was shown: a socket of the seat that is sent
the turn says so (``turn_shown``). A turn that reached the player late (the channel layer down, a frame lost) has
its clock started when it arrived; a turn never shown when its clock is up is not run out on its player but sent
again with more time (``UNSHOWN_GRACE_SECONDS``), and a player it never reaches is covered as one away. Nothing
here needs Celery: ``due_moves`` and ``play_due`` are called by a ticker (the ASGI process's, or a test's).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from django.db import IntegrityError, connection, transaction
from django.db.models import Case, F, IntegerField, Q, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from engine.actions import OVER, Action
from engine.bots import BOT_NAMES, make_bot
from engine.errors import EngineError, FieldError
from engine.game import choose_first_dealer, next_dealer
from engine.hand import HandState
from engine.rules import Ruleset
from engine.seat_view import SeatView
from games.models import Hand, Match
from games.services import EntryError, MatchHeldError, enter_hand, next_hand
from league.permissions import can_enter_hands, is_organiser
from tables import reads
from tables import state as live
from tables.models import Seat, Table, TableAction, TableHand, default_bot_pace
from tables.signals import presence_changed, table_changed

AWAY_SECONDS = 60
"""A seat whose player is away this long is played by a bot until they reclaim it."""
IDLE_SECONDS = 30 * 60
"""A table with no activity this long is closed (``close_idle``)."""
UNSHOWN_GRACE_SECONDS = 15
"""More time for a turn whose clock is up but that no socket of its seat was shown; it is published again."""
LATE_SHOWN_SECONDS = 2.0
"""A turn shown later than this after it started has its clock started again when shown."""
COVER_BOT = "heuristic"
"""The bot that plays for a player away or out of time."""
OPEN = (Table.LOBBY, Table.PLAYING)


class TableError(FieldError):
    """A request the table refuses: ``field`` names what is wrong, ``reason`` says why (the engine's words for a
    move the rules forbid)."""


class StaleVersion(TableError):
    """The request was made on an older version of the table: resync and try again."""

    conflict = True


@dataclass(frozen=True)
class Outcome:
    """An accepted action: the table's version after it, who moved what and how; ``repeated`` when the action id
    had been accepted before (nothing changed now); ``hand_over`` with the hand's ``result`` when it ended a
    hand."""

    table_id: int
    version: int
    seat: int
    action: str
    by: str
    hand_over: bool = False
    result: dict[str, Any] | None = None
    repeated: bool = False


# ----------------------------------------------------------------------------- locking and publishing
def _locked(table: Table | int) -> Table:
    table_id = table if isinstance(table, int) else table.pk
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("table", f"there is no table {table_id}") from None


def _publish(table: Table, hand: TableHand | None = None, state: HandState | None = None, *,
             seats: dict[int, Seat] | None = None, action: dict[str, Any] | None = None) -> None:
    """After the commit: keep the state for its version and tell the live layer. With ``seats`` (every seat row of
    the table as this transaction read it under the lock, with its user, and saved it since) and a hand in play,
    the readers' frames are built from what the change already holds (``views``, and ``action``: who did what) —
    no second read of the table, its seats or its last action; the live layer reads them itself otherwise."""
    table_id, version = table.pk, table.version
    kept = state.copy() if state is not None and hand is not None else None  # kept as it is now: one copy
    rows = [seats[index] for index in sorted(seats)] if seats is not None and len(seats) == table.players else None

    def committed() -> None:
        if kept is not None and hand is not None:  # kept only with its hand
            live.remember(table_id, version, hand, kept, copy=False)
        views = all_views(table, hand=hand, state=kept, seats=rows) if kept is not None and rows is not None \
            else None
        table_changed.send(sender=Table, table_id=table_id, version=version, views=views, action=action)

    transaction.on_commit(committed)


def _touch(table: Table, now: datetime) -> None:
    table.version += 1
    table.last_activity_at = now


def _seat(table: Table, index: Any) -> Seat:
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < table.players:
        raise TableError("seat", f"must be a seat from 0 to {table.players - 1}, got {index!r}")
    return table.seats.select_for_update().get(index=index)


# ----------------------------------------------------------------------------- creating and seating
def create_table(user, players: int = 4, ruleset: dict | None = None, visibility: str = Table.PUBLIC,
                 bots: dict[int, str] | None = None, *, seat: int | None = None, turn_seconds: int = 30,
                 bank_seconds: int = 60, bot_pace: float | None = None) -> Table:
    """A casual table in the lobby; ``bots`` fills seats with bots (``{seat: "random"|"heuristic"|"montecarlo"}``)
    and ``seat`` seats its creator. ``bot_pace`` defaults to the ``TABLES_BOT_PACE`` setting."""
    if bot_pace is None:
        bot_pace = default_bot_pace()
    if players not in (2, 4) or isinstance(players, bool):
        raise TableError("players", f"must be 2 or 4, got {players!r}")
    if visibility not in (Table.PUBLIC, Table.PRIVATE):
        raise TableError("visibility", f"must be {Table.PUBLIC} or {Table.PRIVATE}, got {visibility!r}")
    overrides = _checked_ruleset(ruleset)
    for field, value in (("turn_seconds", turn_seconds), ("bank_seconds", bank_seconds)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3600:
            raise TableError(field, f"must be a whole number of seconds from 0 to 3600, got {value!r}")
    if not isinstance(bot_pace, int | float) or not 0 <= bot_pace <= 60:
        raise TableError("bot_pace", f"must be from 0 to 60 seconds, got {bot_pace!r}")
    bots = bots or {}
    with transaction.atomic():
        table = Table.objects.create(kind=Table.CASUAL, players=players, ruleset=overrides, visibility=visibility,
                                     created_by=user if _signed_in(user) else None, turn_seconds=turn_seconds,
                                     bank_seconds=bank_seconds, bot_pace=float(bot_pace))
        Seat.objects.bulk_create([Seat(table=table, index=i, bank_left=bank_seconds) for i in range(players)])
        for index, kind in bots.items():
            _put_bot(table, _seat(table, index), kind)
        if seat is not None and _signed_in(user):
            _sit(table, _seat(table, seat), user)
        _publish(table)
    return table


def _checked_ruleset(ruleset: Any) -> dict:
    if ruleset is not None and not isinstance(ruleset, dict):
        raise TableError("ruleset", "must be a JSON object of the engine's ruleset settings")
    try:
        return Ruleset.from_dict(ruleset or None).overrides()
    except FieldError as error:
        raise TableError(error.field or "ruleset", error.reason) from None


def _signed_in(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def take_seat(table: Table | int, seat: int, user) -> Seat:
    """``user`` sits at an empty seat (in the lobby), or takes over a seat a bot covers for a player who left
    (during play: the bot moves until the user's next turn)."""
    if not _signed_in(user):
        raise TableError("user", "sign in to take a seat")
    with transaction.atomic():
        table = _locked(table)
        if table.kind == Table.FIXTURE:
            raise TableError("seat", "the seats of a league fixture belong to the partnerships' players")
        if table.status not in OPEN:
            raise TableError("table", f"the table is {table.get_status_display().lower()}")
        row = _seat(table, seat)
        _sit(table, row, user)
        _touch(table, timezone.now())
        _deadline(table, timezone.now())
        table.save()
        _publish(table)
    return row


def _sit(table: Table, row: Seat, user) -> None:
    if table.seats.filter(user=user).exclude(pk=row.pk).exists():
        raise TableError("seat", "you already have a seat at this table")
    if row.user_id == user.pk:
        return
    if row.bot or row.user_id is not None:
        raise TableError("seat", f"seat {row.index + 1} is taken")
    row.user = user
    row.away_since = None
    if table.status == Table.PLAYING:  # a seat left during play: its cover plays on until the new player's turn
        _ask_to_reclaim(table, row)
    row.save()


def leave_seat(table: Table | int, seat: int, user) -> Seat:
    """``user`` leaves their seat: in the lobby it is free again; during play a bot covers it (another user
    may take it)."""
    with transaction.atomic():
        table = _locked(table)
        row = _seat(table, seat)
        if user is None or row.user_id != user.pk:
            raise TableError("seat", f"seat {row.index + 1} is not yours")
        if table.kind == Table.FIXTURE:
            raise TableError("seat", "a fixture's seat stays its player's: a bot covers it while they are away")
        row.user = None
        row.reclaim_pending = False
        if table.status == Table.PLAYING:
            row.covering = True
            row.away_since = row.away_since or timezone.now()
        row.save()
        now = timezone.now()
        _touch(table, now)
        _deadline(table, now)
        table.save()
        _publish(table)
    return row


def add_bot(table: Table | int, seat: int, kind: str) -> Seat:
    """A bot (``random``, ``heuristic``, ``montecarlo``: easy, normal, strong) owns an empty seat."""
    with transaction.atomic():
        table = _locked(table)
        if table.kind == Table.FIXTURE:
            raise TableError("seat", "the seats of a league fixture belong to the partnerships' players")
        if table.status != Table.LOBBY:
            raise TableError("table", "bots join a table before it starts")
        row = _put_bot(table, _seat(table, seat), kind)
        _touch(table, timezone.now())
        table.save()
        _publish(table)
    return row


def remove_bot(table: Table | int, seat: int) -> Seat:
    """The seat's bot leaves (in the lobby)."""
    with transaction.atomic():
        table = _locked(table)
        if table.status != Table.LOBBY:
            raise TableError("table", "bots leave a table before it starts")
        row = _seat(table, seat)
        if not row.bot:
            raise TableError("seat", f"seat {row.index + 1} has no bot")
        row.bot = Seat.NO_BOT
        row.save()
        _touch(table, timezone.now())
        table.save()
        _publish(table)
    return row


def _put_bot(table: Table, row: Seat, kind: Any) -> Seat:
    if kind not in BOT_NAMES:
        raise TableError("bot", f"must be one of {', '.join(BOT_NAMES)}, got {kind!r}")
    if row.user_id is not None or row.bot:
        raise TableError("seat", f"seat {row.index + 1} is taken")
    row.bot = kind
    row.save()
    return row


# ----------------------------------------------------------------------------- fixtures
def open_fixture(match: Match, user) -> Table:
    """The match played online: its organiser or scorekeeper opens a table whose seats belong to the two
    partnerships' players (side A at seats 0 and 2, side B at 1 and 3; each seat also has a private link). The
    table plays the match's format game after game; an open table of the match is returned as it is."""
    if not can_enter_hands(user, match):
        raise TableError("match", "only the match's organisers and scorekeepers may open it online")
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("competition", "side_a", "side_b").get(pk=match.pk)
        existing = Table.objects.filter(match=match, status__in=OPEN).first()
        if existing is not None:
            return existing
        if match.status == Match.COMPLETE:
            raise TableError("match", "the match is complete")
        if match.outcome != Match.PLAYED or match.result_level != "hand" and match.games.exists():
            raise TableError("match", "the match's result was entered above the hand level: it cannot be played "
                                      "online")
        competition = match.competition
        table = Table.objects.create(kind=Table.FIXTURE, match=match, players=competition.players,
                                     ruleset=_checked_ruleset(competition.ruleset or None),
                                     visibility=Table.PRIVATE, created_by=user if _signed_in(user) else None)
        Seat.objects.bulk_create([Seat(table=table, index=index, user=player.user, bank_left=table.bank_seconds)
                                  for index, player in enumerate(fixture_players(match))])
        _publish(table)
    return table


def fixture_players(match: Match) -> list:
    """The players in seat order: side A's first, side B's first, side A's second, side B's second."""
    side_a, side_b = match.side_a, match.side_b
    if match.competition.players == 2:
        return [side_a.player_one, side_b.player_one]
    return [side_a.player_one, side_b.player_one, side_a.player_two, side_b.player_two]


def fixture_table(match: Match | int) -> Table | None:
    """The match's online table that is open (waiting to start or playing), if there is one."""
    match_id = match if isinstance(match, int) else match.pk
    return Table.objects.filter(kind=Table.FIXTURE, match_id=match_id, status__in=OPEN).order_by("-pk").first()


def end_fixture(table: Table | int, user) -> Table:
    """The organiser ends online play of a fixture: the table closes and says so (a hand in progress is not
    stored: its pack and moves stay at the table), and the match's results are entered on its pages again. The
    match may be opened online again later: the new table deals from the sheet."""
    with transaction.atomic():
        table = _locked(table)
        if table.kind != Table.FIXTURE:
            raise TableError("table", "only a league fixture's online play is ended this way")
        match = Match.objects.select_related("competition").get(pk=_match_id(table))
        if not is_organiser(user, match.competition.club_id):
            raise TableError("match", "only the club's organisers may end online play of a match")
        if table.status not in OPEN:
            raise TableError("table", f"online play has already ended: the table is "
                                      f"{table.get_status_display().lower()}")
        where = f" during hand {table.hand_number}, which is not stored" if table.status == Table.PLAYING else ""
        _stop(table, Table.CLOSED, f"Online play was ended by the organiser ({user.get_username()}){where}: the "
                                   "match goes on on its scoresheet.")
        _touch(table, timezone.now())
        table.save()
        _publish(table)
    return table


def _stop(table: Table, status: str, reason: str) -> None:
    table.status = status
    table.end_reason = reason[:300]
    table.turn = table.turn_started_at = table.deadline_at = None


def match_over(match: Match) -> str:
    """Why a fixture's table finished, in words: the match's result (a forfeit says who did not play)."""
    names = {"a": match.side_a_name, "b": match.side_b_name}
    if match.outcome == Match.DOUBLE_FORFEIT:
        return "The match is over: the organiser recorded that neither side played."
    if match.outcome != Match.PLAYED:
        absent = names["a" if match.outcome == Match.FORFEIT_A else "b"]
        return f"The match is over: the organiser recorded a forfeit — {absent} did not play, " \
               f"{names.get(match.winner, '')} won."
    score = f"{match.side_a_name} {match.games_a} – {match.games_b} {match.side_b_name}"
    if match.winner in names:
        return f"The match is over: {names[match.winner]} won, games {score}."
    return f"The match is over: games {score}."


def hold_fixture_matches(sender: Any = None, match: Match | None = None, action: str = "", user: Any = None,
                         holder: Any = None, **kwargs: Any) -> None:
    """``games.signals.results_changing``'s receiver: while an online table is open for the match, its results
    change at the table only — a hand, a correction, an undo, a game result or totals entered on the match's
    pages or through the API is refused (``MatchHeldError``: 409 in the API, a message on the form), because the
    table's next deal would no longer follow the sheet. A forfeit (the organiser's) ends the match: it goes
    through, and the table finishes after the commit, saying why."""
    if match is None:
        return
    table = fixture_table(match)
    if table is None or isinstance(holder, Table) and holder.pk == table.pk:
        return
    if action == "forfeit":
        table_id = table.pk
        transaction.on_commit(lambda: _end_with_match(table_id))
        return
    where = "waiting to start" if table.status == Table.LOBBY else \
        f"playing game {table.game_number}, hand {table.hand_number}"
    raise MatchHeldError("match", f"this match is being played online at table {table.pk} ({where}): the table "
                                  "stores its hands itself, so results are not entered here while it plays — the "
                                  "organiser can end online play on the match's online page first")


def _end_with_match(table_id: int) -> None:
    """After a forfeit's commit: the table finishes with the match, saying why."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.status not in OPEN:
            return
        match = Match.objects.select_related("competition").get(pk=_match_id(table))
        _finish(table, match)
        _touch(table, timezone.now())
        table.save()
        _publish(table)


def seat_by_token(token: str) -> Seat | None:
    """The seat whose private link carries ``token`` (``None`` for none)."""
    if not token or not isinstance(token, str):
        return None
    return Seat.objects.select_related("table").filter(seat_token=token).first()


def seat_of_user(table: Table | int, user) -> int | None:
    """The seat ``user`` holds at the table, or ``None``."""
    if not _signed_in(user):
        return None
    table_id = table if isinstance(table, int) else table.pk
    return Seat.objects.filter(table_id=table_id, user=user).values_list("index", flat=True).first()


# ----------------------------------------------------------------------------- starting, dealing, rematch
def start(table: Table | int) -> Table:
    """Deal the first hand. A casual table needs every seat filled (a player or a bot); a fixture's seats are
    its players' (a bot moves for one who does not come when the clock runs out)."""
    with transaction.atomic():
        table = _locked(table)
        if table.status != Table.LOBBY:
            raise TableError("table", f"the table is {table.get_status_display().lower()}, not waiting to start")
        if table.kind == Table.CASUAL:
            empty = [row.index + 1 for row in table.seats.all() if row.is_empty]
            if empty:
                raise TableError("seats", f"seat {', '.join(map(str, empty))} is empty: take it or add a bot")
        now = timezone.now()
        table.status = Table.PLAYING
        table.seats.update(bank_left=table.bank_seconds)
        if table.kind == Table.FIXTURE:
            hand, state = _deal_fixture(table, now)
        else:
            dealer, _ = choose_first_dealer(table.players, live.table_ruleset(table), secrets.SystemRandom())
            hand, state = _deal_game(table, 1, dealer, now)
        _touch(table, now)
        table.save()
        _publish(table, hand, state)
    return table


def rematch(table: Table | int) -> Table:
    """A finished casual table plays a new game, the same seats, the deal passing on."""
    with transaction.atomic():
        table = _locked(table)
        if table.kind != Table.CASUAL:
            raise TableError("table", "a league fixture plays its match's format, no rematch")
        if table.status != Table.FINISHED:
            raise TableError("table", "a rematch follows a finished game")
        empty = [row.index + 1 for row in table.seats.all() if row.is_empty and not row.covering]
        if empty:
            raise TableError("seats", f"seat {', '.join(map(str, empty))} is empty: take it or add a bot")
        last = live.current_hand(table)
        dealer = next_dealer(table.players, last.dealer, last.result or {}) if last else 0
        now = timezone.now()
        table.status = Table.PLAYING
        table.seats.update(bank_left=table.bank_seconds)
        hand, state = _deal_game(table, table.game_number + 1, dealer, now)
        _touch(table, now)
        table.save()
        _publish(table, hand, state)
    return table


def _deal_game(table: Table, game_number: int, dealer: int, now: datetime) -> tuple[TableHand | None, HandState | None]:
    """A casual table's new game: score 0–0."""
    table.game_number = game_number
    table.score = [0, 0]
    return _deal(table, dealer, (0, 0), now)


def _deal_fixture(table: Table, now: datetime) -> tuple[TableHand | None, HandState | None]:
    """The match's next hand, where the sheet says it is: its game, dealer and score before it."""
    match = Match.objects.select_related("competition").get(pk=_match_id(table))
    if match.status == Match.COMPLETE:
        return _finish(table, match)
    target = next_hand(match)
    table.game_number = target.game.number
    table.score = list(target.score_before)
    table.games_won = [match.games_a, match.games_b]
    return _deal(table, target.dealer, target.score_before, now)


def _deal(table: Table, dealer: int, score_before, now: datetime) -> tuple[TableHand | None, HandState | None]:
    """Shuffle, store the pack and deal; a hand over as soon as it is dealt (a kick that wins the game) is
    finished at once."""
    table.hand_number += 1
    table.dealer = dealer
    pack = live.pack_text(live.new_pack())
    hand = TableHand.objects.create(table=table, number=table.hand_number, game_number=table.game_number,
                                    dealer=dealer, score_before=list(score_before), pack=pack)
    state = live.deal(table, hand)
    if state.phase is OVER:
        return _end_hand(table, hand, state, now)
    _deadline(table, now, state)
    return hand, state


def _finish(table: Table, match: Match | None = None) -> tuple[None, None]:
    table.status = Table.FINISHED
    table.turn = table.turn_started_at = table.deadline_at = None
    if match is not None:
        table.games_won = [match.games_a, match.games_b]
        table.end_reason = match_over(match)
    return None, None


def _end_hand(table: Table, hand: TableHand, state: HandState, now: datetime) -> tuple[TableHand | None,
                                                                                       HandState | None]:
    """Store the finished hand (a fixture's through ``games``), then deal the next one or finish."""
    hand.record = state.to_record()
    hand.result = state.result()
    hand.finished_at = now
    if table.kind == Table.FIXTURE:
        try:
            hand.stored_hand = _store_in_match(table, hand)
        except TableError as error:  # the sheet moved on without the table: stop cleanly, never stuck
            hand.save()
            return _sheet_moved_on(table, error)
        hand.save()
        return _deal_fixture(table, now)
    hand.save()
    result = hand.result
    table.score = list(result["score_after"])
    if result["winner"] is not None:
        table.games_won = [won + (team == result["winner"]) for team, won in enumerate(table.games_won)]
        return _finish(table)
    return _deal(table, next_dealer(table.players, hand.dealer, result), table.score, now)


def _match_id(table: Table) -> int:
    """The match of a fixture's table (the callers have checked that it is one)."""
    assert table.match_id is not None  # a fixture's table has its match
    return table.match_id


def _store_in_match(table: Table, hand: TableHand) -> Hand:
    """The hand's record entered in the match as a scorekeeper's would be (``games.services.enter_hand``)."""
    match = Match.objects.get(pk=_match_id(table))
    target = next_hand(match)
    assert hand.record is not None  # an ended hand has its record
    entry = {key: value for key, value in hand.record.items() if key != "ruleset"}  # the match fills it in
    try:
        return enter_hand(match=match, number=target.number, mode=Hand.RECORD, entry=entry,
                          author_label=f"online table {table.pk}", holder=table)
    except EntryError as error:
        raise TableError(f"match.{error.field}", error.reason) from None


def _sheet_moved_on(table: Table, error: TableError) -> tuple[None, None]:
    """The match's sheet no longer takes the table's hand (the match ended or changed meanwhile): the hand stays
    at the table (its record kept), the table stops and says why."""
    match = Match.objects.select_related("competition").get(pk=_match_id(table))
    if match.status == Match.COMPLETE:
        return _finish(table, match)
    _stop(table, Table.CLOSED, f"Online play stopped: the match's scoresheet changed outside the table "
                               f"({error.reason}), so hand {table.hand_number} was not stored. The organiser can "
                               "open the match online again to go on from its sheet.")
    return None, None


# ----------------------------------------------------------------------------- acting
def act(table_id: int, seat: int, action_text: str, version: int, action_id: str = "", by: str = "player") -> Outcome:
    """``seat`` (from the caller: the session or the seat's link) takes ``action_text`` (``stand``, ``beg``,
    ``give``, ``run`` or a card) on the table as it was at ``version``. Refused with no change: a stale version
    (``StaleVersion``), a table not in play, a seat that is not the caller's to move now, a move the rules forbid
    (``TableError`` with the engine's reason). A repeated ``action_id`` is answered with the stored outcome."""
    if by not in (TableAction.PLAYER, TableAction.BOT, TableAction.CLOCK, TableAction.COVER):
        raise TableError("by", f"unknown mover {by!r}")
    action_id = _checked_id(action_id)
    try:
        return _act(table_id, seat, action_text, version, action_id, by)
    except (TableError, IntegrityError):
        # A repeated id is answered with its stored outcome, whatever else is wrong with the request now. It is
        # looked for only here, when the action was refused or its insert met the unique (table, action id): an
        # accepted action pays no query for it, and the refused one changed nothing (its transaction rolled back).
        if action_id:
            with transaction.atomic():
                table = _locked(table_id)
                done = TableAction.objects.filter(table=table, action_id=action_id).select_related("hand").first()
                if done is not None:
                    return _repeated(table, done, seat)
        raise


def _act(table_id: int, seat: int, action_text: str, version: int, action_id: str, by: str) -> Outcome:
    with transaction.atomic():
        table = reads.locked_table(table_id)  # the action path's reads: as _locked's and _seats', SQL made once
        if table is None:
            raise TableError("table", f"there is no table {table_id}")
        if table.status != Table.PLAYING:
            raise TableError("table", f"the table is {table.get_status_display().lower()}, not playing")
        if not isinstance(version, int) or isinstance(version, bool) or version != table.version:
            raise StaleVersion("version", f"the table is at version {table.version}, not {version!r}: resync")
        if by != TableAction.PLAYER:  # a bot's or the clock's move: the seats are read once the move is legal
            _seat_index(table, seat)
            return _apply(table, seat, action_text, action_id, by, timezone.now())
        seats = _seats(table, seat)
        row = seats[seat]
        if row.bot or row.covering:
            raise TableError("seat", f"a bot is playing seat {row.index + 1}" +
                             ("" if row.bot else ": reclaim it to play again"))
        return _apply(table, row, action_text, action_id, by, timezone.now(), seats=seats)


def _seat_index(table: Table, index: Any) -> int:
    """``index`` checked as ``_seat`` checks it."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < table.players:
        raise TableError("seat", f"must be a seat from 0 to {table.players - 1}, got {index!r}")
    return index


def _seats(table: Table, index: Any) -> dict[int, Seat]:
    """Every seat of the table with its user, by index (one query: the mover's row, the next mover's, and what the
    frames show); ``index`` checked as ``_seat`` checks it. Read under the table's row lock, not locked themselves:
    every change of a seat is made under its table's lock (the heartbeat's ``seen_at`` aside, which no action
    reads), so this read, a statement after the lock was granted, sees each seat as the last change left it. Not
    locking them keeps an action from holding four seat rows at once, which with the heartbeat's update of many
    seats made deadlocks (``bench/bench_tables.py``, 100 tables)."""
    _seat_index(table, index)
    return reads.seats_with_users(table)


def _checked_id(action_id: Any) -> str:
    if action_id is None:
        return ""
    if not isinstance(action_id, str) or len(action_id) > 64:
        raise TableError("id", "must be text of at most 64 characters")
    return action_id


def _repeated(table: Table, done: TableAction, seat: int) -> Outcome:
    if done.seat != seat:
        raise TableError("id", "this action id was used by another seat")
    hand = done.hand
    last = hand.result is not None and not hand.actions.filter(seq__gt=done.seq).exists()
    return Outcome(table.pk, done.seq, done.seat, done.action, done.by, hand_over=last,
                   result=hand.result if last else None, repeated=True)


_PLAY_FIELDS = ["version", "last_activity_at", "turn", "turn_started_at", "turn_shown_at", "deadline_at", "updated_at"]
"""The table's columns an action inside a hand changes (a hand's end may change any: the whole row is saved)."""


def _save_play(table: Table, logged: TableAction) -> None:
    """Store an action inside a hand: its log row inserted and the table's ``_PLAY_FIELDS`` updated — on
    PostgreSQL in one statement (an ``INSERT`` in a ``WITH`` before the ``UPDATE``: one round trip, not two), else
    as two. A repeated action id fails the insert with the unique constraint's ``IntegrityError`` either way."""
    table.updated_at = timezone.now()
    if connection.vendor != "postgresql":
        logged.save(force_insert=True)
        table.save(update_fields=_PLAY_FIELDS)
        return
    # Any: concrete fields with their columns (get_field may also give a relation's other end, never here)
    log_fields: list[Any] = [TableAction._meta.get_field(name) for name in
                             ("table", "seq", "hand", "seat", "action", "action_id", "by", "created_at")]
    play_fields: list[Any] = [Table._meta.get_field(name) for name in _PLAY_FIELDS]
    quote = connection.ops.quote_name
    sql = (f"WITH logged AS (INSERT INTO {quote(TableAction._meta.db_table)} "
           f"({', '.join(quote(f.column) for f in log_fields)}) VALUES ({', '.join(['%s'] * len(log_fields))})) "
           f"UPDATE {quote(Table._meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in play_fields)} "
           f"WHERE {quote(cast(str, Table._meta.pk.column))} = %s")
    params = [field.get_db_prep_save(getattr(logged, field.attname), connection) for field in log_fields]
    params += [field.get_db_prep_save(getattr(table, field.attname), connection) for field in play_fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, table.pk])


def _apply(table: Table, row: Seat | int, action_text: Any, action_id: str, by: str, now: datetime, *,
           seats: dict[int, Seat] | None = None, hand: TableHand | None = None,
           state: HandState | None = None) -> Outcome:
    """Check ``action_text`` through the engine for ``row``'s seat (a seat index: its row is read, locked, once
    the move is found legal) and, if legal, store it (``seats``, ``hand`` and ``state``: the table's current ones
    when the caller has read them under the lock)."""
    if state is None:
        hand, state = live.current(table)
    if state is None:
        raise TableError("table", "no hand has been dealt")
    if not isinstance(action_text, str):
        raise TableError("action", f"must be text (stand, beg, give, run or a card), got {action_text!r}")
    try:
        action = Action.parse(action_text)
    except EngineError as error:
        raise TableError("action", str(error)) from None
    index = row if isinstance(row, int) else row.index
    reason = state.why_illegal(action, index)
    if reason is not None:
        raise TableError("action", reason)
    if isinstance(row, int):
        seats = _seats(table, row)
        row = seats[index]
    state.apply(action, row.index)
    _spend_time(table, row, by, now)
    _touch(table, now)
    logged = TableAction(table=table, seq=table.version, hand=hand, seat=row.index, action=str(action),
                         action_id=action_id, by=by, created_at=now)
    outcome = Outcome(table.pk, table.version, row.index, str(action), by)
    if state.phase is OVER:
        logged.save(force_insert=True)
        result = state.result()
        assert hand is not None  # the state of a hand comes with it
        hand, state = _end_hand(table, hand, state, now)
        outcome = Outcome(table.pk, table.version, row.index, str(action), by, hand_over=True, result=result)
        table.save()
    else:
        _deadline(table, now, state, seats=seats)
        _save_play(table, logged)
    _publish(table, hand, state, seats=seats, action={"seat": row.index, "action": str(action), "by": by})
    return outcome


def _spend_time(table: Table, row: Seat, by: str, now: datetime) -> None:
    """The mover's bank pays for the time beyond ``turn_seconds``; a reclaim waiting for this move takes
    effect."""
    changed = False
    if by == TableAction.CLOCK:
        row.bank_left, changed = 0.0, True
    elif by == TableAction.PLAYER and table.turn_started_at is not None:
        over = (now - table.turn_started_at).total_seconds() - table.turn_seconds
        if over > 0:
            row.bank_left, changed = max(0.0, row.bank_left - over), True
    if by == TableAction.COVER and not row.covering:
        row.covering, changed = True, True
    if row.reclaim_pending and by == TableAction.COVER:
        row.covering = row.reclaim_pending = False
        changed = True
    if changed:
        row.save(update_fields=["bank_left", "covering", "reclaim_pending"])


# ----------------------------------------------------------------------------- the clock and the bots
def _deadline(table: Table, now: datetime, state: HandState | None = None, *,
              seats: dict[int, Seat] | None = None) -> None:
    """Who moves next and by when: a bot (or a bot covering) ``bot_pace`` after the turn starts; a human at
    ``turn_seconds`` plus their bank, or ``AWAY_SECONDS`` after they went away if that is sooner (``seats``: the
    table's seat rows as this transaction read them under the lock and saved them since, saving a query)."""
    if table.status != Table.PLAYING:
        table.turn = table.turn_started_at = table.deadline_at = None
        return
    if state is not None:  # a new turn (also when the same seat moves again: a give after its beg)
        table.turn = None if state.phase is OVER else state.turn
        table.turn_started_at = now
        table.turn_shown_at = None
    if table.turn is None:
        table.deadline_at = None
        return
    row = seats[table.turn] if seats is not None else table.seats.get(index=table.turn)
    started = table.turn_started_at or now
    pace = timedelta(seconds=table.bot_pace)
    if row.bot or row.covering:
        table.deadline_at = started + pace
        return
    clock = started + timedelta(seconds=table.turn_seconds + row.bank_left)
    if row.away_since is not None:
        clock = min(clock, max(started + pace, row.away_since + timedelta(seconds=AWAY_SECONDS)))
    table.deadline_at = clock


def due_moves(now: datetime | None = None) -> list[int]:
    """The tables whose seat to move is due to be moved for: a bot's (or a covering bot's) pace passed, a
    human's clock run out, or a human away ``AWAY_SECONDS``."""
    now = now or timezone.now()
    return list(Table.objects.filter(status=Table.PLAYING, deadline_at__lte=now).order_by("deadline_at")
                .values_list("pk", flat=True))


def play_due(table_id: int, now: datetime | None = None) -> Outcome | None:
    """Make the due move of the table through the engine's bots (``None`` when nothing is due any more: the
    player moved first, or the table stopped). ``by``: ``bot`` for a bot's seat, ``cover`` for a player away
    (or who left), ``clock`` for a player out of time."""
    now = now or timezone.now()
    with transaction.atomic():
        table = _locked(table_id)
        if table.status != Table.PLAYING or table.deadline_at is None or table.deadline_at > now \
                or table.turn is None:
            return None
        seats = _seats(table, table.turn)
        row = seats[table.turn]
        by = _mover(row, now)
        if by == TableAction.CLOCK and table.turn_shown_at is None:
            if not _never_reached(table, row, now):
                _show_again(table, seats, now)
                return None
            by = TableAction.COVER
        hand, state = live.current(table)
        assert state is not None  # a seat has the turn: a hand is in play
        kind = row.bot or COVER_BOT
        action = choose_move(kind, state.view(row.index))
        return _apply(table, row, str(action), "", by, now, seats=seats, hand=hand, state=state)


def _never_reached(table: Table, row: Seat, now: datetime) -> bool:
    """Whether a turn no socket of its seat was shown has waited out the whole clock and ``AWAY_SECONDS`` more:
    its player is then treated as away (covered, reclaimable), never charged as out of time."""
    limit = table.turn_seconds + row.bank_left + AWAY_SECONDS
    return table.turn_started_at is None or (now - table.turn_started_at).total_seconds() >= limit


def _show_again(table: Table, seats: dict[int, Seat], now: datetime) -> None:
    """The clock is up on a turn its player was never shown: more time, and the table published again (a new
    version: every reader that missed the turn is sent it)."""
    _touch(table, now)
    table.deadline_at = now + timedelta(seconds=UNSHOWN_GRACE_SECONDS)
    table.save(update_fields=["version", "last_activity_at", "deadline_at", "updated_at"])
    _publish(table, seats=seats)


def turn_shown(table_id: int, seat: int, version: int, now: datetime | None = None) -> Table | None:
    """A socket of ``seat`` was sent the table at ``version`` with the turn its own: the turn is shown (its clock
    charged from now on). When it started more than ``LATE_SHOWN_SECONDS`` before (its frames lost or late), its
    clock starts now, as if it started now; returns the table with its new deadline then, else ``None``."""
    now = now or timezone.now()
    with transaction.atomic():
        table = reads.locked_table(table_id)
        if table is None or table.status != Table.PLAYING or table.version != version or table.turn != seat \
                or table.turn_shown_at is not None:
            return None
        table.turn_shown_at = now
        late = table.turn_started_at is None or \
            (now - table.turn_started_at).total_seconds() > LATE_SHOWN_SECONDS
        row = table.seats.get(index=seat)
        if late and not row.bot and not row.covering:
            table.turn_started_at = now
            _deadline(table, now)
            table.save(update_fields=["turn_shown_at", "turn_started_at", "deadline_at", "updated_at"])
            return table
        table.save(update_fields=["turn_shown_at", "updated_at"])
        return None


def _mover(row: Seat, now: datetime) -> str:
    if row.bot:
        return TableAction.BOT
    if row.covering or row.user_id is None and row.away_since is not None:
        return TableAction.COVER
    if row.away_since is not None and (now - row.away_since).total_seconds() >= AWAY_SECONDS:
        return TableAction.COVER
    return TableAction.CLOCK


_bots: dict[str, Any] = {}


def choose_move(kind: str, view: SeatView) -> Action:
    """The move the bot ``kind`` makes from the seat's view (a bot sees nothing the seat may not know)."""
    bot = _bots.get(kind)
    if bot is None:
        bot = _bots[kind] = make_bot(kind)
    return bot.choose(view, random.Random(secrets.randbits(64)))


# ----------------------------------------------------------------------------- presence
PRESENCE_HEARTBEAT_SECONDS = 15
"""How often a process holding sockets vouches for their seats (``heartbeat``)."""
PRESENCE_STALE_SECONDS = 45
"""A seat's socket count no process has vouched for this long was left by a killed process (``expire_presence``)."""


def mark_back(table: Table | int, seat: int, now: datetime | None = None) -> None:
    """A socket holding the seat opened, in any process: ``Seat.connected`` goes up by one in the database and the
    player is present (a bot already covering keeps the seat until ``reclaim``)."""
    _presence(table, seat, now or timezone.now(), away=False)


def mark_away(table: Table | int, seat: int, now: datetime | None = None) -> None:
    """A socket holding the seat closed: ``Seat.connected`` goes down by one (never below 0). When no socket of any
    process holds the seat any more, its player is away since ``now``; after ``AWAY_SECONDS`` a bot covers it."""
    _presence(table, seat, now or timezone.now(), away=True)


def _presence(table: Table | int, seat: int, now: datetime, *, away: bool) -> None:
    """Count the socket in or out with one ``UPDATE … SET connected = connected ± 1`` (an F() expression: two
    processes counting at once never lose a count; a count older than ``PRESENCE_STALE_SECONDS`` is not trusted
    and starts again from this socket), then mark the player away or back."""
    with transaction.atomic():
        table = _locked(table)
        row = _seat(table, seat)
        counted = Greatest(F("connected") - 1, 0) if away else F("connected") + 1
        # a count no process vouched for lately was left by a killed one: this socket starts it again
        vouched = Q(seen_at__gte=now - timedelta(seconds=PRESENCE_STALE_SECONDS))
        Seat.objects.filter(pk=row.pk).update(seen_at=now, connected=Case(
            When(vouched, then=counted), default=Value(0 if away else 1), output_field=IntegerField()))
        row.refresh_from_db(fields=["connected", "seen_at"])
        if row.bot:
            return
        if away and row.connected == 0 and row.away_since is None:
            row.away_since = now
        elif not away and row.away_since is not None:
            row.away_since = None
        else:
            return
        row.save(update_fields=["away_since"])
        _announce_presence(table, row.index)
        if table.turn == row.index:
            _deadline(table, now)
            table.save(update_fields=["deadline_at"])


def _announce_presence(table: Table, seat: int) -> None:
    """After the commit: the table's readers are told that ``seat``'s player went away or came back."""
    table_id, players = table.pk, table.players
    transaction.on_commit(lambda: presence_changed.send(sender=Table, table_id=table_id, players=players, seat=seat))


def heartbeat(seats: Iterable[tuple[int, int]], now: datetime | None = None) -> int:
    """The calling process still holds sockets of ``seats`` (``(table id, seat index)`` pairs): their counts are
    vouched for at ``now``. Returns the number of seats touched."""
    by_table: dict[int, set[int]] = {}
    for table_id, index in seats:
        by_table.setdefault(table_id, set()).add(index)
    if not by_table:
        return 0
    condition = Q()
    for table_id, indexes in by_table.items():
        condition |= Q(table_id=table_id, index__in=sorted(indexes))
    with transaction.atomic():
        # the rows locked in one order (by id) before the update: an UPDATE of many seats locks them in whatever
        # order it finds them, and two such heartbeats (two processes) could each wait for a row the other holds.
        # Every other writer of seats holds one seat's row at a time (under the table's lock), so none can close
        # a cycle with this one.
        ids = list(Seat.objects.filter(condition, connected__gt=0).order_by("pk").select_for_update()
                   .values_list("pk", flat=True))
        return Seat.objects.filter(pk__in=ids).update(seen_at=now or timezone.now()) if ids else 0


def expire_presence(now: datetime | None = None) -> list[tuple[int, int]]:
    """Reset the socket counts no process has vouched for in ``PRESENCE_STALE_SECONDS``: a process killed with
    sockets open (SIGKILL, a lost machine) never counted them out. Such a seat's player is away since its last
    heartbeat, so the cover comes ``AWAY_SECONDS`` after the player was last known there. A live process
    vouches every ``PRESENCE_HEARTBEAT_SECONDS``, three times within the limit, so no held seat is reset.
    Returns the seats reset."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=PRESENCE_STALE_SECONDS)
    stale = Q(seen_at__isnull=True) | Q(seen_at__lt=limit)
    reset = []
    for table_id, index in Seat.objects.filter(stale, connected__gt=0).values_list("table_id", "index"):
        with transaction.atomic():
            table = _locked(table_id)
            row = _seat(table, index)
            if row.connected == 0 or row.seen_at is not None and row.seen_at >= limit:
                continue  # counted out, or vouched for, meanwhile
            row.connected = 0
            fields = ["connected"]
            if not row.bot and row.away_since is None:
                row.away_since = row.seen_at or now
                fields.append("away_since")
            row.save(update_fields=fields)
            if "away_since" in fields:
                _announce_presence(table, index)
            if table.turn == row.index and "away_since" in fields:
                _deadline(table, now)
                table.save(update_fields=["deadline_at"])
            reset.append((table_id, index))
    return reset


def reclaim(table: Table | int, seat: int, user=None, *, seat_token: str = "") -> Seat:
    """The seat's player takes it back from the bot covering it, at their next turn (at once when it is not
    their turn now). The player is the seat's signed-in user or whoever holds the seat's private link
    (``seat_token``): the link is that seat's credential, like a scorekeeper's link, so it reclaims its own seat
    and no other. A casual seat its player left is no one's to reclaim: it is taken again (``take_seat``)."""
    with transaction.atomic():
        table = _locked(table)
        row = _seat(table, seat)
        by_user = _signed_in(user) and row.user_id is not None and row.user_id == user.pk
        by_link = isinstance(seat_token, str) and bool(seat_token) and secrets.compare_digest(seat_token,
                                                                                               row.seat_token)
        if not (by_user or by_link):
            raise TableError("seat", f"seat {row.index + 1} is not yours")
        if not by_user and row.user_id is None and table.kind == Table.CASUAL:
            raise TableError("seat", f"seat {row.index + 1} was left: take it again to play")
        row.away_since = None
        if row.covering:
            _ask_to_reclaim(table, row)
        row.save(update_fields=["away_since", "covering", "reclaim_pending"])  # not the count, kept by F()
        now = timezone.now()
        _touch(table, now)
        _deadline(table, now)
        table.save()
        _publish(table)
    return row


def _ask_to_reclaim(table: Table, row: Seat) -> None:
    if table.turn == row.index:
        row.reclaim_pending = True  # the bot makes this move; the player has the next one
    else:
        row.covering = row.reclaim_pending = False


# ----------------------------------------------------------------------------- closing
def close_idle(now: datetime | None = None, idle_seconds: int = IDLE_SECONDS) -> list[int]:
    """Close the tables with no activity for ``idle_seconds``; returns their ids."""
    now = now or timezone.now()
    closed = []
    for table_id in Table.objects.filter(status__in=(*OPEN, Table.FINISHED),
                                         last_activity_at__lt=now - timedelta(seconds=idle_seconds)
                                         ).values_list("pk", flat=True):
        with transaction.atomic():
            table = _locked(table_id)
            if table.status == Table.CLOSED or table.last_activity_at >= now - timedelta(seconds=idle_seconds):
                continue
            table.status = Table.CLOSED
            table.turn = table.turn_started_at = table.deadline_at = None
            _touch(table, now)
            table.save()
            _publish(table)
            closed.append(table_id)
    return closed


# ----------------------------------------------------------------------------- what each reader sees
def view_for(table: Table, seat: int) -> dict[str, Any]:
    """What ``seat`` may know: its engine view (its own cards and legal moves only), the seats and the table."""
    return all_views(table, [seat])[seat]


def spectator_view(table: Table) -> dict[str, Any]:
    """What a spectator may know: no hand, no legal moves, nobody's unplayed card."""
    return all_views(table, [None])[None]


def all_views(table: Table, readers: list[int | None] | None = None, *, hand: TableHand | None = None,
              state: HandState | None = None, seats: list[Seat] | None = None) -> dict[int | None, dict[str, Any]]:
    """The frame of each reader (a seat, or ``None`` for the spectators; default: every seat and the spectators)
    from one read of the table: what the live layer sends after a change. ``hand`` and ``state`` (the table's
    current ones at ``table.version``, not changed by the caller after) and ``seats`` (the seat rows in index order,
    with their users) when the caller holds them: nothing is read again."""
    readers = list(range(table.players)) + [None] if readers is None else readers
    if state is None or hand is None:
        hand, state = live.current(table)
    seat_frames, info = seats_info(table, seats), table_info(table)
    extra = None
    if state is not None:
        assert hand is not None  # a state comes with its hand
        # the result of the hand before the current one (or of the current one once over): tricks and points, no
        # unplayed card
        last_result = hand.result if hand.result is not None else live.result_before(table, hand)
        extra = {"game_score": list(table.score), "target": live.table_ruleset(table).target,
                 "hand_number": hand.number, "game_number": table.game_number, "last_result": last_result}
    return {reader: {"version": table.version, "view": _hand_view(state, reader, extra), "seats": seat_frames,
                     "table": info} for reader in readers}


def _hand_view(state: HandState | None, reader: int | None, extra: dict | None) -> dict[str, Any] | None:
    if state is None:
        return None
    view = SeatView(state, reader if reader is not None else 0).to_dict()
    if reader is None:
        view.update(seat=None, hand=[], legal=[])
    assert extra is not None  # all_views gives it with every state
    view.update(extra)
    return view


def seats_info(table: Table, rows: Iterable[Seat] | None = None) -> list[dict[str, Any]]:
    """Each seat as every reader sees it, from ``rows`` (the seats in index order, with their users) or read."""
    rows = table.seats.select_related("user").order_by("index") if rows is None else rows
    return [{"index": row.index, "name": row.bot_name or row.display_name, "bot": row.bot or None,
             "bot_label": row.bot_label, "covering": row.covering,
             "away": row.away_since is not None, "connected": row.connected > 0, "bank_left": row.bank_left,
             "user_id": row.user_id}
            for row in rows]


def table_info(table: Table) -> dict[str, Any]:
    return {"id": table.pk, "kind": table.kind, "players": table.players, "status": table.status,
            "visibility": table.visibility, "match_id": table.match_id, "game_number": table.game_number,
            "hand_number": table.hand_number, "score": list(table.score), "games_won": list(table.games_won),
            "dealer": table.dealer, "turn": table.turn,
            "deadline_at": table.deadline_at.isoformat() if table.deadline_at else None,
            "turn_seconds": table.turn_seconds, "bot_pace": table.bot_pace}
