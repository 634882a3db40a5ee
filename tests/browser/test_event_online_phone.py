"""A competition played online, on four phones at 390 × 844: nobody opens a table and nobody presses a button
between the rounds.

- **Two rounds by themselves.** Lions (Ann, Cat) and Tigers (Bob, Dan) play a double round robin set to play online,
  the next round published by itself. Round 1 is published (the scene's one press of a button): its table opens by
  itself. Each of the four, signed in on their own phone, follows the notification of the round (it leads to the
  match's page, whose note links the table), sits down by opening it, and the table starts once all four are there.
  They play the match (one game to 4) by taps, every move a tap of the page's own buttons and cards. Once it is over
  the settle pairs round 2 and publishes it, and its table opens by itself: each player finds it under Play → Your
  tables (reloading the page, as a phone does) and sits down again, and round 2's table starts with the four.
- **A no-show at the start time**, under each rule: side A comes (the forfeit rule) or three players come (the bot
  rule); the table's start time is moved into the past once they are seated (the time is in the database: the
  tables' ticker looks every 2 s), and the seats present see the match forfeited to their side, or a bot take the
  empty seat and the table start.

The site runs in a subprocess (daphne's ``runserver``: the sockets, the tables' ticker, the tasks in-process) on a
SQLite file of the test's own (``tests/browser/tables_site.py``); the scene is made and read by ``manage.py shell``.
"""

from __future__ import annotations

import json
import shutil
import time
from urllib.parse import urlsplit

import pytest

from tests.browser.tables_site import PASSWORD, PHONE, my_move, template_database, version_of
from tests.browser.tables_site import Site as TablesSite
from tests.waiting import wait_until

pytestmark = pytest.mark.browser

PEOPLE = {"ann": "Lions", "cat": "Lions", "bob": "Tigers", "dan": "Tigers"}

SCENE = f"""
import json
from draw.models import Round
from draw.publishing import publish_round
from draw.request import request_pairing
from league.models import Competition, Entry, Partnership
from tests.factories import make_club, make_organiser, make_player, make_user
club = make_club("Online Events Club")
make_organiser(club, make_user("olga", password={PASSWORD!r}))
people = {{}}
for name in ("ann", "bob", "cat", "dan"):  # with an address: a notification goes by e-mail (to files here)
    user = make_user(name, password={PASSWORD!r})
    user.email = f"{{name}}@example.com"
    user.save()
    people[name] = make_player(name.title(), club=club, user=user)
lions = Partnership.objects.create(player_one=people["ann"], player_two=people["cat"], club=club, name="Lions")
tigers = Partnership.objects.create(player_one=people["bob"], player_two=people["dan"], club=club, name="Tigers")
competition = Competition.objects.create(
    club=club, name="Friday Online", slug="friday-online", published=True, ruleset={{"target": {{TARGET}}}},
    system={{SYSTEM!r}}, play_online=True, online_grace_minutes=10, online_no_show={{RULE!r}},
    online_next_round="publish")
for seed, pair in enumerate((lions, tigers), start=1):
    Entry.objects.create(competition=competition, partnership=pair, seed=seed)
round_ = request_pairing(competition)
round_.refresh_from_db()
assert round_.pairing_state == Round.DONE, round_.pairing_message
publish_round(round_)
print(json.dumps({{"competition": competition.pk}}))
"""

ROUNDS = """
import json
from notify.models import Notification
from tables.models import Table
out = []
for table in Table.objects.filter(match__competition_id={competition}).select_related("match__round"):
    match = table.match
    out.append({{"round": match.round.number, "table": table.pk, "status": table.status,
                "created_by": table.created_by_id, "match": match.pk, "match_status": match.status,
                "outcome": match.outcome, "winner": match.winner,
                "bot_played": match.bot_played, "seats": [s.user.username for s in table.seats.order_by("index")],
                "end_reason": table.end_reason, "by": sorted(set(table.actions.values_list("by", flat=True)))}})
links = {{n.user.username: n.url for n in Notification.objects.filter(title__startswith="Round 1")
         if n.body.endswith("Played online: your table is open from the match's page")}}
print(json.dumps({{"tables": sorted(out, key=lambda t: t["round"]), "links": links}}))
"""

DUE_NOW = """
from datetime import timedelta
from django.utils import timezone
from tables.models import Table
assert Table.objects.filter(pk={table}).update(starts_at=timezone.now() - timedelta(seconds=1)) == 1
"""

SEATED = """
from tables.models import Seat
print(sorted(Seat.objects.filter(table_id={table}, connected__gt=0).values_list("index", flat=True)))
"""


