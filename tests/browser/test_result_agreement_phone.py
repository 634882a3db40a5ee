"""Both sides agree the score, on phones (390×844): in a competition that requires confirmation, Lions' player
enters their match's totals and Tigers' player confirms them from My matches; in the other match Eagles' player
enters, Sharks' player disputes — first with no reason (told next to the field), then with one and their own
version — and the organiser, seeing both versions on the disputes page, decides. Every step is kept.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import pytest

from games.agreement_models import Agreement, AgreementAction, AgreementState, AgreementStep
from games.models import Match
from league.models import Competition, Partnership
from tests.browser.test_entering_phone import messages, tap_and_land, width_of
from tests.browser.test_offline_entry import log_in
from tests.factories import make_club, make_competition, make_match, make_organiser, make_player, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pair(club, name: str) -> Partnership:
    """A pair whose first player has an account named after the pair, in lower case."""
    one = make_player(f"{name} One", club=club, user=make_user(name.lower()))
    return Partnership.objects.create(player_one=one, player_two=make_player(f"{name} Two", club=club), club=club,
                                      name=name)


def test_one_result_confirmed_by_the_other_side_and_one_disputed_and_decided(live_server, browser, shots):
    club = make_club("Arima Lodge")
    make_organiser(club, make_user("olive"))
    competition = make_competition(club=club)
    Competition.objects.filter(pk=competition.pk).update(confirm_results=True, result_level=Competition.MATCH)
    confirmed = make_match(competition, side_a=pair(club, "Lions"), side_b=pair(club, "Tigers"))
    disputed = make_match(competition, side_a=pair(club, "Eagles"), side_b=pair(club, "Sharks"))
    Match.objects.filter(pk__in=[confirmed.pk, disputed.pk]).update(result_level="match")

    # Lions enter their totals; the sheet says "to confirm"
    _, lions = log_in(browser, live_server, "lions", f"{live_server.url}/my/matches/")
    assert "Tigers" in lions.locator("#to-play").inner_text()  # a player of the match enters its result
    enter_totals(lions, live_server, confirmed, 1, 0)
    lions.goto(f"{live_server.url}/matches/{confirmed.pk}/")
    assert lions.locator(".mark-to-confirm").count() >= 1
    lions.goto(f"{live_server.url}/matches/{confirmed.pk}/confirm/")
    assert "waiting for Tigers to confirm" in lions.locator("#agreement-state").inner_text()

    # Tigers confirm from My matches
    _, tigers = log_in(browser, live_server, "tigers", f"{live_server.url}/my/matches/")
    assert "Lions 1 – 0 Tigers" in tigers.locator("#to-confirm").inner_text()
    tigers.screenshot(path=str(shots / "agreement-my-matches-phone.png"), full_page=True)
    with tigers.expect_navigation():
        tigers.get_by_role("link", name="Confirm or dispute").tap()
    tigers.screenshot(path=str(shots / "agreement-confirm-phone.png"), full_page=True)
    assert width_of(tigers) <= 390, f"the confirm page is {width_of(tigers)}px wide on a 390px phone"
    tap_and_land(tigers, "Yes, confirm the result")
    assert "confirmed by both sides" in messages(tigers)
    assert "Agreed by both sides" in tigers.locator("#agreement-state").inner_text()
    assert Agreement.objects.get(match=confirmed).state == AgreementState.AGREED

    # Eagles enter theirs; Sharks dispute it
    _, eagles = log_in(browser, live_server, "eagles", f"{live_server.url}/my/matches/")
    enter_totals(eagles, live_server, disputed, 1, 0)
    _, sharks = log_in(browser, live_server, "sharks", f"{live_server.url}/matches/{disputed.pk}/confirm/")
    sharks.locator("#dispute summary").tap()
    tap_and_land(sharks, "Send the dispute to the organiser")
    assert "say what is wrong" in sharks.locator("#f-reason").inner_text()
    sharks.screenshot(path=str(shots / "agreement-dispute-error-phone.png"), full_page=True)
    sharks.fill("#id_reason", "We won the game 14–12: the last Jack was ours")
    sharks.fill("#id_their_games_a", "0")
    sharks.fill("#id_their_games_b", "1")
    sharks.fill("#id_their_score", "0–1, 12–14")
    tap_and_land(sharks, "Send the dispute to the organiser")
    assert "with the organiser" in messages(sharks)
    assert "Disputed" in sharks.locator("#agreement-state").inner_text()

    # the organiser sees both versions and decides
    _, olive = log_in(browser, live_server, "olive", f"{live_server.url}/my/matches/")
    olive.goto(f"{live_server.url}/clubs/{club.slug}/{competition.slug}/")
    with olive.expect_navigation():
        olive.get_by_role("link", name="Results to confirm").tap()
    card = olive.locator(f"#agreement-{disputed.pk}")
    text = card.inner_text()
    assert "As entered by Eagles" in text and "Games 1 – 0" in text
    assert "Sharks say" in text and "Games 0 – 1" in text and "the last Jack was ours" in text
    olive.screenshot(path=str(shots / "agreement-disputes-phone.png"), full_page=True)
    assert width_of(olive) <= 390, f"the disputes page is {width_of(olive)}px wide on a 390px phone"
    card.locator("input[name=note]").fill("The paper sheet agrees with Eagles")
    with olive.expect_navigation():
        card.get_by_role("button", name="The result stands as entered").tap()
    assert "stands as entered" in messages(olive)
    assert "Every result is agreed" in olive.locator("main").inner_text()

    steps = list(AgreementStep.objects.filter(match=disputed).values_list("action", "side", "author__username"))
    assert steps == [(AgreementAction.ENTERED, "a", "eagles"), (AgreementAction.DISPUTED, "b", "sharks"),
                     (AgreementAction.DECIDED, "", "olive")]


def enter_totals(page, live_server, match: Match, games_a: int, games_b: int) -> None:
    page.goto(f"{live_server.url}/matches/{match.pk}/totals/")
    page.fill("#id_games_a", str(games_a))
    page.fill("#id_games_b", str(games_b))
    page.fill("#id_chalks_a", "14" if games_a else "9")
    page.fill("#id_chalks_b", "14" if games_b else "9")
    tap_and_land(page, "Save totals")
    assert page.locator(".errors, .field-errors").count() == 0, page.locator("main").inner_text()
