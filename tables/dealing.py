"""Starting a table, dealing its hands, storing each hand that ends and a casual table's rematch.

A hand that ends is stored with its record; at a fixture table it goes through ``games.services.enter_hand`` in the
same transaction, and the next hand's dealer and score come from ``games.services.next_hand``, so the table and the
match's sheet always agree.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from engine.actions import OVER
from engine.game import choose_first_dealer, next_dealer
from engine.hand import HandState
from games.models import Hand, Match
from games.services import EntryError, enter_hand, next_hand
from tables import state as live
from tables.changes import TableError, finish, locked, match_id, publish, set_deadline, stop, touch
from tables.match_clock import hand_increment
from tables.models import Table, TableHand


def start(table: Table | int) -> Table:
    """Deal the first hand. A casual table needs every seat filled (a player or a bot); a fixture's seats are
    its players' (a bot moves for one who does not come when the clock runs out)."""
    with transaction.atomic():
        table = locked(table)
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
        touch(table, now)
        table.save()
        publish(table, hand, state)
    return table


def rematch(table: Table | int) -> Table:
    """A finished casual table plays a new game, the same seats, the deal passing on."""
    with transaction.atomic():
        table = locked(table)
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
        touch(table, now)
        table.save()
        publish(table, hand, state)
    return table


def _deal_game(table: Table, game_number: int, dealer: int, now: datetime) -> tuple[TableHand | None, HandState | None]:
    """A casual table's new game: score 0–0."""
    table.game_number = game_number
    table.score = [0, 0]
    return _deal(table, dealer, (0, 0), now)


def _deal_fixture(table: Table, now: datetime) -> tuple[TableHand | None, HandState | None]:
    """The match's next hand, where the sheet says it is: its game, dealer and score before it."""
    match = Match.objects.select_related("competition").get(pk=match_id(table))
    if match.status == Match.COMPLETE:
        return finish(table, match)
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
        return end_hand(table, hand, state, now)
    hand_increment(table)
    set_deadline(table, now, state)
    return hand, state


def end_hand(table: Table, hand: TableHand, state: HandState, now: datetime) -> tuple[TableHand | None,
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
        return finish(table)
    return _deal(table, next_dealer(table.players, hand.dealer, result), table.score, now)


def _store_in_match(table: Table, hand: TableHand) -> Hand:
    """The hand's record entered in the match as a scorekeeper's would be (``games.services.enter_hand``)."""
    match = Match.objects.get(pk=match_id(table))
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
    match = Match.objects.select_related("competition").get(pk=match_id(table))
    if match.status == Match.COMPLETE:
        return finish(table, match)
    stop(table, Table.CLOSED, f"Online play stopped: the match's scoresheet changed outside the table "
                              f"({error.reason}), so hand {table.hand_number} was not stored. The organiser can "
                              "open the match online again to go on from its sheet.")
    return None, None
