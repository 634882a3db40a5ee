"""A property test through the table service: random games with bots on every seat, and at every step random
moves that must be refused — out of turn, against the rules, on a stale version, nonsense — each with no change of
state, a repeated action id answered with the stored outcome and no change, and every view produced (each seat's
and a spectator's) scanned for another seat's unplayed card.

The quick run plays whole games until ``QUICK_ACTIONS`` actions are played (``TABLES_PROPERTY_ACTIONS`` overrides
it); the slow one ``SLOW_GAMES`` games (``TABLES_PROPERTY_GAMES``), only with ``-m slow`` or ``RUN_SLOW=1``.
"""

from __future__ import annotations

import os
import random
import time
import uuid
from collections import Counter

import pytest

from engine.cards import CARD_NAMES, bits
from engine.hand import Action
from tables import services
from tables import state as live
from tables.models import Table, TableAction
from tables.services import StaleVersion, TableError
from tests.tables.helpers import fresh, hidden_cards_shown

pytestmark = pytest.mark.django_db

QUICK_ACTIONS = 250
SLOW_GAMES = 10_000
EVERY_ACTION = [str(Action.parse(word)) for word in ("stand", "beg", "give", "run")] + list(CARD_NAMES)
NONSENSE = ["", "play", "XX", "11S", "stand up", 17, None, ["AS"], "A" * 100]


def wanted(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


class Prober:
    """Plays random games through the service and checks every refusal and every view."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counts: Counter[str] = Counter()
        self.sent_ids: list[tuple[int, int, str, object]] = []  # (table, seat, action id, outcome)

    # ------------------------------------------------------------------ a game
    def play_game(self) -> None:
        rng = self.rng
        players = rng.choice((2, 4))
        bots = {seat: rng.choice(("random", "random", "heuristic")) for seat in range(players)}
        table = services.create_table(None, players, {"target": rng.choice((2, 3, 4, 6))}, Table.PUBLIC, bots,
                                      bot_pace=0.0)
        table = services.start(table)
        self.sent_ids = []
        while table.status == Table.PLAYING:
            self.check_views(table)
            for _ in range(rng.randint(1, 2)):
                self.refused_with_no_change(table)
            self.move(table)
            table = fresh(table)
        self.check_views(table)
        self.counts["games"] += 1

    def move(self, table: Table) -> None:
        """The mover's bot moves: mostly through the clock's path (``play_due``), sometimes as a client with an
        action id (kept to be sent again later)."""
        if self.rng.random() < 0.25:
            state = live.live_state(table)
            action = str(services.choose_move("random", state.view(table.turn)))
            action_id = uuid.uuid4().hex
            outcome = services.act(table.pk, table.turn, action, table.version, action_id, by="bot")
            self.sent_ids.append((table.pk, table.turn, action_id, outcome))
        else:
            outcome = services.play_due(table.pk, now=table.deadline_at)
        assert outcome is not None and not outcome.repeated
        self.counts["actions"] += 1

    # ------------------------------------------------------------------ refusals
    def refused_with_no_change(self, table: Table) -> None:
        before = snapshot(table)
        kind = self.rng.choice(("out_of_turn", "illegal", "stale", "nonsense", "repeated"))
        if kind == "repeated" and self.sent_ids:
            table_id, seat, action_id, first = self.rng.choice(self.sent_ids)
            again = services.act(table_id, seat, first.action, self.rng.randint(0, table.version), action_id,
                                 by="bot")
            assert again.repeated and (again.version, again.seat, again.action) == (first.version, seat,
                                                                                    first.action)
        else:
            kind = "illegal" if kind == "repeated" else kind
            seat, action, version, error = self.bad_move(table, kind)
            with pytest.raises(error) as refused:
                services.act(table.pk, seat, action, version, uuid.uuid4().hex, by="bot")
            assert refused.value.reason
        self.counts[kind] += 1
        assert snapshot(table) == before, f"{kind} changed the table"

    def bad_move(self, table: Table, kind: str) -> tuple[int, object, int, type]:
        rng, state = self.rng, live.live_state(table)
        mover = table.turn
        legal = [str(action) for action in state.legal_actions(mover)]
        if kind == "out_of_turn":
            seat = rng.choice([s for s in range(table.players) if s != mover])
            own = [CARD_NAMES[card] for card in bits(state.hands[seat])]
            action = rng.choice(own + ["stand", "beg", "give", "run"])
            assert state.why_illegal(action, seat) is not None
            return seat, action, table.version, TableError
        if kind == "illegal":
            action = rng.choice([a for a in EVERY_ACTION if a not in legal])
            return mover, action, table.version, TableError
        if kind == "stale":
            version = table.version + rng.choice((-3, -2, -1, 1, 2))
            return mover, rng.choice(legal), version, StaleVersion
        return mover, rng.choice(NONSENSE), table.version, TableError

    # ------------------------------------------------------------------ views
    def check_views(self, table: Table) -> None:
        state = live.live_state(table)
        frames = services.all_views(table).items()
        previous = table.hands.filter(number=table.hand_number - 1).values_list("record", flat=True).first()
        for reader, frame in frames:
            shown = hidden_cards_shown(frame, state, reader, previous)
            assert not shown, f"{'a spectator' if reader is None else f'seat {reader}'} was shown {shown}"
            if reader is None:
                assert frame["view"]["hand"] == [] and frame["view"]["legal"] == []
            self.counts["views"] += 1


def snapshot(table: Table) -> tuple:
    table = fresh(table)
    state = live.live_state(table)
    return table.version, table.turn, TableAction.objects.filter(table=table).count(), state.to_dict()


def run(seed: int, *, games: int = 0, actions: int = 0) -> Counter:
    """Whole games until ``games`` are played and ``actions`` actions taken."""
    prober = Prober(random.Random(seed))
    started = time.monotonic()
    while prober.counts["games"] < games or prober.counts["actions"] < actions:
        prober.play_game()
    prober.counts["seconds"] = round(time.monotonic() - started)
    print(dict(prober.counts))
    return prober.counts


def test_random_games_refuse_every_bad_move_and_show_no_hidden_card():
    counts = run(seed=11, actions=wanted("TABLES_PROPERTY_ACTIONS", QUICK_ACTIONS))
    assert counts["actions"] >= wanted("TABLES_PROPERTY_ACTIONS", QUICK_ACTIONS)
    assert min(counts[kind] for kind in ("out_of_turn", "illegal", "stale", "nonsense", "repeated")) > 0


@pytest.mark.slow
def test_ten_thousand_random_games_refuse_every_bad_move_and_show_no_hidden_card(request):
    if "slow" not in (request.config.getoption("markexpr") or "") and not os.environ.get("RUN_SLOW"):
        pytest.skip("slow: run with -m slow (or RUN_SLOW=1)")
    counts = run(seed=12, games=wanted("TABLES_PROPERTY_GAMES", SLOW_GAMES))
    assert counts["games"] == wanted("TABLES_PROPERTY_GAMES", SLOW_GAMES)
