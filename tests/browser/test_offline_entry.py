"""Entry with no signal: a scorekeeper at the back of a bar enters hands on the phone with the network
off; the page keeps them (IndexedDB, static/js/offline_entry.js), survives a reload with no signal (the service
worker, games/templates/games/entry_sw.js), and sends them in order, once each, when the signal returns. A hand another
scorekeeper entered meanwhile is a conflict shown with both versions, resolved by "Keep theirs" or by "Use mine"
with a reason (a correction of their hand).

Drives Debian's Chromium through Playwright at 390×844 (fixtures in ``tests/browser/conftest.py``); the pages are
served by pytest-django's ``live_server`` on http://localhost, where a service worker may run.
"""

from __future__ import annotations

import time

import pytest

from games.models import Hand, HandVersion, IdempotentRequest, Match
from games.results import record_forfeit
from league.models import Competition
from standings.models import StandingRow
from tests.factories import make_club, make_competition, make_match, make_partnership, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
PASSWORD = "pw-for-tests-1"
RETRY_MS = 2_000  # offline_entry.js: a failed send is sent again 2 s on (doubling while it keeps failing)


def tap_toggle(page, field: str, value: str) -> None:
    page.locator(f"form.entry label.toggle:has(input[name='{field}'][value='{value}'])").tap()


def chalk_sweep(page, side: str, number: int, kick: tuple[str, str] = ("5", "C")) -> None:
    """Kick by the picker, stand, and ``side`` takes High, Low, Jack and Game (4 chalks); then Save."""
    page.locator(f".picker [data-rank='{kick[0]}']").tap()
    page.locator(f".picker [data-suit='{kick[1]}']").tap()
    tap_toggle(page, "beg", "stand")
    for field in ("high", "low", "jack", "game"):
        tap_toggle(page, field, side)
    page.get_by_role("button", name=f"Save hand {number}").tap()


def waiting(page) -> list[str]:
    return page.locator("[data-queue-list] li").all_inner_texts()


