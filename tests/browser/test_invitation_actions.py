"""An organiser on a phone (390×844) invites another club's team from the entries page of a team league, and
cancels an invitation to another club's pair that is still waiting: the buttons fit the screen and work with
JavaScript on and off (the cancel's confirmation is a box to tick, checked by the browser and the server). One the
other club accepted while the page was open is not cancelled, and the page says why beside its place.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from league import invitations
from league.models import Competition, Entry, EntryInvitation, InvitationState
from tests.factories import make_club, make_organiser, make_partnership, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
PASSWORD = "pw-for-tests-1"
JAVASCRIPT = pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])


def fits_the_phone(page, locator) -> None:
    """The control is on the 390px-wide screen, big enough to tap, and the page does not scroll sideways."""
    box = locator.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert box["height"] >= 40, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def told(page, text: str) -> None:
    expect(page.locator(".messages")).to_contain_text(text, timeout=20_000)


@JAVASCRIPT
def test_an_organiser_invites_a_team_and_cancels_a_pairs_invitation_on_a_phone(live_server, browser, shots,
                                                                                javascript):
    host, rivals = make_club("Host Club"), make_club("Rivals Bar")
    organiser = make_organiser(host, make_user("olive", password=PASSWORD))
    rivals_organiser = make_organiser(rivals)
    team_league = Competition.objects.create(club=host, name="Team League", slug="teams", published=True,
                                             entrant_kind=Competition.TEAMS)
    pairs_league = Competition.objects.create(club=host, name="Friday Pairs", slug="friday", published=True)
    pair = make_partnership(club=rivals, name="Rival Pair")
    cup = Competition.objects.create(club=rivals, name="Rivals Cup", slug="cup", published=True)
    Entry.objects.create(competition=cup, partnership=pair)
    waiting = invitations.invite(competition=pairs_league, by=organiser, partnership=pair)
    answered_meanwhile = make_partnership(club=rivals, name="Quick Pair")
    Entry.objects.create(competition=cup, partnership=answered_meanwhile)
    accepted = invitations.invite(competition=pairs_league, by=organiser, partnership=answered_meanwhile)
    suffix = "js" if javascript else "nojs"

    context = browser.new_context(**PHONE, java_script_enabled=javascript)
    page = context.new_page()
    entries = f"/clubs/{host.slug}/{team_league.slug}/entries/"
    page.goto(f"{live_server.url}/accounts/login/?next={entries}")
    page.fill("input[name=username]", "olive")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in", exact=True).click()

    invite = page.get_by_role("link", name="Invite another club's team")
    fits_the_phone(page, invite)
    invite.click()
    page.get_by_label("Club to invite").select_option(label="Rivals Bar")
    page.get_by_label("Team's name").fill("Rivals A")
    send = page.get_by_role("button", name="Send the invitation")
    fits_the_phone(page, send)
    page.screenshot(path=str(shots / f"team-invitation-form-{suffix}.png"))
    send.click()
    told(page, "Rivals Bar is invited to enter a team, Rivals A.")
    sent = EntryInvitation.objects.get(competition=team_league)
    assert (sent.club, sent.team_name, sent.state) == (rivals, "Rivals A", InvitationState.PENDING)
    expect(page.locator(f"#invitation-{sent.pk}")).to_contain_text("Rivals A")
    page.screenshot(path=str(shots / f"team-invited-{suffix}.png"), full_page=True)

    pairs_entries = f"{live_server.url}/clubs/{host.slug}/{pairs_league.slug}/entries/"
    page.goto(pairs_entries)
    # Rivals Bar accepts one while the page is open: cancelling it then says why not, beside where the button was
    invitations.accept(invitation=accepted, by=rivals_organiser)
    stale = page.locator(f"#invitation-{accepted.pk}")
    stale.get_by_label("Yes, cancel the invitation to Quick Pair").check()
    stale.get_by_role("button", name="Cancel the invitation").click()
    expect(page.locator("#cancel-refused")).to_contain_text("Rivals Bar already accepted, so Quick Pair is entered")
    fits_the_phone(page, page.locator("#cancel-refused"))
    page.screenshot(path=str(shots / f"cancel-refused-{suffix}.png"))
    assert EntryInvitation.objects.get(pk=accepted.pk).state == InvitationState.ACCEPTED

    page.get_by_role("link", name="Back").click()
    card = page.locator(f"#invitation-{waiting.pk}")
    cancel = card.get_by_role("button", name="Cancel the invitation")
    card.scroll_into_view_if_needed()
    fits_the_phone(page, cancel)
    fits_the_phone(page, card.locator("label.check"))
    cancel.click()  # the box is not ticked: the browser asks for it and nothing is sent
    assert cancel.evaluate("button => !button.form.checkValidity()")  # the browser cannot send this form
    assert EntryInvitation.objects.get(pk=waiting.pk).is_pending
    card.get_by_label("Yes, cancel the invitation to Rival Pair").check()
    page.screenshot(path=str(shots / f"cancel-ticked-{suffix}.png"))
    cancel.click()
    told(page, "The invitation to Rival Pair is cancelled: Rivals Bar no longer sees it.")
    expect(page.locator(f"#invitation-{waiting.pk}")).to_have_count(0)
    assert EntryInvitation.objects.get(pk=waiting.pk).state == InvitationState.CANCELLED
    assert not Entry.objects.filter(competition=pairs_league, partnership=pair).exists()
    page.screenshot(path=str(shots / f"cancelled-{suffix}.png"), full_page=True)
    context.close()
