"""The spectators of an event's tables (``tables.spectators``, ``reader_views.trick_behind``): a trick behind, frame
by frame — the trick in progress not shown until it is complete, the calls of a hand not shown until its first
trick is — or nothing while the event is on, as its organiser set; never a hand; and nobody who plays at the table
watches it: a signed-in player of the match, or a browser that opened one of its seat links, is sent to the seat.

The frames are read as the live layer makes them (``tables.live.frames``: every group's frame read now, or built
from what a change holds in ``publish``) and compared with the hand replayed from the stored log up to the last
complete trick, independently of how the delay is made.
"""

from __future__ import annotations

import uuid

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse

from engine.cards import CARD_NAMES
from engine.seat_view import SeatView
from games.models import Match
from league.choices import OnlineSpectators
from league.models import Competition
from tables import acting, clock, dealing, live, reader_views, seating, spectators
from tables import state as table_state
from tables.live import seat_group, table_group
from tables.models import Seat, Table, TableAction, TableHand
from tables.signals import event_table_changed
from tests.factories import make_user
from tests.tables.event_scene import make_event, started
from tests.tables.helpers import fresh, hidden_cards_shown, state_of_frame

pytestmark = pytest.mark.django_db

ENGINE_KEYS = ("seat", "players", "dealer", "phase", "turn", "hand", "hand_sizes", "kicks", "trump", "beg", "score",
               "kick_points", "beg_points", "tricks", "trick", "legal", "winner")


def move(table: Table) -> Table:
    """The seat to move makes its first legal move, as its player's tap would."""
    table = fresh(table)
    _, state = table_state.current(table)
    action = str(state.legal_actions()[0])
    acting.act(table.pk, table.turn, action, table.version, uuid.uuid4().hex)
    return fresh(table)


def spectators_frame(table: Table) -> dict | None:
    """The frame the live layer sends the table's spectators now (``None``: none is sent)."""
    sent = dict(live.frames(table.pk))
    return sent.get(table_group(table.pk))


def as_of_last_trick(table: Table) -> tuple[dict, int]:
    """The spectators' view of the table's current hand replayed from its stored log up to its last complete trick
    (the deal, before the first), and the version that is: what a trick behind must show."""
    hand = TableHand.objects.filter(table=table).order_by("-number").first()
    actions = list(TableAction.objects.filter(hand=hand).order_by("seq").values_list("seq", "seat", "action"))
    state = table_state.deal(table, hand)
    shown_state, shown_version = state.copy(), (actions[0][0] - 1 if actions else table.version)
    for seq, seat, action in actions:
        state.apply(action, seat)
        if not state.trick and state.tricks:  # a trick just completed (or the hand ended)
            shown_state, shown_version = state.copy(), seq
    view = SeatView(shown_state, 0).to_dict()
    view.update(seat=None, hand=[], legal=[])
    return view, shown_version


def engine_part(view: dict) -> dict:
    return {key: view[key] for key in ENGINE_KEYS}


# ----------------------------------------------------------------------------- a trick behind
def test_a_spectator_sees_the_trick_in_progress_only_once_it_is_complete():
    event = make_event()
    table = started(event.tables[0])
    hand_number, steps, completed_seen = table.hand_number, 0, 0
    while fresh(table).hand_number == hand_number and steps < 200:
        table = fresh(table)
        _, state = table_state.current(table)
        frame = spectators_frame(table)
        assert frame is not None and frame["type"] == "event"
        expected, version = as_of_last_trick(table)
        assert engine_part(frame["view"]) == engine_part(expected), f"step {steps}"
        assert frame["version"] == version
        assert frame["table"]["delay"] == reader_views.TRICK_BEHIND and frame["table"]["deadline_at"] is None
        assert frame["table"]["turn"] == expected["turn"]
        if state.trick:  # cards on the felt: none of them shown yet, nor whose turn it really is
            assert frame["view"]["trick"]["cards"] == [] and frame["version"] < table.version
        elif state.tricks:  # the trick just completed: shown whole, at the table's own version
            assert frame["view"]["tricks"][-1]["cards"] == [CARD_NAMES[card] for card in state.tricks[-1][1]]
            assert len(frame["view"]["tricks"]) == len(state.tricks) and frame["version"] == table.version
            completed_seen += 1
        assert not hidden_cards_shown(frame, state, None)
        table = move(table)
        steps += 1
    assert completed_seen >= 5  # every trick of the hand but the last, which ends it (then the next is dealt)