def eventually(check, timeout: float = 20.0):
    """Poll ``check`` (a database read) until it is truthy: the phone sends on its own time."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(0.2)


def log_in(browser, live_server, username: str, url: str):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(url)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()
    assert page.url == url
    return context, page


def retry_timer_set(page, posts: list[str], failed: int, timeout: float = 20.0) -> None:
    """Wait until the ``failed``-th send has failed and the page has set its retry timer (offline_entry.js: the
    queue is drawn again, with no hand "sending", once the timer is set)."""
    deadline = time.monotonic() + timeout
    while len(posts) < failed or page.locator("[data-queue-list] li.q-sending").count():
        assert time.monotonic() < deadline, f"send {failed} did not fail within {timeout:g} s: {posts}"
        page.wait_for_timeout(20)  # Playwright runs the route's handler meanwhile


def ready_offline(page) -> None:
    """Wait until the service worker has kept the page (and controls it), so that a reload works offline."""
    page.wait_for_function("document.documentElement.getAttribute('data-offline-ready') === 'yes'")
    page.wait_for_function("caches.match(location.pathname).then(r => !!r)")


def scene(target: int = 14) -> dict:
    club = make_club("Belmont Sports Club")
    competition = make_competition(club=club, ruleset={"target": target} if target != 14 else None)
    sam, lee = make_user("sam", password=PASSWORD), make_user("lee", password=PASSWORD)
    match = make_match(competition, side_a=make_partnership(club=club, name="Lions"),
                       side_b=make_partnership(club=club, name="Tigers"), scorekeepers=[sam, lee])
    return {"competition": competition, "match": match, "sam": sam, "lee": lee}


def hands_of(match) -> list[tuple[int, int, int, str]]:
    return list(Hand.objects.filter(game__match=match, deleted=False).order_by("game__number", "number")
                .values_list("number", "score_a_after", "score_b_after", "entered_by"))


def enter_three_offline(page, context, shots, prefix: str) -> None:
    """Signal lost: three hands chalked with the picker and the toggles, each listed as waiting to send, the form
    ready for the next number, and the score bar still at the score the server confirmed."""
    context.set_offline(True)
    chalk_sweep(page, "a", 1)
    page.wait_for_function("document.querySelectorAll('[data-queue-list] li').length === 1")
    assert page.get_by_role("button", name="Save hand 2").is_visible()
    assert page.locator("input[name=kick]").input_value() == ""
    chalk_sweep(page, "b", 2, kick=("9", "H"))
    page.wait_for_function("document.querySelectorAll('[data-queue-list] li').length === 2")
    chalk_sweep(page, "a", 3, kick=("K", "S"))
    page.wait_for_function("document.querySelectorAll('[data-queue-list] li').length === 3")
    rows = waiting(page)
    assert rows[0].startswith("Hand 1") and "kick 5♣ · stand · High A · Low A · Jack A · Game A" in rows[0]
    assert rows[1].startswith("Hand 2") and "kick 9♥" in rows[1] and "Game B" in rows[1]
    assert all("waiting" in row.lower() for row in rows), rows
    status = page.locator("[data-queue-status]").inner_text()
    assert "3 hands waiting to send — scored when sent" in status
    assert (page.locator("[data-score=a]").inner_text(), page.locator("[data-score=b]").inner_text()) == ("0", "0")
    page.screenshot(path=str(shots / f"{prefix}-offline-three-waiting.png"))
    page.locator("#queue").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{prefix}-offline-list.png"))


def reload_offline(page, shots, prefix: str) -> None:
    """Still no signal: the reload comes from the service worker, and the three hands are still on the phone."""
    page.reload()
    page.wait_for_function("document.querySelectorAll('[data-queue-list] li').length === 3")
    assert all(row.startswith(f"Hand {n}") for n, row in zip((1, 2, 3), waiting(page), strict=True))
    assert page.get_by_role("button", name="Save hand 4").is_visible()
    page.screenshot(path=str(shots / f"{prefix}-offline-reloaded.png"))


def test_three_hands_entered_offline_are_stored_once_in_order_when_the_signal_returns(live_server, browser, shots):
    """Three hands with the network off, a reload while still offline (served by the service worker,
    the hands still listed), then online: the three hands are stored once each, in order, with the scores the
    server gave them, and the standings row of the competition follows (the match is won by the third hand under
    a target of 8)."""
    s = scene(target=8)
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/enter/"
    context, page = log_in(browser, live_server, "sam", url)
    context.clock.install()  # as the real clock, from the next load on; moved on past the retry timer below
    ready_offline(page)
    # an unknown card typed offline is named at once, from the card data the server shipped (R1)
    context.set_offline(True)
    page.fill("input[name=kick]", "1X")
    tap_toggle(page, "beg", "stand")
    page.get_by_role("button", name="Save hand 1").tap()
    assert "is not a card" in page.locator("#f-kick .field-errors").inner_text()
    page.screenshot(path=str(shots / "offline-bad-card.png"))
    assert not waiting(page)
    page.fill("input[name=kick]", "")
    context.set_offline(False)
    page.reload()
    ready_offline(page)

    enter_three_offline(page, context, shots, "a")
    assert not Hand.objects.filter(game__match=match).exists()
    reload_offline(page, shots, "a")

    # the first answer is lost on the way back (the server stored hand 1, the phone saw no answer): the phone sends
    # hand 1 again with the same key, and gets the stored answer instead of a second hand; then hand 2 meets a
    # database outage (the server's 503 with Retry-After, nothing stored): the phone keeps it and sends it again
    posts: list[str] = []

    def lose_first_answer_then_meet_an_outage(route):
        if route.request.method != "POST":
            return route.continue_()
        posts.append(route.request.headers.get("idempotency-key", ""))
        if len(posts) == 1:
            route.fetch()
            return route.abort("internetdisconnected")
        if len(posts) == 3:
            return route.fulfill(status=503, headers={"Retry-After": "10"}, content_type="text/html",
                                 body="<h1>The site cannot reach its database just now: try again in a moment.</h1>")
        return route.continue_()

    page.route(f"**/matches/{match.pk}/enter/", lose_first_answer_then_meet_an_outage)
    with page.expect_navigation(timeout=30_000):  # the queue drains, then the page shows the server's state
        context.set_offline(False)
        for failed in (1, 3):  # a send that failed is sent again when the page's retry timer fires (2 s on)
            retry_timer_set(page, posts, failed)
            page.clock.fast_forward(RETRY_MS)  # the page's clock moved on, not waited out
    assert len(posts) == 5 and posts[0] == posts[1] and posts[2] == posts[3] and len(set(posts)) == 3, posts
    assert eventually(lambda: len(hands_of(match)) == 3)
    assert hands_of(match) == [(1, 4, 0, "sam"), (2, 4, 4, "sam"), (3, 8, 4, "sam")]
    assert Hand.objects.filter(game__match=match).count() == 3  # one row each, whatever was resent
    assert IdempotentRequest.objects.filter(match=match, endpoint="entry", status=201).count() == 3
    page.unroute(f"**/matches/{match.pk}/enter/")
    page.wait_for_load_state()
    page.wait_for_function("!document.querySelector('[data-queue-list] li')")
    assert "Match over" in page.content()
    page.screenshot(path=str(shots / "a-online-sent.png"), full_page=True)

    row = eventually(lambda: StandingRow.objects.filter(competition=s["competition"], partnership=match.side_a,
                                                        played=1).first())
    assert row is not None and (row.rank, row.played, row.won) == (1, 1, 1)
    context.close()


@pytest.mark.parametrize("choice", ["keep_theirs", "use_mine"])
def test_a_hand_entered_meanwhile_by_another_scorekeeper_is_a_conflict_to_resolve(live_server, browser, shots,
                                                                                 choice):
    """While sam's phone has no signal, lee (online, another phone) enters hand 1. When sam's signal
    returns, hand 1 is a conflict card with both versions side by side and the queue waits; "Keep theirs" drops
    sam's hand 1, "Use mine" (a reason required) corrects lee's hand with sam's version — a new version with the
    reason — and then sam's hands 2 and 3 are stored after it."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/enter/"
    context, page = log_in(browser, live_server, "sam", url)
    ready_offline(page)
    enter_three_offline(page, context, shots, f"b-{choice}")
    reload_offline(page, shots, f"b-{choice}")

    other, lee = log_in(browser, live_server, "lee", url)
    with lee.expect_navigation():
        chalk_sweep(lee, "b", 1, kick=("2", "D"))
    assert hands_of(match) == [(1, 0, 4, "lee")]
    other.close()

    context.set_offline(False)
    card = page.locator("[data-conflict='1']")
    card.wait_for()
    assert "Stored meanwhile: hand 1" in card.inner_text() and "already entered" in card.inner_text()
    theirs, mine = card.locator(".qversion").all_inner_texts()
    assert "Theirs" in theirs.title() and "kick 2♦" in theirs and "Game B" in theirs and "by lee" in theirs
    assert "Yours" in mine.title() and "kick 5♣" in mine and "Game A" in mine
    assert "conflict" in waiting(page)[0].lower() and len(waiting(page)) == 3
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"b-{choice}-conflict.png"))
    assert hands_of(match) == [(1, 0, 4, "lee")]  # the queue waits for the scorekeeper's choice

    if choice == "keep_theirs":
        with page.expect_navigation(timeout=30_000):
            card.get_by_role("button", name="Keep theirs").tap()
        assert eventually(lambda: len(hands_of(match)) == 3)
        assert hands_of(match) == [(1, 0, 4, "lee"), (2, 0, 8, "sam"), (3, 4, 8, "sam")]
    else:
        card.get_by_role("button", name="Use mine (correct theirs)").tap()
        card.get_by_role("button", name="Correct hand 1").tap()
        assert "say why the hand is corrected" in card.locator(".field-errors").inner_text()
        page.screenshot(path=str(shots / f"b-{choice}-reason-needed.png"))
        card.locator("input[name=reason]").fill("lee chalked the other side")
        with page.expect_navigation(timeout=30_000):
            card.get_by_role("button", name="Correct hand 1").tap()
        assert eventually(lambda: len(hands_of(match)) == 3)
        assert hands_of(match) == [(1, 4, 0, "sam"), (2, 4, 4, "sam"), (3, 8, 4, "sam")]
        first = Hand.objects.get(game__match=match, number=1)
        assert first.version == 2
        assert HandVersion.objects.get(hand=first, version=2).reason == "lee chalked the other side"
        assert HandVersion.objects.get(hand=first, version=1).author_label == "lee"
    assert Hand.objects.filter(game__match=match).count() == 3
    page.wait_for_load_state()
    page.screenshot(path=str(shots / f"b-{choice}-resolved.png"), full_page=True)
    context.close()


