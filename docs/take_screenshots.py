#!/usr/bin/env python3
"""The README's screenshots: the main pages at phone size (390 × 844), from the seeded demo.

    python docs/take_screenshots.py                       # writes docs/screenshots/*.png
    python docs/take_screenshots.py --out /tmp/shots      # somewhere else

What it does, with nothing set in the environment but what it sets itself: migrates and seeds the demo
(``make demo``'s two commands) on a new SQLite file in a temporary folder, opens an online table for the demo
organiser with three bots, serves the app with daphne's ``manage.py runserver`` on a free port, and photographs
each page with Playwright in Debian's Chromium (``/usr/bin/chromium``), signed in where the page needs it. Each PNG
is then reduced to a 256-colour palette with ``pngquant`` when it is installed (``apt-get install pngquant``), which
keeps each under ~150 KB. The server and the temporary folder are removed at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}
SCALE = 2  # device pixels per CSS pixel, as on a phone; pngquant brings the files back to a small size
DEMO_PASSWORD = "allfours-demo"

# Where the pages are, read from the seeded demo: the competition the home page leads to, the match a scorekeeper
# is entering, and an online table opened here for the organiser (seat 1) with three bots.
FIND_PAGES = """
import json
from django.contrib.auth import get_user_model
from games.models import Match
from importer.management.commands import seed_demo as demo
from tables import dealing, seating

organiser = get_user_model().objects.get(username=demo.ORGANISER)
match = (Match.objects.filter(competition__slug=demo.LEAGUE_SLUG, status=Match.IN_PROGRESS).order_by("pk").first()
         or Match.objects.filter(competition__slug=demo.LEAGUE_SLUG).order_by("pk").first())
table = seating.create_table(organiser, 4, seat=0, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
dealing.start(table)
print(json.dumps({"standings": f"/clubs/{demo.LEAGUE_CLUB}/{demo.LEAGUE_SLUG}/standings/",
                  "entry": f"/matches/{match.pk}/enter/", "table": f"/tables/{table.pk}/"}))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def manage(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args[:1])} failed:\n{done.stderr[-3000:]}")
    return done.stdout


@contextlib.contextmanager
def demo_server(folder: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """The demo on a SQLite file in ``folder``, served on a free port; yields its URL and the pages' paths."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_PRODUCTION", "DJANGO_SETTINGS_MODULE")}
    env.update(DATABASE_URL=f"sqlite:///{folder / 'demo.sqlite3'}", DJANGO_SETTINGS_MODULE="config.settings",
               TABLES_BOT_PACE="0.6")
    manage("migrate", "--noinput", env=env)
    manage("seed_demo", env=env)
    pages = json.loads(manage("shell", "-c", FIND_PAGES, env=env).strip().splitlines()[-1])
    port = free_port()
    log = open(folder / "server.log", "w")  # noqa: SIM115 - closed below
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start:\n{(folder / 'server.log').read_text()[-3000:]}")
            time.sleep(0.3)
        yield f"http://127.0.0.1:{port}", pages
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


def sign_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("form [type=submit]")
    page.wait_for_load_state("networkidle")


def shoot(base: str, pages: dict[str, str], out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    shots = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            visitor = browser.new_context(viewport=PHONE, device_scale_factor=SCALE, is_mobile=True, has_touch=True)
            page = visitor.new_page()
            for name, path in (("home", "/"), ("standings", pages["standings"])):
                page.goto(base + path, wait_until="networkidle")
                page.screenshot(path=out / f"{name}.png")
                shots.append(out / f"{name}.png")
            visitor.close()

            organiser = browser.new_context(viewport=PHONE, device_scale_factor=SCALE, is_mobile=True, has_touch=True)
            page = organiser.new_page()
            sign_in(page, base, "organiser")
            page.goto(base + pages["entry"], wait_until="networkidle")
            page.screenshot(path=out / "entry.png")
            shots.append(out / "entry.png")
            page.goto(base + pages["table"], wait_until="networkidle")
            play_until_a_trick_is_on_the_felt(page)
            page.screenshot(path=out / "table.png")
            shots.append(out / "table.png")
            organiser.close()
        finally:
            browser.close()
    return shots


def play_until_a_trick_is_on_the_felt(page, seconds: float = 60) -> None:
    """Play the organiser's seat (stand or give, lead the first legal card) until it is their turn with cards of
    the trick on the felt and their legal cards raised: the picture of a table in play."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        legal = page.query_selector_all("#hand .hand-card.legal")
        if legal and page.query_selector_all("#felt .card"):
            time.sleep(0.5)  # the frame drawn
            return
        move = page.query_selector("#moves button.move")
        if move is not None:
            move.click()
        elif legal:
            legal[0].click()  # the organiser leads: a card on the felt, then the bots follow
        time.sleep(0.7)


def shrink(paths: list[Path]) -> None:
    """Each PNG to a 256-colour palette (``pngquant``), when it is installed."""
    if shutil.which("pngquant") is None:
        print("pngquant is not installed: the screenshots are kept as taken", file=sys.stderr)
        return
    for path in paths:
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--strip", "--quality", "60-90", "--output",
                        str(path), "--", str(path)], check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="folder (default %(default)s)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="allfours-screenshots-"))
    try:
        with demo_server(folder) as (base, pages):
            shots = shoot(base, pages, args.out)
        shrink(shots)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for path in shots:
        print(f"{path}  {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
