"""What each reader of a table sees: a seat its own cards and legal moves, a spectator no hand at all.

``all_views`` builds every reader's frame from one read of the table (or from what a change already holds), as the
live layer sends it after a change; ``view_for`` and ``spectator_view`` are one reader's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.hand import HandState
from engine.seat_view import SeatView
from tables import state as live
from tables.models import Seat, Table, TableHand


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
