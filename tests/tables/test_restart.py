"""The ASGI server killed mid-hand (SIGKILL) and started again: nothing is lost, the clients come back
to the same state, and the deadlines that were pending fire with nobody prompting them.

The real server runs in a subprocess (``manage.py runserver --noreload``: daphne's) on a database of the test's
own — a SQLite file, or (``services``) a PostgreSQL database made for the test, with the Redis channel layer —
never pytest's test database, which the subprocess could not see. Plain websocket clients (``websockets``) play:

- table A, four people (four clients on the seats' private links) and a spectator, a long clock: they play into
  the second trick of the first hand and wait there;
- table B, one person and a bot (pace 1 s), a 4 s clock with no bank: killed while the bot is due to move;
- table C, one person and a bot, a 6 s clock with no bank: killed while the person's clock runs.

Then SIGKILL, and the server started again on the same port. With no client connected, B's bot moves (``by="bot"``)
and C's clock runs out (``by="clock"``: its turn had reached its person before the kill), made by the ticker the
server starts with (``tables.ticker``); B's person's turn that follows reaches no socket, and its clock is not run
out on them.
Then every client reconnects with its last version: A's readers each get exactly the state they held (version,
hand, trick, seats); B's and C's person gets the hand as the bot and the clock left it. Reconnect → state restored
is measured (the target: p95 < 1 s) and printed. Each table plays on to the end of its hand, and no frame any client
received, before or after the restart, shows another seat's unplayed card.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from engine.cards import CARD_NAMES, bits, parse_card_index
from engine.hand import HandState
from engine.rules import Ruleset
from tests import db_templates

ROOT = Path(__file__).resolve().parents[2]
CARD = re.compile(r'"([2-9TJQKA][CDHS])"')
RECONNECT_ROUNDS = 5  # the reconnect after the restart, then 4 more of every reader, for the p95
TARGET_P95 = 1.0  # s, the target: "state restored p95 < 1 s"
OVERLOADED_P95 = 5.0  # s, the bound when the machine's load average is above its CPU count

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.core.management import call_command
from tables import dealing, seating
from tables.models import Seat
call_command("migrate", verbosity=0)
users = [get_user_model().objects.create_user(f"player{i}") for i in range(6)]  # they play by their seats' links
a = seating.create_table(users[0], players=4, seat=0, turn_seconds=600, bank_seconds=0, bot_pace=1.0)
for i in (1, 2, 3):
    seating.take_seat(a, i, users[i])
b = seating.create_table(users[4], players=2, seat=0, bots={1: "heuristic"}, turn_seconds=4, bank_seconds=0,
                         bot_pace=1.0)
c = seating.create_table(users[5], players=2, seat=0, bots={1: "heuristic"}, turn_seconds=6, bank_seconds=0,
                         bot_pace=1.0)
for table in (a, b, c):
    dealing.start(table)
print(json.dumps({name: {"id": table.pk, "tokens": list(Seat.objects.filter(table=table).order_by("index")
                                                        .values_list("seat_token", flat=True))}
                  for name, table in (("A", a), ("B", b), ("C", c))}))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ----------------------------------------------------------------------------- the server and its database
class Database:
    """The server's database, read directly by the test (the subprocess owns it; pytest's test database is not
    it)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def rows(self, sql: str, *params: Any) -> list[tuple]:
        if self.url.startswith("sqlite"):
            with contextlib.closing(sqlite3.connect(urlsplit(self.url).path, timeout=10)) as db:
                return db.execute(sql.replace("%s", "?"), params).fetchall()
        import psycopg

        with psycopg.connect(self.url) as db:
            return db.execute(sql, params).fetchall()

    def actions_after(self, table_id: int, version: int) -> list[tuple]:
        """``(seq, seat, action, by, created_at)`` of the table's actions after ``version``."""
        return self.rows("SELECT seq, seat, action, by, created_at FROM tables_tableaction WHERE table_id = %s "
                         "AND seq > %s ORDER BY seq", table_id, version)

    def turn_shown(self, table_id: int) -> bool:
        """Whether the turn of the table was shown to a socket of its seat to move (``Table.turn_shown_at``)."""
        return self.rows("SELECT turn_shown_at FROM tables_table WHERE id = %s", table_id)[0][0] is not None

    def table(self, table_id: int) -> tuple:
        """``(version, turn, deadline_at)`` of the table."""
        return self.rows("SELECT version, turn, deadline_at FROM tables_table WHERE id = %s", table_id)[0]


