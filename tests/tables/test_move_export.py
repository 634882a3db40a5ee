"""Every move of a match played online, with the time it took, for the organisers' review (``tables.move_export``):
the CSV on the match's online page, the JSON of ``GET /api/matches/<id>/moves/`` and each player's summary on the
page. A move's time runs from its turn's start (the hand's previous move, or its deal); who moved is told apart
(the player, the clock, a bot covering); the hand an open table plays is left out until it ends, and no card that
was not played face up is in it. The club's organisers only: a scorekeeper is refused, as is a match never played
online (409, in words)."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match
from league.models import Competition
from tables import acting, clock, dealing, fixtures
from tables import state as live
from tables.models import Seat, Table, TableAction, TableHand
from tables.move_export import COLUMNS, in_words, match_moves
from tests.factories import make_match, make_scene, make_user
from tests.tables.helpers import fresh, later

pytestmark = pytest.mark.django_db

CARD = re.compile(r'"([2-9TJQKA][CDHS])"')


@pytest.fixture
def scene():
    scene = make_scene("Review", organiser="olive", scorekeeper="keeper", match_format=Competition.BEST_OF,
                       match_games=3, ruleset={"target": 5})
    match = scene["match"]
    for player in (match.side_a.player_one, match.side_b.player_one, match.side_a.player_two,
                   match.side_b.player_two):
        player.user = make_user()
        player.save()
    scene["table"] = dealing.start(fixtures.open_fixture(match, scene["organiser"]))
    return scene


def move_as_player(table: Table) -> Table:
    """The seat to move makes its first legal move itself."""
    table = fresh(table)
    _, state = live.current(table)
    assert state is not None and table.turn is not None
    acting.act(table.pk, table.turn, str(state.legal_actions(table.turn)[0]), table.version)
    return fresh(table)


def clock_runs_out(table: Table) -> Table:
    """The seat to move was shown its turn and let the clock run out: a bot moves for it (``by="clock"``)."""
    table = fresh(table)
    clock.turn_shown(table.pk, table.turn, table.version)
    assert clock.play_due(table.pk, now=later()).by == TableAction.CLOCK
    return fresh(table)


def covered_until_hand(table: Table, number: int) -> Table:
    """Bots cover every seat until hand ``number`` is dealt."""
    Seat.objects.filter(table=table).update(covering=True)
    for _ in range(500):
        table = fresh(table)
        if table.hand_number >= number or table.status != Table.PLAYING:
            return table
        clock.play_due(table.pk, now=table.deadline_at)
    raise AssertionError("the hand did not end")


def timed(hand: TableHand, gaps: list[float]) -> None:
    """The hand dealt at a known moment and its first moves ``gaps`` seconds apart (one after the other)."""
    dealt = timezone.now() - timedelta(hours=1)
    TableHand.objects.filter(pk=hand.pk).update(created_at=dealt)
    moment = dealt
    for action, gap in zip(hand.actions.order_by("seq"), gaps, strict=False):
        moment += timedelta(seconds=gap)
        TableAction.objects.filter(pk=action.pk).update(created_at=moment)


def played_hand_one(scene) -> tuple[Table, TableHand]:
    """Hand 1: two moves of the players themselves, one by the clock, the rest by covering bots; hand 2 in play."""
    table = move_as_player(scene["table"])
    table = move_as_player(table)
    table = clock_runs_out(table)
    table = covered_until_hand(table, 2)
    Seat.objects.filter(table=table).update(covering=False)
    hand = TableHand.objects.get(table=table, number=1)
    return table, hand


# ----------------------------------------------------------------------------- what is exported
def test_every_move_is_exported_in_order_with_who_made_it_and_the_time_it_took(scene):
    table, hand = played_hand_one(scene)
    timed(hand, [2.5, 3.0, 40.0] + [1.0] * 100)
    export = match_moves(scene["match"])
    actions = list(hand.actions.order_by("seq"))
    assert [move.action for move in export.moves] == [action.action for action in actions]  # hand 1, whole
    first, second, third = export.moves[:3]
    assert (first.seconds, second.seconds, third.seconds) == (2.5, 3.0, 40.0)  # from the deal, then move to move
    assert (first.by, second.by, third.by) == ("player", "player", "clock")
    match = scene["match"]
    players = fixtures.fixture_players(match)
    assert first.player == players[first.seat - 1].name
    assert first.moved_by == players[first.seat - 1].user.username  # the seat's login
    assert third.moved_by == "bot (the clock ran out)" and export.moves[3].moved_by == "covered by bot"
    assert first.side == (match.side_a_name if first.seat % 2 else match.side_b_name)
    assert (first.table, first.hand, first.game) == (table.pk, 1, 1)
    in_play = fresh(table).hand_number  # hand 2 (or the next: a kick that wins may end a hand as it is dealt)
    assert export.in_play_left_out == [{"table": table.pk, "hand": in_play}]  # the hand in play: left out


def test_each_players_summary_counts_their_own_moves_and_those_a_bot_made_for_them(scene):
    _, hand = played_hand_one(scene)
    timed(hand, [2.5, 3.0, 40.0] + [1.0] * 100)
    export = match_moves(scene["match"])
    by_seat = {player.seat: player for player in export.summary}
    assert sum(player.moves for player in export.summary) == len(export.moves)
    assert sum(player.own_moves for player in export.summary) == 2
    assert sum(player.by_clock for player in export.summary) == 1
    assert sum(player.by_cover for player in export.summary) == len(export.moves) - 3
    first, second = export.moves[:2]  # the eldest stood, then led: two moves of one seat
    assert (first.action, first.seat) == ("stand", second.seat)
    assert (by_seat[first.seat].average_seconds, by_seat[first.seat].longest_seconds) == (2.8, 3.0)
    idle = [player for player in export.summary if player.own_moves == 0]
    assert all(player.average_seconds is None and player.longest_seconds is None for player in idle)


def test_while_the_table_plays_no_card_of_the_hand_in_play_nor_any_unplayed_card_is_exported(scene):
    table = move_as_player(move_as_player(scene["table"]))
    assert match_moves(scene["match"]).moves == []  # hand 1 is in play: nothing yet
    table, hand = played_hand_one({**scene, "table": table})
    body = json.dumps(match_moves(scene["match"]).as_dict())
    played = set(hand.actions.values_list("action", flat=True))
    assert set(CARD.findall(body)) <= played  # only cards played face up in a finished hand
    in_play = TableHand.objects.get(table=table, number=2)
    assert not set(in_play.actions.values_list("action", flat=True)) & set(CARD.findall(body)) - played


def test_a_match_over_exports_every_hand_of_every_table_it_was_played_at(scene):
    organiser, match = scene["organiser"], scene["match"]
    first = covered_until_hand(scene["table"], 2)
    fixtures.end_fixture(first, organiser)  # the hand in play stops with the table: its moves stay at it
    second = dealing.start(fixtures.open_fixture(Match.objects.get(pk=match.pk), organiser))
    Seat.objects.filter(table=second).update(covering=True)
    for _ in range(20_000):
        second = fresh(second)
        if second.status != Table.PLAYING:
            break
        clock.play_due(second.pk, now=second.deadline_at)
    assert second.status == Table.FINISHED
    export = match_moves(match)
    assert export.in_play_left_out == []
    assert {move.table for move in export.moves} == {first.pk, second.pk}
    assert len(export.moves) == TableAction.objects.filter(table__match=match).count()
    assert [(move.table, move.hand) for move in export.moves] == sorted((move.table, move.hand)
                                                                        for move in export.moves)


def test_a_move_in_words():
    assert [in_words(text) for text in ("stand", "beg", "give", "run", "JH", "TD")] == [
        "stood", "begged", "gave one", "ran the pack", "played J♥", "played 10♦"]


# ----------------------------------------------------------------------------- the CSV, the page, the API
def test_the_organiser_downloads_every_move_as_csv_and_sees_the_summary_on_the_online_page(scene, client):
    played_hand_one(scene)
    client.force_login(scene["organiser"])
    match = scene["match"]
    response = client.get(f"/matches/{match.pk}/online/moves.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert f'filename="match-{match.pk}-moves.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == list(COLUMNS) and len(rows) == 1 + len(match_moves(match).moves)
    assert rows[1][COLUMNS.index("by")] == "player" and float(rows[1][COLUMNS.index("seconds")]) >= 0
    page = client.get(f"/matches/{match.pk}/online/").content.decode()
    assert 'id="moves-review"' in page and 'id="moves-csv"' in page and "The hand in play is left out" in page


def test_the_api_gives_the_moves_and_summary_as_json_to_the_organiser(scene):
    played_hand_one(scene)
    api = APIClient()
    api.force_authenticate(scene["organiser"])
    response = api.get(f"/api/matches/{scene['match'].pk}/moves/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"match", "made_at", "seconds_measured", "in_play_left_out", "summary", "moves"}
    assert body["moves"] and set(body["moves"][0]) == set(COLUMNS)
    assert body["moves"][0]["by"] == "player" and body["in_play_left_out"][0]["hand"] >= 2
    assert len(body["summary"]) == 4 and body["match"]["id"] == scene["match"].pk


@pytest.mark.parametrize("who", ["scorekeeper", "player", "stranger"])
def test_anyone_but_the_clubs_organisers_is_refused(scene, client, who):
    match = scene["match"]
    user = {"scorekeeper": scene["scorekeeper"], "player": match.side_a.player_one.user,
            "stranger": make_user()}[who]
    api = APIClient()
    api.force_authenticate(user)
    response = api.get(f"/api/matches/{match.pk}/moves/")
    assert response.status_code == 403
    assert response.json()["errors"][0]["reason"].startswith("only organisers of")
    client.force_login(user)
    page = client.get(f"/matches/{match.pk}/online/moves.csv")
    assert page.status_code == 403  # a published match: the page's refusal is in words
    if who == "scorekeeper":
        assert "organisers review a match&#x27;s moves" in page.content.decode()
        assert 'id="moves-review"' not in client.get(f"/matches/{match.pk}/online/").content.decode()


def test_nobody_signed_in_is_refused(scene, client):
    response = APIClient().get(f"/api/matches/{scene['match'].pk}/moves/")
    assert response.status_code in (401, 403) and response.json()["errors"][0]["field"] == ""
    page = client.get(f"/matches/{scene['match'].pk}/online/moves.csv")
    assert page.status_code == 302 and "/login/" in page["Location"]


def test_a_match_never_played_online_has_no_moves_to_review(scene, client):
    other = make_match(scene["competition"])
    api = APIClient()
    api.force_authenticate(scene["organiser"])
    response = api.get(f"/api/matches/{other.pk}/moves/")
    assert response.status_code == 409
    assert response.json() == {"errors": [{"field": "match", "reason": "This match was not played online: it has "
                                                                       "no moves to review."}]}
    client.force_login(scene["organiser"])
    page = client.get(f"/matches/{other.pk}/online/moves.csv", follow=True)
    assert "This match was not played online" in page.content.decode()
    assert 'id="moves-review"' not in page.content.decode()


def test_a_match_that_does_not_exist_is_a_404(scene):
    api = APIClient()
    api.force_authenticate(scene["organiser"])
    assert api.get("/api/matches/999999/moves/").status_code == 404
