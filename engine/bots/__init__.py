"""Bots behind one small interface (``Bot.choose(view, rng)``), made by name with ``make_bot``.

>>> make_bot("random").name
'random'
>>> make_bot("chess")
Traceback (most recent call last):
...
engine.errors.EngineError: bot: unknown bot 'chess' (known: heuristic, montecarlo, random)
"""

from __future__ import annotations

import functools
from typing import Any

from engine.bots.base import Bot, RandomBot
from engine.errors import EngineError


@functools.cache
def _registry() -> dict[str, Any]:
    bots: dict[str, Any] = {"random": RandomBot}
    try:
        from engine.bots.heuristic import HeuristicBot

        bots["heuristic"] = HeuristicBot
    except ImportError:  # pragma: no cover - during development only
        pass
    try:
        from engine.bots.montecarlo import MonteCarloBot

        bots["montecarlo"] = MonteCarloBot
    except ImportError:  # pragma: no cover
        pass
    return bots


BOT_NAMES = ("heuristic", "montecarlo", "random")


def make_bot(name: str, **options: Any) -> Bot:
    """A bot by name (``random``, ``heuristic``, ``montecarlo``) with its options."""
    registry = _registry()
    if name not in registry:
        raise EngineError(f"bot: unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")
    bot: Bot = registry[name](**options)
    return bot


__all__ = ["Bot", "RandomBot", "make_bot", "BOT_NAMES"]
