"""Hand records (HAND_RECORD.md): the format read and written exactly, round trips, and every error's shape."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from engine.errors import EngineError, RecordError
from engine.hand import HandState
from engine.record import replay_record, score_record, write_record
from engine.rules import Ruleset
from tests.engine.helpers import json_roundtrip, make_hand, play_lowest

RECORD_FIELDS = {"players", "dealer", "score_before", "ruleset", "hands", "kick", "beg", "runs", "plays"}
RESULT_FIELDS = {
    "trump", "kick_points", "beg_points", "redeal", "high", "low", "jack", "game",
    "tricks", "points", "score_after", "winner",
}
ERROR_SHAPE = re.compile(r"^[A-Za-z_0-9]+(\[\d+\])*(\.[A-Za-z_0-9]+(\[\d+\])*)*: \S.*$")

# dealer 0, eldest seat 1; diamonds are trump (kick 3D). Seat 1 wins three spade tricks, then leads AD.
RENEGE_HANDS = [  # each hand in pack order (clubs, diamonds, hearts, spades; low to high), as records are written
    ["7C", "8C", "9C", "8S", "9S", "TS"],
    ["AD", "2H", "3H", "QS", "KS", "AS"],
    ["5C", "6C", "JD", "2S", "3S", "4S"],
    ["2C", "3C", "4C", "5S", "6S", "7S"],
]
RENEGE_PLAYS = [
    "AS", "2S", "5S", "8S",
    "KS", "3S", "6S", "9S",
    "QS", "4S", "7S", "TS",
    "AD", "JD", "2C", "7C",
    "2H", "5C", "3C", "8C",
    "3H", "6C", "4C", "9C",
]


def renege_record(**changes) -> dict:
    record = {
        "players": 4,
        "dealer": 0,
        "score_before": [0, 0],
        "ruleset": {},
        "hands": copy.deepcopy(RENEGE_HANDS),
        "kick": "3D",
        "beg": "stand",
        "plays": list(RENEGE_PLAYS),
    }
    record.update(changes)
    return record


def record_error(record) -> str:
    with pytest.raises(RecordError) as error:
        score_record(record)
    message = str(error.value)
    assert "\n" not in message and "Traceback" not in message
    assert message == f"{error.value.field}: {error.value.reason}" or not error.value.field
    return message


# --------------------------------------------------------------------------- the format, read and written


def test_complete_record_scores_to_the_documented_result():
    result = score_record(renege_record())
    assert set(result) == RESULT_FIELDS
    assert result == {
        "trump": "D",
        "kick_points": [0, 0],
        "beg_points": [0, 0],
        "redeal": False,
        "high": {"card": "AD", "team": 1},
        "low": {"card": "JD", "team": 0},
        "jack": {"team": 1, "points": 3, "hang": True},
        "game": {"team": 1, "counts": [0, 24]},
        "tricks": [
            {"leader": 1, "cards": ["AS", "2S", "5S", "8S"], "winner": 1},
            {"leader": 1, "cards": ["KS", "3S", "6S", "9S"], "winner": 1},
            {"leader": 1, "cards": ["QS", "4S", "7S", "TS"], "winner": 1},
            {"leader": 1, "cards": ["AD", "JD", "2C", "7C"], "winner": 1},
            {"leader": 1, "cards": ["2H", "5C", "3C", "8C"], "winner": 1},
            {"leader": 1, "cards": ["3H", "6C", "4C", "9C"], "winner": 1},
        ],
        "points": [1, 5],
        "score_after": [1, 5],
        "winner": None,
    }
    assert json_roundtrip(result) == result


def test_record_is_written_with_exactly_the_documented_fields():
    hand = replay_record(renege_record())
    written = hand.to_record()
    assert written == renege_record()
    assert write_record(hand) == written
    assert list(written) == ["players", "dealer", "score_before", "ruleset", "hands", "kick", "beg", "plays"]
    assert set(written) <= RECORD_FIELDS


# The shape of HAND_RECORD.md's example: 4 players, dealer 2, scores 9 and 12, kick JH, run twice (QH, 7D).
DOC_HANDS = [
    ["AS", "KH", "2C", "TD", "9S", "3H"],
    ["QS", "JS", "4H", "5D", "7C", "8C"],
    ["2S", "3S", "6H", "7H", "8H", "9H"],
    ["4S", "5S", "TH", "AH", "KD", "QD"],
]
DOC_RUNS = [
    {"extra": [["4C", "5C", "6C"], ["9C", "TC", "JC"], ["QC", "KC", "AC"], ["2D", "3D", "4D"]], "kick": "QH"},
    {"extra": [["6D", "8D", "9D"], ["JD", "AD", "2H"], ["5H", "6S", "7S"], ["8S", "TS", "KS"]], "kick": "7D"},
]


def doc_record() -> tuple[dict, HandState]:
    stock = []
    for run in DOC_RUNS:
        for i in range(1, 5):
            stock.extend(run["extra"][(2 + i) % 4])
        stock.append(run["kick"])
    hand = make_hand(4, 2, DOC_HANDS, "JH", stock, ruleset={"target": 14}, score=(9, 12))
    hand.apply("beg")
    hand.apply("run")
    play_lowest(hand)
    record = {
        "players": 4,
        "dealer": 2,
        "score_before": [9, 12],
        "ruleset": {"target": 14},
        "hands": DOC_HANDS,
        "kick": "JH",
        "beg": "run",
        "runs": DOC_RUNS,
        "plays": hand.to_record()["plays"],
    }
    return record, hand


def test_documented_example_shape_reads_and_writes():
    record, live = doc_record()
    assert len(record["plays"]) == 48
    result = score_record(json_roundtrip(record))
    assert result == live.result()
    assert result["trump"] == "D"
    assert result["kick_points"] == [3, 0]  # JH kicked by dealer 2 (team 0); QH and 7D score nothing
    assert result["beg_points"] == [0, 0]
    assert len(result["tricks"]) == 12 and result["tricks"][0]["leader"] == 3
    assert result["score_after"] == [9 + result["points"][0], 12 + result["points"][1]]
    written = live.to_record()
    assert set(written) == RECORD_FIELDS
    assert written["runs"] == DOC_RUNS
    assert [set(h) for h in written["hands"]] == [set(h) for h in DOC_HANDS]
    assert written["ruleset"] == {}  # the target 14 is the default: only overrides are written
    assert score_record(written) == result


def test_lowercase_and_ten_are_accepted_on_input():
    record = renege_record()
    upper = score_record(record)
    lower = json.loads(json.dumps(record).lower())
    assert score_record(lower) == upper
    tens = json.loads(json.dumps(record).replace('"TS"', '"10S"').replace('"TD"', '"10d"'))
    assert '"10S"' in json.dumps(tens)
    assert score_record(tens) == upper
    assert score_record(renege_record(kick="3d")) == upper


def test_score_before_defaults_to_zero_and_ruleset_is_optional():
    record = renege_record()
    del record["score_before"]
    del record["ruleset"]
    assert score_record(record) == score_record(renege_record())


def test_result_scores_on_from_score_before_with_a_winner():
    result = score_record(renege_record(score_before=[13, 11]))
    # High (team 1) 12, Low (team 0) 14: team 0 reaches the target first.
    assert result["score_after"] == [14, 16] and result["winner"] == 0


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("players", [2, 4])
def test_live_hands_round_trip_through_records(players):
    begs = set()
    for seed in range(150):
        rng = random.Random(seed)
        rules = {"undertrump_ban": seed % 2 == 0, "game_tie": "non_dealer" if seed % 3 else "none"}
        hand = HandState.deal(players, seed % players, rng, Ruleset.from_dict(rules), score=(seed % 13, seed % 11))
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
        record = json_roundtrip(hand.to_record())
        begs.add(record.get("beg"))
        assert set(record) <= RECORD_FIELDS
        assert score_record(record) == json_roundtrip(hand.result())
        assert replay_record(record).to_record() == record
    assert {"stand", "give", "run"} <= begs


def test_redeal_record_round_trip():
    hand = make_hand(
        4, 3,
        [["KS", "QS", "3H", "2C", "3C", "4C"], ["KH", "9H", "5C", "7C", "8C", "9C"],
         ["5H", "4H", "2D", "3D", "4D", "5D"], ["QH", "7D", "8D", "9D", "TD", "JD"]],
        "JS",
        ["AC", "KC", "QC", "JC", "TC", "6C", "6H", "7H", "8H", "TH", "JH", "AH", "AS",
         "AD", "KD", "QD", "6D", "2S", "3S", "4S", "5S", "7S", "8S", "9S", "TS", "6S"],
    )
    hand.apply("beg")
    hand.apply("run")
    assert hand.redeal
    record = hand.to_record()
    assert record["beg"] == "run" and len(record["runs"]) == 2 and record["plays"] == []
    result = score_record(record)
    assert result == hand.result()
    assert result["redeal"] is True and result["kick_points"] == [0, 6]
    assert record_error({**record, "plays": ["KS"]}) == "plays: no card is played: the hand is a redeal"


def test_give_that_wins_the_game_round_trip():
    hand = HandState.from_cards(4, 0, RENEGE_HANDS, "3D", score=(0, 13))
    hand.apply("beg")
    hand.apply("give")
    record = hand.to_record()
    assert record["beg"] == "give" and record["plays"] == []
    assert score_record(record)["winner"] == 1
    assert record_error({**record, "plays": ["AS"]}) == (
        "plays: no card is played: the game was decided before play"
    )


# --------------------------------------------------------------------------- errors in the documented shape


def test_error_hand_with_seven_cards():
    record = renege_record()
    record["hands"][1].append("JH")
    assert record_error(record) == "hands[1]: 7 cards, expected 6"


def test_error_card_dealt_twice():
    record = renege_record()
    record["hands"][3][2] = "AS"
    assert record_error(record) == "hands[3][2]: AS was dealt twice"
    record = renege_record(kick="as")
    assert record_error(record) == "kick: AS was dealt twice"


def test_error_illegal_play_names_the_play_the_seat_and_the_reason():
    plays = RENEGE_PLAYS[:13] + ["5C"] + RENEGE_PLAYS[14:]
    assert record_error(renege_record(plays=plays)) == (
        "plays[13]: 5C is not a legal play for seat 3: trump was led and seat 3 holds JD"
    )
    plays = RENEGE_PLAYS[:1] + ["5C"]
    assert record_error(renege_record(plays=plays)) == (
        "plays[1]: 5C is not a legal play for seat 3: spades were led and seat 3 holds 4S, 3S, 2S; "
        "follow suit or trump"
    )
    plays = RENEGE_PLAYS[:1] + ["AS"]
    assert record_error(renege_record(plays=plays)) == "plays[1]: AS is not in seat 3's hand"


def test_error_undertrump_in_a_record():
    hands = [
        ["AC", "2C", "3C", "4C", "5C", "6C"],
        ["QH", "4H", "7D", "8D", "9D", "2S"],
        ["3H", "KH", "3S", "4S", "5S", "6S"],
        ["5H", "6H", "7H", "8H", "9H", "TH"],
    ]
    record = {"players": 4, "dealer": 3, "ruleset": {"undertrump_ban": True}, "hands": hands, "kick": "2H",
              "beg": "stand", "plays": ["AC", "QH", "3H"]}
    message = record_error(record)
    assert message.startswith("plays[2]: 3H is not a legal play for seat 3: the trick is trumped with QH")


def test_error_unknown_field():
    message = record_error(renege_record(notes="great hand"))
    assert message.startswith("notes: unknown field")
    for name in RECORD_FIELDS:
        assert name in message


@pytest.mark.parametrize("beg", ["pass", "Stand", "beg", "", 1, ["stand"], None])
def test_error_bad_beg(beg):
    record = renege_record(beg=beg)
    assert record_error(record) == f"beg: must be one of stand, give, run, got {beg!r}"


def test_error_give_not_allowed():
    record = renege_record(beg="give", ruleset={"give_one_needs_trump": True},
                           hands=[RENEGE_HANDS[3], RENEGE_HANDS[1], RENEGE_HANDS[2], RENEGE_HANDS[0]])
    assert record_error(record) == (
        "beg: the dealer may not give one: the dealer holds no trump and the house rule is “The dealer gives one "
        "only with a trump”"
    )


# Runs after RENEGE_HANDS with the kick 4H (hearts begged): RUN_A turns hearts again (JH, 3 points to the
# dealer's team 0), RUN_B turns JS (spades, a new suit, 3 more points).
RUN_A = {"extra": [["TC", "JC", "QC"], ["KC", "AC", "2D"], ["4D", "5D", "6D"], ["7D", "8D", "9D"]], "kick": "JH"}
RUN_B = {"extra": [["5H", "6H", "7H"], ["8H", "9H", "TH"], ["QH", "KH", "AH"], ["TD", "QD", "KD"]], "kick": "JS"}


def run_record(runs, **changes) -> dict:
    record = renege_record(kick="4H", beg="run", runs=runs, plays=[])
    record.update(changes)
    return record


def test_runs_replay_until_a_new_suit():
    stock = [c for run in (RUN_A, RUN_B) for seat in (1, 2, 3, 0) for c in run["extra"][seat]]
    stock[12:12] = ["JH"]
    stock.append("JS")
    live = HandState.from_cards(4, 0, RENEGE_HANDS, "4H", stock)
    live.apply("beg")
    live.apply("run")
    play_lowest(live)
    written = live.to_record()
    assert written["runs"] == [RUN_A, RUN_B]
    record = run_record([RUN_A, RUN_B], plays=written["plays"])
    assert written == record
    result = score_record(record)
    assert result == live.result()
    assert result["trump"] == "S" and result["kick_points"] == [6, 0] and len(result["tricks"]) == 12
    assert record_error(run_record([RUN_A, RUN_B])) == "plays: 0 cards, the hand needs 48 (every card is played)"


def test_error_runs_with_stand():
    record = renege_record(runs=[RUN_A])
    assert record_error(record) == "runs: only a record with beg \"run\" has runs (beg is 'stand')"


def test_error_missing_run():
    assert record_error(run_record([])) == (
        "runs: 4H is the begged suit again; the pack must be run again but run 1 is missing"
    )
    assert record_error(run_record([RUN_A])) == (
        "runs[0].kick: JH is the begged suit again; the pack must be run again but run 2 is missing"
    )


def test_error_extra_run():
    first = {**RUN_A, "kick": "3D"}  # a new suit at once: no second run
    assert record_error(run_record([first, RUN_B])) == (
        "runs[1]: 3D turned up a new suit and became trump; the pack is not run again"
    )


def test_error_extra_run_after_a_kick_won_the_game():
    assert record_error(run_record([RUN_A, RUN_B], score_before=[12, 0])) == (
        "runs[1]: the game was won by a kick; no further run is played"
    )
    result = score_record(run_record([RUN_A], score_before=[12, 0]))
    assert result["winner"] == 0 and result["kick_points"] == [3, 0] and result["tricks"] == []


def test_error_too_few_and_too_many_plays():
    assert record_error(renege_record(plays=RENEGE_PLAYS[:3])) == (
        "plays: 3 cards, the hand needs 24 (every card is played)"
    )
    assert record_error(renege_record(plays=[])) == "plays: 0 cards, the hand needs 24 (every card is played)"
    assert record_error(renege_record(plays=RENEGE_PLAYS + ["AS"])) == (
        "plays[24]: the hand is over after 24 cards; nothing more is played"
    )


def test_error_cards_after_the_game_was_decided_by_a_kick():
    # Dealer 0 (team 0) on 13 kicks an ace: the game is over before the beg.
    record = renege_record(kick="AH", score_before=[13, 0])
    assert record_error(record) == "beg: the kick won the game; the record stops there"
    del record["beg"]
    assert record_error(record) == "plays: no card is played: the game was decided before play"
    record["plays"] = []
    result = score_record(record)
    assert result["winner"] == 0 and result["score_after"] == [14, 0] and result["tricks"] == []
    assert result["high"] is None and result["game"] is None


@pytest.mark.parametrize("change,message", [
    ({"players": 3}, "players: must be 2 or 4, got 3"),
    ({"players": "4"}, "players: must be 2 or 4, got '4'"),
    ({"players": True}, "players: must be 2 or 4, got True"),
    ({"players": 4.0}, "players: must be 2 or 4, got 4.0"),
    ({"dealer": 4}, "dealer: must be a seat index from 0 to 3 (seat 1 to seat 4), got 4"),
    ({"dealer": -1}, "dealer: must be a seat index from 0 to 3 (seat 1 to seat 4), got -1"),
    ({"dealer": 1.0}, "dealer: must be a seat index from 0 to 3 (seat 1 to seat 4), got 1.0"),
    ({"dealer": None}, "dealer: must be a seat index from 0 to 3 (seat 1 to seat 4), got None"),
    ({"score_before": [0]}, "score_before: must be two whole numbers of 0 or more, got [0]"),
    ({"score_before": [-1, 0]}, "score_before: must be two whole numbers of 0 or more, got [-1, 0]"),
    ({"score_before": [14, 0]}, "score_before[0]: side A has 14, already the target 14: that game is over"),
    ({"score_before": [0, 7], "ruleset": {"target": 7}},
     "score_before[1]: side B has 7, already the target 7: that game is over"),
    ({"hands": "AS KS"}, "hands: must be a list of 4 hands, got str"),
    ({"hands": RENEGE_HANDS[:3]}, "hands: 3 hands, expected 4"),
    ({"hands": [RENEGE_HANDS[0], "AS", RENEGE_HANDS[2], RENEGE_HANDS[3]]},
     "hands[1]: must be a list of 6 cards, got str"),
    ({"hands": [RENEGE_HANDS[0][:5] + ["1S"]] + RENEGE_HANDS[1:]},
     "hands[0][5]: '1S' is not a card (rank 2-9, T/10, J, Q, K, A then suit C, D, H, S)"),
    ({"kick": None}, "kick: None is not a card (rank 2-9, T/10, J, Q, K, A then suit C, D, H, S)"),
    ({"plays": "AS"}, "plays: must be a list of cards, got str"),
    ({"plays": ["AS", "XX"]}, "plays[1]: 'XX' is not a card (rank 2-9, T/10, J, Q, K, A then suit C, D, H, S)"),
    ({"ruleset": {"target": 0}}, "ruleset.target: must be a whole number from 1 to 1000, got 0"),
])
def test_error_messages_name_the_field(change, message):
    assert record_error(renege_record(**change)) == message


def test_error_bad_runs():
    assert record_error(run_record("x")) == "runs: must be a list of runs of the pack, got str"
    assert record_error(run_record([5])) == 'runs[0]: must be an object with "extra" (3 cards a seat) and "kick"'
    assert record_error(run_record([{"extra": RUN_A["extra"]}])) == (
        'runs[0]: must be an object with "extra" (3 cards a seat) and "kick"'
    )
    assert record_error(run_record([{"extra": RUN_A["extra"][:3], "kick": "JH"}])) == (
        "runs[0].extra: must hold 3 cards for each of the 4 seats"
    )
    short = [RUN_A["extra"][0], ["KC", "AC"], *RUN_A["extra"][2:]]
    assert record_error(run_record([{"extra": short, "kick": "JH"}])) == "runs[0].extra[1]: 2 cards, expected 3"
    dup = [RUN_A["extra"][0], ["KC", "AS", "2D"], *RUN_A["extra"][2:]]
    assert record_error(run_record([{"extra": dup, "kick": "JH"}])) == "runs[0].extra[1][1]: AS was dealt twice"
    assert record_error(run_record([{"extra": RUN_A["extra"], "kick": "4H"}])) == "runs[0].kick: 4H was dealt twice"


def test_error_not_an_object():
    assert record_error([1, 2]) == "record: must be a JSON object, got list"
    assert record_error(None) == "record: must be a JSON object, got nothing"


def test_mangled_records_raise_only_record_errors():
    """Whatever is wrong with a record, the answer is one RecordError line in the documented shape."""
    rng = random.Random(2024)
    good = renege_record()
    junk = [None, True, 0, 7, -3, 2.5, "", "AS", "as", "10s", "XX", [], ["AS"], {}, {"a": 1}, [[]], "stand"]
    checked = 0
    for _ in range(3000):
        record = copy.deepcopy(good)
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(sorted(RECORD_FIELDS))
            target = record
            value = record.get(key)
            while isinstance(value, list) and value and rng.random() < 0.7:
                index = rng.randrange(len(value))
                target, key, value = value, index, value[index]
            if rng.random() < 0.1 and isinstance(target, dict):
                target.pop(key, None)
            else:
                target[key] = rng.choice(junk + [rng.choice(RENEGE_PLAYS)])
        try:
            score_record(record)
        except RecordError as error:
            assert ERROR_SHAPE.match(str(error)), str(error)
            checked += 1
        except EngineError as error:  # pragma: no cover - a failure, reported with the record
            raise AssertionError(f"{type(error).__name__} instead of RecordError for {record}") from error
    assert checked > 2500
