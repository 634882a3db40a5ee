"""A competition played online with a match clock, on four phones: the clock runs out.

The organiser's Swiss of two pairs is played online with a chess clock (each player's time for the match, an
increment per move) and the forfeit rule. Publishing round 1 opens the match's table; its four players sign in on
four phones at 390×844 and open it: the table starts by itself when all four are there. Each seat's clock is shown
on the felt beside its name, the seat to move's counting down. The player to move does nothing: their clock runs out
on the server (its ticker, no page prompting it), their side forfeits the match, and every phone says so.

The bank is set short in the site's database before the start (as the other table tests set a bot's pace), so the
test waits seconds, not minutes; the site runs in a subprocess (daphne's ``runserver``) on a SQLite file of its own.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tests.browser.tables_site import PASSWORD, PHONE, sign_in, template_database
from tests.browser.tables_site import Site as TablesSite

pytestmark = pytest.mark.browser

BANK_SECONDS = 12
PLAYERS = ("ann", "al", "tom", "ted")  # seats 1 to 4: Lions are seats 1 and 3, Tigers 2 and 4

SCENE = f"""
import json
from django.db import transaction
from draw.publishing import publish_round
from draw.request import request_pairing
from league.models import Competition, Entry, Partnership
from tables.models import Seat, Table
from tests.factories import make_club, make_organiser, make_player, make_user
club = make_club("Clock Club")
make_organiser(club, make_user("olga", password={PASSWORD!r}))
people = {{name: make_player(name.title(), club=club, user=make_user(name, password={PASSWORD!r}))
          for name in {PLAYERS!r}}}
competition = Competition.objects.create(
    club=club, name="Blitz Night", slug="blitz-night", published=True, system=Competition.SWISS, planned_rounds=1,
    play_online=True, online_grace_minutes=30, online_no_show="forfeit", online_clock_minutes=1,
    online_increment_seconds=2)
lions = Partnership.objects.create(player_one=people["ann"], player_two=people["tom"], club=club, name="Lions")
tigers = Partnership.objects.create(player_one=people["al"], player_two=people["ted"], club=club, name="Tigers")
for seed, pair in enumerate((lions, tigers), start=1):
    Entry.objects.create(competition=competition, partnership=pair, seed=seed)
round_ = request_pairing(competition)
round_.refresh_from_db()
publish_round(round_)
table = Table.objects.get(match__round=round_)
Table.objects.filter(pk=table.pk).update(bank_seconds={BANK_SECONDS})
print(json.dumps({{"table": table.pk, "match": table.match_id, "clock": table.match_clock,
                   "users": list(Seat.objects.filter(table=table).order_by("index")
                                 .values_list("user__username", flat=True))}}))
"""

MATCH = """
import json
from games.models import Match
from tables.models import Table
table = Table.objects.get(pk={table})
match = Match.objects.get(pk=table.match_id)
print(json.dumps({{"status": table.status, "end_reason": table.end_reason, "outcome": match.outcome,
                   "winner": match.winner, "by": list(table.actions.values_list("by", flat=True))}}))
"""


class Site(TablesSite):
    def shell_json(self, code: str):
        return json.loads(self.shell(code).strip().splitlines()[-1])


@pytest.fixture
def site(tmp_path):
    served = Site(tmp_path)
    shutil.copyfile(template_database(), served.database)  # migrated once a session
    served.ids = served.shell_json(SCENE)
    served.start()
    yield served
    served.kill()


@pytest.mark.slow
def test_a_players_clock_runs_out_on_the_server_and_their_side_forfeits(browser, site, shots):
    ids = site.ids
    assert ids["clock"], "the table opened with the competition's match clock"
    table_path = f"/tables/{ids['table']}/"
    errors: list[str] = []
    pages = {}
    for username in ids["users"]:  # seat order: the table starts when the last of them is there
        page = browser.new_context(**PHONE).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        sign_in(page, site, username, table_path)
        pages[username] = page
    for page in pages.values():
        page.wait_for_selector("#table[data-status=playing]", timeout=20_000)

    # every human seat's clock on the felt, the seat to move's counting down from its bank
    watcher = pages[ids["users"][0]]
    watcher.wait_for_function("document.querySelectorAll('#felt .spot-clock').length === 4")
    clocks = watcher.locator("#felt .spot-clock").all_inner_texts()
    assert all(text.count(":") == 1 for text in clocks), clocks
    first = watcher.evaluate("Number(document.querySelector('#felt .spot.to-move .spot-clock')"
                             ".textContent.split(':')[1])")
    # measured in the frame that shows the countdown: the felt is drawn again at every state
    spans = watcher.wait_for_function(f"""() => {{
        const running = document.querySelector('#felt .spot.to-move .spot-clock');
        if (!running || Number(running.textContent.split(':')[1]) >= {first}) return false;
        return [...document.querySelectorAll('#felt .spot-clock')].map(clock => {{
            const box = clock.getBoundingClientRect();
            return [box.left, box.right, box.width];
        }});
    }}""", timeout=5_000).json_value()
    watcher.screenshot(path=str(shots / "match_clock_running.png"))
    assert all(left >= 0 and right <= PHONE["viewport"]["width"] and width > 0
               for left, right, width in spans), spans  # every clock on the phone's screen

    # nobody moves: the server's clock runs out, the side forfeits, every phone says so
    for page in pages.values():
        page.wait_for_function("document.getElementById('turn').textContent.includes('ran out of time')",
                               timeout=(BANK_SECONDS + 20) * 1000)
    watcher.screenshot(path=str(shots / "match_clock_ran_out.png"))
    stored = site.shell_json(MATCH.format(table=ids["table"]))
    assert stored["status"] == "finished" and stored["outcome"] in ("forfeit_a", "forfeit_b")
    assert "ran out of time" in stored["end_reason"] and "win by forfeit" in stored["end_reason"]
    assert "clock" not in stored["by"]  # the match was settled, no bot moved for the player
    assert not errors, errors
