"""The online tables of an event's round as its live page shows them (``pages.event_live``): each match's table
with its status, who is there, the score, and each seat's clock — what any visitor of the competition may know.

Nothing of a hand is read here but whether its calls are being made: while they are (stand or beg, give one or run
the pack), the seat to move is not named — who calls after the eldest would say whether the eldest begged — and
the clock runs for "the calls". During the tricks the seat to move is named with its clock: it tells how many cards
of the trick are down, never which (spectators see the cards a trick behind, ``tables.spectators``). The score is
the game's chalk as of the hand's deal (the table's ``score``), as the scoresheet has it.

A page of eight tables is read in four queries (the matches with their players, the tables, their seats) and the
live hand of each table in play (``tables.state``: kept in the process, read again only after a restart).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.models import Match
from league.choices import OnlineNoShow
from tables import reader_views
from tables import state as live
from tables.fixtures import fixture_players
from tables.models import Seat, Table

CALLS = ("beg", "give")
"""The phases of a hand in which its calls are made (``engine.actions``' phase names)."""


@dataclass(frozen=True)
class SeatOnBoard:
    """One seat of a table on the event's page: its player, whether they are there, and their clock."""

    index: int
    name: str
    here: bool
    away: bool
    covered: bool  # a bot plays the seat (its player away, or a no-show under the rule "a bot plays it")
    bank_left: float  # seconds of the player's time (``reader_views.seats_info``)
    to_move: bool

    @property
    def side(self) -> str:
        return "a" if self.index % 2 == 0 else "b"

    @property
    def bank_label(self) -> str:
        return clock_label(self.bank_left)


@dataclass(frozen=True)
class TableOnBoard:
    """A match's online table: ``status`` is ``Table``'s (waiting for players, playing, finished, closed)."""

    table_id: int
    match_id: int
    status: str
    status_label: str
    seats: list[SeatOnBoard]
    score: list[int]
    games_won: list[int]
    game_number: int
    hand_number: int
    starts_at: datetime | None
    waits_for_organiser: bool  # its start time passed and the competition's rule is to wait for the organiser
    calling: bool  # the hand's calls are being made: the seat to move is not named
    bot_moves: bool  # the seat to move is played by a bot: its few seconds are not counted down
    deadline_at: datetime | None  # when the player to move runs out of time (None: a bot moves, or nobody)
    now: datetime | None = None  # when it was read: the clocks' labels count from then
    end_reason: str = ""
    on_hold: str = ""
    info: dict[str, Any] = field(default_factory=dict, repr=False)  # ``reader_views.table_info``

    @property
    def missing(self) -> list[str]:
        """Who has not come to a table waiting for its players."""
        return [seat.name for seat in self.seats_by_side if not seat.here and not seat.covered]

    @property
    def side_a(self) -> list[SeatOnBoard]:
        return [seat for seat in self.seats if seat.side == "a"]

    @property
    def side_b(self) -> list[SeatOnBoard]:
        return [seat for seat in self.seats if seat.side == "b"]

    @property
    def seats_by_side(self) -> list[SeatOnBoard]:
        """Side A's players, then side B's (the score lists the sides in that order)."""
        return self.side_a + self.side_b

    @property
    def to_move(self) -> SeatOnBoard | None:
        return next((seat for seat in self.seats if seat.to_move), None)

    @property
    def clock_runs(self) -> bool:
        """A person's turn is running out (a bot's few seconds are not counted down)."""
        return self.deadline_at is not None and not self.bot_moves

    @property
    def turn_left_label(self) -> str:
        """The turn's time left when read (the page counts it down from ``deadline_at``)."""
        if self.deadline_at is None or self.now is None:
            return ""
        return clock_label((self.deadline_at - self.now).total_seconds())

    @property
    def starts_in_label(self) -> str:
        """The time left to the start when read; ``""`` once the start time has passed."""
        if self.starts_at is None or self.now is None or self.starts_at <= self.now:
            return ""
        return clock_label((self.starts_at - self.now).total_seconds())

    @property
    def is_playing(self) -> bool:
        return self.status == Table.PLAYING

    @property
    def is_waiting(self) -> bool:
        return self.status == Table.LOBBY


def clock_label(seconds: float | None) -> str:
    """``m:ss`` of a number of seconds (nothing for none).

    >>> clock_label(83.4), clock_label(0), clock_label(None)
    ('1:23', '0:00', '')
    """
    if seconds is None:
        return ""
    minutes, rest = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{rest:02d}"


def event_tables(match_ids: Iterable[int], now: datetime | None = None) -> dict[int, TableOnBoard]:
    """Each match's latest online table (``{match id: table}``; a match never opened online has none), its clocks
    read at ``now``."""
    now = now or timezone.now()
    ids = list(match_ids)
    if not ids:
        return {}
    matches = {match.pk: match for match in Match.objects.filter(pk__in=ids).select_related(
        "competition", "side_a__player_one", "side_a__player_two", "side_b__player_one", "side_b__player_two")}
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    latest: dict[int, Table] = {}
    for table in Table.objects.filter(match_id__in=ids, kind=Table.FIXTURE).prefetch_related(seats).order_by("pk"):
        assert table.match_id is not None  # a fixture's table has its match
        latest[table.match_id] = table
    return {match_id: _on_board(table, matches[match_id], now) for match_id, table in latest.items()}


def _on_board(table: Table, match: Match, now: datetime) -> TableOnBoard:
    rows = list(table.seats.all())
    names = [player.name for player in fixture_players(match)]
    info = reader_views.table_info(table)
    calling = False
    if table.status == Table.PLAYING and table.turn is not None:
        _, state = live.current(table)
        calling = state is not None and str(state.phase) in CALLS
    seats = [SeatOnBoard(index=seat["index"], name=names[seat["index"]] if seat["index"] < len(names) else seat["name"],
                         here=seat["connected"], away=seat["away"], covered=bool(seat["covering"] or seat["bot"]),
                         bank_left=float(seat.get("bank_left") or 0),
                         to_move=info["turn"] == seat["index"] and table.status == Table.PLAYING and not calling)
             for seat in reader_views.seats_info(table, rows)]
    deadline = parse_datetime(info["deadline_at"]) if info.get("deadline_at") else None
    mover = next((seat for seat in seats if seat.index == info["turn"]), None)
    rule = match.competition.online_no_show  # a team match's table has no forfeit of its own: it waits too
    waits = table.status == Table.LOBBY and (rule == OnlineNoShow.WAIT or rule == OnlineNoShow.FORFEIT
                                             and match.team_match_id is not None)
    return TableOnBoard(
        table_id=table.pk, match_id=match.pk, status=table.status, status_label=table.get_status_display(),
        seats=seats, score=list(info["score"]), games_won=list(info["games_won"]), game_number=table.game_number,
        hand_number=table.hand_number, starts_at=table.starts_at, waits_for_organiser=waits, calling=calling,
        bot_moves=mover is not None and mover.covered,
        deadline_at=deadline if table.status == Table.PLAYING else None, now=now, end_reason=table.end_reason,
        on_hold=str(info.get("on_hold") or ""), info=info)