class Site(TablesSite):
    def shell_json(self, code: str):
        return json.loads(self.shell(code).strip().splitlines()[-1])

    def made(self, *, system: str = "double_round_robin", rule: str = "forfeit", target: int = 4) -> int:
        """The scene's competition (its id), round 1 published. Games to 4: a first deal's kick makes 3 at most
        (a Jack), so no game is over before its first tap."""
        scene = SCENE.replace("{TARGET}", str(target)).replace("{SYSTEM!r}", repr(system)).replace(
            "{RULE!r}", repr(rule))
        return self.shell_json(scene)["competition"]

    def rounds(self, competition: int) -> dict:
        return self.shell_json(ROUNDS.format(competition=competition))


@pytest.fixture
def site(tmp_path):
    served = Site(tmp_path)
    served.env["MAIL_DIR"] = str(tmp_path / "mail")  # the mails the notifications send, as files
    shutil.copyfile(template_database(), served.database)  # migrated once a session
    yield served
    served.kill()


def phone(browser, errors: list[str]):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def signed_in(browser, site: Site, username: str, errors: list[str]):
    page = phone(browser, errors)
    page.goto(f"{site.url}/accounts/login/?next=/tables/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").tap()
    page.wait_for_url("**/tables/")
    return page


def fits_the_phone(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} is {width}px wide on a 390px phone"


def live(page) -> None:
    page.wait_for_selector("#conn[data-state=live]", timeout=30_000)


