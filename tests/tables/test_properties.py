"""A property test through the table service: random games with bots on every seat, and at every step random
moves that must be refused — out of turn, against the rules, on a stale version, nonsense, and an accepted action's
id sent again — each with no change of state (the table's row, its seats, its action log and the live hand) and no
frame sent; and every frame the live layer sends after a change (each seat's group and the spectators', caught at
the channel layer) scanned for another seat's unplayed card.

The games run with real commits (``transaction=True``), so every accepted action goes the production way: the row
lock, the version check, the commit, then ``tables.live.publish`` builds and sends each reader's frame. The test
holds the channel layer (``FrameTap``) and checks that each change sent exactly one frame to every group, at the
new version, and that a refusal sent none.

Each game: 2 or 4 seats, a ``random`` or ``heuristic`` bot on each, a ruleset drawn per game (the target from 2, 3,
4 or 6 — whole games of a few hands each, so that many games see deals, hand ends, the next deal, a game won, also
by a kick at the deal, without the ~5× length of a 14-point game — and the variant keys that change what is legal:
``undertrump_ban``, ``give_one_needs_trump``, ``give_one_to_win``, ``misdeal``, ``stand_needs_trump``,
``last_card_kick``). The mover's bot moves, mostly through the clock's path (``play_due``), sometimes as a client
with an action id (kept to be sent again).

The quick run (in the suite) plays whole games until ``QUICK_ACTIONS`` actions are accepted
(``TABLES_PROPERTY_ACTIONS`` overrides it). The slow one plays ``SLOW_GAMES`` games (``TABLES_PROPERTY_GAMES``)
split over ``WORKERS`` processes (``TABLES_PROPERTY_WORKERS``; worker i plays seed ``TABLES_PROPERTY_SEED`` + i,
default 1200), each on a database of its own (SQLite: a file in WAL
mode; PostgreSQL: a test database per worker), only with ``-m slow`` or ``RUN_SLOW=1``; it prints the figures.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from channels.layers import channel_layers
from django.db import connection

from engine.actions import Action
from engine.cards import CARD_NAMES, bits
from tables import acting, clock, dealing, seating
from tables import state as live
from tables.changes import StaleVersion, TableError
from tables.live import seat_group, table_group
from tables.models import Seat, Table, TableAction, TableHand
from tests.tables.helpers import hidden_cards_shown, public_cards

QUICK_ACTIONS = 150
SLOW_GAMES = 10_000
WORKERS = 2
EVERY_ACTION = [str(Action.parse(word)) for word in ("stand", "beg", "give", "run")] + list(CARD_NAMES)
NONSENSE = ["", "play", "XX", "11S", "stand up", 17, None, ["AS"], "A" * 100]
REFUSALS = ("out_of_turn", "illegal", "stale", "nonsense", "repeated")
ROOT = Path(__file__).resolve().parents[2]


def wanted(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


class FrameTap:
    """The channel layer while the test runs: keeps every message the live layer sends, by group."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        self.sent.append((group, message))

    def take(self) -> list[tuple[str, dict]]:
        sent, self.sent = self.sent, []
        return sent


