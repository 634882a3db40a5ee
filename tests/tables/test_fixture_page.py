"""The table page of a league fixture in the words of a match: the target and the sheet's score and
games before the first deal (not 0/14), the match's result once it is over (not "the game is over"), a watch link
rather than an invite to take an open seat (a fixture's seats are its players'), and every seat by its player's name
— also a seat played by its private link, which has no login — where a casual table says "open"."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from games.models import Hand, Match
from games.services import enter_hand, next_hand
from league.models import Competition
from tables import dealing, fixtures, seating
from tables.models import Table
from tests.factories import make_scene, make_user, sweep
from tests.tables.helpers import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene():
    scene = make_scene("Fixture page", organiser="fp-org", scorekeeper="fp-keeper", match_format=Competition.BEST_OF,
                       match_games=3, ruleset={"target": 5})
    match = scene["match"]
    ann = match.side_a.player_one
    ann.user = make_user("ann-login")
    ann.save()
    scene["ann"] = ann.user
    return scene


def page_info(text: str) -> dict:
    found = re.search(r'<script id="table-page" type="application/json">(.*?)</script>', text, re.S)
    assert found, "no page info"
    return json.loads(found.group(1))


def seat_rows(text: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", row)).strip()
            for row in re.findall(r'<span class="seat-name">(.*?)</span>\s*<span class="seat-actions">', text, re.S)]


def players(match: Match) -> list[str]:
    return [match.side_a.player_one.name, match.side_b.player_one.name, match.side_a.player_two.name,
            match.side_b.player_two.name]


def test_before_the_first_deal_the_chalk_is_to_the_matchs_target_and_every_seat_has_its_players_name(client,
                                                                                                     scene):
    match = scene["match"]
    table = fixtures.open_fixture(match, scene["organiser"])
    link = table.seats.get(index=1)
    text = client.get(reverse("table", args=[table.pk]) + f"?seat={link.seat_token}").content.decode()
    info = page_info(text)
    assert info["target"] == 5 and info["kind"] == "fixture"  # the chalk reads 0/5 before the deal, not 0/14
    assert info["score"] == [0, 0] and info["games_won"] == [0, 0] and info["format"] == "best of 3 games"
    assert info["names"] == players(match) and info["sides"] == [match.side_a_name, match.side_b_name]
    rows = seat_rows(text)
    assert rows[0].startswith(players(match)[0]) and "login ann-login" in rows[0]
    assert rows[1] == f"{players(match)[1]} (you)"  # the link's seat, no login: its player's name, not "open"
    assert rows[2] == players(match)[2] and rows[3] == players(match)[3]
    assert "<em>open</em>" not in text
    readable = html.unescape(text)
    assert f"Table {table.pk} · {match.side_a_name} v {match.side_b_name}" in readable
    assert f"each seat is its player's, {match.side_a_name} at seats 1 and 3" in readable


def test_a_match_opened_again_starts_its_chalk_from_the_sheet(client, scene):
    match = scene["match"]
    enter_hand(match=match, number=next_hand(match).number, mode=Hand.CHALK, entry=sweep(0),
               user=scene["scorekeeper"])
    table = fixtures.open_fixture(match, scene["organiser"])
    client.force_login(scene["ann"])
    info = page_info(client.get(reverse("table", args=[table.pk])).content.decode())
    stored = Hand.objects.get(game__match=match)
    assert info["score"] == [stored.score_a_after, stored.score_b_after] != [0, 0]


def test_the_invite_of_a_fixture_is_a_watch_link_and_a_casual_tables_an_invite(client, scene):
    table = fixtures.open_fixture(scene["match"], scene["organiser"])
    client.force_login(scene["ann"])
    readable = html.unescape(client.get(reverse("table", args=[table.pk])).content.decode())
    assert "Watch link (anyone with it can watch the match; a player opens their own seat" in readable
    assert "take an open seat" not in readable
    casual = seating.create_table(scene["ann"], 2, None, Table.PRIVATE, {}, seat=0)
    readable = html.unescape(client.get(reverse("table", args=[casual.pk])).content.decode())
    assert "Invite link (anyone with it can watch and take an open seat)" in readable
    assert "Watch link" not in readable
    assert page_info(readable)["kind"] == "casual" and page_info(readable)["names"] == []


def test_once_over_the_page_has_the_matchs_result_not_a_games(client, scene):
    match = scene["match"]
    table = play_out(dealing.start(fixtures.open_fixture(match, scene["organiser"])))
    match.refresh_from_db()
    assert table.status == Table.FINISHED and match.status == Match.COMPLETE
    client.force_login(scene["ann"])
    text = client.get(reverse("table", args=[table.pk])).content.decode()
    winner = match.side_a_name if match.winner == "a" else match.side_b_name
    assert page_info(text)["winner"] == winner
    assert "The match is over:" in html.unescape(text)  # the table's end reason, as a message

