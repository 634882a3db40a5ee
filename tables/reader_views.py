"""What each reader of a table sees: a seat its own cards and legal moves, a spectator no hand at all.

``all_views`` builds every reader's frame from one read of the table (or from what a change already holds), as the
live layer sends it after a change; ``view_for`` and ``spectator_view`` are one reader's. ``trick_behind`` makes the
spectators' frame of an event table watched a trick behind (``tables.spectators``): the table as it stood when its
last complete trick was taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.hand import HandState
from engine.seat_view import SeatView
from tables import state as live
from tables.models import Seat, Table, TableAction, TableHand


def view_for(table: Table, seat: int) -> dict[str, Any]:
    """What ``seat`` may know: its engine view (its own cards and legal moves only), the seats and the table."""
    return all_views(table, [seat])[seat]


def spectator_view(table: Table) -> dict[str, Any]:
    """What a spectator may know: no hand, no legal moves, nobody's unplayed card."""
    return all_views(table, [None])[None]


TRICK_BEHIND = "trick"
"""``table["delay"]`` of a spectators' frame a trick behind: the page says the table is shown a trick behind."""


def trick_behind(frame: dict[str, Any], table: Table | None = None) -> dict[str, Any]:
    """The spectators' ``frame`` (``spectator_view``'s, or ``all_views``' for ``None``) as the table stood when its
    last complete trick was taken — what an event's spectators see when its organiser chose a delay of a trick.

    Why this gives nothing away: once a hand's first trick is complete, every call (stand, beg, give one, run the
    pack) is made and shown, and a card played to the trick in progress changes nothing but the trick itself, the
    hand sizes and whose turn it is; so the frame is the same with the trick's cards taken back. Before the first
    trick is complete the calls are still being made: the frame is then the hand as dealt (its kick, the score with
    the kick's points). Whose turn it is follows the picture (the trick's leader, or the seat to call at the deal)
    and no deadline runs; the seats (who is here, away or covered, and their time) are sent as they are.

    The frame's ``version`` is the version it shows — the table's less the cards of the trick in progress, or the
    version at the deal — so a spectator's socket sends a frame only when the picture moves on (a complete trick,
    a deal, a seat coming or going), and nothing in the versions counts the cards or calls not shown yet. The
    versions of a reader still only go up. ``table`` (the table's row, when the caller holds it) saves a query
    before the first trick."""
    view, info = frame.get("view"), dict(frame["table"], delay=TRICK_BEHIND, deadline_at=None)
    delayed, version = view, frame["version"]
    if view is not None and view.get("phase") != "over":
        cards = view["trick"]["cards"]
        if view["tricks"]:
            leader, players = view["trick"]["leader"], view["players"]
            sizes = list(view["hand_sizes"])
            for played in range(len(cards)):
                sizes[(leader + played) % players] += 1
            delayed = {**view, "trick": {"leader": leader, "cards": []}, "turn": leader, "hand_sizes": sizes}
            version -= len(cards)
        else:
            dealt, version = _as_dealt(table, frame["table"]["id"], view["hand_number"], version)
            if dealt is not None:
                delayed = {**dealt, **{key: view[key] for key in _HAND_EXTRAS if key in view}}
    info["turn"] = delayed["turn"] if delayed is not None and info.get("status") == Table.PLAYING else None
    return {**frame, "version": version, "view": delayed, "table": info}


_HAND_EXTRAS = ("game_score", "target", "hand_number", "game_number", "last_result")
"""What ``all_views`` adds to the engine's view of a hand: the same in the hand as dealt."""


def _as_dealt(table: Table | None, table_id: int, hand_number: int, version: int) -> tuple[dict | None, int]:
    """The spectators' view of the table's hand ``hand_number`` as dealt, and the version that showed it: the one
    before the hand's first action, or ``version`` while it has none."""
    table = table if table is not None and table.pk == table_id else Table.objects.filter(pk=table_id).first()
    hand = TableHand.objects.filter(table_id=table_id, number=hand_number).first()
    if table is None or hand is None:
        return None, version
    first = TableAction.objects.filter(hand=hand).order_by("seq").values_list("seq", flat=True).first()
    view = SeatView(live.deal(table, hand), 0).to_dict()
    view.update(seat=None, hand=[], legal=[])
    return view, (first - 1 if first is not None else version)


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
            "turn_seconds": table.turn_seconds, "bot_pace": table.bot_pace, "match_clock": table.match_clock,
            "increment_seconds": table.increment_seconds, "increment_per": table.increment_per,
            "on_hold": table.on_hold, "end_reason": table.end_reason}
