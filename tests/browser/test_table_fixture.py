"""A league fixture played online to its end, on phones, and the same hands entered by a scorekeeper.

The organiser opens the match's scoresheet, taps "Play online", gets the table with each seat's player and private
link (copy buttons), and starts it. Four people play on four phones: two by their logins (Ann and Tom) and two by
the seat links the organiser handed out (no login) — a fixture's seats are its players', the service refuses bots
there (the clock moves for a player who does not, and none is needed here: every move is a tap). The table plays
the match's format (first to 2 games to 5 here) and stores each hand on the scoresheet. Then a scorekeeper enters
the same hand records through the API into the same pairing in a twin competition: both matches' results and both
competitions' standings are equal. Meanwhile the scorekeeper's entry through the API is refused (409) naming the
table. The table page speaks of the match: the chalk to the match's target before the deal, every seat by its
player's name (the link players' too), a watch link, "the match is over" and who won it, the last hand's replay;
and the organiser revokes and renews a seat's link on the match's online page.

The site runs in a subprocess (daphne's ``runserver``: sockets) on a SQLite file of the test's own; the scene is
made and read by ``manage.py shell``. Chromium at 390×844 (``tests/browser/conftest.py``).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.browser.tables_site import PASSWORD, PHONE, my_move, template_database, version_of
from tests.browser.tables_site import Site as TablesSite

pytestmark = pytest.mark.browser


SCENE = f"""
import json
from league.models import Competition, Partnership
from tests.factories import make_club, make_competition, make_match, make_organiser, make_player, make_user
club = make_club("Online Club")
make_organiser(club, make_user("olga", password={PASSWORD!r}))
keeper = make_user("kip", password={PASSWORD!r})
ann = make_player("Ann", club=club, user=make_user("ann", password={PASSWORD!r}))
tom = make_player("Tom", club=club, user=make_user("tom", password={PASSWORD!r}))
lions = Partnership.objects.create(player_one=ann, player_two=make_player("Al", club=club), club=club, name="Lions")
tigers = Partnership.objects.create(player_one=tom, player_two=make_player("Ted", club=club), club=club,
                                    name="Tigers")
ids = {{}}
for key in ("online", "keeper"):
    competition = make_competition(club=club, match_format=Competition.FIRST_TO, match_games=2,
                                   ruleset={{"target": 5}})
    match = make_match(competition, side_a=lions, side_b=tigers, scorekeepers=[keeper])
    ids[key] = {{"competition": competition.pk, "match": match.pk, "club": club.slug, "slug": competition.slug}}
print(json.dumps(ids))
"""

RECORDS = """
import json
from tables.models import Table
table = Table.objects.get(match_id={match})
games = {{}}
out = []
for hand in table.hands.order_by("number"):
    games[hand.game_number] = games.get(hand.game_number, 0) + 1
    out.append({{"number": games[hand.game_number], "record": hand.record, "stored": hand.stored_hand_id,
                 "by": sorted(set(hand.actions.values_list("by", flat=True)))}})
print(json.dumps({{"status": table.status, "end_reason": table.end_reason, "hands": out}}))
"""

MATCH_FIELDS = ("status", "winner", "games_a", "games_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b")


class Site(TablesSite):
    """The tables' site (``tests/browser/tables_site.py``) with the scene made and read as JSON."""

    def shell_json(self, code: str):
        return json.loads(self.shell(code).strip().splitlines()[-1])


@pytest.fixture
def site(tmp_path):
    served = Site(tmp_path)
    shutil.copyfile(template_database(), served.database)  # migrated once a session
    served.launch()  # the server starts while the scene is made
    try:
        served.ids = served.shell_json(SCENE)
        served.wait_listening()
        yield served
    finally:
        served.kill()


def phone(browser, errors: list[str]):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def log_in(page, site: Site, username: str, then: str) -> None:
    page.goto(f"{site.url}/accounts/login/?next={then}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").tap()
    page.wait_for_url(f"**{then}")


