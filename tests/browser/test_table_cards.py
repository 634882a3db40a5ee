"""A round's table cards printed from Chromium: A6 cards, four to an A4 page, whose two QR codes decode to the
match's private entry link and its public scoresheet — and the entry link opens the hands' entry.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import io

import pytest
import zxingcpp
from PIL import Image

from draw.models import Round
from draw.publishing import publish_round
from draw.request import request_pairing
from games.models import Match
from league import venues
from league.models import Competition, Entry
from tests.browser.test_offline_entry import log_in
from tests.factories import make_club, make_partnership, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def decoded(locator) -> str:
    (found,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(locator.screenshot())))
    return found.text


def test_the_printed_cards_qr_codes_open_the_entry_and_the_scoresheet(live_server, browser, shots):
    olive = make_user("olive")
    club = make_club("Chaguanas Aces", organisers=[olive])
    venues.set_table_count(club=club, count=12)
    competition = Competition.objects.create(club=club, name="Cup", slug="cup", published=True,
                                             system=Competition.SWISS, planned_rounds=3)
    for seed in range(1, 11):
        Entry.objects.create(competition=competition, partnership=make_partnership(club=club, name=f"Pair {seed}"),
                             seed=seed)
    round_ = request_pairing(competition, 1)  # tasks run in-process: paired once this commits
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE
    publish_round(round_, olive)

    context, page = log_in(browser, live_server, "olive", f"{live_server.url}/clubs/{club.slug}/cup/rounds/1/cards/")
    assert page.locator(".table-card").count() == 5
    page.screenshot(path=str(shots / "table-cards-phone.png"), full_page=True)
    page.emulate_media(media="print")
    match = Match.objects.get(round=round_, table="1")
    card = page.locator(f"#card-{match.pk}")
    assert decoded(card.locator(".entry-qr svg")) == f"{live_server.url}/enter/{match.entry_token}/"
    assert decoded(card.locator(".sheet-qr svg")) == f"{live_server.url}/matches/{match.pk}/"
    pdf = page.pdf(format="A4", print_background=True)
    (shots / "table-cards.pdf").write_bytes(pdf)
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page>") + pdf.count(b"/Type /Page/") == 2  # 5 cards

    scorekeeper = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    scorekeeper.goto(decoded(card.locator(".entry-qr svg")))
    assert match.side_a_name in scorekeeper.content()
    assert scorekeeper.locator("form, [data-entry]").count() > 0
    context.close()
