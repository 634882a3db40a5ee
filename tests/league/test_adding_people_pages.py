"""The pages where an organiser adds an organiser, links a player's login or gives a match a scorekeeper by username
say that someone without an account is brought in by an invitation (they make their account as they accept), even
where sign-up is closed, send nobody to a page that does not exist,
and every link on them opens."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders
from django.urls import Resolver404, resolve, reverse

from tests.factories import make_club, make_match, make_organiser, make_player

pytestmark = pytest.mark.django_db

HREF = re.compile(r'\bhref="([^"]*)"')


@pytest.fixture
def club(client):
    club = make_club("Arima Social Club")
    client.force_login(make_organiser(club))
    return club


def _links_open(client, page: str) -> list[str]:
    """Every link of the page, each checked to open: a page of the site (not a 404) or a static file that exists."""
    checked = []
    for href in sorted(set(HREF.findall(page))):
        parts = urlsplit(href.replace("&amp;", "&"))
        if parts.netloc == "wa.me":
            continue  # the share box's WhatsApp message: out of the site on purpose
        assert parts.netloc in ("", "testserver"), f"a link out of the site: {href}"  # the private link is whole
        if not parts.path:
            continue  # an anchor on the page itself
        if parts.path.startswith("/static/"):
            assert finders.find(parts.path.removeprefix("/static/")), f"no static file {href}"
            continue
        try:
            resolve(parts.path)
        except Resolver404:
            pytest.fail(f"the link {href} names no page")
        status = client.get(parts.path + (f"?{parts.query}" if parts.query else "")).status_code
        assert status not in (404, 500), f"{href} answers {status}"
        checked.append(href)
    return checked


def _says_how_accounts_are_made(text: str) -> None:
    assert "existing account" in text or "already exists" in text
    assert "Invite people" in text and "make their account as they accept" in text
    assert "sign up first" not in text.lower()


def test_the_people_page_says_how_someone_without_an_account_comes_in_and_every_link_opens(client, club):
    url = reverse("club_people", args=[club.slug])
    page = client.get(url).content.decode()
    _says_how_accounts_are_made(page)
    assert _links_open(client, page)
    refused = client.post(reverse("club_organiser_add", args=[club.slug]), {"organiser-username": "nobody"})
    assert refused.status_code == 422
    field = re.search(r'id="f-organiser-username".*?</div>', refused.content.decode(), re.S).group(0)
    assert "nobody" in field
    _says_how_accounts_are_made(field)


def test_linking_a_players_login_to_an_unknown_username_says_what_to_do(client, club):
    player = make_player("Kendra", club=club)
    url = reverse("club_player", args=[club.slug, player.pk])
    page = client.get(url).content.decode()
    _says_how_accounts_are_made(page)
    assert _links_open(client, page)
    refused = client.post(reverse("club_player_link_login", args=[club.slug, player.pk]), {"username": "nobody"})
    assert refused.status_code == 422
    _says_how_accounts_are_made(re.search(r'id="f-username".*?</div>', refused.content.decode(), re.S).group(0))


def test_the_match_page_that_adds_a_scorekeeper_says_what_to_do_and_every_link_opens(client, club):
    match = make_match(club.competitions.create(name="Cup", slug="cup", published=True))
    page = client.get(reverse("match_manage", args=[match.pk])).content.decode()
    _says_how_accounts_are_made(page)
    assert _links_open(client, page)