def tap_my_move(page) -> bool:
    """Tap what the page offers (a move button first, else a legal card); whether it was tapped."""
    from playwright.sync_api import Error as PlaywrightError

    move = my_move(page)
    if move is None:
        return False
    kind, what = move
    try:
        if kind == "button":
            page.locator("#moves button.move", has_text=what).first.tap(timeout=1000)
        else:
            page.locator(f'#hand .hand-card[data-card="{what}"]').tap(timeout=1000)
    except PlaywrightError:  # a frame redrew the buttons, or the page reloaded, between the look and the tap
        return False
    return True


def table_now(page) -> tuple[str | None, str | None, int]:
    """The table as the page shows it: its status, the seat to move (``None``: nobody) and the version drawn;
    ``(None, None, -1)`` while the page reloads (table.js reloads it when the status changes, and a look at that
    moment finds no page to read)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return tuple(page.evaluate("""() => {
            const table = document.getElementById('table'), mover = document.querySelector('#felt .spot.to-move');
            return table ? [table.dataset.status, mover ? mover.dataset.seat : null, Number(table.dataset.version)]
                         : [null, null, -1];
        }"""))
    except PlaywrightError:
        page.wait_for_load_state()
        return None, None, -1


YOUR_MOVE = """() => document.querySelector('#conn[data-state=live]')
    && document.querySelector('#moves button, #hand.my-turn .hand-card.legal')"""
"""The page offers a move, and its socket is up to send it (a tap while it connects is answered "Not connected")."""


def newer_than(page, version: int, status: str | None = "playing", timeout: float = 10_000) -> None:
    """Wait until the page draws a version after ``version``, or is drawn again by the server with a status other
    than ``status`` (table.js reloads the page when the status changes: the last move's version, finished), or is
    being drawn again."""
    page.wait_for_function("([version, status]) => { const t = document.getElementById('table');"
                           " return !t || Number(t.dataset.version) > version || t.dataset.status !== status; }",
                           arg=[version, status], timeout=timeout)


def within_the_rate(page, tapped: deque[float]) -> None:
    """Wait, if need be, until one more tap keeps the page's socket within the server's rate: it closes a socket
    that sends over ``RATE_LIMIT`` messages in any ``RATE_WINDOW`` seconds (``tables.consumers``), and four phones
    tapped as fast as the pages draw get there. A tap is one message; the heartbeat's pings and the pages' syncs
    are a few more in a window; the window is taken a little longer, for the time a message takes to arrive."""
    from tables.consumers import RATE_LIMIT, RATE_WINDOW

    window = RATE_WINDOW + 0.5
    while tapped and tapped[0] <= time.monotonic() - window:
        tapped.popleft()
    if len(tapped) >= RATE_LIMIT - 5:
        page.wait_for_timeout((tapped[0] + window - time.monotonic()) * 1000)


def api(site: Site, username: str) -> requests.Session:
    session = requests.Session()
    token = session.post(f"{site.url}/api/auth/token/", json={"username": username, "password": PASSWORD})
    assert token.status_code == 200, token.text
    session.headers["Authorization"] = f"Token {token.json()['token']}"
    return session


@pytest.mark.slow
@pytest.mark.xdist_group("fixture-played-online")  # the longest test of the suite: beside the file's other test
def test_a_fixture_played_online_to_its_end_equals_the_same_hands_entered_by_a_scorekeeper(browser, site, shots):
    errors: list[str] = []
    online, by_keeper = site.ids["online"], site.ids["keeper"]
    match_id = online["match"]

    # the organiser opens the match online from its scoresheet
    organiser = phone(browser, errors)
    log_in(organiser, site, "olga", f"/matches/{match_id}/")
    organiser.screenshot(path=str(shots / "fixture_sheet.png"), full_page=True)
    organiser.locator("#play-online").tap()
    organiser.wait_for_url(f"**/matches/{match_id}/online/")
    organiser.locator("button:has-text('Play online')").tap()
    organiser.wait_for_selector("#online-table")
    links = organiser.locator("input.seat-link-url").evaluate_all("inputs => inputs.map(i => i.value)")
    assert len(links) == 4 and all("?seat=" in link for link in links)
    assert "login ann" in organiser.inner_text("#seat-1").lower()  # the badge is written in capitals
    assert "login tom" in organiser.inner_text("#seat-2").lower()
    assert "no login: send the link" in organiser.inner_text("#seat-3").lower()
    organiser.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
    organiser.locator("#seat-3 button.copy").tap()
    organiser.wait_for_selector("#seat-3 button.copy:has-text('Copied')")
    organiser.screenshot(path=str(shots / "fixture_online_page.png"), full_page=True)

    # a player who is not the match's scorekeeper may not open the online page
    session = requests.Session()
    login_page = session.get(f"{site.url}/accounts/login/")
    session.post(f"{site.url}/accounts/login/", data={"username": "ann", "password": PASSWORD,
                                                      "csrfmiddlewaretoken": login_page.cookies["csrftoken"]},
                 headers={"Referer": f"{site.url}/accounts/login/"})
    refused = session.get(f"{site.url}/matches/{match_id}/online/")
    assert refused.status_code == 403 and "scorekeepers open it online" in refused.text.replace("&#x27;", "'")

    # four phones: two players by their logins, two by the seat links
    table_path = links[0].split("?")[0].removeprefix(site.url)
    players = []
    for username in ("ann", "tom"):
        page = phone(browser, errors)
        log_in(page, site, username, table_path)
        players.append(page)
    for link in links[2:]:
        page = phone(browser, errors)
        page.goto(link)
        players.append(page)
    for page in players:
        page.wait_for_selector("#conn[data-state=live]")
    players[2].screenshot(path=str(shots / "fixture_table_lobby.png"))
    # in the words of a match: the target to 5 before the deal, every seat by its player's name (also the seats
    # played by their links, which have no login), a watch link rather than an invite to take a seat
    link_page = players[2]  # Al, seat 3, by the seat's link
    chalk = link_page.inner_text("#chalk-lines")
    assert "0/5" in chalk and "/14" not in chalk and "Lions (you)" in chalk and "Tigers" in chalk
    labels = link_page.locator("#felt .spot").evaluate_all(
        "spots => Object.fromEntries(spots.map(s => [s.dataset.seat, s.querySelector('.spot-label').textContent]))")
    assert labels == {"0": "Ann", "1": "Tom", "2": "You", "3": "Ted"}
    assert link_page.inner_text("#turn") == "Waiting for the match to start."
    assert "Watch link" in link_page.inner_text("#seats") and "open seat" not in link_page.inner_text("#seats")
    assert "Ted" in link_page.inner_text("#seats") and "open" not in link_page.inner_text(".seat-list")

    organiser.locator("button:has-text('Start')").tap()
    organiser.wait_for_selector("text=started: the cards are dealt")
    for page in players:
        page.wait_for_selector("#hand .hand-card", timeout=15_000)

    # while the table plays, the scorekeeper's entries are refused naming the table
    keeper = api(site, "kip")
    held = keeper.post(f"{site.url}/api/matches/{match_id}/hands/",
                       json={"number": 1, "mode": "chalk", "entry": {"kicks": ["5S"], "beg": "stand",
                                                                     "high": {"team": 0}, "low": {"team": 0},
                                                                     "jack": {"team": 0}, "game": {"team": 0}}})
    assert held.status_code == 409 and "played online at table" in held.json()["errors"][0]["reason"]
    entry_page = phone(browser, errors)
    log_in(entry_page, site, "kip", f"/matches/{match_id}/enter/")
    assert "This match is being played online at table" in entry_page.inner_text("#online-note")
    entry_page.screenshot(path=str(shots / "fixture_entry_page_held.png"))
    entry_page.context.close()

    # every move a tap, on the page of the seat to move: no bot and no clock plays here, so the page that moved
    # last, once it drew its own move, shows the table as it is, and who moves next
    by_seat = {page.get_attribute("#table", "data-seat"): page for page in players}
    assert sorted(by_seat) == ["0", "1", "2", "3"], by_seat
    tapped: dict[str, deque[float]] = {seat: deque() for seat in by_seat}  # when each page tapped, lately
    taps, shot_mid, last = 0, False, players[0]
    started = time.monotonic()
    ends = started + 600
    while True:
        assert time.monotonic() < ends, f"the match was not over after {taps} taps"
        status, seat, version = table_now(last)
        if status == "finished":
            break
        if seat is None:  # nobody to move in the frame drawn (or the page reloads): its next one
            newer_than(last, version, status)
            continue
        mover = by_seat[seat]
        mover.wait_for_function(YOUR_MOVE, timeout=10_000)
        within_the_rate(mover, tapped[seat])
        before = version_of(mover)
        tapped[seat].append(time.monotonic())
        if tap_my_move(mover):
            taps += 1
            newer_than(mover, before)
        last = mover
        if taps > 12 and not shot_mid:
            players[1].screenshot(path=str(shots / "fixture_table_playing.png"))
            shot_mid = True
    print(f"\nthe match online: {taps} taps in {time.monotonic() - started:.1f} s")
    # the stored hands, read by a shell (a Django start: seconds) while the pages are looked at
    records = ThreadPoolExecutor(1)
    stored = records.submit(site.shell_json, RECORDS.format(match=match_id))
    records.shutdown(wait=False)
    for page in players:  # each page is drawn again by the server when the table finishes
        page.wait_for_selector("#table[data-status=finished]")
    players[0].wait_for_selector(".messages .message")
    assert "The match is over:" in players[0].inner_text(".messages")
    players[0].screenshot(path=str(shots / "fixture_table_over.png"))
    turn = players[0].inner_text("#turn")  # the match is over, not "the game"
    # the table's end reason (tables.changes.match_over) names the games too once the frame carries it
    winner = re.fullmatch(r"The match is over: (Lions|Tigers) won(?:, games Lions (\d) – (\d) Tigers)?\.", turn)
    assert winner, turn
    assert players[0].inner_text("#trick") == f"{winner.group(1)} won the match"
    games = re.match(r"Games (\d)–(\d) · first to 2 games", players[0].inner_text(".chalk-games"))
    assert games and int(games.group(1 if winner.group(1) == "Lions" else 2)) == 2
    assert winner.group(2) is None or winner.group(2, 3) == games.group(1, 2), (turn, games.group(0))
    # the last hand's replay, from the chalk, for a player by their link too
    replay = players[3].locator("#result a.replay-link")
    with players[3].expect_navigation():
        replay.tap()
    assert "/hands/" in players[3].url and "?seat=" in players[3].url
    assert players[3].locator("#rp-where").inner_text() == "The deal"
    assert "Lions" in players[3].inner_text(".rp-head") and "Ted (B)" in players[3].inner_text("#step-0")
    players[3].screenshot(path=str(shots / "fixture_table_replay.png"))

    played = stored.result(timeout=120)
    assert played["status"] == "finished" and played["end_reason"].startswith("The match is over:")
    assert all(hand["stored"] for hand in played["hands"])
    assert {by for hand in played["hands"] for by in hand["by"]} == {"player"}  # every move a tap: no clock

    # the same hand records, entered by the scorekeeper through the API into the twin competition's match
    for hand in played["hands"]:
        entry = {key: value for key, value in hand["record"].items() if key != "ruleset"}
        answer = keeper.post(f"{site.url}/api/matches/{by_keeper['match']}/hands/",
                             json={"number": hand["number"], "mode": "record", "entry": entry})
        assert answer.status_code == 201, answer.text

    def result(match: int) -> tuple:
        body = keeper.get(f"{site.url}/api/matches/{match}/").json()
        return tuple(body[name] for name in MATCH_FIELDS)

    def standings(competition: int) -> list:
        rows = keeper.get(f"{site.url}/api/competitions/{competition}/standings/").json()
        rows = rows["results"] if isinstance(rows, dict) else rows
        return [{key: value for key, value in row.items() if key not in ("competition", "id", "updated_at")}
                for row in rows]

    for _ in range(50):  # the standings task runs after each commit (in-process here)
        if standings(online["competition"]) and standings(by_keeper["competition"]) == \
                standings(online["competition"]):
            break
        time.sleep(0.2)
    assert result(match_id)[0] == "complete"
    assert result(match_id) == result(by_keeper["match"])
    mine, theirs = standings(online["competition"]), standings(by_keeper["competition"])
    assert len(mine) == len(theirs) == 2 and mine[0]["played"] == 1
    assert mine == theirs, [(row, key, one.get(key), two.get(key)) for row, (one, two) in
                            enumerate(zip(mine, theirs, strict=True)) for key in {*one, *two}
                            if one.get(key) != two.get(key)]

    organiser.goto(f"{site.url}/matches/{match_id}/")
    organiser.screenshot(path=str(shots / "fixture_sheet_after.png"), full_page=True)
    organiser.goto(f"{site.url}/clubs/{online['club']}/{online['slug']}/standings/")
    organiser.screenshot(path=str(shots / "fixture_standings_online.png"), full_page=True)
    organiser.goto(f"{site.url}/clubs/{by_keeper['club']}/{by_keeper['slug']}/standings/")
    organiser.screenshot(path=str(shots / "fixture_standings_keeper.png"), full_page=True)
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_the_organiser_revokes_and_renews_a_seat_link_on_a_phone(live_server, browser, shots):
    """The match's online page at 390 × 844: Revoke link hides the seat's link and refuses it; New link shows a new
    one, which opens the seat (the WSGI test server: the pages only, the socket is tested in tests/tables)."""
    from tables import fixtures
    from tests.factories import make_scene

    scene = make_scene("Links club", organiser="links-org", scorekeeper="links-keeper")
    match = scene["match"]
    scene["organiser"].set_password(PASSWORD)
    scene["organiser"].save()
    table = fixtures.open_fixture(match, scene["organiser"])
    errors: list[str] = []
    page = phone(browser, errors)
    page.goto(f"{live_server.url}/accounts/login/?next=/matches/{match.pk}/online/")
    page.fill("input[name=username]", "links-org")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").tap()
    page.wait_for_url(f"**/matches/{match.pk}/online/")
    old = page.input_value("#seat-link-2")
    assert "?seat=" in old
    page.screenshot(path=str(shots / "fixture_links_0.png"), full_page=True)
    # once (1 run in 4, under the full run's load) the revoke tap met the page's heading for 30 s, as if the page
    # were zoomed out: a page wider than the phone is zoomed to fit, so its width is checked first
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the links page is {width}px wide on a 390px phone"
    with page.expect_navigation():
        page.locator("#seat-2 button.revoke-link").tap()
    assert "Seat 2's private link is revoked" in page.inner_text(".messages")
    assert page.locator("#seat-link-2").count() == 0
    assert "Link revoked: it no longer opens the seat." in page.inner_text("#seat-2")
    page.locator("#seat-2").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "fixture_links_1_revoked.png"))
    box = page.locator("#seat-2 button.renew-link").bounding_box()
    assert box["height"] >= 44  # a thumb's target
    visitor = phone(browser, errors)
    assert visitor.goto(old).status == 404
    with page.expect_navigation():
        page.locator("#seat-2 button.renew-link").tap()
    new = page.input_value("#seat-link-2")
    assert new != old and "?seat=" in new
    page.screenshot(path=str(shots / "fixture_links_2_renewed.png"))
    assert visitor.goto(old).status == 404
    assert visitor.goto(new).status == 200
    assert visitor.get_attribute("#table", "data-seat") == "1"
    assert table.seats.get(index=1).seat_token in new
    assert errors == []
