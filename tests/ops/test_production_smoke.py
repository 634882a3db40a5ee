"""The production stack, run natively from docker-compose.yml's own commands and environment (tests/ops/stack.py):
Debian's caddy in front with config/Caddyfile, gunicorn, two daphne replicas, the Celery worker and beat,
PostgreSQL through PgBouncer, Redis. Through the proxy only: the home page, a login, a hand entered through the API
(the worker settles it and a live page's socket shows it), an online table's socket, /readyz. Then PostgreSQL
stopped for 10 s: pages and the API answer 503 with Retry-After, never 500, and everything comes back without a
restart (every process keeps its PID)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time

import pytest
import requests

from tests.ops.stack import Stack
from tests.waiting import wait_until

pytestmark = [pytest.mark.services, pytest.mark.slow]

SCENE = """
import json
from tables import dealing, seating
from tables.models import Seat
from tests.factories import make_club, make_competition, make_match, make_organiser, make_user
club = make_club("Smoke Club")
organiser = make_organiser(club, make_user("olive", password="smoke-test-pw-1"))
competition = make_competition(club=club)
match = make_match(competition)
table = seating.create_table(None, 4, turn_seconds=3600, bank_seconds=0)
seats = list(table.seats.order_by("index"))
for seat in seats:
    seat.user = make_user(f"seat{seat.index}")
Seat.objects.bulk_update(seats, ["user"])
dealing.start(table)
print(json.dumps({"club": club.slug, "competition": competition.slug, "match": match.pk, "table": table.pk,
                  "seat": seats[0].seat_token}))
