"""A round's clock: the organiser sets a limit and the rule at time up, starts, pauses, resumes and extends it (for
every table or one); the server keeps it as instants, so a reading after a restart (a fresh read of the row) and on
every phone is the same; the reading is public for a published round only."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from draw import round_clock
from draw.clock_models import RoundClock, TimeUpRule
from draw.errors import RoundError
from draw.models import Round
from draw.round_clock import ClockState
from games.models import Match
from tests.factories import make_club, make_competition, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def olive():
    return make_user("olive")


@pytest.fixture
def round_(olive):
    competition = make_competition(club=make_club("Arima Aces", organisers=[olive]))
    round_ = Round.objects.create(competition=competition, number=1, status=Round.PUBLISHED)
    for table in ("1", "2"):
        match = make_match(competition)
        Match.objects.filter(pk=match.pk).update(round=round_, table=table)
    return round_


def test_a_started_clock_counts_down_from_its_limit_and_says_the_rule_at_time_up(round_):
    clock = round_clock.set_clock(round_=round_, minutes=45, at_time_up=TimeUpRule.FINISH_GAME)
    assert round_clock.reading(clock).state == ClockState.NOT_STARTED
    round_clock.start(clock=clock)
    start = clock.started_at
    ten_in = round_clock.reading(clock, now=start + timedelta(minutes=10))
    assert (ten_in.state, ten_in.remaining, ten_in.label) == (ClockState.RUNNING, 35 * 60, "35:00")
    assert ten_in.ends_at == start + timedelta(minutes=45)
    over = round_clock.reading(clock, now=start + timedelta(minutes=46))
    assert (over.state, over.remaining, over.rule) == (ClockState.TIME_UP, 0, "finish the game in play")


def test_a_pause_stops_the_clock_and_resuming_moves_the_end(round_):
    clock = round_clock.set_clock(round_=round_, minutes=30, at_time_up=TimeUpRule.FINISH_HAND)
    clock.started_at = timezone.now() - timedelta(minutes=10)
    clock.save()
    round_clock.pause(clock=clock)
    clock.paused_at = timezone.now() - timedelta(minutes=5)  # paused five minutes ago
    clock.save()
    paused = round_clock.reading(clock)
    assert paused.state == ClockState.PAUSED and paused.ends_at is None
    assert 25 * 60 - 2 <= paused.remaining <= 25 * 60  # ran five minutes before the pause: 25 left, still
    round_clock.resume(clock=clock)
    running = round_clock.reading(clock)
    assert running.state == ClockState.RUNNING and 25 * 60 - 2 <= running.remaining <= 25 * 60


def test_extending_one_table_gives_that_table_more_time_only(round_):
    clock = round_clock.set_clock(round_=round_, minutes=30, at_time_up=TimeUpRule.AS_IT_STANDS)
    round_clock.start(clock=clock)
    seven = Match.objects.get(round=round_, table="2")
    round_clock.extend(clock=clock, minutes=5, match=seven)
    round_clock.extend(clock=clock, minutes=2)
    now = clock.started_at + timedelta(minutes=31)
    assert round_clock.reading(clock, now=now).remaining == 60
    assert round_clock.reading(clock, seven, now=now).remaining == 6 * 60


def test_the_clock_after_a_restart_reads_the_same_end(round_):
    clock = round_clock.set_clock(round_=round_, minutes=45, at_time_up=TimeUpRule.FINISH_HAND)
    round_clock.start(clock=clock)
    before = round_clock.reading(clock)
    fresh = RoundClock.objects.get(pk=clock.pk)  # what a new process reads
    after = round_clock.reading(fresh, now=before.now)
    assert after.ends_at == before.ends_at and after.remaining == before.remaining


def test_refusals_name_what_is_wrong(round_):
    with pytest.raises(RoundError) as refused:
        round_clock.set_clock(round_=round_, minutes=0, at_time_up=TimeUpRule.FINISH_HAND)
    assert refused.value.field == "minutes"
    clock = round_clock.set_clock(round_=round_, minutes=10, at_time_up=TimeUpRule.FINISH_HAND)
    with pytest.raises(RoundError, match="only a running clock"):
        round_clock.pause(clock=clock)
    round_clock.start(clock=clock)
    with pytest.raises(RoundError, match="already started"):
        round_clock.start(clock=clock)
    other = make_match()
    with pytest.raises(RoundError, match="not in this round"):
        round_clock.extend(clock=clock, minutes=5, match=other)


def test_the_reading_is_public_json_for_a_published_round(round_, olive):
    url = f"/clubs/{round_.competition.club.slug}/{round_.competition.slug}/rounds/1/clock/"
    assert json.loads(Client().get(url).content)["state"] == "none"
    clock = round_clock.set_clock(round_=round_, minutes=45, at_time_up=TimeUpRule.FINISH_HAND)
    round_clock.start(clock=clock)
    reading = json.loads(Client().get(url).content)
    assert reading["state"] == "running" and reading["ends_at"] and reading["server_now"]
    Round.objects.filter(pk=round_.pk).update(status=Round.DRAFT)
    assert Client().get(url).status_code == 404
    organiser = Client()
    organiser.force_login(olive)
    assert organiser.get(url).status_code == 200


def test_the_organiser_runs_the_clock_from_the_rounds_page(round_, olive):
    client = Client()
    client.force_login(olive)
    base = f"/clubs/{round_.competition.club.slug}/{round_.competition.slug}/rounds/1"
    refused = client.post(f"{base}/clock/set/", {"minutes": "", "at_time_up": "hand"}, follow=True).content.decode()
    assert "Give the round&#x27;s time limit in minutes." in refused
    client.post(f"{base}/clock/set/", {"minutes": "40", "at_time_up": "stands"})
    page = client.get(f"{base}/manage/").content.decode()
    assert "40 minutes, not started" in page and "Start the clock" in page
    client.post(f"{base}/clock/start/")
    assert "Pause" in client.get(f"{base}/manage/").content.decode()
    table = Match.objects.get(round=round_, table="1")
    done = client.post(f"{base}/clock/extend/", {"minutes": "5", "match": table.pk}, follow=True).content.decode()
    assert "5 minutes added for Table 1." in done
    client.post(f"{base}/clock/reset/")
    assert not RoundClock.objects.exists()
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.post(f"{base}/clock/start/").status_code == 403


def test_the_scoresheet_and_the_entry_page_carry_the_clock(round_, olive):
    match = Match.objects.get(round=round_, table="1")
    sheet = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f'data-clock-url="/clubs/{round_.competition.club.slug}/{round_.competition.slug}/rounds/1/clock/' \
           f'?match={match.pk}"' in sheet and "round-clock.js" in sheet
