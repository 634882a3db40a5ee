"""The bot interface: a bot sees one seat's view and returns one legal action."""

from __future__ import annotations

import random
from typing import Protocol

from engine.hand import Action, SeatView


class Bot(Protocol):
    """Anything with a ``name`` and ``choose(view, rng) -> Action`` can sit at a table.

    ``view`` is what the seat may know (``SeatView``); the action must be one of ``view.legal``.
    """

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action.

    >>> from engine.hand import HandState
    >>> hand = HandState.deal(4, 0, random.Random(1))
    >>> RandomBot().choose(hand.view(hand.turn), random.Random(2)) in hand.legal_actions()
    True
    """

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        return legal[int(rng.random() * len(legal))]