"""
CHALK = {"kicks": ["5S"], "beg": "stand", "high": {"team": 0}, "low": {"team": 1}, "game": {"team": 0}}
OUTAGE_SECONDS = 10


@pytest.fixture(scope="module")
def stack():
    from tests.conftest import services_required
    from tests.postgres_server import BIN

    missing = [tool for tool, found in (("caddy", _which("caddy")), ("pgbouncer", _which("pgbouncer")),
                                        ("PostgreSQL's server binaries", BIN)) if not found]
    if missing:
        if services_required():
            pytest.fail(f"needs {', '.join(missing)}, and REQUIRE_SERVICES=1 makes it a failure")
        pytest.skip(f"needs {', '.join(missing)} (Debian's packages) for the production stack")
    running = Stack()
    try:
        yield running.start()
    finally:
        running.stop()


def _which(program: str) -> str | None:
    import shutil

    return shutil.which(program) or shutil.which(program, path="/usr/sbin:/usr/bin")


def log_in(stack: Stack) -> requests.Session:
    session = requests.Session()
    page = session.get(f"{stack.url}/accounts/login/", timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    answer = session.post(f"{stack.url}/accounts/login/?next=/", timeout=10, allow_redirects=False,
                          data={"csrfmiddlewaretoken": token, "username": "olive", "password": "smoke-test-pw-1"},
                          headers={"Referer": f"{stack.url}/accounts/login/"})
    assert answer.status_code == 302, answer.text[:2000]
    return session


def api(stack: Stack) -> requests.Session:
    session = requests.Session()
    token = session.post(f"{stack.url}/api/auth/token/", json={"username": "olive", "password": "smoke-test-pw-1"},
                         timeout=10)
    assert token.status_code == 200, token.text
    session.headers["Authorization"] = f"Token {token.json()['token']}"
    return session


def enter_hand(session: requests.Session, stack: Stack, match: int, number: int) -> requests.Response:
    return session.post(f"{stack.url}/api/matches/{match}/hands/", json={"number": number, "mode": "chalk",
                                                                         "entry": CHALK}, timeout=30)


async def first_frame(url: str, origin: str, send: dict | None = None, want: str | None = None,
                      then=None, timeout: float = 30) -> dict:
    """The first frame (of type ``want``) a socket through the proxy receives; ``then()`` runs once it is open."""
    import websockets

    async with websockets.connect(url, origin=origin, open_timeout=20) as socket:
        if send is not None:
            await socket.send(json.dumps(send))
        if then is not None:
            await asyncio.get_running_loop().run_in_executor(None, then)
        deadline = time.monotonic() + timeout
        while True:
            frame = json.loads(await asyncio.wait_for(socket.recv(), max(0.1, deadline - time.monotonic())))
            if want is None or frame.get("type") == want:
                return frame


def test_the_stack_serves_through_the_proxy_and_rides_out_a_database_outage(stack):
    scene = json.loads(stack.manage("shell", "-c", SCENE).strip().splitlines()[-1])
    pids = stack.running()
    ws = stack.url.replace("http://", "ws://")

    home = requests.get(f"{stack.url}/", timeout=10)
    assert home.status_code == 200 and "Smoke Club" in home.text, stack.log("web")[-4000:]
    ready = requests.get(f"{stack.url}/readyz", timeout=10)
    assert ready.status_code == 200 and ready.json()["status"] == "ready", ready.text
    assert "olive" in log_in(stack).get(f"{stack.url}/", timeout=10).text
    for service, port in [("web", stack.ports["web"]), *(("asgi", port) for port in stack.ports["asgi"])]:
        checked = stack.health_check(service, port)  # docker's own health check command, with the site's hosts
        assert checked.returncode == 0, (service, checked.stderr)

    keeper = api(stack)
    competition_page = f"/clubs/{scene['club']}/{scene['competition']}/"
    entered = []
    frame = asyncio.run(first_frame(f"{ws}/ws/live/?path={competition_page}", stack.url, want="regions",
                                    then=lambda: entered.append(enter_hand(keeper, stack, scene["match"], 1))))
    assert entered[0].status_code == 201, entered[0].text
    assert frame["regions"], frame  # the worker settled the hand and the page's socket got the new standings
    table = asyncio.run(first_frame(f"{ws}/ws/tables/{scene['table']}/?seat={scene['seat']}", stack.url,
                                    want="state"))
    assert table["type"] == "state"

    connections = stack.connections_to_pgbouncer()  # the sizing of docs/running.md, measured
    print(f"connections to PgBouncer by service: {connections}")
    threads = min(32, (os.cpu_count() or 1) + 4)
    assert connections["web"] <= 2 and connections["beat"] <= 1 and connections["worker"] <= 2 + 1, connections
    assert all(connections[f"asgi-{n}"] <= threads + 1 for n in (1, 2)), connections

    stack.postgres.stop()
    stopped, answers = time.monotonic(), []
    while time.monotonic() - stopped < OUTAGE_SECONDS:  # pages and the API asked for the whole outage
        page = requests.get(f"{stack.url}{competition_page}", timeout=30)
        call = keeper.get(f"{stack.url}/api/competitions/", timeout=30)
        answers.append((page.status_code, page.headers.get("Retry-After"), call.status_code,
                        call.headers.get("Retry-After"), call.headers.get("Content-Type", "")))
    assert answers and all(page == 503 and page_retry and call == 503 and call_retry and "json" in kind
                           for page, page_retry, call, call_retry, kind in answers), answers
    assert requests.get(f"{stack.url}/readyz", timeout=30).status_code == 503
    assert requests.get(f"{stack.url}/healthz", timeout=10).status_code == 200
    assert "errors" in keeper.get(f"{stack.url}/api/competitions/", timeout=30).json()

    stack.postgres.start()
    wait_until(lambda: requests.get(f"{stack.url}/readyz", timeout=30).status_code == 200, 60,
               "/readyz answering 200 again once PostgreSQL is back", interval=0.5)
    assert requests.get(f"{stack.url}{competition_page}", timeout=30).status_code == 200
    assert enter_hand(keeper, stack, scene["match"], 2).status_code == 201
    assert asyncio.run(first_frame(f"{ws}/ws/tables/{scene['table']}/?seat={scene['seat']}", stack.url,
                                   want="state"))["type"] == "state"
    assert stack.running() == pids  # nothing restarted
    web_log = stack.log("web")
    assert "Traceback" not in web_log
    assert 1 <= web_log.count("database unreachable") <= 2, web_log[-3000:]  # once an outage in each gunicorn worker
