"""What the browser tests of the online tables share: the site in a subprocess, signing in, taps, the stored hands.

Sockets need the ASGI server, so the site runs in a subprocess (``manage.py runserver``: daphne's) on a SQLite
file of the test's own — not the test database — with the in-memory channel layer and the ticker of that process
playing the bots; the accounts ``PEOPLE`` are made once in a template database that every site copies, and
stored hands are read by ``manage.py shell``. The page exposes what a
test waits on as data attributes (``static/js/table.js``): ``#table[data-version]``, ``#chalk[data-hand]`` and
``[data-score]``, ``#felt .spot[data-seat]``, ``.card[data-card]``.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
PASSWORD = "pw-for-tests-1"
FAST_BOTS = 0.05
"""Seconds a bot waits before it moves in these tests (a table's ``bot_pace``; ~1 s for people)."""
TICK = 0.05
"""The ticker's look for due moves (``TABLES_TICK``; a quarter of a second by default): a fast bot moves on time."""
SERVER_START_SECONDS = 90
"""How long the site's server may take to listen (a few seconds, much more on a loaded machine)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Site:
    """The site's ASGI server in a subprocess, on its own SQLite file."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.database = folder / "site.sqlite3"
        self.env = {**os.environ, "DATABASE_URL": f"sqlite:///{self.database}", "DJANGO_DEBUG": "1",
                    "TABLES_TICK": str(TICK)}
        self.env.pop("REDIS_URL", None)
        self.log = folder / "server.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True,
                              stdout=subprocess.PIPE, text=True)
        return done.stdout

    def shell(self, code: str) -> str:
        """Run ``code`` in ``manage.py shell`` against the site's database; what it printed."""
        return self.manage("shell", "-c", code)

    def make_users(self, *names: str) -> None:
        self.shell(f"from tests.factories import make_user\nfor name in {list(names)!r}: "
                   f"make_user(name, password={PASSWORD!r})")

    def set_bot_pace(self, table_id: int, seconds: float = FAST_BOTS) -> None:
        """The table's ``bot_pace`` (what ``Table.objects.filter(pk=…).update(bot_pace=…)`` does, with no Django start
        in a shell: the site's SQLite file written directly)."""
        with sqlite3.connect(self.database) as db:
            changed = db.execute("UPDATE tables_table SET bot_pace = ? WHERE id = ?", (seconds, table_id)).rowcount
        assert changed == 1, f"no table {table_id}"

    def stored(self, table_id: int) -> dict:
        """The table as stored: status, score, games won, and every hand's number, dealer, score before, first kick,
        record and result (``None`` while it is played)."""
        code = (
            "import json\nfrom engine.cards import CARD_NAMES\nfrom tables import state\n"
            "from tables.models import Table\n"
            f"t = Table.objects.get(pk={table_id})\n"
            "print(json.dumps({'status': t.status, 'score': t.score, 'games_won': t.games_won, 'version': t.version,"
            " 'hands': [{'number': h.number, 'game': h.game_number, 'dealer': h.dealer,"
            " 'score_before': h.score_before, 'kick': CARD_NAMES[state.deal(t, h).kicks[0]],"
            " 'record': h.record, 'result': h.result}"
            " for h in t.hands.order_by('number')]}))"
        )
        return json.loads(self.shell(code).strip().splitlines()[-1])

    def start(self) -> None:
        self.launch()
        self.wait_listening()

    def launch(self) -> None:
        """Start the server's process, not waiting for it to listen: a scene made meanwhile by ``shell`` (the
        database is in WAL mode, its writers wait for the lock) overlaps its start."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload",
                                             f"127.0.0.1:{self.port}"], cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT)

    def wait_listening(self) -> None:
        try:
            wait_until(self.answers, SERVER_START_SECONDS, f"the server on port {self.port}", interval=0.1)
        except AssertionError:
            raise AssertionError(f"the server did not start: {self.log.read_text()[-2000:]}") from None

    def answers(self) -> bool:
        """Whether the server accepts a connection (``False`` at once once its process has exited)."""
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"the server exited: {self.log.read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
        except OSError:
            return False
        return True

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


PEOPLE = ("pat", "sam", "kim", "lee")
"""The accounts every site of these tests has (password ``PASSWORD``)."""
_template: dict[str, Path] = {}


def template_database() -> Path:
    """A migrated database with ``PEOPLE``, made once per test session (migrating takes a while) and copied.

    The workers of one pytest-xdist run share it (each migration is 10 to 13 s of a core): the first worker to need
    it makes it, under a lock of the run, and leaves it where the others copy it; the others wait on the lock
    meanwhile, as they would have migrated meanwhile. Each worker keeps a copy of its own; the shared one goes when
    the worker that made it ends (one that needs it later makes it again)."""
    if "db" not in _template:
        folder = Path(tempfile.mkdtemp(prefix="tables-site-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
        if not run.isalnum():  # no run of workers: a template of our own
            _make_template(folder)
        else:
            shared = Path(tempfile.gettempdir()) / f"tables-site-template-{run}.sqlite3"
            with _run_lock(shared):
                if not shared.exists():
                    _make_template(folder)
                    staged = shared.with_name(f"{shared.name}.{os.getpid()}")
                    shutil.copyfile(folder / "site.sqlite3", staged)
                    os.replace(staged, shared)  # whole or absent
                    atexit.register(_remove_shared, shared)
                else:
                    shutil.copyfile(shared, folder / "site.sqlite3")
        _template["db"] = folder / "site.sqlite3"
    return _template["db"]


def _make_template(folder: Path) -> None:
    site = Site(folder)
    site.manage("migrate", "-v0")
    site.make_users(*PEOPLE)


@contextlib.contextmanager
def _run_lock(shared: Path):
    with open(shared.with_name(f"{shared.name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _remove_shared(shared: Path) -> None:
    with _run_lock(shared):
        shared.unlink(missing_ok=True)
        shared.with_name(f"{shared.name}.lock").unlink(missing_ok=True)


def served_site(folder: Path):
    """A site on a copy of the template database, started; a generator for a fixture."""
    site = Site(folder)
    shutil.copyfile(template_database(), site.database)
    site.start()
    try:
        yield site
    finally:
        site.kill()


def sign_in(page, site: Site, username: str, next_path: str = "/tables/") -> None:
    page.goto(f"{site.url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").tap()
    page.wait_for_url(f"**{next_path}")


def table_id_of(page) -> int:
    """The table's id from the page's address (``…/tables/<id>/``, with or without a query)."""
    return int(urlsplit(page.url).path.rstrip("/").split("/")[-1])


def version_of(page) -> int:
    return int(page.get_attribute("#table", "data-version") or -1)


def hand_cards(page) -> list[str]:
    return page.locator("#hand .hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")


def legal_cards(page) -> list[str]:
    return page.locator("#hand.my-turn .hand-card.legal").evaluate_all("cards => cards.map(c => c.dataset.card)")


def my_move(page) -> tuple[str, str] | None:
    """What the page offers to tap now: ``("button", label)`` or ``("card", name)``; ``None``: not our turn, or
    the page is being drawn again (it reloads itself when the table's status changes: started, finished)."""
    try:
        return page.evaluate("""() => {
            const button = document.querySelector('#moves button.move');
            if (button) return ['button', button.textContent];
            const card = document.querySelector('#hand.my-turn .hand-card.legal');
            return card ? ['card', card.dataset.card] : null;
        }""")
    except Exception as error:  # playwright's Error: the page navigated while it was asked
        if "context was destroyed" not in str(error):
            raise
        page.wait_for_load_state()
        return None


def tap_move(page, move: tuple[str, str], timeout: float = 10_000) -> None:
    """Tap ``move`` (from :func:`my_move`) and wait until the server took it (the page's version went up)."""
    before = version_of(page)
    kind, what = move
    if kind == "button":
        page.locator("#moves button.move", has_text=what).first.tap(timeout=timeout)
    else:
        page.locator(f'#hand .hand-card[data-card="{what}"]').tap(timeout=timeout)
    page.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {before}",
                           timeout=timeout)
