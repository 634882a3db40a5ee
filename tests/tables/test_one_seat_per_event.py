"""One seat per player per event (``tables.one_seat``): a login holds at most one open seat among a competition's
tables. A data mistake that puts one login in two matches of a round, or twice in one match, seats it once — the
other seat is left to its private link, the organisers are told and the match's online page says so; a signed-in
user who already has a seat of the event is refused another seat's link (the page and the socket); and two
openings racing seat the login once (PostgreSQL: the competition's row is the lock)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from games.models import Match
from league.models import Competition, Partnership
from league.signals import attention_needed
from tables import fixtures, live, one_seat, seating
from tables.changes import TableError
from tables.models import Table
from tests.factories import make_club, make_competition, make_match, make_partnership, make_user

pytestmark = pytest.mark.django_db


def with_logins(*pairs) -> None:
    for pair in pairs:
        for player in (pair.player_one, pair.player_two):
            player.user = make_user()
            player.save()


@pytest.fixture
def event():
    """A competition played online with two matches of one round, every player with a login; the organiser."""
    organiser = make_user("olive")
    club = make_club("Belmont", organisers=[organiser])
    competition = make_competition(club=club)
    Competition.objects.filter(pk=competition.pk).update(play_online=True)
    pairs = [make_partnership(club=club, name=f"Pair {n}") for n in range(1, 5)]
    with_logins(*pairs)
    first = make_match(competition, side_a=pairs[0], side_b=pairs[1])
    second = make_match(competition, side_a=pairs[2], side_b=pairs[3])
    return {"organiser": organiser, "competition": competition, "first": first, "second": second, "pairs": pairs}


@pytest.fixture
def told():
    """What ``attention_needed`` said, after the commit."""
    heard = []

    def listen(sender=None, **kwargs):
        heard.append(kwargs)

    attention_needed.connect(listen, dispatch_uid="test-one-seat")
    yield heard
    attention_needed.disconnect(dispatch_uid="test-one-seat")


def seat_users(table: Table) -> list[int | None]:
    return list(table.seats.order_by("index").values_list("user_id", flat=True))


def same_person(player, other) -> None:
    """``other`` plays in ``player``'s place (the data mistake: one person in two partnerships, or on both sides);
    ``player`` is taken out of its partnership."""
    for partnership in Partnership.objects.filter(player_one=player):
        Partnership.objects.filter(pk=partnership.pk).update(player_one=other)
    for partnership in Partnership.objects.filter(player_two=player):
        Partnership.objects.filter(pk=partnership.pk).update(player_two=other)


# ----------------------------------------------------------------------------- opening
def test_a_login_in_two_matches_of_one_event_is_seated_once_and_the_other_seat_left_to_its_link(
        event, told, client, django_capture_on_commit_callbacks):
    ann = event["pairs"][0].player_one
    same_person(event["pairs"][2].player_one, ann)  # Ann is also entered in Pair 3: two matches of the round
    with django_capture_on_commit_callbacks(execute=True):
        first = fixtures.open_match_table(event["first"])
    with django_capture_on_commit_callbacks(execute=True):
        second = fixtures.open_match_table(event["second"])
    assert seat_users(first)[0] == ann.user_id
    assert seat_users(second)[0] is None and all(seat_users(second)[1:])  # the rest of the match is seated
    assert second.seats.get(index=0).seat_token  # its private link plays it
    assert [note["user_id"] for note in told] == [event["organiser"].pk]  # once, for the table that left it
    note = told[0]
    assert note["url"] == f"/matches/{event['second'].pk}/online/" and note["key"] == f"two-seats:{second.pk}"
    assert f"login ({ann.user.username}) already has a seat in {event['first']} (table {first.pk})" in note["body"]
    client.force_login(event["organiser"])
    page = client.get(f"/matches/{event['second'].pk}/online/").content.decode()
    assert 'id="two-seats"' in page and "seat 1 is played by its private link" in page
    assert 'id="two-seats"' not in client.get(f"/matches/{event['first'].pk}/online/").content.decode()


def test_a_login_twice_in_one_match_is_seated_once(event, told, client, django_capture_on_commit_callbacks):
    pairs = event["pairs"]
    same_person(pairs[1].player_two, pairs[0].player_one)  # one person on both sides of the first match
    with django_capture_on_commit_callbacks(execute=True):
        table = fixtures.open_match_table(event["first"])
    users = seat_users(table)
    assert users[0] == pairs[0].player_one.user_id and users[3] is None and users.count(users[0]) == 1
    assert "already has seat 1 of this match, so seat 4 is played by its private link" in told[0]["body"]
    client.force_login(event["organiser"])
    assert 'id="two-seats-4"' in client.get(f"/matches/{event['first'].pk}/online/").content.decode()
    client.force_login(pairs[0].player_one.user)  # nor does the seat's link let the login in a second time
    page = client.get(f"/tables/{table.pk}/?seat={table.seats.get(index=3).seat_token}")
    assert page.status_code == 403 and "You already have seat 1 at this table" in page.content.decode()


def test_a_login_is_seated_again_once_its_other_seat_is_closed(event):
    pairs = event["pairs"]
    same_person(pairs[2].player_one, pairs[0].player_one)
    first = fixtures.open_match_table(event["first"])
    second = fixtures.open_match_table(event["second"])
    assert seat_users(second)[0] is None
    fixtures.end_fixture(first, event["organiser"])
    match = Match.objects.select_related("side_a", "side_b").get(pk=event["second"].pk)
    assert one_seat.seats_left_to_links(second, match, fixtures.fixture_players(match)) == []
    fixtures.end_fixture(second, event["organiser"])
    again = fixtures.open_match_table(Match.objects.get(pk=event["second"].pk))
    assert seat_users(again)[0] == pairs[0].player_one.user_id


def test_a_second_event_or_a_casual_table_is_no_second_seat_of_this_one(event):
    ann = event["pairs"][0].player_one
    fixtures.open_match_table(event["first"])
    other = make_competition(club=event["competition"].club)
    elsewhere = make_match(other, side_a=make_partnership(club=other.club), side_b=make_partnership(club=other.club))
    same_person(elsewhere.side_a.player_one, ann)
    assert seat_users(fixtures.open_match_table(elsewhere))[0] == ann.user_id  # another event: her seat
    casual = seating.create_table(ann.user, seat=0)
    assert seating.seat_of_user(casual, ann.user) == 0


# ----------------------------------------------------------------------------- seat links
def test_a_seat_link_opened_by_a_user_seated_elsewhere_in_the_event_is_refused(event, client):
    ann = event["pairs"][0].player_one
    same_person(event["pairs"][2].player_one, ann)
    first = fixtures.open_match_table(event["first"])
    second = fixtures.open_match_table(event["second"])
    token = second.seats.get(index=0).seat_token
    client.force_login(ann.user)
    page = client.get(f"/tables/{second.pk}/?seat={token}")
    assert page.status_code == 403
    assert f"You already have a seat in {event['first']} (table {first.pk}) of this event" in page.content.decode()
    with pytest.raises(live.Refused) as refused:
        live.seat_for_socket(second.pk, ann.user, token, "")
    assert refused.value.code == 4403 and "You already have a seat in" in refused.value.reason
    assert client.get(f"/tables/{first.pk}/").status_code == 200  # her own seat opens
    client.logout()
    assert client.get(f"/tables/{second.pk}/?seat={token}").status_code == 200  # the link itself works
    stranger = make_user()
    assert live.seat_for_socket(second.pk, stranger, token, "") == 0  # anyone else with the link plays it


def test_seating_a_user_at_a_competitions_table_while_seated_at_another_is_refused(event):
    ann = event["pairs"][0].player_one
    fixtures.open_match_table(event["first"])
    second = fixtures.open_match_table(event["second"])
    with pytest.raises(one_seat.SeatElsewhere, match="You already have a seat in .* of this event"):
        one_seat.check_one_seat(second, ann.user)
    one_seat.check_one_seat(second, make_user())  # nobody else is stopped


def test_a_fixtures_seats_still_belong_to_its_players(event):
    table = fixtures.open_match_table(event["first"])
    with pytest.raises(TableError, match="belong to the partnerships' players"):
        seating.take_seat(table, 0, make_user())


# ----------------------------------------------------------------------------- the race, on PostgreSQL
@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_openings_at_once_seat_a_login_once(event, monkeypatch):
    """Both openings look for the login's other seats; the look is slowed so that they overlap. The second waits on
    the competition's row until the first commits, then finds the seat taken."""
    ann = event["pairs"][0].player_one
    same_person(event["pairs"][2].player_one, ann)
    original = one_seat.open_seat_elsewhere

    def slow_look(*args, **kwargs):
        found = original(*args, **kwargs)
        time.sleep(0.3)
        return found

    monkeypatch.setattr(one_seat, "open_seat_elsewhere", slow_look)
    start, opened, failed = threading.Barrier(2), [], []

    def open_table(match: Match) -> None:
        try:
            start.wait()
            opened.append(fixtures.open_match_table(match))
        except Exception as error:  # noqa: BLE001 - reported below
            failed.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=open_table, args=(event[name],)) for name in ("first", "second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not failed and len(opened) == 2
    seated = [user for table in Table.objects.all() for user in seat_users(table)]
    assert seated.count(ann.user_id) == 1
