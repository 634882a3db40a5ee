"""The variants ``stand_needs_trump`` (R7) and ``last_card_kick`` (R12) reach the scorekeeper's entry through the
competition's ruleset: the engine judges the hand, the chalk form offers the last card's kick only when the rules
make it possible, and the replay shows the pack's last card (kicked with nothing dealt) as such."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.cards import CARD_NAMES
from games import services
from games.common import EntryError
from games.forms import ChalkEntryForm
from games.models import Hand
from games.replay import build_replay, hand_for_replay
from tests.factories import make_competition, make_match

pytestmark = pytest.mark.django_db

LAST_CARD = {"last_card_kick": True}


def last_card_record(kicks: list[str]) -> dict:
    """A 4-player record: two runs, then the pack's 52nd card as the last kick (an empty ``extra`` for each seat)."""
    pack = [name for name in CARD_NAMES if name not in kicks]
    assert len(pack) == 48
    hands = [pack[i * 6:(i + 1) * 6] for i in range(4)]
    rest = pack[24:]
    runs = [{"extra": [rest[12 * r + 3 * i:12 * r + 3 * (i + 1)] for i in range(4)], "kick": kicks[r + 1]}
            for r in range(2)]
    runs.append({"extra": [[], [], [], []], "kick": kicks[3]})
    return {"hands": hands, "kick": kicks[0], "beg": "run", "runs": runs}


def test_r12_a_last_card_redeal_is_stored_and_replayed_under_the_competitions_rules(client):
    """R11, R12, R6: four hearts kicked, the last of them the pack's last card: a redeal with 3 + 2 kick points kept
    for the dealer's side (seat 1 deals: side A)."""
    match = make_match(make_competition(ruleset=LAST_CARD))
    record = last_card_record(["JH", "6H", "2H", "AH"])
    stored = services.enter_hand(match=match, number=1, mode=Hand.RECORD, entry=record, author_label="test")
    assert stored.result["redeal"] is True and stored.result["kick_points"] == [6, 0]
    replay = build_replay(hand_for_replay(match.pk, stored.pk), match)
    assert [run.last_card for run in replay.runs] == [False, False, True]
    assert [run.last for run in replay.runs] == [False, False, True]
    page = client.get(reverse("hand_replay", args=[match.pk, stored.pk])).content.decode()
    assert "The pack&#x27;s last card" in page or "The pack's last card" in page
    assert "Run 3" not in page and "the hand is a redeal" in page


def test_r12_the_same_record_is_refused_without_the_variant():
    match = make_match(make_competition())
    with pytest.raises(EntryError) as caught:
        services.enter_hand(match=match, number=1, mode=Hand.RECORD, entry=last_card_record(["JH", "6H", "2H", "AH"]),
                            author_label="test")
    assert caught.value.field.startswith("runs[2]")


def test_r12_a_chalk_entry_with_the_last_card_kick_under_the_variant():
    """R6, R10, R12: the last card 6S names spades and scores 2; a fourth kick is refused in the standard game."""
    entry = {"kicks": ["5H", "9H", "QH", "6S"], "beg": "run", "high": {"team": 1}, "low": {"team": 1},
             "game": {"team": 1}}
    match = make_match(make_competition(ruleset=LAST_CARD))
    stored = services.enter_hand(match=match, number=1, mode=Hand.CHALK, entry=entry, author_label="test")
    assert stored.result["trump"] == "S" and stored.result["kick_points"] == [2, 0]
    standard = make_match(make_competition())
    with pytest.raises(EntryError) as caught:
        services.enter_hand(match=standard, number=1, mode=Hand.CHALK, entry=entry, author_label="test")
    assert caught.value.field == "kicks[3]" and "redeal" in caught.value.reason


def test_r7_a_record_that_stands_without_trump_is_refused_naming_beg():
    match = make_match(make_competition(ruleset={"stand_needs_trump": True}))
    record = last_card_record(["JH", "6H", "2H", "AH"])  # seat 2, the eldest, holds no heart
    record = {"hands": record["hands"], "kick": "JH", "beg": "stand", "plays": []}
    with pytest.raises(EntryError) as caught:
        services.enter_hand(match=match, number=1, mode=Hand.RECORD, entry=record, author_label="test")
    assert caught.value.field == "beg" and "The eldest stands only with a trump" in caught.value.reason


@pytest.mark.parametrize(("players", "ruleset", "runs", "last_label"), [
    (4, {}, 2, None), (4, LAST_CARD, 3, "Last card kicked"), (2, {}, 5, None), (2, LAST_CARD, 6, "Last card kicked")])
def test_r12_the_chalk_form_offers_the_last_cards_kick_only_under_the_variant(players, ruleset, runs, last_label):
    form = ChalkEntryForm(match=make_match(make_competition(players=players, ruleset=ruleset)))
    assert form.runs == runs and len(form.run_kick_fields) == runs
    assert form.run_kick_fields[-1].label == (last_label or f"Kick after run {runs}")
