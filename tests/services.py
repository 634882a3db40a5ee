"""Helpers for tests of the entry services and the settle task: whole matches played by the engine's bots,
entered hand by hand, and waiting for a Celery worker to settle them.

``plan_match`` plays a match with the engine alone (no database), so the winner, the game scores and the
hang jacks it reports are an oracle independent of ``games.services.settle_match``.

Also the test-only slow path of the settle task for the killed-worker test: a worker started with
``--include tests.services`` and ``ALLFOURS_TEST_SLOW_SETTLE=<seconds>`` writes the match id to the file
named by ``ALLFOURS_TEST_SETTLE_MARKER`` when the task starts, then sleeps before settling.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from celery import shared_task

from engine import HandState
from engine.game import next_dealer

SLOW_ENV = "ALLFOURS_TEST_SLOW_SETTLE"
MARKER_ENV = "ALLFOURS_TEST_SETTLE_MARKER"
T = TypeVar("T")


# ----------------------------------------------------------------------------- matches played by the bots
@dataclass
class PlannedHand:
    game: int
    number: int
    hand: HandState

    @property
    def result(self) -> dict[str, Any]:
        return self.hand.result()

    @property
    def record(self) -> dict[str, Any]:
        from importer.management.commands.seed_demo import record_entry

        return record_entry(self.hand)

    @property
    def chalk(self) -> dict[str, Any]:
        from importer.management.commands.seed_demo import chalk_entry

        return chalk_entry(self.hand)

    def entry(self, mode: str) -> dict[str, Any]:
        return self.chalk if mode == "chalk" else self.record


@dataclass
class PlannedMatch:
    """A whole match as the engine played it: every hand, and each game's score, hang jacks and winner."""

    hands: list[PlannedHand] = field(default_factory=list)
    scores: list[tuple[int, int]] = field(default_factory=list)
    hang_jacks: list[tuple[int, int]] = field(default_factory=list)
    game_winners: list[str] = field(default_factory=list)

    @property
    def games_a(self) -> int:
        return self.game_winners.count("a")

    @property
    def games_b(self) -> int:
        return self.game_winners.count("b")

    @property
    def winner(self) -> str:
        return "a" if self.games_a > self.games_b else "b"

    def chalks(self, side: str) -> int:
        return sum(score[0 if side == "a" else 1] for score in self.scores)

    def hangs(self, side: str) -> int:
        return sum(hang[0 if side == "a" else 1] for hang in self.hang_jacks)


def plan_match(*, players: int, ruleset, games_to_win: int, first_dealer: int, seed: str) -> PlannedMatch:
    """Play a whole match with the heuristic bots: games to the target until a side has ``games_to_win``.
    The deal passes as the engine says (``next_dealer``); the next game starts with the next dealer."""
    from importer.management.commands.seed_demo import play_hand

    rng = random.Random(seed)
    plan = PlannedMatch()
    dealer = first_dealer
    while max(plan.games_a, plan.games_b) < games_to_win:
        game = len(plan.scores) + 1
        score, hang, number = (0, 0), [0, 0], 0
        while True:
            number += 1
            hand = play_hand(players, dealer, score, ruleset, rng)
            result = hand.result()
            plan.hands.append(PlannedHand(game, number, hand))
            if result["jack"] and result["jack"]["hang"]:
                hang[result["jack"]["team"]] += 1
            score = (result["score_after"][0], result["score_after"][1])
            dealer = next_dealer(players, dealer, result)
            if result["winner"] is not None:
                plan.scores.append(score)
                plan.hang_jacks.append((hang[0], hang[1]))
                plan.game_winners.append("ab"[result["winner"]])
                break
    return plan


def plan_for(competition, *, first_dealer: int = 0, seed: str = "plan") -> PlannedMatch:
    return plan_match(players=competition.players, ruleset=competition.engine_ruleset(),
                      games_to_win=competition.games_to_win(), first_dealer=first_dealer, seed=seed)


def enter_planned(match, hands: list[PlannedHand], *, mode: str, user=None, author_label: str = "test",
                  after_game: Callable[[Any], Any] | None = None) -> None:
    """Enter the hands through ``games.services.enter_hand``; after each game's last hand call ``after_game``
    (with a real worker: wait until the game is settled, since the next game opens only then)."""
    from games import services

    for position, planned in enumerate(hands):
        services.enter_hand(match=match, number=planned.number, mode=mode, entry=planned.entry(mode), user=user,
                            author_label=author_label)
        last_of_game = position + 1 == len(hands) or hands[position + 1].game != planned.game
        if last_of_game and after_game is not None:
            after_game(match)


