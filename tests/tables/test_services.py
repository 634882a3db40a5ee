"""The table services case by case: creating, seats, bots, starting, acting and its refusals, the clock, a seat
covered while its player is away and reclaimed, a whole casual game, a rematch, idle tables, the views."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine.actions import PLAY
from engine.cards import CARD_NAMES, bits
from tables import acting, changes, clock, closing, dealing, presence, reader_views, seating
from tables import state as live
from tables.changes import AWAY_SECONDS, StaleVersion, TableError
from tables.closing import IDLE_SECONDS
from tables.models import Seat, Table, TableAction, TableHand
from tables.signals import table_changed
from tests.factories import make_user
from tests.tables.helpers import bots_move_until_turn_of, fresh, hidden_cards_shown, later, play_out

pytestmark = pytest.mark.django_db


def one_human_table(user, players: int = 4, **options) -> Table:
    """A table with ``user`` at seat 0 and heuristic bots at the other seats, started."""
    bots = {seat: "heuristic" for seat in range(1, players)}
    table = seating.create_table(user, players, None, Table.PUBLIC, bots, seat=0, **options)
    return dealing.start(table)


def snapshot(table: Table) -> tuple:
    table = fresh(table)
    state = live.live_state(table)
    return (table.version, table.turn, TableAction.objects.filter(table=table).count(),
            state.to_dict() if state else None)


# ----------------------------------------------------------------------------- creating and seating
def test_a_new_table_has_its_seats_bots_and_creator():
    user = make_user()
    table = seating.create_table(user, 4, {"target": 7}, Table.PRIVATE, {1: "random", 3: "montecarlo"}, seat=2)
    seats = {row.index: row for row in table.seats.all()}
    assert (table.status, table.kind, table.ruleset, table.visibility) == ("lobby", "casual", {"target": 7}, "private")
    assert [seats[i].bot for i in range(4)] == ["", "random", "", "montecarlo"]
    assert seats[2].user == user and seats[0].is_empty
    assert len({row.seat_token for row in seats.values()} | {table.invite_token}) == 5


@pytest.mark.parametrize(("args", "field"), [
    ((3, None, "public", {}), "players"),
    ((4, {"target": 0}, "public", {}), "ruleset.target"),
    ((4, None, "secret", {}), "visibility"),
    ((4, None, "public", {1: "chess"}), "bot"),
    ((4, None, "public", {4: "random"}), "seat"),
])
def test_a_table_with_bad_settings_is_refused(args, field):
    with pytest.raises(TableError) as refused:
        seating.create_table(make_user(), *args)
    assert refused.value.field == field
    assert not Table.objects.exists()


def test_seats_are_taken_once_and_one_a_user():
    alice, bob = make_user(), make_user()
    table = seating.create_table(alice, 2, seat=0)
    with pytest.raises(TableError, match="seat 1 is taken"):
        seating.take_seat(table, 0, bob)
    with pytest.raises(TableError, match="already have a seat"):
        seating.take_seat(table, 1, alice)
    seating.take_seat(table, 1, bob)
    assert seating.seat_of_user(table, bob) == 1
    seating.leave_seat(table, 1, bob)
    assert fresh(table).seats.get(index=1).is_empty
    with pytest.raises(TableError, match="not yours"):
        seating.leave_seat(table, 0, bob)


def test_a_table_starts_with_every_seat_filled_and_deals_a_stored_pack():
    user = make_user()
    table = seating.create_table(user, 4, bots={1: "random", 2: "random"}, seat=0)
    with pytest.raises(TableError, match="seat 4 is empty"):
        dealing.start(table)
    seating.add_bot(table, 3, "heuristic")
    version = fresh(table).version
    table = dealing.start(table)
    hand = TableHand.objects.get(table=table)
    pack = hand.pack.split()
    assert table.status == "playing" and table.version == version + 1 and table.game_number == 1
    assert len(pack) == 52 and len(set(pack)) == 52
    assert table.turn == (hand.dealer + 1) % 4 and table.deadline_at is not None
    with pytest.raises(TableError, match="before it starts"):
        seating.add_bot(table, 0, "random")


def test_the_state_is_rebuilt_the_same_from_the_database_alone():
    table = one_human_table(make_user())
    for _ in range(6):
        clock.play_due(table.pk, now=fresh(table).deadline_at)
    table = fresh(table)
    cached = live.live_state(table).to_dict()
    live.forget_all()  # as after a restart
    assert live.live_state(table).to_dict() == cached
    hand = live.current_hand(table)
    actions = TableAction.objects.filter(hand=hand).order_by("seq").values_list("seat", "action")
    assert live.replay(table, hand, actions).to_dict() == cached


# ----------------------------------------------------------------------------- acting and its refusals
def test_a_move_for_a_seat_whose_turn_it_is_not_is_refused_in_the_engines_words():
    table = bots_move_until_turn_of(one_human_table(make_user()), 0)
    with pytest.raises(TableError) as refused:
        acting.act(table.pk, 1, "stand", table.version, "x1")
    assert refused.value.field == "seat"  # a bot's seat: no player moves for it
    state = live.live_state(table)
    wrong = (table.turn + 2) % 4
    row = table.seats.get(index=wrong)
    row.bot, row.user = "", make_user()
    row.save()
    table = fresh(table)
    before = snapshot(table)
    with pytest.raises(TableError) as refused:
        acting.act(table.pk, wrong, str(state.legal_actions()[0]), table.version, "x2")
    assert refused.value.reason == state.why_illegal(state.legal_actions()[0], wrong)
    assert "turn" in refused.value.reason
    assert snapshot(table) == before


def test_a_stale_version_is_refused_with_no_change():
    table = bots_move_until_turn_of(one_human_table(make_user()), 0)
    before = snapshot(table)
    legal = str(live.live_state(table).legal_actions()[0])
    with pytest.raises(StaleVersion) as refused:
        acting.act(table.pk, 0, legal, table.version - 1, "a1")
    assert refused.value.conflict and refused.value.field == "version"
    assert snapshot(table) == before


def test_a_repeated_action_id_gets_the_stored_outcome_and_changes_nothing():
    table = bots_move_until_turn_of(one_human_table(make_user()), 0)
    legal = str(live.live_state(table).legal_actions()[0])
    first = acting.act(table.pk, 0, legal, table.version, "same-id")
    after = snapshot(table)
    again = acting.act(table.pk, 0, legal, table.version, "same-id")  # the client's retry, its old version
    assert again.repeated and not first.repeated
    assert (again.version, again.seat, again.action, again.by) == (first.version, 0, legal, "player")
    assert snapshot(table) == after
    assert TableAction.objects.filter(table=table, action_id="same-id").count() == 1
    with pytest.raises(TableError, match="another seat"):
        acting.act(table.pk, 1, legal, after[0], "same-id")


def test_a_card_the_rules_forbid_is_refused_with_the_engines_reason():
    table = one_human_table(make_user())
    for _ in range(400):  # to the play of the cards, at seat 0's turn
        table = bots_move_until_turn_of(table, 0)
        state = live.live_state(table)
        if state.phase is PLAY:
            break
        acting.act(table.pk, 0, str(state.legal_actions()[0]), table.version)
    assert state.phase is PLAY and state.turn == 0
    before = snapshot(table)
    legal = {str(action) for action in state.legal_actions()}
    held = [CARD_NAMES[card] for card in bits(state.hands[0])]
    not_held = next(name for name in CARD_NAMES if name not in held)
    tries = [not_held, "give", "hello"] + [card for card in held if card not in legal][:1]
    for action in tries:
        with pytest.raises(TableError) as refused:
            acting.act(table.pk, 0, action, table.version, f"try-{action}")
        assert refused.value.field == "action"
        if action != "hello":  # not an action at all: the engine's parser says so
            assert refused.value.reason == state.why_illegal(action, 0)
        assert snapshot(table) == before
    assert f"{not_held} is not in" in state.why_illegal(not_held, 0)


def test_no_move_is_taken_at_a_table_that_is_not_playing():
    table = seating.create_table(make_user(), 2, bots={0: "random", 1: "random"})
    with pytest.raises(TableError, match="not playing"):
        acting.act(table.pk, 0, "stand", table.version)


# ----------------------------------------------------------------------------- the clock and the bots
def test_a_bot_moves_at_its_pace_and_the_move_is_recorded_as_the_bots():
    table = dealing.start(seating.create_table(make_user(), 2, bots={0: "random", 1: "heuristic"}, bot_pace=1.5))
    assert table.deadline_at == table.turn_started_at + timedelta(seconds=1.5)
    assert clock.play_due(table.pk, now=table.deadline_at - timedelta(seconds=0.1)) is None
    assert table.pk in clock.due_moves(table.deadline_at)
    outcome = clock.play_due(table.pk, now=table.deadline_at)
    assert outcome.by == "bot" and TableAction.objects.get(table=table).by == "bot"


def test_when_the_clock_runs_out_a_bot_moves_and_the_record_says_clock():
    table = bots_move_until_turn_of(one_human_table(make_user(), turn_seconds=20, bank_seconds=10), 0)
    assert table.deadline_at == table.turn_started_at + timedelta(seconds=30)
    assert clock.turn_shown(table.pk, 0, table.version, now=table.turn_started_at) is None  # shown in time
    assert table.pk not in clock.due_moves(table.deadline_at - timedelta(seconds=1))
    assert clock.play_due(table.pk, now=table.deadline_at - timedelta(seconds=1)) is None
    outcome = clock.play_due(table.pk, now=table.deadline_at)
    assert outcome.by == "clock" and outcome.seat == 0
    assert TableAction.objects.filter(table=table, by="clock").count() == 1
    assert fresh(table).seats.get(index=0).bank_left == 0


def test_a_turn_never_shown_to_its_player_is_sent_again_with_more_time_not_run_out():
    table = bots_move_until_turn_of(one_human_table(make_user(), turn_seconds=20, bank_seconds=10), 0)
    deadline, version = table.deadline_at, table.version
    assert clock.play_due(table.pk, now=deadline) is None  # no socket of seat 0 was sent the turn
    again = fresh(table)
    assert again.version == version + 1, "the table is published again"
    assert again.deadline_at == deadline + timedelta(seconds=clock.UNSHOWN_GRACE_SECONDS)
    assert not TableAction.objects.filter(table=table, by="clock").exists()
    shown_at = deadline + timedelta(seconds=5)  # it reaches the player late: the clock starts then, whole
    assert clock.turn_shown(table.pk, 0, again.version, now=shown_at).deadline_at == shown_at + timedelta(seconds=30)
    assert clock.play_due(table.pk, now=shown_at + timedelta(seconds=29)) is None
    assert fresh(table).version == again.version
    assert clock.play_due(table.pk, now=shown_at + timedelta(seconds=30)).by == "clock"


def test_a_turn_that_never_reaches_its_player_is_covered_as_away_with_the_bank_kept():
    table = bots_move_until_turn_of(one_human_table(make_user(), turn_seconds=20, bank_seconds=10), 0)
    started = table.turn_started_at
    for _ in range(20):
        table = fresh(table)
        outcome = clock.play_due(table.pk, now=table.deadline_at)
        if outcome is not None:
            break
    assert outcome.by == "cover" and outcome.seat == 0
    assert (table.deadline_at - started).total_seconds() >= 30 + changes.AWAY_SECONDS
    row = fresh(table).seats.get(index=0)
    assert row.covering and row.bank_left == 10


def test_an_away_seat_is_covered_by_a_bot_until_its_player_reclaims_it():
    user = make_user()
    table = bots_move_until_turn_of(one_human_table(user, turn_seconds=600), 0)
    away = table.turn_started_at
    presence.mark_away(table, 0, now=away)
    table = fresh(table)
    assert table.deadline_at == away + timedelta(seconds=AWAY_SECONDS)
    outcome = clock.play_due(table.pk, now=table.deadline_at)
    assert outcome.by == "cover" and fresh(table).seats.get(index=0).covering
    with pytest.raises(TableError, match="reclaim"):
        acting.act(table.pk, 0, "stand", fresh(table).version)
    for _ in range(40):  # the cover plays seat 0's later turns at the bots' pace
        table = fresh(table)
        if table.turn == 0 or table.status != "playing":
            break
        clock.play_due(table.pk, now=table.deadline_at)
    if table.turn == 0:
        assert table.deadline_at == table.turn_started_at + timedelta(seconds=table.bot_pace)
    presence.mark_back(table, 0)
    presence.reclaim(table, 0, user)
    seat = Seat.objects.get(table=table, index=0)
    if table.turn == 0:  # reclaimed at its turn: the bot makes this move, the player the next one
        assert seat.covering and seat.reclaim_pending
        assert clock.play_due(table.pk, now=later()).by == "cover"
        seat.refresh_from_db()
    assert not seat.covering and not seat.reclaim_pending
    table = bots_move_until_turn_of(table, 0)
    state = live.live_state(table)
    assert acting.act(table.pk, 0, str(state.legal_actions()[0]), table.version).by == "player"
    assert {"player", "cover", "bot"} <= set(TableAction.objects.filter(table=table).values_list("by", flat=True))


def test_only_its_player_reclaims_a_seat():
    table = one_human_table(make_user())
    with pytest.raises(TableError, match="not yours"):
        presence.reclaim(table, 0, make_user())


def test_a_player_who_leaves_during_play_is_covered_and_the_seat_can_be_taken():
    user, other = make_user(), make_user()
    table = one_human_table(user)
    seating.leave_seat(table, 0, user)
    assert fresh(table).seats.get(index=0).covering
    seating.take_seat(table, 0, other)
    assert seating.seat_of_user(table, other) == 0


def test_a_whole_casual_game_of_bots_ends_finished_and_a_rematch_deals_again():
    table = dealing.start(seating.create_table(make_user(), 2, {"target": 5}, bots={0: "random", 1: "random"}))
    table = play_out(table)
    assert table.status == "finished" and sorted(table.games_won) == [0, 1] and max(table.score) >= 5
    assert table.turn is None and table.deadline_at is None and clock.due_moves(later()) == []
    hands = list(TableHand.objects.filter(table=table))
    assert all(hand.record and hand.result for hand in hands)
    assert hands[-1].result["winner"] == table.games_won.index(1)
    table = dealing.rematch(table)
    assert (table.status, table.game_number, table.score) == ("playing", 2, [0, 0])
    with pytest.raises(TableError, match="finished game"):
        dealing.rematch(table)


def test_idle_tables_are_closed():
    table = seating.create_table(make_user(), 2)
    busy = seating.create_table(make_user(), 2)
    now = timezone.now()
    Table.objects.filter(pk=table.pk).update(last_activity_at=now - timedelta(seconds=IDLE_SECONDS + 1))
    assert closing.close_idle(now) == [table.pk]
    assert (fresh(table).status, fresh(busy).status) == ("closed", "lobby")
    assert closing.close_idle(now) == []


def test_every_change_is_announced_after_its_commit(django_capture_on_commit_callbacks):
    heard = []

    def listener(sender, table_id, version, **kwargs):
        heard.append((table_id, version))

    table_changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            table = seating.create_table(make_user(), 2, bots={0: "random", 1: "random"})
            assert heard == []  # nothing before the commit
        for callback in callbacks:
            callback()
        with django_capture_on_commit_callbacks(execute=True):
            dealing.start(table)
            clock.play_due(table.pk, now=later())
    finally:
        table_changed.disconnect(listener)
    assert heard == [(table.pk, 0), (table.pk, 1), (table.pk, 2)]


# ----------------------------------------------------------------------------- views
def test_a_seat_sees_its_own_hand_and_a_spectator_no_hand_and_no_moves():
    table = bots_move_until_turn_of(one_human_table(make_user()), 0)
    state = live.live_state(table)
    mine = reader_views.view_for(table, 0)
    other = reader_views.view_for(table, 2)
    watching = reader_views.spectator_view(table)
    assert sorted(mine["view"]["hand"]) == sorted(CARD_NAMES[c] for c in bits(state.hands[0]))
    assert mine["view"]["legal"] and other["view"]["legal"] == []
    assert watching["view"]["hand"] == [] and watching["view"]["legal"] == [] and watching["view"]["seat"] is None
    assert mine["version"] == table.version and len(mine["seats"]) == 4 and mine["table"]["id"] == table.pk
    for reader, frame in ((0, mine), (2, other), (None, watching)):
        assert hidden_cards_shown(frame, state, reader) == set()
    assert "seat_token" not in str(mine) and table.invite_token not in str(mine)