def table_status(page) -> str | None:
    """The table's status as the page shows it; ``None`` while the page reloads itself (table.js does when the
    status changes)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return page.evaluate("document.getElementById('table') && document.getElementById('table').dataset.status")
    except PlaywrightError:
        page.wait_for_load_state()
        return None


def tap(page, move: tuple[str, str]) -> None:
    """Tap ``move`` and wait until the server took it (the page's version went up), or the page reloaded itself
    (the match's last move finishes the table). A tap that came to nothing within the wait (it met the page
    drawing itself again) is left: the loop finds the move offered again."""
    from playwright.sync_api import Error as PlaywrightError

    before = version_of(page)
    kind, what = move
    try:
        if kind == "button":
            page.locator("#moves button.move", has_text=what).first.tap(timeout=10_000)
        else:
            page.locator(f'#hand .hand-card[data-card="{what}"]').tap(timeout=10_000)
        page.wait_for_function("!document.getElementById('table') || "
                               f"Number(document.getElementById('table').dataset.version) > {before}",
                               timeout=15_000)
    except PlaywrightError as error:
        if "Timeout" in str(error):
            return  # the tap met the page drawing itself again: the move is offered again, and tapped again
        if "context was destroyed" not in str(error) and "navigat" not in str(error):
            raise
        page.wait_for_load_state()


def play_to_the_end(players: list, shots, name: str) -> int:
    """Every move of the match by a tap of the page whose turn it is, until the table is finished; the taps."""
    taps, shot = 0, False
    deadline = time.monotonic() + 420
    while table_status(players[0]) != "finished":
        assert time.monotonic() < deadline, f"the match was not over after {taps} taps"
        found = wait_until(lambda: next(((page, move) for page in players if (move := my_move(page))), None)
                           or table_status(players[0]) == "finished", timeout=60, what="a move to tap")
        if found is True:
            break
        page, move = found
        tap(page, move)
        taps += 1
        if taps == 6 and not shot:
            page.screenshot(path=str(shots / f"{name}_playing.png"))
            shot = True
    return taps


def open_from_notification(page, site: Site, link: str, shot=None) -> int:
    """The round's notification leads to the match's page; its note links the table: the table's id once open."""
    page.goto(site.url + urlsplit(link).path)
    note = page.locator("#online-note a").first
    note.wait_for(timeout=15_000)
    fits_the_phone(page)
    if shot is not None:
        page.screenshot(path=str(shot))
    with page.expect_navigation():
        note.tap()
    return int(urlsplit(page.url).path.rstrip("/").split("/")[-1])


def find_under_your_tables(page, site: Site, played: int, shot=None) -> int:
    """Play → Your tables, reloaded as a phone would until a table other than ``played`` is listed; tapped."""
    def listed() -> int | None:
        page.goto(f"{site.url}/tables/")
        ids = page.locator("#my-tables a").evaluate_all(
            "links => links.map(a => Number(a.getAttribute('href').split('/')[2]))")
        return next((pk for pk in ids if pk != played), None)

    table = wait_until(listed, timeout=90, what="round 2's table under Your tables", interval=0.5)
    fits_the_phone(page)
    if shot is not None:
        page.screenshot(path=str(shot))
    with page.expect_navigation():
        page.locator(f'#my-tables a[href="/tables/{table}/"]').tap()
    return table


@pytest.mark.slow
def test_four_players_play_round_one_and_find_round_two_opened_by_itself(browser, site, shots):
    competition = site.made()
    site.start()
    errors: list[str] = []
    scene = site.rounds(competition)
    (first,) = scene["tables"]
    assert first["round"] == 1 and first["status"] == "lobby" and first["created_by"] is None  # opened by itself
    assert set(scene["links"]) == set(PEOPLE)  # each player was told, with a link to the match's page

    players = {name: signed_in(browser, site, name, errors) for name in first["seats"]}
    pages = list(players.values())
    for name, page in players.items():
        first_player = name == first["seats"][0]
        shot = shots / "event_round1_match_page.png" if first_player else None
        assert open_from_notification(page, site, scene["links"][name], shot) == first["table"]
        if first_player:
            page.screenshot(path=str(shots / "event_round1_waiting.png"))
    for page in pages:
        live(page)
    wait_until(lambda: all(table_status(page) == "playing" for page in pages), timeout=30,
               what="the table started with its four players")  # nobody tapped Start
    for page in pages:
        page.wait_for_selector("#hand .hand-card", timeout=15_000)
        fits_the_phone(page)

    taps = play_to_the_end(pages, shots, "event_round1")
    assert taps >= 1  # every move a tap (a beg and a run of the pack may decide a game without a card played)
    for page in pages:
        page.wait_for_selector(".messages .message", timeout=15_000)
        assert "The match is over:" in page.inner_text(".messages")
    pages[0].screenshot(path=str(shots / "event_round1_over.png"))

    # round 2 is paired, published and opened by itself: each player finds it under Play → Your tables
    second = wait_until(lambda: next((t for t in site.rounds(competition)["tables"] if t["round"] == 2), None),
                        timeout=60, what="round 2's table", interval=0.5)
    assert second["created_by"] is None and sorted(second["seats"]) == sorted(PEOPLE)
    for name, page in players.items():
        shot = shots / "event_round2_your_tables.png" if name == first["seats"][0] else None
        assert find_under_your_tables(page, site, first["table"], shot) == second["table"]
    for page in pages:
        live(page)
    wait_until(lambda: all(table_status(page) == "playing" for page in pages), timeout=30,
               what="round 2's table started with its four players")
    for page in pages:
        page.wait_for_selector("#hand .hand-card", timeout=15_000)
        fits_the_phone(page)
    pages[1].screenshot(path=str(shots / "event_round2_playing.png"))
    played = site.rounds(competition)["tables"]
    assert [(t["round"], t["status"], t["match_status"]) for t in played] == [
        (1, "finished", "complete"), (2, "playing", "scheduled")]  # no hand of round 2 is stored yet
    assert played[0]["by"] == ["player"]  # round 1: every move a player's tap, none by the clock
    assert errors == []


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["forfeit", "bot"])
def test_a_no_show_is_settled_at_the_start_time_for_the_seats_present(browser, site, shots, rule):
    competition = site.made(system="double_round_robin", rule=rule)
    site.start()
    errors: list[str] = []
    (table,) = site.rounds(competition)["tables"]
    seats = table["seats"]  # side A at seats 1 and 3, side B at 2 and 4
    present = [seats[0], seats[2]] if rule == "forfeit" else seats[:3]
    pages = []
    for name in present:
        page = signed_in(browser, site, name, errors)
        page.locator(f'#my-tables a[href="/tables/{table["table"]}/"]').tap()
        live(page)
        pages.append(page)
    here = [seats.index(name) for name in present]
    wait_until(lambda: json.loads(site.shell(SEATED.format(table=table["table"])).strip().splitlines()[-1]) == here,
               timeout=30, what="the present players counted in")
    assert all(table_status(page) == "lobby" for page in pages)  # a seat is empty: it waits for the start time
    pages[0].screenshot(path=str(shots / f"event_no_show_{rule}_waiting.png"))

    site.shell(DUE_NOW.format(table=table["table"]))  # the start time has come
    if rule == "forfeit":
        absent = PEOPLE[seats[1]]
        came = PEOPLE[seats[0]]
        for page in pages:
            page.wait_for_selector(".messages .message", timeout=30_000)
            assert f"{absent} did not come to the table by its start time (seat 2, 4 empty): {came} win by " \
                   "forfeit." in page.inner_text(".messages")
            assert table_status(page) == "finished"
            fits_the_phone(page)
        settled = site.rounds(competition)["tables"][0]
        assert settled["outcome"] == "forfeit_b" and settled["winner"] == "a"
    else:
        from playwright.sync_api import expect

        for page in pages:  # the page draws itself again as the table starts: the seats panel says who covers
            expect(page.locator(".seat-row").nth(3)).to_contain_text("a bot covers", timeout=30_000)
            page.wait_for_selector("#hand .hand-card", timeout=30_000)
            assert table_status(page) == "playing"
            fits_the_phone(page)
        settled = site.rounds(competition)["tables"][0]
        assert settled["bot_played"] and settled["status"] == "playing"
    pages[0].screenshot(path=str(shots / f"event_no_show_{rule}_settled.png"), full_page=True)
    assert errors == []