# ----------------------------------------------------------------------------- waiting for the worker
def wait_for(check: Callable[[], T], *, timeout: float = 30.0, interval: float = 0.1, what: str = "") -> T:
    """Call ``check`` until it returns something truthy; fail with the last value after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what or check}: last saw {value!r}")
        time.sleep(interval)


def wait_settled(match, *, timeout: float = 30.0):
    """The match once the settle task has computed its latest version: totals, game winners, the next game
    and the match result are written in one transaction (the standings right after, in the same task: use
    ``wait_for`` on them)."""
    from games.models import Match

    def settled():
        fresh = Match.objects.get(pk=match.pk)
        return fresh if fresh.settled_version == fresh.version else None

    return wait_for(settled, timeout=timeout, what=f"match {match.pk} to be settled")


def standings_of(competition) -> dict[int, dict[str, int]]:
    """The competition's standings rows by partnership id, without ids and timestamps."""
    from standings.models import StandingRow
    from standings.services import COLUMNS

    counted = ("played", "won", "lost", *COLUMNS)
    rows = StandingRow.objects.filter(competition=competition, section="").values("partnership_id", "rank", *counted)
    return {row.pop("partnership_id"): row for row in rows}


def expected_standings(match, plan: PlannedMatch) -> dict[int, dict[str, int]]:
    """The two standings rows a complete match gives its sides (rank left out)."""
    rows = {}
    for side, other, partnership_id in (("a", "b", match.side_a_id), ("b", "a", match.side_b_id)):
        won = plan.winner == side
        rows[partnership_id] = {
            "played": 1, "won": int(won), "lost": int(not won),
            "bullseyes_for": plan.game_winners.count(side), "bullseyes_against": plan.game_winners.count(other),
            "chalks_for": plan.chalks(side), "chalks_against": plan.chalks(other),
            "hang_jacks_for": plan.hangs(side), "hang_jacks_against": plan.hangs(other),
        }
    return rows


def snapshot(match) -> dict[str, Any]:
    """Everything the settle task writes for a match and its competition, without timestamps and row ids."""
    from games.models import Game, Hand, Match

    return {
        "match": Match.objects.filter(pk=match.pk).values(
            "status", "games_a", "games_b", "winner", "version", "settled_version").get(),
        "games": list(Game.objects.filter(match_id=match.pk).order_by("number").values(
            "number", "first_dealer", "score_a", "score_b", "hang_jacks_a", "hang_jacks_b", "winner", "next_dealer",
            "hands_counted")),
        "hands": list(Hand.objects.filter(game__match_id=match.pk).order_by("game__number", "number").values(
            "game__number", "number", "dealer", "points_a", "points_b", "score_a_after", "score_b_after", "deleted",
            "void_reason", "version", "result")),
        "standings": standings_of(match.competition),
    }


# ----------------------------------------------------------------------------- test-only slow settle (worker)
def _install_slow_settle() -> None:
    seconds = float(os.environ.get(SLOW_ENV) or 0)
    if not seconds:
        return
    from games import tasks

    settle = tasks.settle_backlog  # what the settle task calls

    def slow_settle_backlog(competition_id: int, match_id: int | None = None, version: int | None = None):
        marker = os.environ.get(MARKER_ENV)
        if marker:
            Path(marker).write_text(str(match_id))
        time.sleep(seconds)
        return settle(competition_id, match_id, version)

    tasks.settle_backlog = slow_settle_backlog


_install_slow_settle()


# ----------------------------------------------------------------------------- which worker ran a task
@shared_task(name="tests.services.worker_pid")
def worker_pid() -> int:
    """The id of the process that ran it: the same worker before and after a broker outage, or another one."""
    return os.getpid()


@shared_task(name="tests.services.pid_when_released")
def pid_when_released(folder: str, timeout: float = 120.0) -> int:
    """Tell the test it started (``started`` appears in ``folder``), wait until the test lets it finish (it creates
    ``release``), and return the id of the process that ran it: a task that ends, and is acknowledged, when the
    test says (e.g. while the broker is down)."""
    started, release = Path(folder) / "started", Path(folder) / "release"
    started.write_text(str(os.getpid()))
    deadline = time.monotonic() + timeout
    while not release.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return os.getpid()
