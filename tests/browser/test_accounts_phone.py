"""A new person's account on a phone (390×844): signing up, a wrong try first, confirming the address from the mail
the site wrote to its mail folder, logging in by e-mail address, and resetting a forgotten password.

Drives Debian's Chromium through Playwright (fixtures in ``tests/browser/conftest.py``); the mail goes the way it
goes under ``make run``: kept in the outbox, delivered (tasks in-process) as a file in the mail folder.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cache import clear_the_cache
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
PASSWORD = "ninety-nine-chalks"
NEW_PASSWORD = "high-low-jack-game"


@pytest.fixture
def mail_folder(settings, tmp_path) -> Path:
    clear_the_cache()  # allauth's rate limits of earlier tests
    settings.EMAIL_BACKEND = "accounts.mail.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = tmp_path / "mail"
    return tmp_path / "mail"


def link_in_mail(folder: Path, count: int) -> str:
    """The link of the ``count``-th mail written to the folder (waiting for it: a worker writes it)."""
    wait_until(lambda: folder.exists() and len(list(folder.iterdir())) >= count, timeout=20,
               what=f"mail {count} in the mail folder")
    newest = sorted(folder.iterdir(), key=lambda path: path.stat().st_mtime_ns)[count - 1]
    return re.search(r"https?://\S+/accounts/\S+/", newest.read_text())[0]


def test_a_new_person_signs_up_confirms_from_the_mail_folder_and_resets_the_password(
        live_server, browser, shots, mail_folder):
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Sign up").first.tap()

    page.fill("input[name=username]", "rita")
    page.fill("input[name=email]", "rita.at.the.bar")  # wrong input first
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD + "x")
    page.get_by_role("button", name="Sign Up").tap()
    assert "valid email" in page.locator("#f-email .field-errors").inner_text().lower()
    assert "same password" in page.locator("#f-password2 .field-errors").inner_text().lower()
    page.screenshot(path=str(shots / "signup-refused-phone.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the sign-up page is {width}px wide on a 390px phone"

    page.fill("input[name=email]", "rita@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Sign Up").tap()
    page.wait_for_url("**/accounts/confirm-email/")
    page.screenshot(path=str(shots / "signup-check-your-mail-phone.png"), full_page=True)

    page.goto(link_in_mail(mail_folder, 1))
    page.get_by_role("button", name="Confirm").tap()
    page.wait_for_url(f"{live_server.url}/")
    assert page.locator("header .who").inner_text() == "rita"  # logged in by confirming

    page.get_by_role("button", name="Log out").tap()
    page.get_by_role("link", name="Log in").tap()
    page.get_by_role("link", name="Forgot your password?").tap()
    page.fill("input[name=email]", "rita@example.org")
    page.get_by_role("button", name="Reset My Password").tap()
    page.wait_for_url("**/accounts/password/reset/done/")
    page.goto(link_in_mail(mail_folder, 2))
    page.fill("input[name=password1]", NEW_PASSWORD)
    page.fill("input[name=password2]", NEW_PASSWORD)
    page.get_by_role("button", name="Change Password").tap()
    page.wait_for_url("**/accounts/password/reset/key/done/")

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "rita@example.org")
    page.fill("input[name=password]", PASSWORD)  # the old one: refused
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()
    assert "do not match an account" in page.locator(".errors").inner_text()
    page.fill("input[name=password]", NEW_PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()
    assert page.locator("header .who").inner_text() == "rita"
    page.goto(f"{live_server.url}/accounts/")
    page.screenshot(path=str(shots / "account-phone.png"), full_page=True)
