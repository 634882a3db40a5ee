"""The protocol's properties (``tests/tables/test_properties.py``) at the tables of an event played online and for
their spectators: random whole matches at event tables — four players' seats, moved through the service as their
taps would be — and at every step one bad move (out of turn, illegal, stale, nonsense, an accepted id again) that
must change nothing and send no frame; every frame the live layer sends is caught at the channel layer and scanned
for a card its reader may not see. The spectators' frame, a trick behind, must equal the hand replayed from the
stored log up to its last complete trick, at that trick's version, and show no card not face up by then (the trick
in progress included); under "nothing until it is over" the spectators are sent no frame at all.

Each match draws its target (2, 3, 4 or 6: whole games of a few hands), the variants that change what is legal,
and its spectator setting (a trick behind, three times in four). Real commits (``transaction=True``), as in
production: the row lock, the version check, the commit, then ``tables.live.publish``.
"""

from __future__ import annotations

import json
import random
import uuid

import pytest

from engine.cards import CARD_NAMES
from league.choices import OnlineSpectators
from tables import acting, clock
from tables import state as live
from tables.live import seat_group, table_group
from tables.models import Table
from tests.tables.event_scene import make_event, started
from tests.tables.helpers import hidden_cards_shown, public_cards, state_of_frame
from tests.tables.test_event_spectators import ENGINE_KEYS, as_of_last_trick
from tests.tables.test_properties import REFUSALS, FrameTap, Prober, snapshot, wanted

QUICK_ACTIONS = 200


class EventProber(Prober):
    """``Prober``'s refusals at event tables; its moves are the players' (no bot owns an event's seat) and its scan
    knows the spectators' rule."""

    matches = 0

    def play_game(self) -> None:
        rng = self.rng
        ruleset = {"target": rng.choice((2, 3, 4, 6)), "undertrump_ban": rng.random() < 0.5,
                   "give_one_needs_trump": rng.random() < 0.5, "give_one_to_win": rng.random() < 0.5,
                   "misdeal": rng.choice(("redeal_same_dealer", "deal_passes")),
                   "stand_needs_trump": rng.random() < 0.5, "last_card_kick": rng.random() < 0.5}
        self.spectators = rng.choice([OnlineSpectators.TRICK_BEHIND] * 3 + [OnlineSpectators.AFTER_EVENT])
        EventProber.matches += 1
        event = make_event(spectators=self.spectators, ruleset=ruleset, name=f"Event{EventProber.matches}")
        table = started(event.tables[0])
        self.tap.take()  # the opening, the players coming, the deal
        self.sent_ids = []
        seen = snapshot(table)
        while table.status == Table.PLAYING:
            seen = self.refused_with_no_change(table, seen)
            self.move(table)
            table, seen = self.scan_frames(table.pk)
        self.counts["games"] += 1
        self.counts["hands"] += table.hand_number

    def move(self, table: Table) -> None:
        """The player to move taps a random legal move (with an action id, kept to be sent again later)."""
        _, state = live.current(table)
        action = str(clock.choose_move("random", state.view(table.turn)))
        action_id = uuid.uuid4().hex
        outcome = acting.act(table.pk, table.turn, action, table.version, action_id)
        self.sent_ids.append((table.pk, table.turn, action_id, outcome))
        assert not outcome.repeated and outcome.version == table.version + 1
        self.counts["actions"] += 1

    def scan_frames(self, table_id: int) -> tuple[Table, tuple]:
        table = Table.objects.get(pk=table_id)
        seen = snapshot(table)
        sent, notices = [], []
        for group, message in self.tap.take():
            (notices if group.startswith("live.") else sent).append((group, message))
        # the event's page is told of the change (a hand's end also tells the scoresheet, the settle the standings)
        assert [message["tables"] for _, message in notices if message["tables"]] == [[table.match_id]]
        readers = {seat_group(table_id, seat): seat for seat in range(table.players)}
        if self.spectators == OnlineSpectators.TRICK_BEHIND:
            readers[table_group(table_id)] = None
        assert sorted(group for group, _ in sent) == sorted(readers), f"frames sent to {[g for g, _ in sent]}"
        _, state = live.current(table)
        previous = self.previous_record(table)
        last = seen[3][0]
        face_up = public_cards(previous) | ({CARD_NAMES[card] for card in state.plays} if state else set())
        for group, message in sent:
            reader, frame = readers[group], json.loads(message["text"])
            assert message["version"] == frame["version"] and frame["type"] == "event"
            if reader is None:
                self.check_trick_behind(table, frame)
                continue
            assert frame["version"] == table.version
            if last is not None and last[0] == table.version:
                assert (frame["seat"], frame["action"], frame["by"]) == (last[3], last[1], last[4])
            action = frame.pop("action", None)
            shown = hidden_cards_shown(frame, state, reader, previous)
            if action in CARD_NAMES and action not in face_up:
                shown.add(action)
            self.note_leak(table, reader, shown)
        return table, seen

    def check_trick_behind(self, table: Table, frame: dict) -> None:
        """The spectators' frame: no move named, the hand as of its last complete trick at that trick's version,
        and no card not face up by then."""
        assert not {"seat", "action", "by"} & set(frame)
        self.counts["spectator_frames"] += 1
        if frame["view"] is None:
            return
        assert frame["view"]["hand"] == [] and frame["view"]["legal"] == []
        if table.status == Table.PLAYING and frame["view"]["hand_number"] == table.hand_number:
            expected, version = as_of_last_trick(table)
            assert {key: frame["view"][key] for key in ENGINE_KEYS} == {key: expected[key] for key in ENGINE_KEYS}
            assert frame["version"] == version <= table.version
            if version < table.version:
                self.counts["spectator_frames_behind"] += 1
        at_its_version, previous = state_of_frame(table.pk, frame)
        self.note_leak(table, None, hidden_cards_shown(frame, at_its_version, None, previous))

    def note_leak(self, table: Table, reader: int | None, shown: set) -> None:
        if shown:
            self.leaks.append(f"table {table.pk} v{table.version}: "
                              f"{'a spectator' if reader is None else f'seat {reader}'} was shown {shown}")
        self.counts["frames"] += 1


@pytest.mark.django_db(transaction=True)
def test_random_event_matches_refuse_every_bad_move_and_show_no_hidden_card_to_players_or_spectators():
    from channels.layers import channel_layers

    tap = FrameTap()
    before = channel_layers.backends.get("default")
    channel_layers.backends["default"] = tap
    prober = EventProber(random.Random(28), tap)
    try:
        while prober.counts["actions"] < wanted("TABLES_EVENT_PROPERTY_ACTIONS", QUICK_ACTIONS):
            prober.play_game()
    finally:
        if before is None:
            channel_layers.backends.pop("default", None)
        else:
            channel_layers.backends["default"] = before
    print(dict(prober.counts))
    assert prober.leaks == []
    assert min(prober.counts[kind] for kind in REFUSALS) > 0
    assert prober.counts["spectator_frames_behind"] > 0  # frames a trick behind were sent and checked
