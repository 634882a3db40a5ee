"""The command line, ``python -m engine score | simulate | play``, run as a user runs it: in a subprocess."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine.actions import BEG, GIVE, Action
from engine.bots import make_bot
from engine.cli.play import ChoiceError, PlaySession, parse_choice
from engine.cli.score import iter_line_chunks, score_lines
from engine.errors import EngineError
from engine.game import GameState
from engine.hand import HandState
from engine.record import score_record

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | bytes = "", timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, env=env, input=stdin, capture_output=True,
        text=not isinstance(stdin, bytes), timeout=timeout,
    )


def played_record(seed: int, players: int = 4, beg: str | None = None) -> dict:
    """A whole hand played at random, as a hand record; ``beg`` forces stand, give or run when legal."""
    rng = random.Random(seed)
    hand = HandState.deal(players, seed % players, rng)
    if hand.phase == BEG:
        choice = beg or rng.choice(["stand", "beg"])
        hand.apply("stand" if choice == "stand" else "beg")
        if hand.phase == GIVE:
            legal = [str(a) for a in hand.legal_actions()]
            hand.apply(choice if choice in legal else rng.choice(legal))
    hand.playout_random(rng.random)
    return hand.to_record()


RECORDS = [played_record(1), played_record(2, beg="run"), played_record(3, players=2, beg="give"),
           played_record(4, players=2, beg="run"), played_record(5, beg="give")]


def assert_one_line_error(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]


# ------------------------------------------------------------------------------------------ score
def test_score_from_stdin_equals_score_record():
    for record in RECORDS:
        done = run("score", stdin=json.dumps(record))
        assert done.returncode == 0, done.stderr
        assert done.stdout.count("\n") == 1
        assert json.loads(done.stdout) == score_record(record)


def test_score_from_file_equals_score_record(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(RECORDS[1], indent=2))
    done = run("score", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == score_record(RECORDS[1])
    assert run("score", "-", stdin=json.dumps(RECORDS[1])).stdout == done.stdout


def test_runs_and_two_players_are_in_the_records():
    assert any(r["players"] == 2 for r in RECORDS)
    assert any(r.get("beg") == "run" and r.get("runs") for r in RECORDS)


def test_jsonl_bad_line_in_the_middle_gives_an_error_line_and_goes_on():
    bad_field = {**RECORDS[0], "foo": 1}
    lines = [json.dumps(RECORDS[0]), json.dumps(bad_field), "{oops", "", json.dumps(RECORDS[1]), "   "]
    done = run("score", "--jsonl", stdin="\n".join(lines) + "\n")
    assert done.returncode == 2
    assert done.stderr == ""
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 4  # blank lines are skipped
    assert out[0] == score_record(RECORDS[0])
    assert out[1] == {"error": out[1]["error"]} and out[1]["error"].startswith("foo: unknown field")
    assert out[2]["error"].startswith("line 3: invalid JSON: ")
    assert out[3] == score_record(RECORDS[1])


DOC_RECORD = {"players": 2, "dealer": 0, "hands": [["AS", "KH", "2C", "TD", "9S", "3H"],
              ["QS", "JS", "4H", "5D", "7C", "8C"]], "kick": "KS", "beg": "stand",
              "plays": ["QS", "AS", "KH", "4H", "TD", "5D", "9S", "JS", "7C", "2C", "8C", "3H"]}


def test_illegal_play_names_the_field():
    record = {**DOC_RECORD, "plays": ["QS", "KH"]}
    expected = "plays[1]: KH is not a legal play for seat 1: trump was led and seat 1 holds AS, 9S"
    with pytest.raises(EngineError, match=r"plays\[1\]"):
        score_record(record)
    done = run("score", "--jsonl", stdin=json.dumps(DOC_RECORD) + "\n" + json.dumps(record) + "\n")
    assert done.returncode == 2
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == score_record(DOC_RECORD)
    assert second == {"error": expected}
    assert_one_line_error(run("score", stdin=json.dumps(record)), expected)


def test_jsonl_all_good_exits_0_and_workers_keep_the_order(tmp_path):
    records = [played_record(seed, players=2 if seed % 3 == 0 else 4) for seed in range(60)]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    done = run("score", "--jsonl", str(path))
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [score_record(r) for r in records]
    parallel = run("score", "--jsonl", "--workers", "2", str(path))
    assert parallel.returncode == 0
    assert parallel.stdout == done.stdout


def test_jsonl_reads_lines_split_across_blocks():
    records = [json.dumps(r).encode() for r in RECORDS]
    data = b"\n".join(records) + b"\n\n" + b"{bad" + b"\n" + records[0]  # no final newline
    chunks = list(iter_line_chunks(io.BytesIO(data), block=17))
    lines = [line for _, part in chunks for line in part]
    assert lines == data.split(b"\n")
    assert [first for first, _ in chunks] == [1 + sum(len(p) for _, p in chunks[:i]) for i in range(len(chunks))]
    out, bad = score_lines(lines)
    assert bad == 1 and len(out) == len(RECORDS) + 2
    assert json.loads(out[len(RECORDS)]) == {"error": "line 7: invalid JSON: Expecting property name enclosed in "
                                                      "double quotes at column 2"}


@pytest.mark.parametrize(
    ("args", "stdin", "words"),
    [
        (("score",), '{"players": 4,', ("stdin: invalid JSON",)),
        (("score",), "", ("stdin: invalid JSON",)),
        (("score",), json.dumps({**RECORDS[0], "foo": 1}), ("foo", "unknown field")),
        (("score",), json.dumps({**RECORDS[0], "players": 3}), ("players", "must be 2 or 4")),
        (("score",), json.dumps({**RECORDS[0], "ruleset": {"targte": 3}}), ("ruleset.targte", "unknown")),
        (("score",), json.dumps(RECORDS[0]) + "\n" + json.dumps(RECORDS[1]), ("Extra data", "--jsonl")),
        (("score", "no/such/file.json"), "", ("no/such/file.json", "cannot read")),
        (("score", "--jsonl", "no/such/file.jsonl"), "", ("no/such/file.jsonl", "cannot read")),
        (("score", "tests"), "", ("tests", "cannot read")),
    ],
)
def test_score_bad_input_is_one_line_on_stderr(args, stdin, words):
    done = run(*args, stdin=stdin)
    assert done.stdout == ""
    assert_one_line_error(done, *words)


def test_score_bytes_that_are_not_text():
    done = run("score", stdin=b"\xff\xfe\x00{")
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert done.stderr.decode().startswith("error: stdin: invalid JSON")


# ------------------------------------------------------------------------------------------ simulate
def test_simulate_json_has_the_summary_and_the_same_seed_gives_the_same_games():
    first = run("simulate", "--games", "5", "--seed", "1", "--bots", "random,random", "--json")
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""  # no progress bar when stderr is not a terminal
    summary = json.loads(first.stdout)
    for key in ("games", "hands", "seconds", "hands_per_second", "wins", "teams"):
        assert key in summary
    assert summary["games"] == 5 and sum(summary["wins"]) == 5 and len(summary["wins"]) == 2
    for team in summary["teams"]:
        low, high = team["ci95"]
        assert 0 <= low <= team["win_rate"] <= high <= 1
    again = json.loads(run("simulate", "--games", "5", "--seed", "1", "--bots", "random,random", "--json").stdout)
    for data in (summary, again):
        data.pop("seconds")
        data.pop("hands_per_second")
    assert again == summary


def test_simulate_readable_summary_with_target_and_ruleset():
    done = run("simulate", "--games", "4", "--seed", "3", "--bots", "random,random", "--players", "2",
               "--target", "7", "--ruleset", '{"hang_jack_points": 6}')
    assert done.returncode == 0, done.stderr
    for words in ("games     4", "hands", "seconds", "hands/s", "side A (random)", "side B (random)", "win rate",
                  "95% CI", "target 7"):
        assert words in done.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--bots", "chess,random"), ("bot", "chess")),
        (("--bots", "random,random,random"), ("--bots",)),
        (("--games", "0"), ("--games", "1 or more")),
        (("--games", "many"), ("--games",)),
        (("--players", "3"), ("--players",)),
        (("--ruleset", '{"target": 7'), ("--ruleset", "invalid JSON")),
        (("--ruleset", '{"targte": 7}'), ("ruleset.targte", "unknown variant key")),
        (("--ruleset", '{"target": "x"}'), ("ruleset.target",)),
        (("--ruleset", "[7]"), ("--ruleset", "object")),
        (("--target", "0"), ("--target",)),
        (("--frobnicate",), ("unrecognized arguments",)),
    ],
)
def test_simulate_bad_arguments_exit_2_with_one_line(args, words):
    assert_one_line_error(run("simulate", "--games", "2", *args), *words)


@pytest.mark.parametrize("command", [[], ["score"], ["simulate"], ["play"]])
def test_help_of_each_command(command):
    done = run(*command, "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m engine")
    for name in {(): ("score", "simulate", "play"), ("score",): ("--jsonl",),
                 ("simulate",): ("--games", "--bots", "--json", "--workers", "--ruleset"),
                 ("play",): ("--seat", "--bot", "--seed")}[tuple(command)]:
        assert name in done.stdout


def test_no_command_is_a_usage_error():
    assert_one_line_error(run(), "required")


# ------------------------------------------------------------------------------------------ play
@pytest.mark.parametrize(("players", "seat", "seed"), [(4, 0, 3), (4, 1, 8), (2, 1, 5)])
def test_play_a_whole_game_through_stdin(players, seat, seed):
    done = run("play", "--bot", "random", "--seed", str(seed), "--players", str(players), "--seat", str(seat),
               stdin="1\n" * 3000)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout
    assert "=== Game over:" in out and " win" in out.split("=== Game over:")[1]
    assert "--- Hand over ---" in out
    assert "Score:" in out and "Last trick:" in out
    assert "1) " in out  # numbered choices
    assert ("♠" in out) or ("♥" in out)  # cards shown with suit symbols


def test_play_against_the_heuristic_bot():
    try:
        make_bot("heuristic")
    except EngineError:
        pytest.skip("the heuristic bot is not written yet")
    done = run("play", "--seed", "11", stdin="1\n" * 3000)
    assert done.returncode == 0, done.stderr
    assert "=== Game over:" in done.stdout


def test_play_by_card_text_and_bad_input_reprompts():
    game = GameState.new(players=4, seed=21)
    # Drive the game in process: answer each card prompt with the card's text (``10d`` style).
    answers = _Answers(game, seat=0)
    out = io.StringIO()
    session = PlaySession(game, human=0, bot=make_bot("random"), bot_name="random", rng=random.Random(1),
                          stdin=answers, stdout=out, symbols=False)
    assert session.run() == 0
    text = out.getvalue()
    assert "=== Game over:" in text
    assert "is not a choice" in text  # the nonsense answer was refused and asked again
    assert "is not allowed now" in text or answers.illegal_tried == 0
    assert answers.by_text > 0


class _Answers(io.StringIO):
    """A stdin that answers by looking at the game: first some nonsense, then an illegal card when there
    is one, then the first legal card typed as text (``10d`` for the ten)."""

    def __init__(self, game: GameState, seat: int) -> None:
        super().__init__()
        self.game = game
        self.seat = seat
        self.asked = 0
        self.by_text = 0
        self.illegal_tried = 0
        self.pending: list[str] = []

    def readline(self, *args) -> str:
        self.asked += 1
        if self.pending:
            return self.pending.pop()
        if self.asked == 1:
            return "zz\n"
        legal = self.game.legal_actions(self.seat)
        cards = [a.card for a in legal if a.card is not None]
        if not cards:
            return "1\n"
        hand = self.game.hand.hand_of(self.seat)
        illegal = [c for c in hand if Action.play(c) not in legal]
        if illegal and self.illegal_tried < 3:
            self.illegal_tried += 1
            self.pending.append(_as_text(cards[0]))
            return str(illegal[0]) + "\n"
        self.by_text += 1
        return _as_text(cards[0])


def _as_text(card) -> str:
    text = str(card)
    return ("10" + text[1].lower() if text[0] == "T" else text.lower()) + "\n"


def test_play_eof_exits_cleanly():
    done = run("play", "--bot", "random", "--seed", "3", stdin="")
    assert done.returncode == 0
    assert "Traceback" not in done.stderr
    assert "End of input" in done.stdout


def test_play_quit_and_bad_arguments():
    done = run("play", "--bot", "random", "--seed", "3", stdin="quit\n")
    assert done.returncode == 0 and "Game abandoned" in done.stdout
    assert_one_line_error(run("play", "--bot", "chess"), "chess")
    assert_one_line_error(run("play", "--players", "2", "--seat", "2"), "--seat")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_play_ctrl_c_exits_130_without_traceback():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Ctrl-C as at a terminal: a shell that runs the suite in the background hands its children SIGINT ignored,
    # and Python then never installs its KeyboardInterrupt handler
    process = subprocess.Popen([sys.executable, "-m", "engine", "play", "--bot", "random", "--seed", "3"],
                               cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = b""
    while not seen.endswith(b"]: "):  # wait for the first prompt
        byte = process.stdout.read(1)
        assert byte, seen
        seen += byte
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)  # stdin stays open: the end of input must not beat the signal (it exits 0)
    err = process.stderr.read()
    process.stdin.close()
    process.stdout.close()
    process.stderr.close()
    assert process.returncode == 130
    assert b"Traceback" not in err


def test_parse_choice():
    hand = HandState.from_cards(4, dealer=3, hands=[
        ["AS", "KH", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"],
        ["2S", "3S", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "JH", "QH", "AH"]], kick="KS")
    assert parse_choice(" 1 ", hand.legal_actions()) == Action.parse("stand")
    assert parse_choice("b", hand.legal_actions()) == Action.parse("beg")
    hand.apply("stand")
    hand.apply("AS")
    legal = hand.legal_actions()
    assert parse_choice("qs", legal) == Action.parse("QS")
    assert parse_choice("2", legal) == legal[1]
    with pytest.raises(ChoiceError, match="4H is not allowed now: .*trump was led"):
        parse_choice("4h", legal, lambda action: hand.why_illegal(action))
    with pytest.raises(ChoiceError, match="not a choice"):
        parse_choice("xyz", legal)
    with pytest.raises(ChoiceError, match="no choice 0"):
        parse_choice("0", legal)
    with pytest.raises(ChoiceError, match="please choose"):
        parse_choice("  ", legal)
    hand2 = HandState.from_cards(2, dealer=0, hands=[["AS", "KH", "2C", "TD", "9S", "3H"],
                                                     ["QS", "JS", "4H", "5D", "7C", "8C"]], kick="KD")
    hand2.apply("stand")
    hand2.apply("5D")
    assert parse_choice("10d", hand2.legal_actions()) == Action.parse("TD")
