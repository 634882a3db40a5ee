#!/usr/bin/env python3
"""Live pages under load: a hand committed through the API → its scoresheet's and the standings' open
pages updated in place, with 20 scorekeepers entering hands and 200 pages open.

    python bench/bench_live.py                     # 20 scorekeepers, 200 pages, 150 s measured after 15 s
    python bench/bench_live.py --quick             # 4 scorekeepers, 16 pages, ~15 s
    python bench/bench_live.py --servers 1 --interval 2 --duration 60
    python bench/bench_live.py --json              # one JSON object on stdout (progress on stderr)

Needs PostgreSQL (``--pg``) and Redis (``--redis``). Every run **drops and recreates the database** ``--database``
(default ``allfours_bench_live``) and migrates it; the channel layer gets a prefix of its own
(``CHANNEL_LAYER_PREFIX``) and Celery a queue of its own, whose keys are deleted at the end. The database gets one
club and one published 4-player competition (first to 25 games, so no match ends within a few minutes at the default
pace) with ``--scorekeepers`` matches between distinct partnerships, each match with its own scorekeeper account and
DRF token (``Authorization: Token …``). ``--servers`` daphne processes (``config.asgi:application``, DEBUG off, the
pub/sub channel layer joining them) serve the pages' sockets, gunicorn (``--web`` workers, ``config/gunicorn.conf.py``)
the API, as docker-compose.yml splits them in production (``--web 0``: the API on daphne too), and a Celery worker
(solo pool) runs the settle task, whose standings refresh notifies every page of the competition (``live.notices``).

One asyncio process opens ``--pages`` sockets (``ws/live/?path=…``, ``Origin`` of an allowed host, spread over the
servers): half on the standings page, half on the scoresheets (the same number on each). Each scorekeeper POSTs a
hand (``/api/matches/<id>/hands/``, a chalk entry — a stand on a non-scoring kick with High, Low, Jack and Game split
3-1, 2-2 or 1-3, so a game takes 5 or more hands —, an ``Idempotency-Key`` each) about every ``--interval`` seconds
at a random phase, from a thread of its own (keep-alive ``http.client``). For every hand the clock starts just before
its POST is sent and stops, for each page that should show it:

- on a scoresheet socket of its match, at the first ``regions`` message whose content has the hand's row
  (``id="hand-<game>-<number>"``);
- on a standings socket, at the first rendering whose row of the match's side A has at least the chalks for and
  against the match had after the hand (the partnerships each play one match, so a row is one match's; chalks only
  grow, so a later hand's rendering shows this one too).

Figures: p50/p95/p99/max of both (target p95 < 1 s), the updates missed (not there within ``--timeout``: must be
0), hands posted and the API's p50/p95, refusals, the CPU the servers, the worker and this process used, this
process's event-loop lag, and the load average before and after (the machine may be shared: repeat a run made
under load).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_tables import (  # noqa: E402
    CONNECT_AT_ONCE,
    CONNECT_TRIES,
    Services,
    add_service_arguments,
    configure_environment,
    delete_prefix,
    family,
    lag_probe,
    load_average,
    paced,
    total_cpu,
)
from bench.bench_web import HttpClient, build_entry_competition, chalk, free_port, recreate_database  # noqa: E402
from bench.report import argument_parser, figure_maker, finish, format_table, log, quantile  # noqa: E402

DEFAULT_DB = "allfours_bench_live"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
TARGETS = {
    "sheet_p95": 1.0,  # s, POST sent → each of the match's scoresheet sockets has the hand's row, p95, less than
    "standings_p95": 1.0,  # s, POST sent → each standings socket shows the hand, p95, less than
    "missed": 0,  # updates not there within --timeout, exactly
    "errors": 0,  # POSTs answered with anything but a 201, or not answered, exactly
}
SIZES = {
    "full": {"scorekeepers": 20, "pages": 200, "duration": 150.0, "warmup": 15.0},
    "quick": {"scorekeepers": 4, "pages": 16, "duration": 10.0, "warmup": 3.0},
}
DEFAULT_SERVERS = os.cpu_count() or 1
DEFAULT_WEB = 3
MATCH_GAMES = 25  # first to 25 games: a game takes 5 hands or more, so a match lasts 125 hands or more
SPLITS = ((0, 1, 0, 0), (0, 0, 1, 1), (1, 0, 1, 1), (1, 1, 0, 0), (0, 1, 1, 0), (1, 0, 0, 1))
# High, Low, Jack, Game to side A (0) or B (1): 3-1, 2-2 and 1-3, so no hand gives a side more than 3 chalks
ROW_ID = re.compile(r'id="(hand-\d+-\d+)"')
CACHED = 256  # parsed renderings kept (each server sends one rendering to all its sockets of a page)

figure = figure_maker("<")


# ---------------------------------------------------------------------------------------- the data
@dataclass
class LiveMatch:
    id: int
    token: str  # the scorekeeper's DRF token
    side_a: str  # side A's partnership name, as the standings show it
    sheet: str  # the scoresheet's path


def seed_league(scorekeepers: int, *, run: str) -> tuple[str, list[LiveMatch]]:
    """One club, one published 4-player competition (first to ``MATCH_GAMES`` games) of ``scorekeepers`` matches
    between distinct partnerships (``bench_web.build_entry_competition``'s), each match with a scorekeeper account
    and its DRF token. Returns the standings page's path and the matches."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.urls import reverse
    from rest_framework.authtoken.models import Token

    from games.matches import add_scorekeeper
    from games.models import Match
    from league.models import Competition

    competition, entries = build_entry_competition(scorekeepers, slug=f"live-{run}")
    Competition.objects.filter(pk=competition.pk).update(match_format=Competition.FIRST_TO, match_games=MATCH_GAMES)
    user_model = get_user_model()
    password = make_password(None)
    out = []
    for index, entry in enumerate(entries):
        user = user_model.objects.create(username=f"bl-{run}-{index}", password=password)
        match = Match.objects.select_related("side_a").get(pk=entry.id)
        add_scorekeeper(match=match, user=user)
        out.append(LiveMatch(match.pk, Token.objects.create(user=user).key, match.side_a.name,
                             reverse("match_sheet", args=[match.pk])))
    standings = reverse("competition_standings", args=[competition.club.slug, competition.slug])
    return standings, out


# ---------------------------------------------------------------------------------------- reading a rendering
class _StandingsParser(HTMLParser):
    """The standings table's column headers and, for each row, its entrant's name and its cells' text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.headers: list[str] = []
        self.rows: list[tuple[str, list[str]]] = []
        self._in: str | None = None  # "header", "name" or "cell": whose text is being read
        self._text: list[str] = []
        self._depth = 0  # elements open inside the name cell (its marks and players come after the name)
        self._body = False  # inside the table's body: each <tr> is a row

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if self._in == "name":
            self._depth += 1
        elif tag == "tr" and self._body:
            self.rows.append(("", []))
        elif tag == "tbody":
            self._body = True
        elif tag == "th" and found.get("scope") == "col":
            self._in, self._text = "header", []
        elif tag == "th" and found.get("scope") == "row" and self.rows:
            self._in, self._text, self._depth = "name", [], 0
        elif tag == "td" and self.rows:
            self._in, self._text = "cell", []

    def handle_endtag(self, tag: str) -> None:
        if self._in == "name" and tag != "th":
            self._depth -= 1
            return
        text = "".join(self._text).strip()
        if self._in == "header" and tag == "th":
            self.headers.append(text)
        elif self._in == "name" and tag == "th":
            self.rows[-1] = (text, self.rows[-1][1])
        elif self._in == "cell" and tag == "td":
            self.rows[-1][1].append(text)
        else:
            return
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in in ("header", "cell") or (self._in == "name" and self._depth == 0):
            self._text.append(data)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None  # "—": not kept


def standings_chalks(content: str) -> dict[str, tuple[float | None, float | None]]:
    """Each entrant's (chalks for, chalks against) as a standings rendering shows them, by the entrant's name.

    The cells are matched to the column headers ("Chalks for", "Chalks agst"); the first two headers are the place
    and the entrant, and a row's cells begin with its place."""
    parser = _StandingsParser()
    parser.feed(content)
    parser.close()
    try:
        cf, ca = parser.headers.index("Chalks for") - 1, parser.headers.index("Chalks agst") - 1
    except ValueError:
        return {}
    return {html.unescape(name): (_number(cells[cf]), _number(cells[ca]))
            for name, cells in parser.rows if len(cells) > max(cf, ca)}


def sheet_rows(content: str) -> set[str]:
    """The hand rows' ids a scoresheet rendering shows (``hand-<game>-<number>``)."""
    return set(ROW_ID.findall(content))


class Cache:
    """Parsed renderings by their content: a server sends the same rendering to every socket of a page."""

    def __init__(self, parse: Any) -> None:
        self.parse, self.found = parse, {}

    def __call__(self, content: str) -> Any:
        found = self.found.get(content)
        if found is None:
            if len(self.found) >= CACHED:
                self.found.clear()
            found = self.found[content] = self.parse(content)
        return found


# ---------------------------------------------------------------------------------------- what is timed
@dataclass
class Hand:
    """A hand being posted: its row's id, when its POST was sent, and the sockets it has yet to reach."""

    match_id: int
    row_id: str
    measured: bool
    sent: float = 0.0
    chalks: tuple[int, int] | None = None  # side A's and B's chalks over the match after it (from the 201)
    sheets_left: set[int] = field(default_factory=set)
    standings_left: set[int] = field(default_factory=set)


@dataclass
class Stats:
    sheet: list[float] = field(default_factory=list)  # s, POST sent → a scoresheet socket has the row
    standings: list[float] = field(default_factory=list)  # s, POST sent → a standings socket shows the hand
    api: list[float] = field(default_factory=list)  # s, POST sent → its answer
    hands: int = 0  # measured hands answered with a 201
    errors: list[str] = field(default_factory=list)
    finished: int = 0  # matches that ended (their scorekeeper stopped)
    unexpected: int = 0  # sockets that closed or messages of an unknown type
    gone: int = 0
    connect_failures: int = 0
    messages: int = 0
    measuring: bool = False
    closing: bool = False


class Tracker:
    """Matches each rendering that comes in to the hands waiting for it, and keeps what every socket has shown."""

    def __init__(self, stats: Stats, timeout: float) -> None:
        self.stats, self.timeout = stats, timeout
        self.sheet_sockets: dict[int, list[int]] = {}  # match → its scoresheet sockets
        self.standings_sockets: list[int] = []
        self.by_row: dict[tuple[int, str], Hand] = {}  # hands whose scoresheets are still awaited
        self.standings_waiting: dict[int, list[Hand]] = {}  # match → its hands the standings are awaited for
        self.shown: dict[int, dict[str, list[tuple[float, float, float]]]] = {}  # standings socket → side A's
        # name → each (time, chalks for, chalks against) it showed, as they changed
        self.measured: list[Hand] = []

    def posting(self, match_id: int, row_id: str) -> Hand:
        """A hand about to be posted: from now on its row is looked for on its scoresheets."""
        hand = Hand(match_id, row_id, self.stats.measuring, sheets_left=set(self.sheet_sockets.get(match_id, ())))
        self.by_row[match_id, row_id] = hand
        if hand.measured:
            self.measured.append(hand)
        return hand

    def answered(self, hand: Hand, chalks: tuple[int, int] | None, side_a: str) -> None:
        """The hand's 201 came (``chalks`` None: it was refused): the standings renderings already in are looked
        at, and the hand waits for the next ones."""
        if chalks is None:
            self.by_row.pop((hand.match_id, hand.row_id), None)
            hand.sheets_left.clear()
            if hand in self.measured:
                self.measured.remove(hand)
            return
        hand.chalks = chalks
        hand.standings_left = set(self.standings_sockets)
        for sock in list(hand.standings_left):
            for at, cf, ca in self.shown.get(sock, {}).get(side_a, ()):
                if at >= hand.sent and _shows(cf, ca, chalks):
                    self._reached(hand, sock, at, standings=True)
                    break
        if hand.standings_left:
            self.standings_waiting.setdefault(hand.match_id, []).append(hand)

    def sheet_seen(self, sock: int, match_id: int, rows: set[str], new: set[str], at: float) -> None:
        for row_id in new:
            hand = self.by_row.get((match_id, row_id))
            if hand is not None and sock in hand.sheets_left:
                self._reached(hand, sock, at, standings=False)
                if not hand.sheets_left:
                    del self.by_row[match_id, row_id]

    def standings_seen(self, sock: int, names: dict[str, Any], match_of: dict[str, int], at: float) -> None:
        shown = self.shown.setdefault(sock, {})
        for name, (cf, ca) in names.items():
            history = shown.setdefault(name, [])
            if history and history[-1][1:] == (cf, ca):
                continue
            history.append((at, cf, ca))
            if len(history) > 64:
                del history[:32]
            match_id = match_of.get(name)
            waiting = self.standings_waiting.get(match_id) if match_id is not None else None
            if not waiting:
                continue
            for hand in list(waiting):
                if sock in hand.standings_left and _shows(cf, ca, hand.chalks):
                    self._reached(hand, sock, at, standings=True)
                    if not hand.standings_left:
                        waiting.remove(hand)

    def _reached(self, hand: Hand, sock: int, at: float, *, standings: bool) -> None:
        (hand.standings_left if standings else hand.sheets_left).discard(sock)
        if hand.measured:
            (self.stats.standings if standings else self.stats.sheet).append(at - hand.sent)

    def outstanding(self) -> int:
        return sum(len(h.sheets_left) + len(h.standings_left) for h in self.measured)

    def missed(self) -> dict[str, int]:
        """Updates of the measured hands not there within the timeout (late ones, or none at all)."""
        late_sheet = sum(1 for x in self.stats.sheet if x > self.timeout)
        late_standings = sum(1 for x in self.stats.standings if x > self.timeout)
        never_sheet = sum(len(h.sheets_left) for h in self.measured)
        never_standings = sum(len(h.standings_left) for h in self.measured if h.chalks is not None)
        hands = sum(1 for h in self.measured if h.sheets_left or h.standings_left)
        return {"sheet": late_sheet + never_sheet, "standings": late_standings + never_standings,
                "late": late_sheet + late_standings, "never": never_sheet + never_standings, "hands": hands}


def _shows(cf: float | None, ca: float | None, chalks: tuple[int, int] | None) -> bool:
    return chalks is not None and cf is not None and ca is not None and cf >= chalks[0] and ca >= chalks[1]


# ---------------------------------------------------------------------------------------- the clients
class Page:
    """One open page's socket: its renderings are read and handed to the tracker."""

    def __init__(self, index: int, path: str, port: int, match_id: int | None, tracker: Tracker,
                 match_of: dict[str, int], caches: dict[str, Cache]) -> None:
        self.index, self.path, self.port, self.match_id = index, path, port, match_id
        self.tracker, self.match_of, self.caches = tracker, match_of, caches
        self.sock: Any = None
        self.reader: asyncio.Task | None = None
        self.rows: set[str] = set()
        self.first = asyncio.Event()

    async def connect(self) -> None:
        import websockets

        url = f"ws://127.0.0.1:{self.port}/ws/live/?path={quote(self.path, safe='/')}"
        for attempt in range(CONNECT_TRIES):
            try:
                self.sock = await websockets.connect(url, origin=f"http://127.0.0.1:{self.port}", open_timeout=60,
                                                     ping_interval=None, max_size=2 ** 24, compression=None)
                break
            except (OSError, websockets.InvalidHandshake, TimeoutError):
                self.tracker.stats.connect_failures += 1
                if attempt == CONNECT_TRIES - 1:
                    raise
                await asyncio.sleep(1)
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        import websockets

        stats = self.tracker.stats
        try:
            async for raw in self.sock:
                at = time.perf_counter()
                message = json.loads(raw)
                stats.messages += 1
                kind = message.get("type")
                if kind == "regions":
                    self.seen(message["regions"].get("content", ""), at)
                    self.first.set()
                elif kind == "gone":
                    stats.gone += 1
                elif kind != "pong":
                    stats.unexpected += 1
        except websockets.ConnectionClosed:
            pass
        if not stats.closing:
            stats.unexpected += 1  # the server closed the socket

    def seen(self, content: str, at: float) -> None:
        if self.match_id is None:
            self.tracker.standings_seen(self.index, self.caches["standings"](content), self.match_of, at)
            return
        rows = self.caches["sheet"](content)
        new = rows - self.rows
        self.rows = rows
        if new:
            self.tracker.sheet_seen(self.index, self.match_id, rows, new, at)

    async def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(Exception):
                await self.sock.close()
        if self.reader is not None:
            self.reader.cancel()


class Scorekeeper:
    """Posts its match's hands about once per ``interval``, from a thread of its own (a keep-alive connection)."""

    def __init__(self, match: LiveMatch, port: int, tracker: Tracker, pool: ThreadPoolExecutor,
                 rng: random.Random) -> None:
        self.match, self.tracker, self.pool, self.rng = match, tracker, pool, rng
        self.client = HttpClient(f"http://127.0.0.1:{port}")
        self.game, self.number, self.done = 1, 1, (0, 0)
        self.headers = {"Authorization": f"Token {match.token}"}

    def _post(self, hand: Hand, payload: dict[str, Any]) -> tuple[int, bytes, float]:
        headers = {**self.headers, "Idempotency-Key": uuid.uuid4().hex}
        hand.sent = time.perf_counter()
        try:
            status, body = self.client.post_json(f"/api/matches/{self.match.id}/hands/", payload, headers)
        except Exception as error:  # noqa: BLE001 - a transport failure is counted as an error of the run
            return 0, repr(error).encode(), time.perf_counter()
        return status, body, time.perf_counter()

    async def play(self, stop_at: float, interval: float) -> None:
        loop = asyncio.get_running_loop()
        stats = self.tracker.stats
        async for _ in paced(stop_at, interval, self.rng):
            hand = self.tracker.posting(self.match.id, f"hand-{self.game}-{self.number}")
            payload = {"number": self.number, "mode": "chalk", "entry": chalk(*self.rng.choice(SPLITS))}
            status, body, answered = await loop.run_in_executor(self.pool, self._post, hand, payload)
            if hand.measured:
                stats.api.append(answered - hand.sent)
            if not self.committed(hand, status, body):
                return

    def committed(self, hand: Hand, status: int, body: bytes) -> bool:
        """Take the 201's hand (the next hand's number, the match's chalks); ``False``: stop (refused)."""
        stats = self.tracker.stats
        if status != 201:
            self.tracker.answered(hand, None, self.match.side_a)
            text = body[:200].decode(errors="replace")
            if status == 400 and '"field":"match"' in text.replace(" ", ""):  # the match is over
                stats.finished += 1
            else:
                stats.errors.append(f"match {self.match.id} {hand.row_id}: HTTP {status} {text}")
            return False
        answer = json.loads(body)
        if f"hand-{answer['game_number']}-{answer['number']}" != hand.row_id:
            stats.errors.append(f"match {self.match.id}: {hand.row_id} was stored as hand {answer['number']} of "
                                f"game {answer['game_number']}")
            self.tracker.answered(hand, None, self.match.side_a)
            return False
        score = (answer["score_a_after"], answer["score_b_after"])
        chalks = (self.done[0] + score[0], self.done[1] + score[1])
        if hand.measured:
            stats.hands += 1
        self.tracker.answered(hand, chalks, self.match.side_a)
        if answer["result"]["winner"] is not None:
            self.done, self.game, self.number = chalks, self.game + 1, 1
        else:
            self.number += 1
        return True


async def drive(standings: str, matches: list[LiveMatch], ports: list[int], server_pids: list[int],
                worker_pid: int | None, api: tuple[list[int], int | None], *, pages: int, warmup: float,
                duration: float, interval: float, timeout: float, seed: int) -> dict[str, Any]:
    """Open the pages' sockets, have the scorekeepers enter hands (to ``api``: its ports, and its server's process
    when it is not the daphne ones) for a warm-up, then measure ``duration`` seconds, then wait up to ``timeout``
    for the last hands' updates."""
    stats = Stats()
    tracker = Tracker(stats, timeout)
    rng = random.Random(seed)
    match_of = {m.side_a: m.id for m in matches}
    caches = {"standings": Cache(standings_chalks), "sheet": Cache(sheet_rows)}
    opened = []
    for index in range(pages):
        if index % 2 == 0:  # the standings' sockets take turns over the servers
            path, match_id, port = standings, None, ports[(index // 2) % len(ports)]
            tracker.standings_sockets.append(index)
        else:  # each match's scoresheet on every server in turn
            turn, sheets = divmod(index // 2, len(matches))
            match = matches[sheets]
            path, match_id, port = match.sheet, match.id, ports[turn % len(ports)]
            tracker.sheet_sockets.setdefault(match.id, []).append(index)
        opened.append(Page(index, path, port, match_id, tracker, match_of, caches))
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def connect(page: Page) -> None:
        async with gate:
            await page.connect()
            await asyncio.wait_for(page.first.wait(), 60)

    started = time.perf_counter()
    await asyncio.gather(*(connect(page) for page in opened))
    connect_s = time.perf_counter() - started
    log(f"  {pages} sockets open in {connect_s:.1f} s ({len(tracker.standings_sockets)} on the standings, "
        f"{pages - len(tracker.standings_sockets)} on {len(tracker.sheet_sockets)} scoresheets); "
        f"warm-up {warmup:.0f} s")
    pool = ThreadPoolExecutor(max_workers=len(matches), thread_name_prefix="scorekeeper")
    api_ports, web_pid = api
    keepers = [Scorekeeper(m, api_ports[i % len(api_ports)], tracker, pool, random.Random(rng.random()))
               for i, m in enumerate(matches)]
    web_pids = family(web_pid) if web_pid else []
    stop_at = time.monotonic() + warmup + duration
    lags: list[float] = []
    playing = [asyncio.create_task(k.play(stop_at, interval)) for k in keepers]
    try:
        await asyncio.sleep(warmup)
        stats.measuring = True
        load_start = load_average()
        cpu_0 = (total_cpu(server_pids), total_cpu([worker_pid]) if worker_pid else None, time.process_time(),
                 total_cpu(web_pids) if web_pids else None)
        measure_start = time.monotonic()
        prober = asyncio.create_task(lag_probe(lags, stop_at))
        while time.monotonic() < stop_at:
            await asyncio.sleep(min(30.0, max(0.0, stop_at - time.monotonic())))
            log(f"  {time.monotonic() - measure_start:4.0f} s: {stats.hands} hands, scoresheet p95 "
                f"{quantile(stats.sheet, 0.95):.3f} s, standings p95 {quantile(stats.standings, 0.95):.3f} s, "
                f"errors {len(stats.errors)}, load {load_average()}")
        stats.measuring = False
        measured = time.monotonic() - measure_start
        cpu_1 = (total_cpu(server_pids), total_cpu([worker_pid]) if worker_pid else None, time.process_time(),
                 total_cpu(web_pids) if web_pids else None)
        load_end = load_average()
        await asyncio.gather(*playing, return_exceptions=True)
        prober.cancel()
        deadline = time.monotonic() + timeout
        while tracker.outstanding() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
    finally:
        for task in playing:
            task.cancel()
        stats.closing = True
        await asyncio.gather(*(page.close() for page in opened), return_exceptions=True)
        pool.shutdown(wait=False, cancel_futures=True)
        for keeper in keepers:
            keeper.client.close()

    def pct(index: int) -> float | None:
        before, after = cpu_0[index], cpu_1[index]
        return None if before is None or after is None else 100 * (after - before) / measured

    missed = tracker.missed()
    return {
        "scorekeepers": len(matches), "pages": pages, "standings_pages": len(tracker.standings_sockets),
        "sheet_pages": pages - len(tracker.standings_sockets), "measured_s": measured, "connect_s": connect_s,
        "interval": interval, "timeout": timeout,
        "hands": stats.hands, "rate": stats.hands / measured if measured else 0.0,
        "sheet": summary(stats.sheet), "standings": summary(stats.standings), "api": summary(stats.api),
        "missed": missed["sheet"] + missed["standings"], "missed_detail": missed,
        "errors": len(stats.errors), "error_samples": stats.errors[:5], "finished": stats.finished,
        "unexpected": stats.unexpected, "gone": stats.gone, "connect_failures": stats.connect_failures,
        "messages": stats.messages, "messages_per_s": stats.messages / measured if measured else 0.0,
        "server_cpu_pct": pct(0), "worker_cpu_pct": pct(1), "bench_cpu_pct": pct(2), "web_cpu_pct": pct(3),
        "loop_lag_p95": quantile(lags, 0.95), "loop_lag_max": max(lags) if lags else float("nan"),
        "load_start": load_start, "load_end": load_end,
    }


def summary(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "p50": quantile(values, 0.5), "p95": quantile(values, 0.95),
            "p99": quantile(values, 0.99), "max": max(values) if values else float("nan")}


# ---------------------------------------------------------------------------------------- a run
def run(*, scorekeepers: int, pages: int, server: str, database: str, redis_url: str, servers: int, web: int,
        warmup: float, duration: float, interval: float, timeout: float, seed: int) -> dict[str, Any]:
    prefix = f"benchlive{os.getpid()}"
    queue = f"bench-live-{os.getpid()}"
    database_url = recreate_database(server, database)
    configure_environment(database_url, redis_url, "pubsub", prefix, queue)
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()
    log(f"migrating {database} … (load {load_average()})")
    call_command("migrate", verbosity=0, interactive=False)
    standings, matches = seed_league(scorekeepers, run=uuid.uuid4().hex[:6])
    connections.close_all()
    log_dir = Path(tempfile.mkdtemp(prefix="bench-live-"))
    http = f"gunicorn ({web} workers)" if web else "no gunicorn: the API on daphne"
    log(f"{scorekeepers} matches seeded; starting {servers} daphne, {http} and a worker (logs: {log_dir})")
    services = Services(log_dir)
    try:
        ports = [free_port() for _ in range(servers)]
        server_pids = [services.start_daphne(port, f"daphne{i}").pid for i, port in enumerate(ports)]
        api: tuple[list[int], int | None] = (ports, None)
        if web:
            web_port = free_port()
            api = ([web_port], services.start_gunicorn(web_port, web).pid)
        worker_pid = services.start_worker().pid
        result = asyncio.run(drive(standings, matches, ports, server_pids, worker_pid, api, pages=pages,
                                   warmup=warmup, duration=duration, interval=interval, timeout=timeout, seed=seed))
    finally:
        services.stop_all()
        connections.close_all()
        for leftover in (prefix, queue, f"_kombu.binding.{queue}"):
            with contextlib.suppress(Exception):
                delete_prefix(redis_url, leftover)
    result.update(servers=servers, web=web, logs=str(log_dir))
    log(f"  {result['hands']} hands: scoresheet p95 {result['sheet']['p95']:.3f} s, standings p95 "
        f"{result['standings']['p95']:.3f} s, missed {result['missed']}, errors {result['errors']}, API p95 "
        f"{result['api']['p95'] * 1000:.0f} ms, load {result['load_start']} → {result['load_end']}")
    return result


# ---------------------------------------------------------------------------------------- report
def _spread(s: dict[str, Any]) -> str:
    return (f"p50 {s['p50'] * 1000:.0f} ms, p99 {s['p99'] * 1000:.0f} ms, max {s['max'] * 1000:.0f} ms over "
            f"{s['n']} updates")


def _cpu(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%"


def all_figures(r: dict[str, Any]) -> list[dict[str, Any]]:
    """The run's figures: both updates' p95 against 1 s, the missed updates and errors against 0, and the rest as
    information."""
    tag = f"{r['scorekeepers']} keepers/{r['pages']} pages"
    missed = r["missed_detail"]
    return [
        figure("sheet_p95", f"hand → its scoresheet p95 ({tag})", r["sheet"]["p95"], "s", TARGETS["sheet_p95"],
               detail=f"{_spread(r['sheet'])} on {r['sheet_pages']} sockets"),
        figure("standings_p95", "hand → standings p95", r["standings"]["p95"], "s", TARGETS["standings_p95"],
               detail=f"{_spread(r['standings'])} on {r['standings_pages']} sockets"),
        figure("missed", f"updates missed (none within {r['timeout']:.0f} s)", r["missed"], "", TARGETS["missed"],
               op="==", detail=f"scoresheet {missed['sheet']}, standings {missed['standings']} ({missed['late']} late, "
                               f"{missed['never']} never, {missed['hands']} hands); sockets closed/unknown "
                               f"{r['unexpected']}, gone {r['gone']}, failed handshakes {r['connect_failures']}"),
        figure("hands", "hands posted", r["hands"], "",
               detail=f"{r['rate']:.1f}/s over {r['measured_s']:.0f} s (one each ~{r['interval']:g} s a keeper); "
                      f"{r['messages_per_s']:.0f} renderings/s received; {r['finished']} matches ended"),
        figure("errors", "API errors", r["errors"], "", TARGETS["errors"], op="==",
               detail="; ".join(r["error_samples"])[:200]),
        figure("api_p95", "API POST p95", r["api"]["p95"], "s",
               detail=f"p50 {r['api']['p50'] * 1000:.0f} ms, max {r['api']['max'] * 1000:.0f} ms"),
        figure("server_cpu", f"CPU: {r['servers']} daphne", r["server_cpu_pct"], "%",
               detail=f"gunicorn {_cpu(r.get('web_cpu_pct'))}, worker {_cpu(r['worker_cpu_pct'])}, bench "
                      f"{_cpu(r['bench_cpu_pct'])} (loop lag p95 "
                      f"{r['loop_lag_p95'] * 1000:.0f} ms, max {r['loop_lag_max'] * 1000:.0f} ms); load "
                      f"{r['load_start']} → {r['load_end']}"),
    ]


def _shown(value: float | None, unit: str) -> str:
    if value is None or value != value:
        return "-"
    if unit == "s":
        return f"{value:.3f}"
    return f"{value:,.0f}"


def format_report(figures: list[dict[str, Any]], mode: str) -> str:
    return format_table(figures, f"live pages benchmark ({mode})", number=_shown, widths=(46, 8, 3, 8),
                        tail=f"load now {load_average()}")


# ---------------------------------------------------------------------------------------- main
def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__doc__, quick="4 scorekeepers, 16 pages, ~15 s")
    parser.add_argument("--scorekeepers", type=int, help="matches, each with a scorekeeper entering (default 20)")
    parser.add_argument("--pages", type=int, help="open pages: half standings, half scoresheets (default 200)")
    parser.add_argument("--duration", type=float, help="seconds measured (default 150; quick 10)")
    parser.add_argument("--warmup", type=float, help="seconds of entering before measuring (default 15; quick 3)")
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between two hands of a scorekeeper")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds an update may take before it is missed")
    parser.add_argument("--servers", type=int, default=DEFAULT_SERVERS,
                        help=f"daphne processes behind the one Redis layer (default one per CPU: {DEFAULT_SERVERS})")
    parser.add_argument("--web", type=int, default=DEFAULT_WEB,
                        help="gunicorn workers serving the API as in production, the sockets staying on daphne "
                             "(default %(default)s, as config/gunicorn.conf.py; 0: the API on daphne too)")
    add_service_arguments(parser, DEFAULT_DB, DEFAULT_REDIS)
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else "full"
    sizes = SIZES[mode]
    scorekeepers = args.scorekeepers if args.scorekeepers is not None else sizes["scorekeepers"]
    pages = args.pages if args.pages is not None else sizes["pages"]
    if scorekeepers < 1:
        parser.error("--scorekeepers: at least 1")
    if pages < 2 * scorekeepers:
        parser.error(f"--pages: at least 2 a scorekeeper ({2 * scorekeepers}), so that every match's scoresheet "
                     "and the standings are open")
    if args.interval <= 0 or args.timeout <= 0 or args.servers < 1:
        parser.error("--interval, --timeout and --servers: more than 0")
    if args.web < 0:
        parser.error("--web: 0 or more")
    signal.signal(signal.SIGTERM, _terminate)
    try:
        result = run(scorekeepers=scorekeepers, pages=pages, server=args.pg, database=args.database,
                     redis_url=args.redis, servers=args.servers, web=args.web,
                     warmup=args.warmup if args.warmup is not None else sizes["warmup"],
                     duration=args.duration if args.duration is not None else sizes["duration"],
                     interval=args.interval, timeout=args.timeout, seed=args.seed)
    except KeyboardInterrupt:
        log("interrupted: the servers and worker this run started are stopped")
        return 130
    figures = all_figures(result)
    return finish(args, figures, lambda: format_report(figures, mode), json_default=str, mode=mode, result=result)


if __name__ == "__main__":
    sys.exit(main())