def test_a_hands_calls_are_not_shown_before_its_first_trick_is_complete():
    event = make_event()
    table = started(event.tables[0])
    dealt = spectators_frame(table)
    assert dealt["view"]["phase"] == "beg" and dealt["view"]["beg"] is None
    eldest = dealt["view"]["turn"]
    table = move(table)  # the eldest stands or begs
    after_call = spectators_frame(table)
    assert TableAction.objects.filter(table=table).count() == 1
    assert after_call["version"] == dealt["version"]  # nothing moved on for the spectators: no count of the calls
    assert engine_part(after_call["view"]) == engine_part(dealt["view"])
    assert after_call["table"]["turn"] == eldest
    while not table_state.current(fresh(table))[1].tricks:
        table = move(table)
        if not table_state.current(fresh(table))[1].tricks:
            assert engine_part(spectators_frame(table)["view"]) == engine_part(dealt["view"])
    complete = spectators_frame(fresh(table))
    assert complete["view"]["phase"] == "play" and len(complete["view"]["tricks"]) == 1
    assert complete["view"]["beg"] is not None  # the calls, once the first trick is taken
    assert complete["version"] == fresh(table).version


def test_a_spectators_frame_of_an_event_table_names_no_move_and_the_seats_frames_still_do():
    event = make_event()
    table = move(started(event.tables[0]))
    frames = dict(live.frames(table.pk))
    assert {"seat", "action", "by"} & set(frames[table_group(table.pk)]) == set()
    assert frames[seat_group(table.pk, 0)]["action"] and frames[seat_group(table.pk, 0)]["seat"] is not None


def test_the_frames_built_by_a_change_and_read_again_agree_for_the_spectators():
    event = make_event()
    table = started(event.tables[0])
    for _ in range(7):
        table = move(table)
        read_now = dict(live.frames(table.pk))
        hand, state = table_state.current(table)
        built = reader_views.all_views(table, hand=hand, state=state)
        from_change = dict(live.frames(table.pk, built, live.last_action(table.pk, table.version)))
        assert from_change[table_group(table.pk)] == read_now[table_group(table.pk)]


def test_no_spectator_frame_of_a_whole_hand_shows_a_card_not_yet_shown_at_its_own_version():
    event = make_event()
    table = started(event.tables[0])
    hand_number = table.hand_number
    while fresh(table).hand_number == hand_number:
        frame = spectators_frame(fresh(table))
        state, previous = state_of_frame(table.pk, frame)  # the hand as it stood at the frame's version
        assert not hidden_cards_shown(frame, state, None, previous)
        assert frame["view"]["hand"] == [] and frame["view"]["legal"] == []
        table = move(table)


def test_a_casual_table_and_a_fixture_not_of_an_event_are_watched_live_as_before():
    event = make_event(name="Casual")
    Competition.objects.filter(pk=event.competition.pk).update(play_online=False)
    table = move(started(event.tables[0]))
    frame = spectators_frame(table)
    assert frame["version"] == table.version and "delay" not in frame["table"] and frame["action"]


# ----------------------------------------------------------------------------- nothing until it is over
def test_nothing_until_it_is_over_sends_the_spectators_no_frame_while_a_match_is_still_to_play():
    event = make_event(spectators=OnlineSpectators.AFTER_EVENT)
    table = move(started(event.tables[0]))
    assert spectators_frame(table) is None
    assert spectators.rule_of(table).watching == spectators.Watching.CLOSED
    state = live.state_frame(table.pk, None)  # a socket opened before: no hand, no turn
    assert state["view"] is None and state["table"]["turn"] is None and state["table"]["delay"] == "closed"
    Match.objects.filter(competition=event.competition).update(status=Match.COMPLETE)
    assert spectators.rule_of(table).watching == spectators.Watching.TRICK_BEHIND  # over: the tables may be watched


def test_nothing_until_it_is_over_refuses_the_table_page_and_its_replays_saying_why(client):
    event = make_event(spectators=OnlineSpectators.AFTER_EVENT)
    table = started(event.tables[0])
    page = client.get(reverse("table", args=[table.pk]))
    assert page.status_code == 403
    text = page.content.decode()
    assert "out of sight until every match is played" in text
    assert reverse("competition_live", args=[event.competition.club.slug, event.competition.slug]) in text
    replay = client.get(reverse("table_replay", args=[table.pk, 1]))
    assert replay.status_code == 403
    with pytest.raises(live.Refused) as refused:
        live.seat_for_socket(table.pk, None, "", "")
    assert refused.value.code == 4403 and "out of sight" in refused.value.reason


