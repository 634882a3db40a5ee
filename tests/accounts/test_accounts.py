"""Accounts: signing up with an e-mail address confirmed by a link, logging in by username or e-mail, the password
reset and changed, logging out everywhere, and sign-up switched off (``ACCOUNT_SIGNUP=0``)."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.cache import clear_the_cache
from tests.factories import DEFAULT_PASSWORD, make_user

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "chalk-and-bullseye-77"
LINK = re.compile(r"https?://[^/\s]+(/accounts/[^\s]+)")


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    clear_the_cache()  # allauth counts its limits (a confirmation mail per address…) in the default cache
    yield
    clear_the_cache()


def link_in(message) -> str:
    return LINK.search(message.body)[1]


def sign_up(client: Client, username: str = "rita", email: str = "rita@example.org", **changes):
    data = {"username": username, "email": email, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD, **changes}
    return client.post("/accounts/signup/", data)


def log_in(client: Client, login: str, password: str = NEW_PASSWORD):
    return client.post("/accounts/login/", {"username": login, "password": password})


def field_error(response, name: str) -> str:
    """The error drawn next to the field ``name`` (its wrapper, ``f-<name>``, as _field.html draws it)."""
    html = response.content.decode()
    block = re.search(rf'<div class="field has-error" id="f-{name}">(.*?)<(?:input|select|textarea)', html, re.S)
    assert block, f"no error next to {name}"
    return re.sub(r"<[^>]+>", " ", block[1])


def test_a_new_person_signs_up_confirms_from_the_mail_and_is_logged_in():
    client = Client()
    response = sign_up(client)
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"
    (message,) = mail.outbox
    assert message.to == ["rita@example.org"] and "[All Fours League]" in message.subject
    confirm = link_in(message)
    page = client.get(confirm)
    assert page.status_code == 200 and "rita@example.org" in page.content.decode()
    assert not EmailAddress.objects.get(email="rita@example.org").verified  # a GET (a mail scanner) confirms nothing
    done = client.post(confirm)
    assert done.status_code == 302
    assert EmailAddress.objects.get(email="rita@example.org").verified
    assert client.get("/accounts/").context["user"].username == "rita"  # logged in by the confirmation


def test_an_account_not_confirmed_yet_cannot_log_in_and_gets_the_link_again():
    sign_up(Client())
    response = log_in(Client(), "rita")
    assert response.status_code == 200
    assert "Confirm your e-mail address first" in response.content.decode()
    assert len(mail.outbox) == 2 and mail.outbox[1].to == ["rita@example.org"]


@pytest.mark.parametrize("login", ["rita", "rita@example.org", "RITA@example.org"])
def test_a_confirmed_account_logs_in_by_username_or_e_mail(login):
    sign_up(Client())
    address = EmailAddress.objects.get(email="rita@example.org")
    address.verified = True
    address.save()
    client = Client()
    response = log_in(client, login)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert client.get("/accounts/").status_code == 200


def test_a_long_e_mail_address_logs_in_too():
    long_address = f"{'x' * 160}@example.org"
    sam = make_user("sam")
    EmailAddress.objects.create(user=sam, email=long_address, verified=True, primary=True)
    sam.email = long_address
    sam.save()
    assert log_in(Client(), long_address, DEFAULT_PASSWORD).status_code == 302


def test_a_wrong_password_is_refused_without_saying_which_half_was_wrong():
    make_user("sam")
    response = log_in(Client(), "sam", "not-it")
    assert response.status_code == 200 and "do not match an account" in response.content.decode()


def test_an_account_made_before_sign_ups_logs_in_without_an_address():
    make_user("olive")  # made by an organiser or createsuperuser: no address to confirm
    assert log_in(Client(), "olive", DEFAULT_PASSWORD).status_code == 302


@pytest.mark.parametrize(("changes", "field", "phrase"), [
    ({"username": "sam"}, "username", "already"),
    ({"email": "not-an-address"}, "email", "valid email"),
    ({"password2": "something-else-1"}, "password2", "same password"),
    ({"password1": "1234", "password2": "1234"}, "password1", "too short"),
    ({"username": ""}, "username", "required"),
])
def test_a_refused_sign_up_names_the_field_and_the_reason(changes, field, phrase):
    sam = make_user("sam")
    EmailAddress.objects.create(user=sam, email="sam@example.org", verified=True, primary=True)
    response = sign_up(Client(), **changes)
    assert response.status_code == 200
    assert phrase in field_error(response, field).lower()
    assert not get_user_model().objects.filter(username="rita").exists() and not mail.outbox


def test_signing_up_with_an_address_in_use_tells_its_owner_by_mail_and_the_visitor_nothing():
    sam = make_user("sam")
    EmailAddress.objects.create(user=sam, email="sam@example.org", verified=True, primary=True)
    response = sign_up(Client(), email="sam@example.org")
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"  # as for a new one
    assert not get_user_model().objects.filter(username="rita").exists()
    (message,) = mail.outbox
    assert message.to == ["sam@example.org"] and "already" in message.body.lower()


def test_a_forgotten_password_is_reset_by_a_link_in_the_mail():
    sam = make_user("sam")
    EmailAddress.objects.create(user=sam, email="sam@example.org", verified=True, primary=True)
    client = Client()
    asked = client.post("/accounts/password/reset/", {"email": "sam@example.org"})
    assert asked.status_code == 302
    (message,) = mail.outbox
    form = client.get(link_in(message), follow=True)  # the key moves from the URL into the session
    assert form.status_code == 200
    done = client.post(form.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert log_in(Client(), "sam", NEW_PASSWORD).status_code == 302
    assert log_in(Client(), "sam", DEFAULT_PASSWORD).status_code == 200  # the old one no longer works


def test_a_reset_asked_for_an_unknown_address_looks_the_same_and_tells_nobody_anything():
    asked = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert asked.status_code == 302 and asked["Location"] == "/accounts/password/reset/done/"
    assert all("reset" not in m.body.lower() or "nobody@example.org" in m.to for m in mail.outbox)


def test_changing_the_password_logs_out_the_other_devices_but_not_this_one():
    make_user("sam")
    phone, laptop = Client(), Client()
    for client in (phone, laptop):
        assert log_in(client, "sam", DEFAULT_PASSWORD).status_code == 302
    changed = phone.post("/accounts/password/change/", {"oldpassword": DEFAULT_PASSWORD, "password1": NEW_PASSWORD,
                                                        "password2": NEW_PASSWORD})
    assert changed.status_code == 302
    assert phone.get("/accounts/").status_code == 200
    assert laptop.get("/accounts/").status_code == 302  # to the login page


def test_log_out_everywhere_ends_every_other_session():
    make_user("sam")
    phone, laptop = Client(), Client()
    for client in (phone, laptop):
        log_in(client, "sam", DEFAULT_PASSWORD)
        client.get("/accounts/")  # a request of the session (its device is listed)
    listed = phone.get("/accounts/sessions/")
    assert listed.status_code == 200 and listed.context["session_count"] == 2
    assert phone.post("/accounts/sessions/").status_code == 302
    assert phone.get("/accounts/").status_code == 200
    assert laptop.get("/accounts/").status_code == 302


def test_with_sign_up_switched_off_nobody_signs_up_and_no_page_offers_it(settings):
    settings.ACCOUNT_SIGNUP_OPEN = False
    client = Client()
    assert "Sign up" not in client.get("/accounts/login/").content.decode()
    closed = client.get("/accounts/signup/")
    assert closed.status_code == 200 and "closed" in closed.content.decode().lower()
    sign_up(client)
    assert not get_user_model().objects.filter(username="rita").exists() and not mail.outbox


def test_sign_up_is_offered_on_the_login_page_and_in_the_header_when_open():
    page = Client().get("/accounts/login/").content.decode()
    assert page.count('href="/accounts/signup/"') == 2 and 'href="/accounts/password/reset/"' in page
