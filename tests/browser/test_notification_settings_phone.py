"""A person's notification settings on a phone (390×844): from their account page they open Notifications, turn a
round's e-mail off and the reminders' push on, save ("Saved."), and the choices are kept after a reload; the page
offers "Notify this phone". The service worker at the site's root shows a push by its tag: a push delivered to it
through the DevTools protocol (Chromium cannot reach a real push service offline) is shown once, titled, with the
notification's tag, also when the same push comes twice.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``).
"""

from __future__ import annotations

import json

import pytest

from notify import services
from notify.models import NotificationKind, NotificationSetting
from notify.preferences import Choice
from tests.browser.test_offline_entry import log_in
from tests.factories import make_user
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_person_chooses_what_they_are_told_and_a_push_is_shown_by_its_tag(live_server, browser, shots):
    ann = make_user("ann")
    ann.email = "ann@example.org"
    ann.save(update_fields=["email"])
    services.save_settings(user=ann, chosen={NotificationKind.REMINDER: Choice(email=True, push=False)})

    context, page = log_in(browser, live_server, "ann", f"{live_server.url}/accounts/")
    page.get_by_role("link", name="Notifications: what the site tells you, and how").tap()
    page.wait_for_selector("form.notify-settings")
    assert "by e-mail to ann@example.org" in page.locator(".lead").inner_text()
    round_email = page.locator("#kind-round input[name=email-round]")
    reminder_push = page.locator("#kind-reminder input[name=push-reminder]")
    assert round_email.is_checked() and not reminder_push.is_checked()
    assert "always" in page.locator("#kind-needs-you").inner_text()  # the mail is how they answer
    page.locator("#kind-round label.notify-channel", has_text="By e-mail").tap()
    page.locator("#kind-reminder label.notify-channel", has_text="On my phones").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Save").tap()
    assert "Saved." in page.locator(".messages").inner_text()
    page.reload()
    assert not page.locator("#kind-round input[name=email-round]").is_checked()
    assert page.locator("#kind-round input[name=push-round]").is_checked()
    assert page.locator("#kind-reminder input[name=push-reminder]").is_checked()
    kept = {s.kind: (s.email, s.push) for s in NotificationSetting.objects.filter(user=ann)}
    assert kept[NotificationKind.ROUND_PUBLISHED] == (False, True) and kept[NotificationKind.REMINDER] == (True, True)

    on = page.get_by_role("button", name="Notify this phone")
    on.wait_for(state="visible")  # push.js: this browser can be notified, and is not yet
    assert not page.get_by_role("button", name="Stop notifying this phone").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the notifications page is {width}px wide on a 390px phone"
    page.screenshot(path=str(shots / "notification-settings-phone.png"), full_page=True)

    # the service worker's push handler, given a push as a push service would deliver it (twice: a worker that died
    # mid-send sent it again)
    context.grant_permissions(["notifications"], origin=live_server.url)
    cdp = context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    registration_id = wait_until(lambda: next((r["registrationId"] for r in registrations
                                                if r["scopeURL"] == f"{live_server.url}/"), None),
                                 timeout=20, what="the service worker's registration")
    def push(body: str) -> None:
        payload = {"title": "Round 3 of the Cup", "body": body, "url": "/my/matches/", "tag": "n42"}
        cdp.send("ServiceWorker.deliverPushMessage", {"origin": live_server.url, "registrationId": registration_id,
                                                       "data": json.dumps(payload)})

    def shown(body: str):
        found = page.evaluate("""navigator.serviceWorker.ready.then(r => r.getNotifications()).then(list =>
            list.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url})))""")
        return found if any(n["body"] == body for n in found) else None

    push("Table 7 v Cid & Dee, Friday 14 March, 8 pm")
    wait_until(lambda: shown("Table 7 v Cid & Dee, Friday 14 March, 8 pm"), timeout=20, what="the push shown")
    push("Table 7 v Cid & Dee, Friday 14 March, 8 pm (sent again)")  # the same notification (tag) again
    notifications = wait_until(lambda: shown("Table 7 v Cid & Dee, Friday 14 March, 8 pm (sent again)"), timeout=20,
                               what="the push sent again shown")
    assert notifications == [{"title": "Round 3 of the Cup", "tag": "n42", "url": "/my/matches/",
                              "body": "Table 7 v Cid & Dee, Friday 14 March, 8 pm (sent again)"}]  # one, replaced
