"""Eight busy online tables at once on the embedded default — a SQLite file, daphne through ``manage.py runserver``,
the in-memory channel layer, as ``make run`` serves them — answer every request: no 5xx, no socket closed 1011
(an error in the server), no action refused with "try again".

The real server runs in a subprocess on a SQLite file of the test's own (``test_restart``'s ``Server``). Each table
has its creator at seat 1, two quick bots, and a seat left for a second player. At every table at once: the creator
opens the table's socket, the second player takes the seat ("Sit here", a POST with their session) and opens theirs,
the creator starts the game (a POST), and from then the two players play a legal move as soon as it is their turn
while the bots move at a fast pace and the tables' pages are read over and over. The run ends when every table has
finished its first hand, within a bounded time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path

import pytest
import requests
from websockets.exceptions import ConnectionClosed

from tests.tables.test_restart import Client, Server, until

TABLES = 8
PLAY_FOR = 60.0  # s at most until every table finished its first hand
BOT_PACE = 0.05  # s: the bots move at the first tick after their turn starts

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from tables import seating
from tables.models import Seat
call_command("migrate", verbosity=0)

def session(user):
    browser = Client()
    browser.force_login(user)
    return browser.cookies["sessionid"].value

tables = []
for number in range(%(tables)d):
    creator, second = (get_user_model().objects.create_user(f"t{number}-{role}") for role in ("host", "guest"))
    table = seating.create_table(creator, players=4, seat=0, bots={2: "heuristic", 3: "heuristic"},
                                 turn_seconds=600, bank_seconds=0, bot_pace=%(pace)r)
    tables.append({"id": table.pk, "tokens": list(Seat.objects.filter(table=table).order_by("index")
                                                  .values_list("seat_token", flat=True)),
                   "host": session(creator), "guest": session(second)})
print(json.dumps(tables))
"""

CSRF = "busyTablesCsrfSecretOf32Chars000"  # a CSRF cookie holds a 32-character secret; the header repeats it


class Seated(Client):
    """A player's socket that plays at once whenever it is their turn, and keeps the close code the server gave."""

    def __init__(self, name: str, url: str, seat: int) -> None:
        super().__init__(name, url, seat)
        self.acting = lambda frame: True
        self.close_code: int | None = None

    async def read(self) -> None:
        try:
            async for text in self.ws:
                self.take(json.loads(text))
                await self.maybe_act()
        except ConnectionClosed as closed:
            self.close_code = closed.rcvd.code if closed.rcvd else None


class Browser:
    """A signed-in player's browser: a session cookie and the CSRF cookie; every answer's status is kept."""

    def __init__(self, base: str, session: str) -> None:
        self.base = base
        self.http = requests.Session()
        self.http.cookies.update({"sessionid": session, "csrftoken": CSRF})
        self.statuses: list[tuple[str, int]] = []

    def call(self, method: str, path: str) -> int:
        headers = {"X-CSRFToken": CSRF, "Referer": self.base + path}
        answer = self.http.request(method, self.base + path, headers=headers, allow_redirects=False, timeout=30)
        self.statuses.append((f"{method} {path}", answer.status_code))
        return answer.status_code

    async def post(self, path: str) -> int:
        return await asyncio.to_thread(self.call, "POST", path)

    async def get(self, path: str) -> int:
        return await asyncio.to_thread(self.call, "GET", path)


async def play_one(server: Server, table: dict, browsers: list[Browser], clients: list[Seated]) -> None:
    base, ws = f"http://127.0.0.1:{server.port}", f"ws://127.0.0.1:{server.port}/ws/tables"
    page = f"/tables/{table['id']}/"
    host, guest = Browser(base, table["host"]), Browser(base, table["guest"])
    browsers += [host, guest]
    first, second = (Seated(f"{table['id']}-{seat}", f"{ws}/{table['id']}/?seat={table['tokens'][seat]}", seat)
                     for seat in (0, 1))
    clients += [first, second]
    await first.open(base)
    await guest.post(f"{page}seats/2/take/")
    await second.open(base)
    await host.post(f"{page}start/")
    await first.maybe_act()
    await second.maybe_act()

    def first_hand_done() -> bool:
        return any(client.view.get("hand_number", 1) > 1 or (client.last or {}).get("table", {}).get("status")
                   not in (None, "lobby", "playing") for client in (first, second))

    ends = time.monotonic() + PLAY_FOR
    while not first_hand_done() and time.monotonic() < ends:
        await asyncio.gather(host.get(page), guest.get(page), asyncio.sleep(0.2))
    await until(first_hand_done, f"table {table['id']} to finish its first hand", max(0.0, ends - time.monotonic()))


async def play_all(server: Server, tables: list[dict]) -> tuple[list[Browser], list[Seated], list]:
    """Every table played at once; the browsers, the sockets and what went wrong at each table (if anything)."""
    browsers: list[Browser] = []
    clients: list[Seated] = []
    try:
        outcomes = await asyncio.gather(*(play_one(server, table, browsers, clients) for table in tables),
                                        return_exceptions=True)
    finally:
        for client in clients:
            with contextlib.suppress(Exception):
                await client.close()
    return browsers, clients, [outcome for outcome in outcomes if outcome is not None]


@pytest.mark.slow  # a real server and eight tables played through
def test_eight_busy_tables_on_sqlite_answer_without_errors(tmp_path: Path):
    server = Server(tmp_path, f"sqlite:///{tmp_path / 'site.sqlite3'}", None)
    tables = server.shell(SETUP % {"tables": TABLES, "pace": BOT_PACE})
    try:
        server.start()
        browsers, clients, failures = asyncio.run(play_all(server, tables))
    finally:
        server.kill()
    log = server.log.read_text()
    server_errors = [status for browser in browsers for status in browser.statuses if status[1] >= 500]
    closed_in_error = [client.name for client in clients if client.close_code == 1011]
    try_again = [refusal for client in clients for refusal in client.refusals if "try again" in refusal["reason"]]
    assert not server_errors, f"{server_errors}\n{log[-3000:]}"
    assert not closed_in_error, f"{closed_in_error}\n{log[-3000:]}"
    assert not try_again, f"{try_again}\n{log[-3000:]}"
    assert "database is locked" not in log, log[-3000:]
    assert not failures, f"{failures}\n{log[-3000:]}"
