"""A casual table's finished hands replayed: ``/tables/<id>/hands/<n>/replay/`` turns the table's stored
hand (its pack's deal and action log, kept as the engine's record) into the scoresheet's replay page
(``games.replay``). The tricks shown are the log's cards in order with the engine's winner; the page is for whoever
may read the table (a private one needs its invite, kept in the step links); a hand still in play is refused (its
cards are hidden) and so is one never dealt; the table page lists the finished hands with their replays for its
players and spectators."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from engine.hand import HandState
from tables import clock, dealing, seating
from tables import state as live
from tables.models import Table, TableAction, TableHand
from tests.factories import make_user
from tests.tables.helpers import fresh

pytestmark = pytest.mark.django_db


def played_table(visibility: str = Table.PUBLIC, hands: int = 2) -> Table:
    """A 4-seat table of bots that has finished ``hands`` hands with at least one card played, and is playing the
    next."""
    table = dealing.start(seating.create_table(make_user("host"), 4, None, visibility,
                                               {0: "random", 1: "heuristic", 2: "random", 3: "heuristic"},
                                               bot_pace=0))
    for _ in range(5000):
        table = fresh(table)
        done = TableHand.objects.filter(table=table, finished_at__isnull=False)
        if done.count() >= hands and any(h.record["plays"] for h in done) and table.status == Table.PLAYING:
            return table
        if table.status != Table.PLAYING:
            table = dealing.rematch(table)
        clock.play_due(table.pk, now=table.deadline_at)
    raise AssertionError("the bots did not play")


def replay_url(table: Table, number: int, query: str = "") -> str:
    return reverse("table_replay", args=[table.pk, number]) + query


def readable(response) -> str:
    return html.unescape(response.content.decode())


def logged_tricks(hand: TableHand) -> list[tuple[int, list[str], int]]:
    """The tricks of the hand from its action log, through the engine: (leader, cards in order, winner)."""
    state = live.deal(hand.table, hand)
    for seat, action in TableAction.objects.filter(hand=hand).order_by("seq").values_list("seat", "action"):
        state.apply(action, seat)
    assert state.phase == "over"
    from engine.cards import CARD_NAMES

    return [(leader, [CARD_NAMES[c] for c in cards], winner) for leader, cards, winner in state.tricks]


def step_section(text: str, number: int) -> str:
    found = re.search(rf'<section class="rp-step" id="step-{number}".*?</section>', text, re.S)
    assert found, number
    return found.group()


def test_a_finished_hand_replays_trick_by_trick_as_its_log_says(client):
    table = played_table()
    hand = next(h for h in TableHand.objects.filter(table=table, finished_at__isnull=False).order_by("number")
                if h.record["plays"])
    tricks = logged_tricks(hand)
    response = client.get(replay_url(table, hand.number))
    assert response.status_code == 200
    text = readable(response)
    in_game = TableHand.objects.filter(table=table, game_number=hand.game_number, number__lte=hand.number).count()
    assert f"<h1>Hand {in_game} · game {hand.game_number}</h1>" in text
    kinds = {"random": "easy bot", "heuristic": "normal bot"}
    bots = ["Ada", "Ben", "Cleo", "Dev"]  # by seat
    names = [f"{bots[row.index]} ({kinds[row.bot]})" for row in table.seats.order_by("index")]
    assert f"{names[0]} & {names[2]}</span> v <span class=\"side-b-text\">{names[1]} & {names[3]}" in text
    assert f"{names[0]} (A)" in step_section(text, 0)
    for number, (leader, cards, winner) in enumerate(tricks, start=1):
        section = step_section(text, number)
        assert re.findall(r'data-card="(\w\w)"', section.split("<h3>")[0]) == cards  # in the order played
        won = re.search(r'<li class="rp-play side-\w wins">.*?data-card="(\w\w)"', section, re.S).group(1)
        assert won == cards[(winner - leader) % 4]
    scoring = step_section(text, len(tricks) + 1)
    after = hand.result["score_after"]
    assert f"<strong>{after[0]} – {after[1]}</strong>" in scoring
    # every step by its ?trick= link; a bad one is answered with the reason
    assert client.get(replay_url(table, hand.number, f"?trick={len(tricks) + 1}")).status_code == 200
    bad = client.get(replay_url(table, hand.number, "?trick=99"))
    assert bad.status_code == 400 and "trick: must be a whole number from 0 (the deal)" in readable(bad)
    assert f'href="{reverse("table", args=[table.pk])}" id="rp-back">Back to table {table.pk}</a>' in text


def test_the_hand_in_play_and_a_hand_never_dealt_are_refused(client):
    table = played_table(hands=1)
    in_play = TableHand.objects.filter(table=table).order_by("-number").first()
    assert in_play.finished_at is None and table.status == Table.PLAYING
    response = client.get(replay_url(table, in_play.number))
    assert response.status_code == 404
    text = readable(response)
    assert f"hand {in_play.number} of table {table.pk} is still being played: its cards stay hidden" in text
    state = live.live_state(table, in_play)
    for seat in range(4):  # no unplayed card of the hand in play on the refusal
        for card in state.hand_of(seat):
            assert f'data-card="{card}"' not in text
    assert client.get(replay_url(table, in_play.number + 5)).status_code == 404
    assert "has dealt no hand" in readable(client.get(replay_url(table, in_play.number + 5)))


def test_a_private_tables_replay_needs_its_invite_and_keeps_it_in_the_step_links(client):
    table = played_table(Table.PRIVATE, hands=1)
    hand = TableHand.objects.filter(table=table, finished_at__isnull=False).order_by("number").first()
    assert client.get(replay_url(table, hand.number)).status_code == 404
    query = f"?invite={table.invite_token}"
    response = client.get(replay_url(table, hand.number, query))
    assert response.status_code == 200
    text = readable(response)
    assert f'href="?invite={table.invite_token}&trick=1"' in text or not hand.record["plays"]
    assert f'id="rp-next" rel="next" href="?invite={table.invite_token}&trick=1"' in text
    seat = table.seats.get(index=2)
    assert client.get(replay_url(table, hand.number, f"?seat={seat.seat_token}")).status_code == 200


def test_the_table_page_lists_the_finished_hands_with_their_replays(client):
    table = played_table(hands=2)
    finished = list(TableHand.objects.filter(table=table, finished_at__isnull=False).order_by("-number"))
    text = readable(client.get(reverse("table", args=[table.pk])))  # a spectator
    listed = text[text.index('id="table-hands"'):]
    links = re.findall(r'class="replay-link" href="([^"]+)"', listed)
    assert links == [replay_url(table, hand.number) for hand in finished]
    in_play = TableHand.objects.filter(table=table).order_by("-number").first()
    assert replay_url(table, in_play.number) not in text
    # the page tells its script where the replays are (the last hand's Replay link under the chalk)
    assert f'"hands": "{reverse("table", args=[table.pk])}hands/"' in text


def test_the_replayed_record_is_the_engines_own():
    """The record the page replays is the hand's log replayed by the engine (nothing the page made up)."""
    table = played_table(hands=1)
    hand = TableHand.objects.filter(table=table, finished_at__isnull=False).order_by("number").first()
    state = live.deal(table, hand)
    for seat, action in TableAction.objects.filter(hand=hand).order_by("seq").values_list("seat", "action"):
        state.apply(action, seat)
    assert isinstance(state, HandState) and state.to_record() == hand.record and state.result() == hand.result