def loaded(value: Any) -> Any:
    """A stored ``JSONField`` (SQLite: text; PostgreSQL: already decoded)."""
    return json.loads(value) if isinstance(value, str) else value


def audit(database: Database, table_id: int) -> dict[str, Any]:
    """The table's hands rebuilt by the engine from what is stored — each hand's pack dealt again and its logged
    actions applied in order — without the site's code: for each hand the cards each seat held as dealt and after
    each action (``steps``: ``[seq, hands, action]``), its record and whether it was finished."""
    players, ruleset = database.rows("SELECT players, ruleset FROM tables_table WHERE id = %s", table_id)[0]
    rules = Ruleset.from_dict(loaded(ruleset) or None)

    def names(state: HandState) -> list[list[str]]:
        return [[CARD_NAMES[card] for card in bits(held)] for held in state.hands]

    hands = []
    for hand_id, number, dealer, pack, score_before, record, finished_at in database.rows(
            "SELECT id, number, dealer, pack, score_before, record, finished_at FROM tables_tablehand "
            "WHERE table_id = %s ORDER BY number", table_id):
        state = HandState.deal_pack(players, dealer, [parse_card_index(card) for card in pack.split()], rules,
                                    tuple(loaded(score_before)))
        dealt, steps = names(state), []
        for seq, seat, action in database.rows("SELECT seq, seat, action FROM tables_tableaction WHERE hand_id = %s "
                                               "ORDER BY seq", hand_id):
            state.apply(action, seat)
            steps.append([seq, names(state), action])
        hands.append({"number": number, "dealt": dealt, "steps": steps, "record": loaded(record),
                      "finished": finished_at is not None})
    return {"hands": hands}


def moment(value: Any) -> float:
    """A stored ``DateTimeField`` (SQLite: text in UTC; PostgreSQL: an aware datetime) as a Unix time."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


class Server:
    """``manage.py runserver --noreload`` (daphne) in a subprocess, on the test's own database."""

    def __init__(self, folder: Path, database_url: str, redis_url: str | None) -> None:
        self.port = free_port()
        self.env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_DEBUG": "1"}
        self.env.pop("DJANGO_PRODUCTION", None)
        if redis_url:
            self.env.update(REDIS_URL=redis_url, CHANNEL_LAYER_PREFIX=f"restart-{os.getpid()}-{uuid.uuid4().hex[:6]}")
        else:
            self.env.pop("REDIS_URL", None)
        self.log = folder / "server.log"
        self.process: subprocess.Popen | None = None

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def shell(self, script: str) -> Any:
        return json.loads(self.manage("shell", "-c", script).strip().splitlines()[-1])

    def start(self) -> float:
        """Start it; the seconds until its port accepts."""
        began = time.monotonic()
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload",
                                             f"127.0.0.1:{self.port}"], cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        while time.monotonic() - began < 90:  # seconds on an idle machine, many more on a loaded one
            if self.process.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return time.monotonic() - began
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no socket closed cleanly, nothing flushed."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


