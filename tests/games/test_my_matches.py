"""A scorekeeper's "my matches" page after login: the matches they keep score for, those to play first with
their entry pages, then the finished ones; nobody else's; a visitor is sent to log in."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from games.models import Match
from tests.factories import make_competition, make_match, make_user

pytestmark = pytest.mark.django_db


def test_my_matches_lists_the_matches_i_keep_score_for(client, django_assert_max_num_queries):
    keeper, other = make_user(), make_user()
    competition = make_competition()
    waiting = make_match(competition, scorekeepers=[keeper])
    done = make_match(competition, scorekeepers=[keeper])
    Match.objects.filter(pk=done.pk).update(status=Match.COMPLETE, games_a=1, winner="a")
    theirs = make_match(competition, scorekeepers=[other])
    client.force_login(keeper)
    with django_assert_max_num_queries(6):
        page = client.get(reverse("my_matches")).content.decode()
    to_play, finished = page.split('id="to-play"')[1].split('id="finished"')
    assert reverse("match_enter", args=[waiting.pk]) in to_play and escape(waiting.side_a_name) in to_play
    assert reverse("match_sheet", args=[done.pk]) in finished and reverse("match_enter", args=[done.pk]) not in page
    assert reverse("match_sheet", args=[theirs.pk]) not in page
    assert 'href="/my/matches/" aria-current="page">My matches' in page


def test_nothing_to_keep_says_how_to_get_a_match(client):
    client.force_login(make_user())
    assert "No match is waiting for you" in client.get(reverse("my_matches")).content.decode()


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(reverse("my_matches"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_player_finds_their_match_of_a_competition_played_online_with_its_table(client):
    from league.models import Competition
    from tables.fixtures import open_match_table
    from tests.factories import make_partnership

    competition = make_competition()
    Competition.objects.filter(pk=competition.pk).update(play_online=True)
    ours, theirs = make_partnership(name="Lions"), make_partnership(name="Tigers")
    player = ours.player_one
    player.user = make_user("ann")
    player.save()
    match = make_match(competition, side_a=ours, side_b=theirs)
    other = make_match(make_competition(), side_a=ours, side_b=theirs)  # not online: not theirs to keep
    client.force_login(player.user)
    page = client.get(reverse("my_matches")).content.decode()
    assert reverse("match_sheet", args=[match.pk]) in page and reverse("match_enter", args=[match.pk]) not in page
    assert reverse("match_sheet", args=[other.pk]) not in page
    table = open_match_table(match)
    page = client.get(reverse("my_matches")).content.decode()
    assert f"Play at table {table.pk}" in page and reverse("table", args=[table.pk]) in page
