"""The pages under production's Content-Security-Policy (``settings.CONTENT_SECURITY_POLICY``: scripts and styles
from the site only): Chromium loads each main page with the policy's header — the one django-csp sends in
production, added here to the test server's answers — and sees no violation, in the console or as a
``securitypolicyviolation`` event (an inline script, an inline style or ``style=`` attribute, an ``on…=`` handler).
"""

from __future__ import annotations

import time

import pytest
from csp.utils import build_policy
from django.urls import reverse

from games.models import Match
from tables.seating import create_table
from tests.browser.test_page_tour import build_league, tour
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", event => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


def settle(page, in_flight: set, timeout: float = 15.0) -> None:
    """Wait until none of the page's requests is in flight: after the load event (``goto`` waits for it: the
    document, its scripts, styles and images), the fetches its scripts started and what those brought. (The load
    state "networkidle" waits for the same and then half a second more of quiet on every page.)"""
    deadline = time.monotonic() + timeout
    while in_flight:
        assert time.monotonic() < deadline, f"requests still in flight after {timeout:g} s: {in_flight}"
        page.wait_for_timeout(20)  # Playwright delivers the requests' events meanwhile


@pytest.mark.slow
def test_the_main_pages_load_under_the_content_security_policy_without_a_violation(live_server, browser, shots):
    policy = build_policy()
    assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe-inline" not in policy
    league = build_league()
    hands: Match = league["hands"]
    table = create_table(make_user("host"), players=4, bots={1: "random", 2: "random", 3: "random"})
    pages = {**tour(league),
             "entry": reverse("token_enter", args=[hands.entry_token]),
             "entry-record": reverse("token_enter_record", args=[hands.entry_token]),
             "table": f"{reverse('table', args=[table.pk])}?invite={table.invite_token}"}

    context = browser.new_context(viewport=PHONE, service_workers="block")  # each page from the server, not a cache
    context.add_init_script(WATCH_VIOLATIONS)

    def with_the_policy(route) -> None:
        if route.request.resource_type != "document":
            route.continue_()
            return
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": policy})

    context.route("**/*", with_the_policy)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    in_flight: set = set()
    page.on("request", lambda request: in_flight.add(request))
    page.on("requestfinished", lambda request: in_flight.discard(request))
    page.on("requestfailed", lambda request: in_flight.discard(request))
    found = {}
    for name, path in pages.items():
        console.clear()
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, (name, response and response.status)
        assert response.headers.get("content-security-policy") == policy, name
        settle(page, in_flight)
        if name == "print":  # the rows' height, once an inline style, now set by the page's script
            row = page.evaluate("(sheet => [sheet.dataset.rowMm, getComputedStyle(sheet).getPropertyValue('--row')])"
                                "(document.querySelector('.print-sheet'))")
            assert row[1].strip() == f"{row[0]}mm", row
        page.screenshot(path=str(shots / f"csp-{name}.png"), full_page=True)
        refused = [text for text in console if "Content Security Policy" in text]
        violations = page.evaluate("window.__cspViolations")
        if refused or violations:
            found[name] = refused + violations
    context.close()
    assert not found, found