class Prober:
    """Plays random games through the service; checks every refusal and every frame sent."""

    def __init__(self, rng: random.Random, tap: FrameTap) -> None:
        self.rng = rng
        self.tap = tap
        self.counts: Counter[str] = Counter()
        self.leaks: list[str] = []
        self.sent_ids: list[tuple[int, int, str, object]] = []  # (table, seat, action id, outcome)
        self.previous: tuple[int, dict | None] = (0, None)  # (hand number, the record of the hand before it)

    # ------------------------------------------------------------------ a game
    def play_game(self) -> None:
        rng = self.rng
        players = rng.choice((2, 4))
        bots = {seat: rng.choice(("random", "random", "heuristic")) for seat in range(players)}
        ruleset = {"target": rng.choice((2, 3, 4, 6)), "undertrump_ban": rng.random() < 0.5,
                   "give_one_needs_trump": rng.random() < 0.5, "give_one_to_win": rng.random() < 0.5,
                   "misdeal": rng.choice(("redeal_same_dealer", "deal_passes")),
                   "stand_needs_trump": rng.random() < 0.5, "last_card_kick": rng.random() < 0.5}
        table = seating.create_table(None, players, ruleset, Table.PUBLIC, bots, bot_pace=0.0)
        self.scan_frames(table.pk)
        dealing.start(table)
        self.sent_ids = []
        table, seen = self.scan_frames(table.pk)
        while table.status == Table.PLAYING:
            seen = self.refused_with_no_change(table, seen)
            self.move(table)
            table, seen = self.scan_frames(table.pk)
        self.counts["games"] += 1
        self.counts["hands"] += table.hand_number

    def move(self, table: Table) -> None:
        """The mover's bot moves: mostly through the clock's path (``play_due``), sometimes as a client with an
        action id (kept to be sent again later)."""
        if self.rng.random() < 0.25:
            _, state = live.current(table)
            action = str(clock.choose_move("random", state.view(table.turn)))
            action_id = uuid.uuid4().hex
            outcome = acting.act(table.pk, table.turn, action, table.version, action_id, by="bot")
            self.sent_ids.append((table.pk, table.turn, action_id, outcome))
        else:
            outcome = clock.play_due(table.pk, now=table.deadline_at)
        assert outcome is not None and not outcome.repeated and outcome.version == table.version + 1
        self.counts["actions"] += 1

    # ------------------------------------------------------------------ refusals
    def refused_with_no_change(self, table: Table, before: tuple) -> tuple:
        kind = self.rng.choice(REFUSALS)
        if kind == "repeated" and self.sent_ids:
            table_id, seat, action_id, first = self.rng.choice(self.sent_ids)
            again = acting.act(table_id, seat, first.action, self.rng.randint(0, table.version), action_id,
                               by="bot")
            assert again.repeated and (again.version, again.seat, again.action) == (first.version, seat,
                                                                                    first.action)
        else:
            kind = "illegal" if kind == "repeated" else kind
            seat, action, version, error = self.bad_move(table, kind)
            with pytest.raises(error) as refused:
                acting.act(table.pk, seat, action, version, uuid.uuid4().hex, by="bot")
            assert refused.value.reason
        self.counts[kind] += 1
        sent = self.tap.take()
        assert not sent, f"{kind} sent {len(sent)} frames"
        after = snapshot(table)
        assert after == before, f"{kind} changed the table"
        return after

    def bad_move(self, table: Table, kind: str) -> tuple[int, object, int, type]:
        rng, (_, state) = self.rng, live.current(table)
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

    # ------------------------------------------------------------------ frames
    def scan_frames(self, table_id: int) -> tuple[Table, tuple]:
        """Every frame sent since the last look: one to each seat's group and one to the spectators', at the
        table's version now, none showing a card its reader may not see. The table and its snapshot now."""
        table = Table.objects.get(pk=table_id)
        seen = snapshot(table)
        sent = self.tap.take()
        readers = {seat_group(table_id, seat): seat for seat in range(table.players)}
        readers[table_group(table_id)] = None
        assert sorted(group for group, _ in sent) == sorted(readers), f"frames sent to {[g for g, _ in sent]}"
        _, state = live.current(table)
        previous = self.previous_record(table)
        last = seen[3][0]  # (seq, action, action id, seat, by) of the last action
        face_up = public_cards(previous) | ({CARD_NAMES[card] for card in state.plays} if state else set())
        for group, message in sent:
            reader, frame = readers[group], json.loads(message["text"])
            assert message["version"] == frame["version"]
            assert frame["type"] == "event" and frame["version"] == table.version
            if last is not None and last[0] == table.version:  # an action's event says who did what
                assert (frame["seat"], frame["action"], frame["by"]) == (last[3], last[1], last[4])
            else:
                assert "action" not in frame
            if frame["view"] is not None:
                assert frame["view"]["seat"] == reader
                if reader is None:
                    assert frame["view"]["hand"] == [] and frame["view"]["legal"] == []
            # the card just played is face up: in this hand, or in the one it ended (now maybe dealt again)
            action = frame.pop("action", None)
            shown = hidden_cards_shown(frame, state, reader, previous)
            if action in CARD_NAMES and action not in face_up:
                shown.add(action)
            if shown:
                self.leaks.append(f"table {table_id} v{table.version}: "
                                  f"{'a spectator' if reader is None else f'seat {reader}'} was shown {shown}")
            self.counts["frames"] += 1
        return table, seen

    def previous_record(self, table: Table) -> dict | None:
        """The record of the hand before the current one (read once per hand)."""
        if self.previous[0] != (table.pk, table.hand_number):
            record = table.hands.filter(number=table.hand_number - 1).values_list("record", flat=True).first()
            self.previous = ((table.pk, table.hand_number), record)
        return self.previous[1]


def snapshot(table: Table) -> tuple:
    """Everything a refusal must leave as it was, read as stored (plain SQL, cheap enough for every step): the
    table's row, its seats' rows, its hands and action log (how many, the last of each) and the live hand as the
    service reads it (``table``: the table as last read, unchanged if its row is)."""
    with connection.cursor() as cursor:
        rows = []
        for sql in (f"SELECT * FROM {Table._meta.db_table} WHERE id = %s",
                    f"SELECT * FROM {Seat._meta.db_table} WHERE table_id = %s ORDER BY id",
                    f"SELECT seq, action, action_id, seat, {connection.ops.quote_name('by')} "
                    f"FROM {TableAction._meta.db_table} WHERE table_id = %s ORDER BY seq DESC LIMIT 1",
                    f"SELECT (SELECT COUNT(*) FROM {TableAction._meta.db_table} WHERE table_id = %s), "
                    f"(SELECT COUNT(*) FROM {TableHand._meta.db_table} WHERE table_id = %s), "
                    f"(SELECT MAX(id) FROM {TableHand._meta.db_table} WHERE table_id = %s)"):
            cursor.execute(sql, [table.pk] * sql.count("%s"))
            rows.append(cursor.fetchall())
    row, seats, last, counts = rows
    _, state = live.current(table)
    return row, seats, counts, last or [None], None if state is None else state.to_dict()