# ----------------------------------------------------------------------------- the clients
class Client:
    """One reader of a table over a plain websocket: a seat (its private link) or a spectator. It keeps every
    frame it was sent; while ``acting`` says so it plays a legal move (at random) whenever the seat is to move."""

    def __init__(self, name: str, url: str, seat: int | None) -> None:
        self.name, self.url, self.seat = name, url, seat
        self.frames: list[dict] = []
        self.last: dict | None = None  # the last state or event
        self.acting: Any = lambda frame: False
        self.rng = random.Random(name)
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.acted_on = -1
        self.refusals: list[dict] = []
        self.handshake = 0.0  # s of the last open until the socket was accepted (the state came after)

    @property
    def version(self) -> int:
        return self.last["version"] if self.last else -1

    @property
    def view(self) -> dict:
        return (self.last or {}).get("view") or {}

    async def open(self, origin: str) -> tuple[dict, float]:
        """Connect; the first frame (the full state) and the seconds from the connect until it came."""
        began = time.perf_counter()
        self.ws = await connect(self.url, origin=origin, proxy=None, compression=None, open_timeout=10)
        self.handshake = time.perf_counter() - began
        first = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        took = time.perf_counter() - began
        self.take(first)
        self.reader = asyncio.create_task(self.read())
        return first, took

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader
        self.ws = self.reader = None

    async def lost(self) -> None:
        """Wait until the reader saw the connection go (the server was killed)."""
        if self.reader is not None:
            await asyncio.wait_for(self.reader, 15)
        self.ws = self.reader = None

    async def read(self) -> None:
        try:
            async for text in self.ws:
                frame = json.loads(text)
                self.take(frame)
                await self.maybe_act()
        except ConnectionClosed:
            pass

    def take(self, frame: dict) -> None:
        self.frames.append(frame)
        if frame.get("type") in ("state", "event") and frame["version"] >= self.version:
            self.last = frame
        elif frame.get("type") == "refused":
            self.refusals.append(frame)

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def maybe_act(self) -> None:
        frame = self.last
        view = self.view
        if (self.seat is None or frame is None or frame["table"]["status"] != "playing" or view.get("turn") != self.seat
                or not view.get("legal") or self.acted_on == frame["version"] or not self.acting(frame)):
            return
        self.acted_on = frame["version"]
        await self.send({"type": "act", "action": self.rng.choice(view["legal"]), "version": frame["version"],
                         "id": uuid.uuid4().hex})


async def until(condition, what: str, timeout: float = 20.0, every: float = 0.02) -> None:
    ends = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > ends:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(every)


def the_state(frame: dict) -> dict:
    """What a reader holds of the table: the version, its view (hand, trick, tricks, turn, …), the seats, the
    table."""
    return {key: frame[key] for key in ("version", "view", "seats", "table")}


def deadline_in(frame: dict) -> float:
    """Seconds from now until the table's deadline, as the frame gives it."""
    return datetime.fromisoformat(frame["table"]["deadline_at"]).timestamp() - time.time()


# ----------------------------------------------------------------------------- hidden cards
def held_at(rebuilt: dict, frame: dict) -> list[list[str]]:
    """Each seat's unplayed cards in the hand ``frame`` shows, at the frame's version, from the stored pack and
    action log (:func:`audit`)."""
    hand = {hand["number"]: hand for hand in rebuilt["hands"]}[frame["view"]["hand_number"]]
    held = hand["dealt"]
    for seq, after, _ in hand["steps"]:
        if seq <= frame["version"]:
            held = after
    return held


def hidden_cards_shown(frame: dict, reader: int | None, rebuilt: dict) -> set[str]:
    """The cards in ``frame`` that ``reader`` (``None``: a spectator) may not see: another seat's unplayed card of
    the hand the frame shows, at the frame's version (from the stored pack and log, :func:`audit`); in the previous
    hand's result, any card that hand did not show face up. An event's ``action`` is the move stored at its version
    (a card played is face up; the last card of a hand comes with the next hand's view, and the next deal may well
    have given that card to another seat)."""
    view = dict(frame.get("view") or {})
    if not view:
        return set()
    hands = {hand["number"]: hand for hand in rebuilt["hands"]}
    stored = {seq: action for hand in rebuilt["hands"] for seq, _, action in hand["steps"]}
    if "action" in frame:
        assert frame["action"] == stored[frame["version"]], f"the event's action is the one stored: {frame}"
    held = held_at(rebuilt, frame)
    hidden = {card for seat, cards in enumerate(held) if seat != reader for card in cards}
    previous_result = view.pop("last_result", None) if view.get("phase") != "over" else None
    rest = {key: value for key, value in frame.items() if key not in ("view", "action")}
    shown = hidden & set(CARD.findall(json.dumps({**rest, "view": view})))
    previous = hands.get(view["hand_number"] - 1)
    if previous_result is not None and previous is not None:
        record = previous["record"] or {}
        public = {*record.get("plays", ()), record.get("kick"), *(run["kick"] for run in record.get("runs", ()))}
        shown |= set(CARD.findall(json.dumps(previous_result))) - public
    return shown


