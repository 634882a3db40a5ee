"""The live page of an event played online (``pages.views_event_live``, ``pages.event_live``,
``tables.event_board``): each table of the round by its status — waiting for players (who is missing, the start's
countdown), playing (the score, who is here, each seat's time and the running clock of the one to move; during the
calls nobody named), finished (why, and the result) — the round's results as they finish, the standings, when the
next round comes, and a link to watch each table as the organiser allows; linked from the competition's page, and
not found for a competition not played online."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from draw import round_clock
from draw.clock_models import TimeUpRule
from draw.models import Round
from games.models import Match
from league.choices import OnlineNextRound, OnlineSpectators
from league.models import Competition
from tables import acting, events
from tables import state as table_state
from tables.models import Table
from tests.factories import make_competition, make_match
from tests.tables.event_scene import make_event, started
from tests.tables.helpers import fresh

pytestmark = pytest.mark.django_db


def url(competition: Competition) -> str:
    return reverse("competition_live", args=[competition.club.slug, competition.slug])


def card(html: str, match: Match) -> str:
    """The card of ``match``'s table on the page."""
    start = html.index(f'id="event-match-{match.pk}"')
    end = html.find('id="event-match-', start + 10)
    return html[start:end if end > 0 else html.index("</ol>", start)]


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def play_until_the_tricks(table: Table) -> Table:
    """The players call until the hand's tricks begin."""
    for _ in range(20):
        table = fresh(table)
        _, state = table_state.current(table)
        if str(state.phase) == "play":
            return table
        acting.act(table.pk, table.turn, str(state.legal_actions()[0]), table.version, uuid.uuid4().hex)
    raise AssertionError("the calls never ended")


def test_a_table_waiting_for_its_players_says_who_is_missing_and_counts_down_to_its_start():
    event = make_event(grace_minutes=10)
    table = event.tables[0]
    from tables import presence

    presence.mark_back(table.pk, 0)  # the first player is here
    html = Client().get(url(event.competition)).content.decode()
    first = text(card(html, event.matches[0]))
    players = event.players(0)
    assert "Waiting for players" in first
    assert f"Waiting for {players[2].name}, {players[1].name}, {players[3].name}." in first  # side A, then B
    assert re.search(r"Starts in (9:5\d|10:00) with those here\.", first), first
    assert f'data-until="{fresh(table).starts_at.isoformat()}"' in card(html, event.matches[0])
    assert f"{players[0].name} here" in first and f"{players[1].name} not here yet" in first
    assert f'href="{reverse("table", args=[table.pk])}"' in card(html, event.matches[0])  # watch it


def test_a_table_in_play_shows_its_score_who_is_here_each_seats_time_and_the_clock_of_the_one_to_move():
    event = make_event()
    table = started(event.tables[0])
    html = Client().get(url(event.competition)).content.decode()
    calling = card(html, event.matches[0])
    assert "Playing · game 1, hand 1" in text(calling)
    assert "The calls:" in text(calling) and "to-move" not in calling  # who calls after the eldest is not told
    table = play_until_the_tricks(table)
    html = Client().get(url(event.competition)).content.decode()
    playing = card(html, event.matches[0])
    mover = event.players(0)[table.turn]
    to_move = re.search(r'<li class="et-seat side-\w to-move">(.*?)</li>', playing, re.S)
    assert to_move and mover.name in to_move.group(1)
    assert f'data-until="{table.deadline_at.isoformat()}"' in to_move.group(1)  # its clock runs down in the page
    assert re.search(r'<span class="et-clock live-unit"[^>]*>\d+:\d\d</span>', to_move.group(1))
    assert len(re.findall(r'<span class="et-time" title="time left">1:00</span>', playing)) == 4  # each bank
    assert text(playing).count(" here ") == 4
    assert "(a trick behind)" in text(playing)
    assert f'<span class="et-chalk side-a live-unit">{table.score[0]}</span>' in playing