# ----------------------------------------------------------------------------- who may watch
def test_an_event_table_is_watched_with_no_invite_and_a_private_casual_table_still_needs_one(client):
    event = make_event()
    table = started(event.tables[0])
    assert table.visibility == Table.PRIVATE
    assert live.seat_for_socket(table.pk, None, "", "") is None  # a spectator
    page = client.get(reverse("table", args=[table.pk]))
    assert page.status_code == 200
    frame = page.context["frame"]
    assert frame["table"]["delay"] == reader_views.TRICK_BEHIND and frame["view"]["hand"] == []
    Competition.objects.filter(pk=event.competition.pk).update(published=False)
    assert client.get(reverse("table", args=[table.pk])).status_code == 404
    with pytest.raises(live.Refused):
        live.seat_for_socket(table.pk, None, "", "")


def test_a_signed_in_player_of_the_match_is_sent_to_their_seat_not_a_spectators_view(client):
    event = make_event()
    table = event.tables[0]
    ann = event.players(0)[2]  # side A's second player: seat 2
    assert live.seat_for_socket(table.pk, ann.user, "", "") == 2  # seated by their login
    Seat.objects.filter(table=table, index=2).update(user=None)  # their login linked after the table opened
    client.force_login(ann.user)
    page = client.get(reverse("table", args=[table.pk]))
    token = Seat.objects.get(table=table, index=2).seat_token
    assert page.status_code == 302 and page.url == reverse("table", args=[table.pk]) + f"?seat={token}"
    with pytest.raises(live.Refused) as refused:
        live.seat_for_socket(table.pk, ann.user, "", "")
    assert refused.value.code == 4403 and refused.value.reason == spectators.PLAYER_REASON
    Seat.objects.filter(table=table, index=2).update(link_revoked=True)  # a revoked link is not handed out
    page = client.get(reverse("table", args=[table.pk]))
    assert page.status_code == 403 and spectators.PLAYER_REASON in page.content.decode()


def test_a_player_of_another_match_of_the_event_may_watch_this_table(client):
    event = make_event()
    other = event.players(1)[0]
    client.force_login(other.user)
    assert client.get(reverse("table", args=[event.tables[0].pk])).status_code == 200
    assert live.seat_for_socket(event.tables[0].pk, other.user, "", "") is None


def test_a_browser_that_opened_a_seat_link_is_sent_back_to_its_seat(client):
    event = make_event()
    table = event.tables[0]
    token = Seat.objects.get(table=table, index=1).seat_token
    assert client.get(reverse("table", args=[table.pk]) + f"?seat={token}").status_code == 200
    again = client.get(reverse("table", args=[table.pk]))  # the same browser, as a spectator
    assert again.status_code == 302 and again.url.endswith(f"?seat={token}")
    session = SessionStore(session_key=client.session.session_key)
    with pytest.raises(live.Refused) as refused:
        live.seat_for_socket(table.pk, None, "", "", session)
    assert refused.value.reason == spectators.SEAT_LINK_REASON
    stranger = make_user("stranger")
    client.logout()
    client.force_login(stranger)  # a new session: nothing remembered
    assert client.get(reverse("table", args=[table.pk])).status_code == 200


def test_only_an_event_tables_changes_tell_the_event_page(django_capture_on_commit_callbacks):
    told = []

    def heard(sender, **kwargs):
        told.append((kwargs["competition_id"], kwargs["match_id"]))

    event_table_changed.connect(heard, dispatch_uid="tests.heard")
    try:
        casual = seating.create_table(None, 2, None, Table.PUBLIC, {0: "random", 1: "random"}, bot_pace=0.0)
        with django_capture_on_commit_callbacks(execute=True):
            dealing.start(casual)
            clock.play_due(casual.pk, now=fresh(casual).deadline_at)
        assert told == []
        event = make_event()
        with django_capture_on_commit_callbacks(execute=True):
            move(started(event.tables[0]))
        assert told and set(told) == {(event.competition.pk, event.matches[0].pk)}
    finally:
        event_table_changed.disconnect(dispatch_uid="tests.heard")