# ----------------------------------------------------------------------------- the test
def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]  # the nearest rank


async def kill_and_restart(server: Server, database: Database, tables: dict) -> dict[str, Any]:
    origin = f"http://127.0.0.1:{server.port}"
    base = f"ws://127.0.0.1:{server.port}/ws/tables"
    a, b, c = (tables[name]["id"] for name in "ABC")
    seats_a = [Client(f"A{i}", f"{base}/{a}/?seat={tables['A']['tokens'][i]}", i) for i in range(4)]
    watcher = Client("A-watcher", f"{base}/{a}/", None)
    person_b = Client("B0", f"{base}/{b}/?seat={tables['B']['tokens'][0]}", 0)
    person_c = Client("C0", f"{base}/{c}/?seat={tables['C']['tokens'][0]}", 0)
    readers_a = [*seats_a, watcher]
    everyone = [*readers_a, person_b, person_c]
    for client in everyone:
        await client.open(origin)

    # ---- into the middle of a hand: A stops in the second trick; B plays on; C until A stopped
    def a_in_the_second_trick(frame: dict) -> bool:
        view = frame["view"] or {}
        return bool(view.get("tricks")) and bool(view["trick"]["cards"])

    for client in seats_a:  # a hand that ends before its second trick (a redeal, R12) is followed by the next
        client.acting = lambda frame: not a_in_the_second_trick(frame)
    person_b.acting = lambda frame: True
    person_c.acting = lambda frame: True
    for client in everyone:
        await client.maybe_act()
    await until(lambda: all(client.last and a_in_the_second_trick(client.last)
                            and client.version == seats_a[0].version for client in readers_a),
                "table A in its second trick", 60)
    first_hand_a = seats_a[0].view["hand_number"]  # the hand A is killed in
    person_c.acting = lambda frame: False  # C's person stops: at their next turn their clock runs

    def b_bot_due() -> bool:
        frame = person_b.last
        return frame["table"]["turn"] == 1 and frame["table"]["status"] == "playing" and deadline_in(frame) > 0.4

    def c_clock_running() -> bool:  # the turn reached C's person (the server charges their clock only then)
        frame = person_c.last
        return frame["table"]["turn"] == 0 and frame["table"]["status"] == "playing" and deadline_in(frame) > 1.0 \
            and database.turn_shown(c)

    await until(lambda: b_bot_due() and c_clock_running(), "B's bot due to move and C's person's clock running", 30)

    # ---- SIGKILL mid-hand
    held = {client.name: the_state(client.last) for client in everyone}
    person_b.acting = lambda frame: False
    killed_at = time.time()
    server.kill()
    for client in everyone:
        await client.lost()
    version_b, turn_b, deadline_b = database.table(b)
    version_c, turn_c, deadline_c = database.table(c)
    assert (version_b, turn_b) == (held["B0"]["version"], 1) and moment(deadline_b) > killed_at, \
        "B's bot was due to move after the kill"
    assert (version_c, turn_c) == (held["C0"]["version"], 0) and moment(deadline_c) > killed_at, \
        "C's person's clock was running at the kill"
    assert database.table(a)[0] == held["A0"]["version"]

    # ---- started again: with nobody connected, the bot moves and the clocks run out
    restarted_at = time.time()
    up = await asyncio.to_thread(server.start)

    def made_after_the_kill() -> tuple[list, list]:
        return database.actions_after(b, version_b), database.actions_after(c, version_c)

    def pending_moves_made() -> bool:
        after_b, after_c = made_after_the_kill()
        return any(row[3] == "bot" for row in after_b) and any(row[3] == "clock" for row in after_c)

    await until(pending_moves_made, "B's bot and C's clock to move with no client connected", 30, every=0.2)
    after_b, after_c = made_after_the_kill()
    assert (after_b[0][1], after_b[0][3]) == (1, "bot"), f"B's first move after the restart is its bot's: {after_b}"
    assert "clock" not in {row[3] for row in after_b}, "B's person's next turn reached no socket: not run out"
    assert (after_c[0][1], after_c[0][3]) == (0, "clock"), f"C's person's clock ran out first: {after_c}"
    assert all(moment(row[4]) >= restarted_at for row in after_b + after_c), "made by the restarted server"
    assert database.table(a)[0] == held["A0"]["version"], "nothing moved at A: its clock is long"

    # ---- every client reconnects with its last version
    restore: list[float] = []
    handshakes: list[float] = []
    firsts = await asyncio.gather(*(client.open(origin) for client in readers_a))
    for client, (first, took) in zip(readers_a, firsts, strict=True):
        restore.append(took)
        handshakes.append(client.handshake)
        assert first["type"] == "state"
        assert the_state(first) == held[client.name], f"{client.name} is back to the state it held"
    for client in readers_a:  # the client's sync with its last version is answered with the same state
        before = len(client.frames)
        await client.send({"type": "sync", "version": held[client.name]["version"]})
        await until(lambda client=client, before=before: len(client.frames) > before, f"{client.name}'s sync")
        assert the_state(client.frames[-1]) == held[client.name]
    back = {}
    for person, table_id, name in ((person_b, b, "B0"), (person_c, c, "C0")):
        first, took = await person.open(origin)
        restore.append(took)
        handshakes.append(person.handshake)
        back[name] = first
        after = [row for row in database.actions_after(table_id, held[name]["version"]) if row[0] <= first["version"]]
        assert first["version"] >= after[-1][0], f"{name} is back at the version of the last move made for it"
        was, now_view = held[name]["view"], first["view"]
        if now_view["hand_number"] == was["hand_number"] and not any(row[2] == "run" for row in after):
            played = {row[2] for row in after if row[1] == 0}  # the hand goes on where the bot and clock left it
            assert set(now_view["hand"]) == set(was["hand"]) - played
    for _ in range(RECONNECT_ROUNDS - 1):  # more reconnects of every reader, for a p95 worth the name
        for client in readers_a:
            await client.close()
        await asyncio.sleep(0.3)  # the server marks the seats away: what is timed is coming back, not leaving
        firsts = await asyncio.gather(*(client.open(origin) for client in readers_a))
        restore += [took for _, took in firsts]
        handshakes += [client.handshake for client in readers_a]
        for client, (first, _) in zip(readers_a, firsts, strict=True):
            assert the_state(first)["view"] == held[client.name]["view"]

    # ---- play on to the end of each hand
    hand_b, hand_c = person_b.view["hand_number"], person_c.view["hand_number"]
    for client in seats_a:
        client.acting = lambda frame: frame["view"]["hand_number"] == first_hand_a
    person_b.acting = lambda frame: frame["view"]["hand_number"] == hand_b
    person_c.acting = lambda frame: frame["view"]["hand_number"] == hand_c
    for client in everyone:
        await client.maybe_act()

    def over(client: Client, number: int) -> bool:
        return client.view.get("hand_number", number) > number or client.last["table"]["status"] != "playing"

    await until(lambda: all(over(client, first_hand_a) for client in readers_a) and over(person_b, hand_b)
                and over(person_c, hand_c), "every table to finish its hand", 40)
    for client in everyone:
        await client.close()
    return {"clients": everyone, "up": up, "restore": restore, "handshakes": handshakes, "held": held, "back": back,
            "first_hand_a": first_hand_a, "hands": {b: hand_b, c: hand_c}}


