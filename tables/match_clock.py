"""A competition's time control at its online tables: a chess clock per player for the whole match.

A competition played online with ``Competition.online_clock_minutes`` opens its tables with ``Table.match_clock``:
each player has ``bank_seconds`` for the match (no time per turn), charged for the time their turns take from the
moment the turn reached them (``tables.clock.turn_shown``: a frame lost is not charged), and given
``increment_seconds`` after each of their moves or at each new hand (``Table.increment_per``), as chess sites' "5+3".
The clock's whole state is in the database — ``Seat.bank_left`` and the table's ``turn_started_at`` and
``deadline_at`` — so a server started again after a crash runs it on from where it was: the ticker finds the
deadline and settles it.

A player whose bank runs out is settled by the same rule as a seat still empty at the start
(``Competition.online_no_show``): *forfeit* — their side forfeits the match to the other and the table finishes;
*bot* — a bot plays the seat for the rest of the match (the match marked as played with a bot); *wait* (and a team
match's table under the forfeit rule, whose forfeit is the whole team match's) — the table is put on hold
(``Table.on_hold``): no clock runs and no move is taken until the organiser gives time (``give_time``) or records a
result.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Match
from games.services import mark_bot_played
from league.choices import ClockIncrement, OnlineNoShow
from league.models import Competition
from tables.changes import TableError, finish_by_forfeit, locked, match_id, publish, set_deadline, touch
from tables.fixtures import fixture_players
from tables.models import Seat, Table, TableAction

OUT_OF_TIME_AUTHOR = "the online table (out of time)"
"""Who recorded an out-of-time forfeit, on the match's history."""

MAX_GIVEN_MINUTES = 60
"""The most time an organiser gives a player at once."""


class RunOut(Enum):
    """What ``run_out`` did: the match settled (nothing more to move), or a bot now plays the seat."""

    SETTLED = "settled"
    BOT_PLAYS = "bot"


def time_control(competition: Competition) -> dict[str, object]:
    """The table columns a competition's time control sets (none when it has no match clock)."""
    if not competition.online_clock_minutes:
        return {}
    return {"match_clock": True, "bank_seconds": competition.online_clock_minutes * 60, "turn_seconds": 0,
            "increment_seconds": competition.online_increment_seconds,
            "increment_per": competition.online_increment_per}


def apply_time_control(table: Table, competition: Competition) -> None:
    """A table just opened for a match of ``competition`` takes its time control, its seats their banks (a table
    that started already keeps the clock it plays with)."""
    columns = time_control(competition)
    if not columns or table.status != Table.LOBBY:
        return
    Table.objects.filter(pk=table.pk, status=Table.LOBBY).update(**columns)
    Seat.objects.filter(table_id=table.pk).update(bank_left=columns["bank_seconds"])
    table.refresh_from_db()


def charge(table: Table, row: Seat, by: str, now: datetime) -> bool:
    """The mover's bank pays for the turn (a match clock's table): the time since the turn's clock started, for
    their own move and for the move a bot makes when they went away (the clock ran while they were gone); then the
    increment, after a move of their own when it is given per move. Returns whether ``row.bank_left`` changed."""
    if row.bot or table.turn_started_at is None:
        return False
    before = row.bank_left
    if by == TableAction.PLAYER or by == TableAction.COVER and not row.covering:
        spent = max(0.0, (now - table.turn_started_at).total_seconds())
        row.bank_left = max(0.0, row.bank_left - spent)
    if by == TableAction.PLAYER and table.increment_per == ClockIncrement.MOVE:
        row.bank_left += table.increment_seconds
    return row.bank_left != before


def hand_increment(table: Table) -> None:
    """A new hand is dealt: each player of a match clock given per hand has the increment added (the first hand's
    deal adds nothing: the bank is the match's start)."""
    if table.match_clock and table.increment_per == ClockIncrement.HAND and table.increment_seconds \
            and table.hand_number > 1:
        Seat.objects.filter(table=table, bot="").update(bank_left=F("bank_left") + table.increment_seconds)


def run_out(table: Table, row: Seat, now: datetime) -> RunOut:
    """``row``'s player ran out of time (their bank is spent): settled by the competition's no-show rule. Called
    under the table's lock with the turn theirs."""
    match = Match.objects.select_related("competition").get(pk=match_id(table))
    rule = match.competition.online_no_show
    name = seat_player_name(match, row)
    row.bank_left = 0.0
    if rule == OnlineNoShow.FORFEIT and match.team_match_id is None:
        outcome = Match.FORFEIT_A if row.index % 2 == 0 else Match.FORFEIT_B  # seats 0 and 2: side A
        row.save(update_fields=["bank_left"])
        losers, winners = (match.side_a_name, match.side_b_name) if outcome == Match.FORFEIT_A \
            else (match.side_b_name, match.side_a_name)
        finish_by_forfeit(table, match, outcome, author_label=OUT_OF_TIME_AUTHOR,
                          reason=f"{name} ({losers}) ran out of time: {winners} win by forfeit.", now=now)
        return RunOut.SETTLED
    if rule == OnlineNoShow.BOT:
        row.covering, row.reclaim_pending = True, False
        row.save(update_fields=["bank_left", "covering", "reclaim_pending"])
        mark_bot_played(match=match)
        return RunOut.BOT_PLAYS
    row.save(update_fields=["bank_left"])
    table.on_hold = f"{name} ran out of time: the table waits for the organiser to give time or record the " \
                    "result."[:300]
    table.deadline_at = None
    touch(table, now)
    table.save()
    publish(table)
    return RunOut.SETTLED


def seat_player_name(match: Match, row: Seat) -> str:
    """The player at ``row`` by their name in the club (as the felt shows them), else the seat's login or number."""
    players = fixture_players(match) if match.side_a_id and match.side_b_id else []
    if row.index < len(players) and players[row.index] is not None:
        return players[row.index].name
    return row.display_name or f"Seat {row.index + 1}"


def give_time(table_id: int, *, minutes: int, now: datetime | None = None) -> Table:
    """The organiser gives the player to move of a table on hold ``minutes`` more and the table plays on: the
    turn's clock starts again when it reaches them. (The pages and the API check that the caller organises the
    match's club.)"""
    now = now or timezone.now()
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= MAX_GIVEN_MINUTES:
        raise TableError("minutes", f"must be a whole number of minutes from 1 to {MAX_GIVEN_MINUTES}, "
                                    f"got {minutes!r}")
    with transaction.atomic():
        table = locked(table_id)
        if not table.on_hold or table.status != Table.PLAYING or table.turn is None:
            raise TableError("table", "the table is not waiting for the organiser: nobody ran out of time")
        row = table.seats.get(index=table.turn)
        row.bank_left += minutes * 60
        row.save(update_fields=["bank_left"])
        table.on_hold = ""
        table.turn_started_at, table.turn_shown_at = now, None
        set_deadline(table, now)
        touch(table, now)
        table.save()
        publish(table)
    return table

