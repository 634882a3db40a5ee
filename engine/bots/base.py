"""The bot interface: a bot sees one seat's view and returns one legal action.

A bot that decides from the legal actions alone may also offer ``choose_legal(legal, rng)``, giving
the same action as ``choose`` would for a view with those legal actions; ``engine.simulate`` then asks
it without building a ``SeatView`` for each decision (``choose_of``); and one that plays every seat the
same way may offer ``play_out(game, rng)``, playing a whole game through ``GameState.legal_actions()`` /
``apply()`` with the choices ``choose_legal`` would make, without a call of its own a decision (``play_out_of``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from engine.actions import Action
from engine.seat_view import SeatView

if TYPE_CHECKING:
    from engine.game import GameState


class Bot(Protocol):
    """Anything with a ``name`` and ``choose(view, rng) -> Action`` can sit at a table.

    ``view`` is what the seat may know (``SeatView``); the action must be one of ``view.legal``.
    """

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Action: ...


def choose_of(bot: Bot) -> Callable[[Sequence[Action], random.Random], Action] | None:
    """The bot's ``choose_legal`` when it has one (it needs only the legal actions), else ``None``.

    >>> choose_of(RandomBot()) is not None
    True
    """
    return getattr(bot, "choose_legal", None)


def play_out_of(bot: Bot) -> Callable[[GameState, random.Random], None] | None:
    """The bot's ``play_out`` when it has one (it can play a whole game for every seat), else ``None``.

    >>> play_out_of(RandomBot()) is RandomBot.play_out
    True
    """
    return getattr(bot, "play_out", None)


class RandomBot:
    """Plays a uniformly random legal action.

    >>> from engine.hand import HandState
    >>> hand = HandState.deal(4, 0, random.Random(1))
    >>> RandomBot().choose(hand.view(hand.turn), random.Random(2)) in hand.legal_actions()
    True
    """

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        return self.choose_legal(view.legal, rng)

    @staticmethod
    def choose_legal(legal: Sequence[Action], rng: random.Random) -> Action:
        """The pick among ``legal`` (one ``rng.random()`` a decision, also when there is one choice)."""
        return legal[int(rng.random() * len(legal))]

    @staticmethod
    def play_out(game: GameState, rng: random.Random) -> None:
        """Play ``game`` to its end, every seat as ``choose_legal`` would (the same ``rng.random()`` draws,
        so the same game), written out: one draw and one ``apply`` a decision, which checks it.

        >>> from engine.game import GameState
        >>> game = GameState.new(players=4, seed=3)
        >>> RandomBot.play_out(game, random.Random(4)); game.is_over
        True
        """
        rand = rng.random
        legal_actions, apply = game.legal_actions, game.apply
        while game.winner is None:
            legal = legal_actions()
            apply(legal[int(rand() * len(legal))])
