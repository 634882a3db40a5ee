"""Helpers for the table tests: driving the bots, and the scan for hidden cards in a view."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from django.utils import timezone

from engine.cards import CARD_NAMES, bits
from tables import clock
from tables import state as live
from tables.models import Table, TableHand

CARD = re.compile(r'"([2-9TJQKA][CDHS])"')
FAR = timedelta(days=3650)


def later() -> object:
    """A moment after every deadline and pace of the tests' tables."""
    return timezone.now() + FAR


def fresh(table: Table) -> Table:
    return Table.objects.get(pk=table.pk)


def bots_move_until_turn_of(table: Table, seat: int, limit: int = 500) -> Table:
    """Let the bots (and only the bots) move until it is ``seat``'s turn; the table as it is then."""
    for _ in range(limit):
        table = fresh(table)
        if table.status != Table.PLAYING or table.turn == seat:
            return table
        assert table.seats.get(index=table.turn).bot, "a human seat other than the one waited for is to move"
        clock.play_due(table.pk, now=table.deadline_at)
    raise AssertionError(f"seat {seat} never got the turn")


def hidden_cards_shown(frame: dict, state, reader: int | None, previous_record: dict | None = None) -> set[str]:
    """The cards ``frame`` shows that ``reader`` (``None``: a spectator) may not see: another seat's unplayed card
    of the hand in progress, or, in the result of the hand before it (``previous_record``), a card that was not
    played or kicked face up in that hand."""
    if state is None:
        return set()
    view = dict(frame["view"] or {})
    previous = view.pop("last_result", None) if state.phase != "over" else None
    hidden = set()
    for seat, hand in enumerate(state.hands):
        if seat != reader:
            hidden.update(CARD_NAMES[card] for card in bits(hand))
    shown = hidden & set(CARD.findall(json.dumps({**frame, "view": view})))
    if previous is not None:
        shown |= set(CARD.findall(json.dumps(previous))) - public_cards(previous_record)
    return shown


def public_cards(record: dict | None) -> set[str]:
    """The cards a hand record shows face up: those played and those kicked."""
    if record is None:
        return set()
    return {*record["plays"], record["kick"], *(run["kick"] for run in record.get("runs", ()))}


def play_out(table: Table, limit: int = 100_000) -> Table:
    """Every due move, each at its deadline, until the table stops playing; the table as it is then."""
    for _ in range(limit):
        table = fresh(table)
        if table.status != Table.PLAYING:
            return table
        clock.play_due(table.pk, now=table.deadline_at)
    raise AssertionError("the table is still playing")


def state_of_frame(table_id: int, frame: dict):
    """The hand a frame of table ``table_id`` was made from, as it stood at the frame's version (``None`` for a
    frame with no hand), and the record of the hand before it (``hidden_cards_shown``'s arguments)."""
    view = frame.get("view")
    if not view or "hand_number" not in view:
        return None, None
    table = Table.objects.get(pk=table_id)
    hand = TableHand.objects.get(table=table, number=view["hand_number"])
    actions = hand.actions.filter(seq__lte=frame["version"]).order_by("seq").values_list("seat", "action")
    previous = TableHand.objects.filter(table=table, number=hand.number - 1).values_list("record", flat=True).first()
    return live.replay(table, hand, actions), previous


def frames_showing_hidden_cards(table_id: int, frames: list[dict], reader: int | None) -> list[tuple[dict, set]]:
    """Every frame of ``frames`` (all a socket of ``reader`` received, in order) that shows a card ``reader`` may
    not see; a frame with no hand of its own (a refusal) is checked against the last one that had one."""
    shown, state, previous = [], None, None
    for frame in frames:
        if frame.get("view"):
            state, previous = state_of_frame(table_id, frame)
        cards = hidden_cards_shown(frame if "view" in frame else {**frame, "view": None}, state, reader, previous)
        if cards:
            shown.append((frame, cards))
    return shown
