"""Sharing: the public pages and the private entry link carry a share box — a WhatsApp link with the text filled in
(a round's pairings with their tables, a standings summary), a button that copies the link, and the link as a QR
code."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.test import Client

from draw.models import Round
from games.models import Match
from tests.factories import make_club, make_competition, make_match, make_user

pytestmark = pytest.mark.django_db


def whatsapp_text(page: str) -> str:
    return unquote(re.search(r'href="https://wa\.me/\?text=([^"]+)"', page).group(1))


@pytest.fixture
def scene():
    olive = make_user("olive")
    competition = make_competition(club=make_club("Arima Aces", organisers=[olive]))
    Competition = type(competition)
    Competition.objects.filter(pk=competition.pk).update(name="Friday League")
    competition.refresh_from_db()
    round_ = Round.objects.create(competition=competition, number=1, status=Round.PUBLISHED)
    match = make_match(competition)
    Match.objects.filter(pk=match.pk).update(round=round_, table="7")
    match.refresh_from_db()
    return {"competition": competition, "match": match, "olive": olive}


def test_a_rounds_share_box_sends_its_pairings_with_their_tables(scene):
    competition, match = scene["competition"], scene["match"]
    page = Client().get(f"/clubs/{competition.club.slug}/{competition.slug}/rounds/1/").content.decode()
    text = whatsapp_text(page)
    assert text.startswith(f"Friday League, Round 1: Table 7: {match.side_a_name} v {match.side_b_name}")
    assert text.endswith(f"http://testserver/clubs/{competition.club.slug}/{competition.slug}/rounds/1/")
    assert 'data-copy="http://testserver/clubs/' in page
    qr = re.search(r'<img src="(/qr\.svg\?path=[^"]+)"', page).group(1)
    image = Client().get(qr.replace("&amp;", "&"))
    assert image["Content-Type"] == "image/svg+xml" and b"<svg" in image.content
    assert f"http://testserver/clubs/{competition.club.slug}/{competition.slug}/rounds/1/".encode() in image.content


def test_the_qr_code_is_only_ever_of_a_path_of_the_site():
    for path in ("https://evil.example/", "//evil.example/x", "", "x" * 600, "relative"):
        response = Client().get("/qr.svg", {"path": path})
        assert response.status_code == 400 and b"path:" in response.content


def test_the_standings_and_the_competition_share_a_summary(scene):
    competition = scene["competition"]
    for path in ("", "standings/"):
        page = Client().get(f"/clubs/{competition.club.slug}/{competition.slug}/{path}").content.decode()
        assert whatsapp_text(page).startswith("Friday League")


def test_the_scoresheet_the_player_and_the_private_link_can_be_shared(scene):
    match = scene["match"]
    sheet = whatsapp_text(Client().get(f"/matches/{match.pk}/").content.decode())
    assert sheet.startswith(f"{match.side_a_name} v {match.side_b_name} (Friday League): games 0 – 0")
    player = match.side_a.player_one
    assert whatsapp_text(Client().get(f"/players/{player.pk}/").content.decode()).startswith(
        f"{player.name} on All Fours League")
    organiser = Client()
    organiser.force_login(scene["olive"])
    private = whatsapp_text(organiser.get(f"/matches/{match.pk}/manage/").content.decode())
    assert private.startswith(f"Enter the hands of {match.side_a_name} v {match.side_b_name} (no account needed):")
    assert private.endswith(f"/enter/{match.entry_token}/")
