"""A competition's time control at its online tables (``tables.match_clock``): each player's bank for the whole match,
charged for the time their turns take and given an increment per move or per hand; the server keeps it in the
database, so it runs on after a restart; a player out of time is settled by the competition's no-show rule — a
forfeit, a bot for the rest of the match, or the table on hold until the organiser gives time. Time is driven by
moving the turn's start into the past and calling the clock with ``now``, never by sleeping."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match
from league.choices import ClockIncrement, OnlineNoShow
from tables import clock, match_clock
from tables import state as live
from tables.acting import act
from tables.changes import TableError
from tables.models import Seat, Table, TableAction
from tests.tables.test_online_events import club, organiser, paired_and_published, run, seated, swiss, tables_of

pytestmark = pytest.mark.django_db
__all__ = ["club", "organiser", "run"]  # fixtures shared with the online events' tests

BANK_MINUTES = 5


def clocked_table(run, club, **options) -> Table:
    """Round 1's first table of a Swiss played online with a 5-minute match clock, its four players seated (the
    table started)."""
    options = {"online_clock_minutes": BANK_MINUTES, "online_increment_seconds": 3, **options}
    table = tables_of(paired_and_published(run, swiss(club, **options)))[0]
    seated(run, table, 0, 1, 2, 3)
    table.refresh_from_db()
    assert table.status == Table.PLAYING
    return table


def a_legal_move(table: Table) -> str:
    _, state = live.current(table)
    assert state is not None and table.turn is not None
    return str(clock.choose_move("random", state.view(table.turn)))


def turn_taken_for(table: Table, seconds: float) -> None:
    """The turn reached its player ``seconds`` ago (its clock started then, and it was shown)."""
    started = timezone.now() - timedelta(seconds=seconds)
    Table.objects.filter(pk=table.pk).update(turn_started_at=started, turn_shown_at=started)
    table.refresh_from_db()


def bank(table: Table, seat: int) -> float:
    return Seat.objects.get(table=table, index=seat).bank_left


def out_of_time(table: Table) -> int:
    """The seat to move has a second left and its turn began a minute ago: its deadline passed. Returns the seat."""
    seat = table.turn
    assert seat is not None
    Seat.objects.filter(table=table, index=seat).update(bank_left=1.0)
    turn_taken_for(table, 60)
    Table.objects.filter(pk=table.pk).update(deadline_at=timezone.now() - timedelta(seconds=59))
    table.refresh_from_db()
    return seat


# ----------------------------------------------------------------------------- the clock
def test_a_table_opens_with_the_competitions_time_control_and_each_player_the_whole_bank(club, run):
    table = clocked_table(run, club, online_increment_per=ClockIncrement.HAND)
    assert table.match_clock and table.bank_seconds == BANK_MINUTES * 60 and table.turn_seconds == 0
    assert table.increment_seconds == 3 and table.increment_per == ClockIncrement.HAND
    assert [bank(table, seat) for seat in range(4)] == [300.0] * 4
    # the seat to move runs out exactly when its bank does: no time per turn on top
    assert abs((table.deadline_at - table.turn_started_at).total_seconds() - 300) < 0.01


def test_a_competition_with_no_match_clock_keeps_the_tables_time_per_turn(club, run):
    table = tables_of(paired_and_published(run, swiss(club)))[0]
    assert not table.match_clock and table.turn_seconds == 30


def test_a_move_spends_the_time_it_took_and_earns_the_increment(club, run):
    table = clocked_table(run, club)
    seat = table.turn
    turn_taken_for(table, 20)
    act(table.pk, seat, a_legal_move(table), table.version)
    assert bank(table, seat) == pytest.approx(300 - 20 + 3, abs=0.5)
    table.refresh_from_db()
    following = table.turn
    assert abs((table.deadline_at - table.turn_started_at).total_seconds() - bank(table, following)) < 0.01


def test_an_increment_per_hand_is_added_at_each_new_hand_not_per_move(club, run):
    table = clocked_table(run, club, online_increment_per=ClockIncrement.HAND, online_increment_seconds=10)
    first_hand = table.hand_number
    while table.hand_number == first_hand and table.status == Table.PLAYING:
        act(table.pk, table.turn, a_legal_move(table), table.version)
        table.refresh_from_db()
    assert table.hand_number == first_hand + 1
    for seat in range(4):  # each move took a moment; the new hand gave ten seconds each
        assert bank(table, seat) == pytest.approx(310, abs=1)


def test_the_clock_is_kept_in_the_database_and_runs_out_after_a_restart(club, run):
    table = clocked_table(run, club)
    seat = out_of_time(table)
    live.forget_all()  # the process that held the table in memory is gone: what is left is the database
    clock._bots.clear()
    assert table.pk in clock.due_moves()
    run(clock.play_due, table.pk)
    table.refresh_from_db()
    match = Match.objects.get(pk=table.match_id)
    assert table.status == Table.FINISHED and match.outcome in (Match.FORFEIT_A, Match.FORFEIT_B)
    assert bank(table, seat) == 0


# ----------------------------------------------------------------------------- running out
def test_running_out_under_the_forfeit_rule_forfeits_the_match_to_the_other_side(club, run):
    table = clocked_table(run, club, online_no_show=OnlineNoShow.FORFEIT)
    seat = out_of_time(table)
    assert run(clock.play_due, table.pk) is None
    table.refresh_from_db()
    match = Match.objects.get(pk=table.match_id)
    lost = Match.FORFEIT_A if seat % 2 == 0 else Match.FORFEIT_B
    assert match.outcome == lost and match.status == Match.COMPLETE
    assert match.winner == ("b" if lost == Match.FORFEIT_A else "a")
    assert table.status == Table.FINISHED and "ran out of time" in table.end_reason
    assert "win by forfeit" in table.end_reason and not TableAction.objects.filter(table=table, by="clock").exists()


def test_running_out_under_the_bot_rule_has_a_bot_play_the_seat_for_the_rest_of_the_match(club, run):
    table = clocked_table(run, club, online_no_show=OnlineNoShow.BOT)
    seat = out_of_time(table)
    outcome = run(clock.play_due, table.pk)
    assert outcome is not None and outcome.seat == seat and outcome.by == TableAction.COVER
    row = Seat.objects.get(table=table, index=seat)
    assert row.covering and row.bank_left == 0
    assert Match.objects.get(pk=table.match_id).bot_played  # marked, and rated only where the competition says
    table.refresh_from_db()
    assert table.status == Table.PLAYING and not table.on_hold


def test_running_out_under_the_wait_rule_holds_the_table_until_the_organiser_gives_time(club, run):
    table = clocked_table(run, club, online_no_show=OnlineNoShow.WAIT)
    seat = out_of_time(table)
    assert run(clock.play_due, table.pk) is None
    table.refresh_from_db()
    assert table.status == Table.PLAYING and table.turn == seat and table.deadline_at is None
    assert "ran out of time" in table.on_hold and table.pk not in clock.due_moves()
    with pytest.raises(TableError) as refused:  # no move while the table waits, and nothing changes
        act(table.pk, seat, a_legal_move(table), table.version)
    assert refused.value.field == "table" and "waits for the organiser" in refused.value.reason
    for wrong in (0, 61, "5", True):
        with pytest.raises(TableError) as bad:
            match_clock.give_time(table.pk, minutes=wrong)
        assert bad.value.field == "minutes"
    run(match_clock.give_time, table.pk, minutes=2)
    table.refresh_from_db()
    assert not table.on_hold and bank(table, seat) == 120
    assert abs((table.deadline_at - table.turn_started_at).total_seconds() - 120) < 0.01
    act(table.pk, seat, a_legal_move(table), table.version)  # the player moves again
    with pytest.raises(TableError) as again:
        match_clock.give_time(table.pk, minutes=1)
    assert "not waiting for the organiser" in again.value.reason


def test_a_turn_never_shown_is_not_run_out_on_its_player(club, run):
    table = clocked_table(run, club)
    seat = out_of_time(table)
    Table.objects.filter(pk=table.pk).update(turn_shown_at=None, turn_started_at=timezone.now() - timedelta(seconds=2))
    assert run(clock.play_due, table.pk) is None  # shown again with more time
    table.refresh_from_db()
    assert table.status == Table.PLAYING and table.turn == seat and bank(table, seat) == 1.0


def test_the_organiser_gives_time_on_the_matchs_online_page_and_wrong_minutes_are_named(club, run, client,
                                                                                         organiser):
    table = clocked_table(run, club, online_no_show=OnlineNoShow.WAIT)
    seat = out_of_time(table)
    run(clock.play_due, table.pk)
    page = f"/matches/{table.match_id}/online/"
    player = Seat.objects.get(table=table, index=seat).user
    client.force_login(player)  # a player of the match: not theirs to give
    assert client.post(f"{page}give-time/", {"minutes": "5"}).status_code == 403
    client.force_login(organiser)
    shown = client.get(page).content.decode()
    assert 'id="on-hold"' in shown and "ran out of time" in shown and "Give time" in shown
    for wrong, words in (("lots", "Minutes: a whole number from 1 to 60"), ("0", "Minutes: must be a whole number")):
        answer = client.post(f"{page}give-time/", {"minutes": wrong}, follow=True).content.decode()
        assert words in answer
        table.refresh_from_db()
        assert table.on_hold  # nothing changed
    answer = client.post(f"{page}give-time/", {"minutes": "3"}, follow=True).content.decode()
    assert "3 more minutes given: the table plays on." in answer and 'id="on-hold"' not in answer
    table.refresh_from_db()
    assert not table.on_hold and bank(table, seat) == 180