def run_restart(tmp_path: Path, database_url: str, redis_url: str | None) -> None:
    started = time.monotonic()
    took: dict[str, float] = {}

    last = [started]

    def lap(what: str) -> None:
        now = time.monotonic()
        took[what], last[0] = now - last[0], now

    server = Server(tmp_path, database_url, redis_url)
    database = Database(database_url)
    tables = server.shell(SETUP)
    lap("migrate and setup")
    try:
        server.start()
        lap("start")
        played = asyncio.run(kill_and_restart(server, database, tables))
        lap("play, kill, restart, play on")
    finally:
        server.kill()
        print(f"--- server log (last 3000 characters)\n{server.log.read_text()[-3000:]}")
    ids = [tables[name]["id"] for name in "ABC"]
    audits = {table_id: audit(database, table_id) for table_id in ids}
    lap("audit")

    table_of = {"A": tables["A"]["id"], "B": tables["B"]["id"], "C": tables["C"]["id"]}

    # the hands went on and were finished and stored, the action log unbroken across the kill
    a = tables["A"]["id"]
    finished = {hand["number"]: hand for hand in audits[a]["hands"]}
    assert finished[played["first_hand_a"]]["finished"] and finished[played["first_hand_a"]]["record"]
    for table_id, number in played["hands"].items():
        assert {hand["number"]: hand for hand in audits[table_id]["hands"]}[number]["finished"]
    for table_id in ids:
        seqs = [seq for hand in audits[table_id]["hands"] for seq, _, _ in hand["steps"]]
        assert seqs == sorted(set(seqs)), "one action per version, in order"

    # what each seat held and got back is the stored log's hand of that seat at that version
    for name, state in [*played["held"].items(), *played["back"].items()]:
        seat = None if name == "A-watcher" else int(name[1])
        if seat is not None and state["view"]:
            assert sorted(state["view"]["hand"]) == sorted(held_at(audits[table_of[name[0]]], state)[seat]), name

    # no frame to any reader, before or after the restart, shows another seat's unplayed card
    frames = 0
    for client in played["clients"]:
        for frame in client.frames:
            if frame.get("type") in ("state", "event"):
                frames += 1
                shown = hidden_cards_shown(frame, client.seat, audits[table_of[client.name[0]]])
                assert not shown, f"{client.name} was shown {shown} at version {frame['version']}: {frame}"
        assert not [refusal for refusal in client.refusals if refusal["field"] != "version"], client.refusals

    restore = played["restore"]
    phases = ", ".join(f"{what} {seconds:.1f} s" for what, seconds in took.items())
    p95 = percentile(restore, 0.95)
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    print(f"restart ({'PostgreSQL + Redis' if redis_url else 'SQLite, in-memory layer'}): server up again in "
          f"{played['up']:.2f} s; reconnect -> state restored over {len(restore)} reconnects: "
          f"p50 {statistics.median(restore) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {max(restore) * 1000:.0f} ms "
          f"(first round after the restart: max {max(restore[:7]) * 1000:.0f} ms; of which the socket's handshake "
          f"p95 {percentile(played['handshakes'], 0.95) * 1000:.0f} ms); {frames} frames scanned, 0 hidden cards; "
          f"{time.monotonic() - started:.1f} s in all ({phases}); load average {load:.1f} on {cpus} CPUs")
    # the target on a machine not oversubscribed; on one running several times its CPUs' worth of work
    # (a shared CI box) the figure is printed and only a state that takes seconds to come back fails
    bound = TARGET_P95 if load <= cpus else OVERLOADED_P95
    assert p95 < bound, f"state restored p95 {p95:.3f} s (the target: < {TARGET_P95} s; load {load:.1f}, {cpus} CPUs)"


