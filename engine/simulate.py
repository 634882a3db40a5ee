"""Play many whole games between two bots and summarise them (``python -m engine simulate``).

Game ``i`` of a run with seed ``S`` is seeded from ``(S, i)`` alone, so a run gives the same
games whatever the number of worker processes: it is ``GameState.new(seed=S * 1_000_003 + i)``, and
the bots draw from the generator that cut for its first dealer, once it has.

>>> summary = run_simulation(games=4, seed=1, bots=("random", "random"))
>>> summary["games"], sum(summary["wins"])
(4, 4)
>>> run_simulation(games=4, seed=1, bots=("random", "random")) ["wins"] == summary["wins"]
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from typing import Any

from engine.actions import Action
from engine.bots import Bot, make_bot
from engine.bots.base import choose_of, play_out_of
from engine.game import GameState, choose_first_dealer, first_dealer_random
from engine.rules import DEFAULT_RULESET, Ruleset
from engine.seat_view import SeatView

Progress = Callable[[int, int], None]


def play_game(index: int, seed: int, bots: tuple[str, str], players: int = 4,
              ruleset: Ruleset | None = None, bot_options: dict[str, dict[str, Any]] | None = None
              ) -> dict[str, Any]:
    """Play game ``index`` of a run to the target; team ``t``'s seats are played by ``bots[t]``."""
    options = bot_options or {}
    made = [make_bot(name, **options.get(name, {})) for name in bots]
    game_seed = seed * 1_000_003 + index
    rules = DEFAULT_RULESET if ruleset is None else ruleset
    rng = first_dealer_random(game_seed)  # the bots draw on from the generator that cut for the first dealer
    dealer, cards = choose_first_dealer(players, rules, rng)
    game = GameState(players, rules, game_seed, dealer, cards)  # the game GameState.new(seed=game_seed) starts
    pickers = [choose_of(bot) for bot in made]
    play_out = play_out_of(made[0])
    if play_out is not None and play_out is play_out_of(made[1]):
        play_out(game, rng)
    elif pickers[0] is not None and pickers[0] is pickers[1]:
        play_from_legal(game, pickers[0], rng)
    else:
        play_from_views(game, made, pickers, rng)
    hang_jacks = [0, 0]
    for hand in game.history:
        if hand["hang_jack"] is not None:
            hang_jacks[hand["hang_jack"]] += 1
    return {"index": index, "winner": game.winner, "score": game.score, "hands": len(game.history),
            "hang_jacks": hang_jacks}


def play_from_legal(game: GameState, pick: Callable[[Sequence[Action], random.Random], Action],
                    rng: random.Random) -> None:
    """Play ``game`` to its end with one bot's ``choose_legal`` for every seat (no seat views)."""
    legal_actions, apply = game.legal_actions, game.apply
    while game.winner is None:
        apply(pick(legal_actions(), rng))


def play_from_views(game: GameState, made: list[Bot], pickers: list[Any], rng: random.Random) -> None:
    """Play ``game`` to its end, team ``t``'s seats by ``made[t]``: from the legal actions when the bot
    needs only them (``pickers[t]``), else from a ``SeatView``."""
    apply = game.apply
    while game.winner is None:
        hand = game.hand
        seat = hand.turn
        pick = pickers[seat & 1]
        if pick is not None:
            apply(pick(hand.legal_actions(), rng), seat)
        else:
            apply(made[seat & 1].choose(SeatView(hand, seat), rng), seat)


def _play_one(args: tuple[Any, ...]) -> dict[str, Any]:
    return play_game(*args)


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson_interval(700, 1000)]
    [0.671, 0.728]
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def run_simulation(games: int, seed: int, bots: tuple[str, str], players: int = 4, workers: int = 1,
                   ruleset: Ruleset | None = None, bot_options: dict[str, dict[str, Any]] | None = None,
                   progress: Progress | None = None) -> dict[str, Any]:
    """Play ``games`` games and return the summary (games, hands, seconds, hands_per_second, wins, …)."""
    jobs = [(i, seed, tuple(bots), players, ruleset, bot_options) for i in range(games)]
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    if workers <= 1:
        for job in jobs:
            results.append(_play_one(job))
            if progress:
                progress(len(results), games)
    else:
        with get_context("spawn").Pool(workers) as pool:
            for result in pool.imap_unordered(_play_one, jobs, chunksize=max(1, min(16, games // (workers * 8)))):
                results.append(result)
                if progress:
                    progress(len(results), games)
    seconds = time.perf_counter() - started
    results.sort(key=lambda r: r["index"])
    return summarise(results, seconds, bots, players, seed, ruleset)


def summarise(results: list[dict[str, Any]], seconds: float, bots: tuple[str, str], players: int,
              seed: int, ruleset: Ruleset | None) -> dict[str, Any]:
    games = len(results)
    hands = sum(r["hands"] for r in results)
    wins = [sum(1 for r in results if r["winner"] == team) for team in (0, 1)]
    teams = []
    for team in (0, 1):
        low, high = wilson_interval(wins[team], games)
        teams.append({
            "team": team,
            "bot": bots[team],
            "wins": wins[team],
            "win_rate": wins[team] / games if games else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "hang_jacks": sum(r["hang_jacks"][team] for r in results),
        })
    return {
        "games": games,
        "hands": hands,
        "seconds": round(seconds, 3),
        "hands_per_second": round(hands / seconds, 1) if seconds > 0 else None,
        "wins": wins,
        "teams": teams,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "ruleset": (ruleset or Ruleset()).overrides(),
    }