def test_a_finished_table_says_why_and_its_result_shows_among_the_rounds_results():
    event = make_event(online_no_show="forfeit")
    table = event.tables[0]
    from tables import presence

    presence.mark_back(table.pk, 0)
    presence.mark_back(table.pk, 2)  # side A came, side B did not
    Table.objects.filter(pk=table.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    events.start_event_table(table.pk)
    html = Client().get(url(event.competition)).content.decode()
    finished = text(card(html, event.matches[0]))
    assert "Finished" in finished and "did not come to the table by its start time" in finished
    results = text(html[html.index('id="event-results"'):html.index('id="event-standings"')])
    assert f"{event.matches[0].side_a_name} B forfeits {event.matches[0].side_b_name}" in results


def test_a_match_with_no_table_yet_and_the_rounds_count_of_tables_playing():
    event = make_event()
    started(event.tables[1])
    extra = make_match(event.competition)
    Match.objects.filter(pk=extra.pk).update(round=event.round, table="3")
    html = Client().get(url(event.competition)).content.decode()
    assert "Not at a table yet" in text(card(html, extra))
    assert "Round 1 · 1 table playing" in text(html)


def test_the_next_round_comes_by_itself_as_the_organiser_chose_and_the_rounds_clock_shows():
    event = make_event(online_next_round=OnlineNextRound.PUBLISH)
    round_clock.start(clock=round_clock.set_clock(round_=event.round, minutes=45,
                                                  at_time_up=TimeUpRule.FINISH_HAND))
    html = Client().get(url(event.competition)).content.decode()
    assert "Round 2 is paired as soon as the last match of this round ends, and published at once" in text(html)
    assert reverse("round_clock", args=[event.competition.club.slug, event.competition.slug, 1]) in html
    Competition.objects.filter(pk=event.competition.pk).update(online_next_round=OnlineNextRound.NOTHING)
    assert "The organiser pairs and publishes round 2." in text(Client().get(url(event.competition)).content.decode())
    Round.objects.create(competition=event.competition, number=2, status=Round.DRAFT, pairing_state=Round.RUNNING)
    assert "Round 2 is being paired." in text(Client().get(url(event.competition)).content.decode())


def test_nothing_until_it_is_over_offers_no_watch_link_and_says_when_watching_opens():
    event = make_event(spectators=OnlineSpectators.AFTER_EVENT)
    started(event.tables[0])
    html = Client().get(url(event.competition)).content.decode()
    assert "Watching opens when the event is over" in text(card(html, event.matches[0]))
    assert f'href="{reverse("table", args=[event.tables[0].pk])}"' not in html
    assert "out of sight until every match is played" in text(html)


def test_the_competitions_page_links_its_live_page_and_an_organiser_gets_each_tables_online_page():
    event = make_event()
    competition_page = Client().get(reverse("competition", args=[event.competition.club.slug,
                                                                 event.competition.slug])).content.decode()
    assert f'href="{url(event.competition)}"' in competition_page
    organiser = Client()
    organiser.force_login(event.organiser)
    html = organiser.get(url(event.competition)).content.decode()
    assert reverse("match_online", args=[event.matches[0].pk]) in html
    visitor = Client().get(url(event.competition)).content.decode()
    assert reverse("match_online", args=[event.matches[0].pk]) not in visitor


def test_a_competition_not_played_online_has_no_live_page_and_no_link_to_one():
    competition = make_competition()
    assert Client().get(url(competition)).status_code == 404
    page = Client().get(reverse("competition", args=[competition.club.slug, competition.slug])).content.decode()
    assert url(competition) not in page
    assert Client().get(url(make_competition(published=False))).status_code == 404


def test_the_standings_show_on_the_live_page_with_the_standings_tables_own_template():
    event = make_event()
    html = Client().get(url(event.competition)).content.decode()
    assert "No standings yet" in html
    from standings.services import refresh_standings

    Match.objects.filter(pk=event.matches[0].pk).update(status=Match.COMPLETE, games_a=1, winner="a")
    refresh_standings(event.competition.pk)
    html = Client().get(url(event.competition)).content.decode()
    assert 'class="standings"' in html and escape(event.matches[0].side_a_name) in html