# each of the two ~25 s tests in a group of its own: scheduled last (xdist hands out the groups with the most tests
# first), they would otherwise end the run one after the other on one worker
@pytest.mark.slow  # a real server, killed and started again
@pytest.mark.xdist_group("restart-sqlite")
def test_a_killed_server_started_again_loses_nothing_and_fires_the_pending_deadlines(tmp_path):
    run_restart(tmp_path, f"sqlite:///{tmp_path / 'site.sqlite3'}", None)


@pytest.fixture
def own_postgres_database():
    """A PostgreSQL database of the test's own on ``DATABASE_URL``'s server (the subprocess must see committed
    rows, which pytest's transactional test database would not give it), dropped after."""
    import psycopg

    url = urlsplit(os.environ["DATABASE_URL"])
    name = f"restart_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    maintenance = url._replace(path="/postgres").geturl()
    with psycopg.connect(maintenance, autocommit=True) as admin:
        db_templates.create_migrated(admin, name)  # migrated already when the run has a template
    try:
        yield url._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(maintenance, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
@pytest.mark.services
@pytest.mark.xdist_group("restart-postgresql")
def test_the_same_on_postgresql_and_the_redis_channel_layer(tmp_path, own_postgres_database):
    run_restart(tmp_path, own_postgres_database, os.environ["REDIS_URL"])
