"""The organiser voids a match played online and it is played again (``tables.voiding``): its open table closes
saying why, every hand is struck out through the entry service (kept, with the reason, in its history) and a forfeit
cleared, the standings follow, and a fresh table opens with the same seats; its players are told. The page asks for
a reason and a confirmation; the API answers 403 to anyone but the club's organisers, 400 naming ``reason`` when it
is missing, and 409 when the match cannot be voided (never played online, a result above the hand level, a later
round published, nothing played yet)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from draw.models import Round
from games.models import Hand, Match
from games.services import enter_game_result
from league.choices import OnlineNoShow
from league.models import Competition
from league.signals import attention_needed
from standings.models import StandingRow
from tables import clock, dealing, events, fixtures, voiding
from tables.changes import TableError
from tables.models import Seat, Table, TableHand
from tests.factories import make_match, make_scene, make_user
from tests.tables.helpers import fresh
from tests.tables.test_online_events import club, due_now, organiser, paired_and_published, run, swiss, tables_of

__all__ = ["club", "organiser", "run"]  # the events' fixtures, used here too

pytestmark = pytest.mark.django_db
REASON = "disconnect storm in game 1"


@pytest.fixture
def scene():
    scene = make_scene("Void", organiser="olive", scorekeeper="keeper", match_format=Competition.BEST_OF,
                       match_games=3, ruleset={"target": 5})
    match = scene["match"]
    for player in fixtures.fixture_players(match):
        player.user = make_user()
        player.save()
    scene["table"] = dealing.start(fixtures.open_fixture(match, scene["organiser"]))
    return scene


@pytest.fixture
def told():
    heard = []

    def listen(sender=None, **kwargs):
        heard.append(kwargs)

    attention_needed.connect(listen, dispatch_uid="test-void")
    yield heard
    attention_needed.disconnect(dispatch_uid="test-void")


def covered_until(table: Table, *, hands: int | None = None) -> Table:
    """Bots cover every seat until ``hands`` hands are stored on the sheet (``None``: the match is over)."""
    Seat.objects.filter(table=table).update(covering=True)
    for _ in range(20_000):
        table = fresh(table)
        if table.status != Table.PLAYING:
            return table
        if hands is not None and TableHand.objects.filter(table=table, stored_hand__isnull=False).count() >= hands:
            return table
        clock.play_due(table.pk, now=table.deadline_at)
    raise AssertionError("the table never got there")


def api_as(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def errors(response) -> list[tuple[str, str]]:
    return [(error["field"], error["reason"]) for error in response.json()["errors"]]


# ----------------------------------------------------------------------------- the page: reason, confirmation, done
def test_the_organiser_voids_a_match_played_online_and_it_is_played_again_at_a_fresh_table(
        scene, client, told, django_capture_on_commit_callbacks):
    match, organiser = scene["match"], scene["organiser"]
    old = covered_until(scene["table"], hands=1)  # one hand cannot end a best of 3: the table plays on
    Seat.objects.filter(table=old).update(covering=False)
    stored = list(Hand.objects.filter(game__match=match, deleted=False).values_list("pk", flat=True))
    packs = list(TableHand.objects.filter(table=old).values_list("pack", flat=True))
    assert len(stored) >= 1 and old.status == Table.PLAYING
    client.force_login(organiser)
    url = f"/matches/{match.pk}/online/void/"
    page = client.get(url).content.decode()
    assert 'id="void-form"' in page and f"{len(stored)} hand" in page and f"Table {old.pk} closes" in page

    missing = client.post(url, {"reason": "  "}).content.decode()
    assert 'id="f-reason"' in missing and "has-error" in missing and "Say why the match is voided" in missing

    confirm = client.post(url, {"reason": REASON}).content.decode()
    assert 'id="confirm-void"' in confirm and REASON in confirm
    assert fresh(old).status == Table.PLAYING and Hand.objects.filter(pk__in=stored, deleted=False).count() == len(
        stored)  # nothing changes before the confirmation

    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, {"reason": REASON, "confirmed": "True"})
    assert done.status_code == 302 and done["Location"] == f"/matches/{match.pk}/online/"
    old = fresh(old)
    match.refresh_from_db()
    replay = Table.objects.get(match=match, status=Table.LOBBY)
    assert old.status == Table.CLOSED
    assert old.end_reason == f"Voided by olive: {REASON}. The match is played again at table {replay.pk}."
    assert match.held_by_table == replay.pk
    assert (match.status, match.games_a, match.games_b, match.winner) == (Match.SCHEDULED, 0, 0, "")
    for hand in Hand.objects.filter(pk__in=stored):  # struck out, never removed: their history says who and why
        last = hand.versions.order_by("-version").first()
        assert hand.deleted and last.deleted and last.reason == f"voided by olive: {REASON}"
        assert last.author == organiser
    assert list(TableHand.objects.filter(table=old).values_list("pack", flat=True)) == packs  # every card kept
    assert list(replay.seats.order_by("index").values_list("user_id", flat=True)) == list(
        old.seats.order_by("index").values_list("user_id", flat=True))  # the same seats
    assert sorted(note["user_id"] for note in told) == sorted(
        old.seats.values_list("user_id", flat=True))  # each player with a login is told
    assert all(note["key"] == f"match-voided:{match.pk}:{replay.pk}" and REASON in note["body"] for note in told)
    page = client.get(done["Location"]).content.decode()
    assert f"played again at table {replay.pk}" in page

    again = client.post(url, {"reason": REASON, "confirmed": "True"}, follow=True).content.decode()
    assert "Nothing has been played in this match yet" in again  # a replay not begun: nothing to void
    assert Table.objects.get(pk=replay.pk).status == Table.LOBBY
    replay = dealing.start(replay)  # the replay deals the match's first hand, from 0–0
    assert (replay.game_number, replay.score, replay.hand_number) == (1, [0, 0], 1)


def test_a_finished_match_voided_through_the_api_comes_off_the_standings(scene, run):
    match, organiser = scene["match"], scene["organiser"]
    finished = run(covered_until, scene["table"])
    match.refresh_from_db()
    assert finished.status == Table.FINISHED and match.status == Match.COMPLETE
    assert sum(StandingRow.objects.filter(competition=match.competition).values_list("played", flat=True)) == 2
    response = run(api_as(organiser).post, f"/api/matches/{match.pk}/void/", {"reason": REASON}, format="json")
    assert response.status_code == 200
    body = response.json()
    replay = Table.objects.get(pk=body["table"])
    assert body["closed_tables"] == [] and body["hands_struck_out"] == Hand.objects.filter(game__match=match).count()
    assert body["match"]["status"] == Match.SCHEDULED and body["table_url"].endswith(f"/tables/{replay.pk}/")
    assert sum(StandingRow.objects.filter(competition=match.competition).values_list("played", flat=True)) == 0
    assert fresh(finished).status == Table.FINISHED and fresh(finished).end_reason.startswith("Voided by olive")


def test_a_no_show_forfeit_at_an_event_table_is_voided_and_the_replay_starts_by_itself(club, organiser, run):
    competition = swiss(club, online_no_show=OnlineNoShow.FORFEIT)
    table = tables_of(paired_and_published(run, competition))[0]
    due_now(table)
    run(events.start_due)
    match = Match.objects.get(pk=table.match_id)
    assert match.outcome == Match.DOUBLE_FORFEIT
    replay = run(voiding.void_and_replay, match, organiser, "the server lost every socket at the start").table
    match.refresh_from_db()
    assert match.outcome == Match.PLAYED and match.status == Match.SCHEDULED and match.held_by_table == replay.pk
    assert replay.status == Table.LOBBY and replay.starts_at is not None  # the event's start time, as a round's
    assert "Voided by" in fresh(table).end_reason


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("who", ["scorekeeper", "player"])
def test_anyone_but_the_clubs_organisers_is_refused(scene, client, who):
    match = scene["match"]
    user = scene["scorekeeper"] if who == "scorekeeper" else match.side_a.player_one.user
    covered_until(scene["table"], hands=1)
    response = api_as(user).post(f"/api/matches/{match.pk}/void/", {"reason": REASON}, format="json")
    assert response.status_code == 403 and errors(response)[0][1].startswith("only organisers of")
    client.force_login(user)
    assert client.post(f"/matches/{match.pk}/online/void/", {"reason": REASON, "confirmed": "True"}
                       ).status_code == 403
    with pytest.raises(TableError, match="only the club's organisers"):
        voiding.void_and_replay(match, user, REASON)
    assert not Hand.objects.filter(game__match=match, deleted=True).exists()


def test_a_missing_or_too_long_reason_names_the_field(scene):
    match = scene["match"]
    covered_until(scene["table"], hands=1)
    api = api_as(scene["organiser"])
    for body in ({}, {"reason": ""}, {"reason": "   "}, {"reason": "x" * 201}):
        response = api.post(f"/api/matches/{match.pk}/void/", body, format="json")
        assert response.status_code == 400 and [field for field, _ in errors(response)] == ["reason"], body
    with pytest.raises(TableError) as refused:
        voiding.void_and_replay(match, scene["organiser"], "   ")
    assert refused.value.field == "reason"


def test_a_match_never_played_online_is_refused_with_a_409(scene, client):
    other = make_match(scene["competition"])
    response = api_as(scene["organiser"]).post(f"/api/matches/{other.pk}/void/", {"reason": REASON}, format="json")
    assert response.status_code == 409
    assert errors(response) == [("match", "This match was not played online: correct its results on its scoresheet "
                                          "instead.")]
    client.force_login(scene["organiser"])
    page = client.get(f"/matches/{other.pk}/online/void/").content.decode()
    assert 'id="cannot-void"' in page and "not played online" in page and 'id="void-form"' not in page


def test_a_result_entered_above_the_hand_level_is_refused_with_a_409(scene):
    match, organiser = scene["match"], scene["organiser"]
    fixtures.end_fixture(scene["table"], organiser)
    enter_game_result(Match.objects.get(pk=match.pk), number=1, winner="a", user=organiser)
    response = api_as(organiser).post(f"/api/matches/{match.pk}/void/", {"reason": REASON}, format="json")
    assert response.status_code == 409 and "game results or match totals" in errors(response)[0][1]


def test_nothing_played_yet_is_refused_with_a_409(scene):
    match, organiser = scene["match"], scene["organiser"]
    fixtures.end_fixture(scene["table"], organiser)
    TableHand.objects.filter(table__match=match).delete()  # as if the table had been closed before its first deal
    response = api_as(organiser).post(f"/api/matches/{match.pk}/void/", {"reason": REASON}, format="json")
    assert response.status_code == 409 and errors(response)[0][1].startswith("Nothing has been played")


def test_a_match_whose_next_round_is_published_is_refused_with_a_409(scene):
    match, organiser = scene["match"], scene["organiser"]
    covered_until(scene["table"], hands=1)
    first = Round.objects.create(competition=match.competition, number=1, status=Round.PUBLISHED)
    Match.objects.filter(pk=match.pk).update(round=first)
    Round.objects.create(competition=match.competition, number=2, status=Round.PUBLISHED)
    response = api_as(organiser).post(f"/api/matches/{match.pk}/void/", {"reason": REASON}, format="json")
    assert response.status_code == 409
    assert errors(response)[0][1].startswith("Round 2 of this event is already published")
    assert fresh(scene["table"]).status == Table.PLAYING  # nothing changed


def test_a_match_that_does_not_exist_or_a_get_is_refused(scene):
    api = api_as(scene["organiser"])
    assert api.post("/api/matches/999999/void/", {"reason": REASON}, format="json").status_code == 404
    assert api.get(f"/api/matches/{scene['match'].pk}/void/").status_code == 405
