"""The iCalendar feeds a phone's calendar subscribes to (``pages.calendar_feed``), read back with ``icalendar``.

A competition's feed (``/clubs/<club>/<competition>/calendar.ics``) holds an event for each of its matches with a
time — its stable UID, its start in UTC and a default length, the sides and the competition, the venue with the
table, its round and the link to its public scoresheet, a forfeit's outcome — and an all-day event for a match
whose round has only a date; a match with neither is left out. It is public as the competition's page is: an
unpublished competition is a 404 to visitors, a draft round's matches are the organisers' only. A player's feed
(``/players/<id>/calendar.ics``) holds only the matches the player plays in (either side, either seat, a table of
a team match, which takes its team match's time and venue) of published competitions and rounds. Both are
``text/calendar`` opened inline, and take the same number of queries for one match as for many.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from icalendar import Calendar, vText

from draw.models import Round
from games import services
from games.models import Match
from league.models import Competition, Entry, Partnership, Team
from pages.calendar_feed import MATCH_DURATION
from tests.factories import (
    committing,
    make_club,
    make_competition,
    make_match,
    make_organiser,
    make_partnership,
    make_player,
    make_user,
)

pytestmark = pytest.mark.django_db

HOST = "localhost"  # the host of settings.SITE_URL in the tests: every UID's
FEED_QUERIES = 2  # the competition (or the player), then its matches with what their events read
SEVEN_PM = datetime(2025, 3, 7, 23, 0, tzinfo=UTC)  # Friday 7 March 2025, 19:00 in Port of Spain (UTC-4)


def competition_feed_url(competition: Competition) -> str:
    return reverse("competition_calendar", args=[competition.club.slug, competition.slug])


def player_feed_url(player) -> str:
    return reverse("player_calendar", args=[player.pk])


def read(response) -> Calendar:
    assert response.status_code == 200, response.status_code
    return Calendar.from_ical(response.content)


def events(calendar: Calendar) -> dict[str, dict]:
    """Each event by its UID: its properties decoded."""
    found = {}
    for event in calendar.walk("VEVENT"):
        found[str(event["uid"])] = {
            "start": event.decoded("dtstart"), "end": event.decoded("dtend"), "summary": str(event["summary"]),
            "location": str(event.get("location", "")), "description": str(event.get("description", "")),
            "status": str(event["status"]), "dtstamp": event.decoded("dtstamp"),
            "raw_start": event["dtstart"].to_ical().decode(),
        }
    return found


def uid(match: Match) -> str:
    return f"match-{match.pk}@{HOST}"


def scheduled(match: Match, *, at: datetime | None = SEVEN_PM, venue: str = "", table: str = "",
              round_: Round | None = None) -> Match:
    match.scheduled_at, match.venue, match.table, match.round = at, venue, table, round_
    match.save()
    return match


@pytest.fixture
def league():
    """A published league of a club with its organiser: round 1 published (dated), round 2 a draft."""
    club = make_club("Belmont Sports Club")
    organiser = make_organiser(club, make_user("olive"))
    competition = make_competition(club=club)
    first = Round.objects.create(competition=competition, number=1, starts_on=date(2025, 3, 7))
    draft = Round.objects.create(competition=competition, number=2, status=Round.DRAFT, starts_on=date(2025, 3, 14))
    return {"club": club, "organiser": organiser, "competition": competition, "first": first, "draft": draft}


def pair(name: str, club, *players) -> Partnership:
    one, two = players if players else (make_player(club=club), make_player(club=club))
    return Partnership.objects.create(player_one=one, player_two=two, club=club, name=name)


# ----------------------------------------------------------------------------- a competition's feed
def test_each_match_with_a_time_is_an_event_with_its_uid_utc_start_sides_venue_table_and_scoresheet(client, league):
    competition = league["competition"]
    match = scheduled(make_match(competition, side_a=pair("Lions", league["club"]),
                                 side_b=pair("Tigers", league["club"])),
                      venue="Blue Dollar Bar", table="7", round_=league["first"])

    response = client.get(competition_feed_url(competition))
    feed = events(read(response))

    assert list(feed) == [uid(match)]
    event = feed[uid(match)]
    assert event["start"] == SEVEN_PM and event["start"].tzinfo is not None
    assert event["raw_start"] == "20250307T230000Z"  # written in UTC, not in a time zone of its own
    assert event["end"] - event["start"] == MATCH_DURATION == timedelta(hours=2)
    assert event["summary"] == f"Lions v Tigers — {competition.name}"
    assert event["location"] == "Blue Dollar Bar · Table 7"
    assert "Round 1" in event["description"]
    assert f"http://testserver{reverse('match_sheet', args=[match.pk])}" in event["description"]
    assert event["status"] == "CONFIRMED"
    changed = Match.objects.get(pk=match.pk).updated_at.replace(microsecond=0)
    assert event["dtstamp"] == changed  # the match's last change (to the second): the feed reads the same till then


def test_the_calendar_is_named_for_the_competition_in_the_sites_time_zone(client, league):
    calendar = read(client.get(competition_feed_url(league["competition"])))
    assert str(calendar["version"]) == "2.0"
    assert str(calendar["prodid"]).startswith("-//")
    assert vText.from_ical(str(calendar["x-wr-calname"])) == league["competition"].name
    assert str(calendar["x-wr-timezone"]) == settings.TIME_ZONE == "America/Port_of_Spain"
    assert not calendar.walk("VEVENT")  # no match yet: an empty calendar, not an error


def test_the_feed_is_a_calendar_file_opened_inline_and_reads_the_same_twice(client, league):
    competition = league["competition"]
    scheduled(make_match(competition), round_=league["first"])
    response = client.get(competition_feed_url(competition))
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == f'inline; filename="{competition.slug}.ics"'
    assert client.get(competition_feed_url(competition)).content == response.content  # nothing of the hour read


def test_a_match_without_a_time_is_all_day_on_its_rounds_date_or_else_left_out(client, league):
    competition = league["competition"]
    dated = scheduled(make_match(competition), at=None, round_=league["first"])
    unscheduled = scheduled(make_match(competition), at=None)  # no time, no round

    feed = events(read(client.get(competition_feed_url(competition))))

    assert uid(unscheduled) not in feed
    event = feed[uid(dated)]
    assert event["start"] == date(2025, 3, 7) and not isinstance(event["start"], datetime)
    assert event["end"] == date(2025, 3, 8)  # an all-day event ends the next day
    assert event["raw_start"] == "20250307"


def test_a_forfeit_shows_with_its_outcome(client, league, django_capture_on_commit_callbacks):
    competition = league["competition"]
    match = scheduled(make_match(competition, side_a=pair("Lions", league["club"]),
                                 side_b=pair("Tigers", league["club"])), round_=league["first"])
    committing(django_capture_on_commit_callbacks)(services.record_forfeit, match, outcome=Match.FORFEIT_A,
                                                   user=league["organiser"])

    event = events(read(client.get(competition_feed_url(competition))))[uid(match)]

    assert "Lions forfeited: Tigers win by forfeit." in event["description"]


def test_a_draft_rounds_match_is_not_in_the_feed_but_for_the_clubs_organisers(client, league):
    competition = league["competition"]
    public = scheduled(make_match(competition), round_=league["first"])
    draft = scheduled(make_match(competition), round_=league["draft"])

    assert list(events(read(client.get(competition_feed_url(competition))))) == [uid(public)]
    client.force_login(make_user("stranger"))
    assert list(events(read(client.get(competition_feed_url(competition))))) == [uid(public)]

    client.force_login(league["organiser"])
    feed = events(read(client.get(competition_feed_url(competition))))
    assert set(feed) == {uid(public), uid(draft)}
    assert feed[uid(draft)]["status"] == "TENTATIVE" and "draft" in feed[uid(draft)]["description"]


def test_an_unpublished_competitions_feed_is_a_404_but_for_its_organisers(client, league):
    secret = make_competition(club=league["club"], published=False)
    match = scheduled(make_match(secret))

    assert client.get(competition_feed_url(secret)).status_code == 404
    client.force_login(make_user("stranger"))
    assert client.get(competition_feed_url(secret)).status_code == 404
    client.force_login(league["organiser"])
    assert list(events(read(client.get(competition_feed_url(secret))))) == [uid(match)]


def test_the_competition_page_links_its_feed(client, league):
    html = client.get(reverse("competition", args=[league["club"].slug, league["competition"].slug])).content
    assert f'href="{competition_feed_url(league["competition"])}"'.encode() in html


@pytest.mark.parametrize("size", [1, 12])
def test_the_competition_feed_takes_the_same_queries_for_one_match_or_many(client, league, size,
                                                                           django_assert_num_queries):
    competition = league["competition"]
    for n in range(size):
        scheduled(make_match(competition), venue="Blue Dollar Bar", table=str(n + 1),
                  round_=league["first"] if n % 2 else None, at=SEVEN_PM + timedelta(hours=n))
    with django_assert_num_queries(FEED_QUERIES):
        response = client.get(competition_feed_url(competition))
    assert len(read(response).walk("VEVENT")) == size


# ----------------------------------------------------------------------------- a player's feed
@pytest.fixture
def player_scene(league):
    """Kim plays in the league (round 1, side A's first seat, and side B's second seat in another match), in the
    draft round, in an unpublished competition and at a table of a team match; Lee never plays."""
    club, competition = league["club"], league["competition"]
    kim, partner = make_player("Kim", club=club), make_player("Pat", club=club)
    kims = pair("Kim & Pat", club, kim, partner)
    other_pair = pair("Ash & Kim", club, make_player("Ash", club=club), kim)
    as_a = scheduled(make_match(competition, side_a=kims), round_=league["first"])
    as_b = scheduled(make_match(competition, side_b=other_pair), at=SEVEN_PM + timedelta(days=1))
    others = scheduled(make_match(competition), round_=league["first"])
    in_draft = scheduled(make_match(competition, side_a=kims), round_=league["draft"])
    secret = make_competition(club=club, published=False)
    in_secret = scheduled(make_match(secret, side_a=kims))

    teams = make_competition(club=club)
    Competition.objects.filter(pk=teams.pk).update(entrant_kind=Competition.TEAMS, team_tables=2)
    teams.refresh_from_db()
    red, blue = (Team.objects.create(competition=teams, club=club, name=name) for name in ("Red", "Blue"))
    red_pairs = [kims, make_partnership(club=club)]
    blue_pairs = [make_partnership(club=club), make_partnership(club=club)]
    red.partnerships.add(*red_pairs)
    blue.partnerships.add(*blue_pairs)
    for team in (red, blue):
        Entry.objects.create(competition=teams, team=team)
    team_match = services.create_team_match(teams, red, blue, tables=list(zip(red_pairs, blue_pairs, strict=True)),
                                            venue="Queen's Park Oval", scheduled_at=SEVEN_PM + timedelta(days=2))
    at_a_table = team_match.table_matches.get(side_a=kims)
    not_kims_table = team_match.table_matches.exclude(side_a=kims).get()
    return {"kim": kim, "lee": make_player("Lee", club=club), "mine": [as_a, as_b, at_a_table],
            "not_mine": [others, in_draft, in_secret, not_kims_table], "teams": teams}


def test_a_players_feed_holds_only_their_public_matches(client, player_scene):
    feed = events(read(client.get(player_feed_url(player_scene["kim"]))))
    assert set(feed) == {uid(match) for match in player_scene["mine"]}


def test_a_table_of_a_team_match_takes_its_team_matchs_time_and_venue(client, player_scene):
    table = player_scene["mine"][2]
    event = events(read(client.get(player_feed_url(player_scene["kim"]))))[uid(table)]
    assert event["start"] == SEVEN_PM + timedelta(days=2)
    assert event["location"] == f"Queen's Park Oval · Table {table.table}"
    assert event["summary"] == f"{table.side_a_name} v {table.side_b_name} — {player_scene['teams'].name}"
    assert "Team match: Red v Blue" in event["description"]


def test_a_players_feed_is_named_for_them_and_empty_for_a_player_who_never_plays(client, player_scene):
    lee = player_scene["lee"]
    response = client.get(player_feed_url(lee))
    calendar = read(response)
    assert vText.from_ical(str(calendar["x-wr-calname"])) == "Lee"
    assert not calendar.walk("VEVENT")
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == 'inline; filename="lee.ics"'
    assert client.get(reverse("player_calendar", args=[lee.pk + 1000])).status_code == 404


def test_the_player_page_links_their_feed(client, player_scene):
    html = client.get(reverse("player", args=[player_scene["kim"].pk])).content.decode()
    assert f'href="{player_feed_url(player_scene["kim"])}"' in html and "Add to your calendar" in html


@pytest.mark.parametrize("size", [1, 12])
def test_the_player_feed_takes_the_same_queries_for_one_match_or_many(client, league, size,
                                                                      django_assert_num_queries):
    kim = make_player("Kim", club=league["club"])
    kims = pair("Kim & Pat", league["club"], kim, make_player(club=league["club"]))
    for n in range(size):
        scheduled(make_match(league["competition"], side_a=kims), table=str(n + 1),
                  round_=league["first"] if n % 2 else None, at=SEVEN_PM + timedelta(days=n))
    with django_assert_num_queries(FEED_QUERIES):
        response = client.get(player_feed_url(kim))
    assert len(read(response).walk("VEVENT")) == size
