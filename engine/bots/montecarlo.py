"""Determinized Monte Carlo (perfect-information sampling): deal the unseen cards many ways
consistent with the view, play each legal action out in every deal, keep the best average.

>>> import random
>>> from engine.hand import HandState
>>> hand = HandState.deal(4, 0, random.Random(4))
>>> hand.apply("stand")
>>> bot = MonteCarloBot(samples=20)
>>> bot.choose(hand.view(hand.turn), random.Random(1)) in hand.legal_actions()
True
"""

from __future__ import annotations

import random
import time

from engine.bots.heuristic import HeuristicBot
from engine.bots.knowledge import Determinizer, outcome
from engine.hand import GIVE, PLAY, Action, HandState, SeatView

DEFAULT_SAMPLES = 120
WIN_WEIGHT = 20.0
"""Reaching the target first, in points of this hand: large, so the game comes first."""


class MonteCarloBot:
    """Perfect-information Monte Carlo over determinizations, with random rollouts.

    Options: ``samples`` determinizations per decision; ``time_budget`` seconds per decision
    (a cap on top of ``samples``; with it, play depends on the machine's speed, so it is off by
    default and a fixed seed gives the same choices); ``win_weight`` the bonus for reaching the
    target first; ``bidding``: ``"sample"`` to decide stand/beg and give/run by the same
    sampling (the dealer's answer to a beg is the heuristic's), ``"heuristic"`` to delegate them.
    """

    name = "montecarlo"

    def __init__(self, samples: int = DEFAULT_SAMPLES, time_budget: float | None = None,
                 win_weight: float = WIN_WEIGHT, bidding: str = "heuristic") -> None:
        if bidding not in ("sample", "heuristic"):
            raise ValueError(f"bidding: must be 'sample' or 'heuristic', got {bidding!r}")
        self.samples = samples
        self.time_budget = time_budget
        self.win_weight = win_weight
        self.bidding = bidding
        self.heuristic = HeuristicBot()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase != PLAY and self.bidding == "heuristic":
            return self.heuristic.choose(view, rng)
        values = self.evaluate(view, rng)
        return legal[max(range(len(legal)), key=values.__getitem__)]

    def evaluate(self, view: SeatView, rng: random.Random) -> list[float]:
        """The average outcome of each legal action (in ``view.legal`` order) over the samples."""
        legal = view.legal
        sampler = Determinizer(view)
        totals = [0.0] * len(legal)
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        done = 0
        while done < self.samples and (deadline is None or time.perf_counter() < deadline):
            state = sampler.sample(rng)
            for i, action in enumerate(legal):
                totals[i] += self.rollout(state.copy(), action, view.team, rng)
            done += 1
        return [total / max(done, 1) for total in totals]

    def rollout(self, state: HandState, action: Action, team: int, rng: random.Random) -> float:
        """Take ``action`` in ``state``, finish the hand, return its value for ``team``."""
        if action.kind == "play":
            state.play_index(action.card.index)
        else:
            state.apply(action)
            if state.phase == GIVE:
                state.apply(self.heuristic.choose(state.view(state.dealer), rng))
        state.playout_random(rng.random)
        return outcome(state, team, self.win_weight)