def run(seed: int, *, games: int = 0, actions: int = 0, progress: int = 0) -> Counter:
    """Whole games until ``games`` are played and ``actions`` actions accepted, with every frame sent caught."""
    tap = FrameTap()
    before = channel_layers.backends.get("default")
    channel_layers.backends["default"] = tap
    prober = Prober(random.Random(seed), tap)
    started = time.monotonic()
    try:
        while prober.counts["games"] < games or prober.counts["actions"] < actions:
            prober.play_game()
            if progress and prober.counts["games"] % progress == 0:
                print(f"seed {seed}: {time.monotonic() - started:.0f} s", json.dumps(
                    {**prober.counts, "leaks": len(prober.leaks)}), file=sys.stderr, flush=True)
    finally:
        if before is None:
            channel_layers.backends.pop("default", None)
        else:
            channel_layers.backends["default"] = before
    prober.counts["leaks"] = len(prober.leaks)
    prober.counts["seconds"] = round(time.monotonic() - started)
    for leak in prober.leaks[:10]:
        print(leak, file=sys.stderr)
    return prober.counts


@pytest.mark.django_db(transaction=True)
def test_random_games_refuse_every_bad_move_and_show_no_hidden_card():
    counts = run(seed=11, actions=wanted("TABLES_PROPERTY_ACTIONS", QUICK_ACTIONS))
    print(dict(counts))
    assert counts["leaks"] == 0
    assert counts["actions"] >= wanted("TABLES_PROPERTY_ACTIONS", QUICK_ACTIONS)
    assert min(counts[kind] for kind in REFUSALS) > 0
    assert counts["frames"] > counts["actions"] * 3  # at least 2 seats and the spectators per action


# ----------------------------------------------------------------------------- the slow run, in worker processes
WORKER = """
import json, os, sys
import django
django.setup()
from tests.tables.test_properties import worker
print(json.dumps(worker(*json.loads(sys.argv[1]))))
"""


def worker(index: int, seed: int, games: int, folder: str) -> dict:
    """One worker process's share of the slow run, on a test database of its own (created, then dropped)."""
    from django.db import connection
    from django.db.backends.signals import connection_created

    settings_dict = connection.settings_dict
    sqlite = settings_dict["ENGINE"].endswith("sqlite3")
    if sqlite:
        settings_dict.setdefault("TEST", {})["NAME"] = str(Path(folder) / f"properties_{index}.sqlite3")

        def fast(sender, connection, **kwargs):
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")

        connection_created.connect(fast, weak=False)
    else:
        settings_dict.setdefault("TEST", {})["NAME"] = f"test_{settings_dict['NAME']}_properties_{os.getpid()}"
    old_name = settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        counts = run(seed, games=games, progress=100)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return dict(counts)


@pytest.mark.slow
def test_ten_thousand_random_games_refuse_every_bad_move_and_show_no_hidden_card(request):
    if "slow" not in (request.config.getoption("markexpr") or "") and not os.environ.get("RUN_SLOW"):
        pytest.skip("slow: run with -m slow (or RUN_SLOW=1)")
    games, workers = wanted("TABLES_PROPERTY_GAMES", SLOW_GAMES), wanted("TABLES_PROPERTY_WORKERS", WORKERS)
    seed = wanted("TABLES_PROPERTY_SEED", 1200)  # worker i plays the games of seed + i
    shares = [games // workers + (index < games % workers) for index in range(workers)]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        processes = [subprocess.Popen([sys.executable, "-c", WORKER, json.dumps([index, seed + index, share, folder])],
                                      cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
                     for index, share in enumerate(shares)]
        outputs = [process.communicate()[0] for process in processes]
    assert all(process.returncode == 0 for process in processes), "a worker failed (its error is above)"
    total: Counter[str] = Counter()
    for output in outputs:
        total.update(json.loads(output.strip().splitlines()[-1]))
    total["worker_seconds_max"] = max(json.loads(output.strip().splitlines()[-1])["seconds"] for output in outputs)
    total["wall_seconds"] = round(time.monotonic() - started)
    del total["seconds"]
    print("\nproperty run:", json.dumps({"workers": workers, **total}))
    assert total["games"] == games
    assert total["leaks"] == 0
    assert min(total[kind] for kind in REFUSALS) > 0