def test_a_hand_refused_on_arrival_stays_on_the_phone_until_edited(live_server, browser, shots):
    """Nothing lost silently: hand 1 typed offline with Low but no High is refused by the server when
    the signal returns; it stays on the phone with the reason and the queue waits (hand 2 behind it).
    "Edit it" loads it back into the form; saved again (with High), it is sent with a new key, then hand 2."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/enter/"
    context, page = log_in(browser, live_server, "sam", url)
    ready_offline(page)
    context.set_offline(True)
    page.locator(".picker [data-rank='5']").tap()
    page.locator(".picker [data-suit='C']").tap()
    tap_toggle(page, "beg", "stand")
    for field in ("low", "jack", "game"):
        tap_toggle(page, field, "a")
    page.get_by_role("button", name="Save hand 1").tap()
    page.wait_for_function("document.querySelectorAll('[data-queue-list] li').length === 1")
    chalk_sweep(page, "b", 2, kick=("9", "H"))
    page.wait_for_function("document.querySelectorAll('[data-queue-list] li').length === 2")

    context.set_offline(False)
    card = page.locator("[data-refused='1']")
    card.wait_for()
    assert "High: missing: choose who had High" in card.inner_text() and "Low A" in card.inner_text()
    assert "needs you" in page.locator("[data-queue-status]").inner_text()
    page.screenshot(path=str(shots / "refused-card.png"))
    page.reload()  # still there after a reload: it is on the phone, not in the page
    card.wait_for()
    assert not Hand.objects.filter(game__match=match).exists()

    card.get_by_role("button", name="Edit it").tap()
    assert page.locator("input[name=kick]").input_value() == "5C"
    tap_toggle(page, "high", "a")
    page.screenshot(path=str(shots / "refused-editing.png"))
    with page.expect_navigation(timeout=30_000):
        page.get_by_role("button", name="Save hand 1 (edited)").tap()
    assert eventually(lambda: len(hands_of(match)) == 2)
    assert hands_of(match) == [(1, 4, 0, "sam"), (2, 4, 4, "sam")]
    context.close()


def test_a_hand_sent_after_the_organiser_ended_the_match_stays_with_the_reason(live_server, browser, shots):
    """The organiser records a forfeit while the phone is offline; the hand sent later is refused with
    the server's reason, stays on the phone through a reload (the page now says the match is over), and goes only
    when the scorekeeper discards it (after a confirm)."""
    s = scene()
    match = s["match"]
    url = f"{live_server.url}/matches/{match.pk}/enter/"
    context, page = log_in(browser, live_server, "sam", url)
    confirms: list[str] = []
    page.on("dialog", lambda dialog: confirms.append(dialog.message))
    ready_offline(page)
    context.set_offline(True)
    chalk_sweep(page, "a", 1)
    page.wait_for_function("document.querySelectorAll('[data-queue-list] li').length === 1")
    record_forfeit(match, outcome=Match.FORFEIT_A)

    context.set_offline(False)
    card = page.locator("[data-refused='1']")
    card.wait_for()
    page.screenshot(path=str(shots / "ended-refused.png"))
    page.reload()
    card.wait_for()
    assert card.get_by_role("button", name="Edit it").count() == 0  # no form on a match that is over
    card.get_by_role("button", name="Discard").tap()
    page.wait_for_function("!document.querySelector('[data-queue-list] li')")
    assert confirms and "Discard hand 1?" in confirms[0]
    assert page.locator("[data-queue-status]").is_hidden()
    assert not Hand.objects.filter(game__match=match).exists()
    context.close()


def test_hands_typed_after_a_game_winning_hand_go_to_the_next_game(live_server, browser, shots):
    """The page scores nothing, so offline it cannot know that hand 2 wins game 1 (target 8, best of 3): hand 3 is
    typed as hand 3. On arrival the server says where the next hand goes (game 2, hand 1), and the hands still
    waiting follow it, in order — the server decides, the page only follows its answer."""
    club = make_club("Belmont Sports Club")
    competition = make_competition(club=club, ruleset={"target": 8}, match_format=Competition.BEST_OF,
                                   match_games=3)
    sam = make_user("sam", password=PASSWORD)
    match = make_match(competition, side_a=make_partnership(club=club, name="Lions"),
                       side_b=make_partnership(club=club, name="Tigers"), scorekeepers=[sam])
    url = f"{live_server.url}/matches/{match.pk}/enter/"
    context, page = log_in(browser, live_server, "sam", url)
    ready_offline(page)
    context.set_offline(True)
    for number, side in ((1, "a"), (2, "a"), (3, "b")):
        chalk_sweep(page, side, number)
        page.wait_for_function(f"document.querySelectorAll('[data-queue-list] li').length === {number}")
    with page.expect_navigation(timeout=30_000):
        context.set_offline(False)
    assert eventually(lambda: Hand.objects.filter(game__match=match).count() == 3)
    stored = list(Hand.objects.filter(game__match=match).order_by("game__number", "number")
                  .values_list("game__number", "number", "score_a_after", "score_b_after"))
    assert stored == [(1, 1, 4, 0), (1, 2, 8, 0), (2, 1, 0, 4)]
    page.wait_for_load_state()
    page.screenshot(path=str(shots / "next-game.png"))
    context.close()
