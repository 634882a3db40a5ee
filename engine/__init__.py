"""Trinidad All Fours rules engine: pure Python, standard library only.

>>> from engine import GameState, score_record
>>> game = GameState.new(players=4, seed=1)
>>> sorted(str(a) for a in game.legal_actions())
['beg', 'stand']
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Names are imported from their modules on first use, so that ``python -m engine score`` starts
# without loading the chalk, penalty and game modules it does not need.
_HOME = {
    "Card": "cards", "Suit": "cards",
    "parse_chalk": "chalk", "score_chalk": "chalk",
    "EngineError": "errors", "IllegalActionError": "errors", "InvalidCardError": "errors",
    "RecordError": "errors", "ResultError": "errors", "RulesetError": "errors",
    "GameState": "game",
    "Action": "actions", "Phase": "actions", "HandState": "hand", "SeatView": "seat_view",
    "ChalkResult": "result", "HandResult": "result",
    "check_game_result": "limits", "check_match_totals": "limits", "most_chalks_at_game_end": "limits",
    "most_hang_jacks_in_game": "limits", "most_points_in_hand": "limits",
    "ExposedCard": "penalties", "Misdeal": "penalties", "Renege": "penalties",
    "effects_under_each_setting": "penalties", "penalty_effect": "penalties",
    "replay_record": "record", "score_record": "record",
    "Ruleset": "rules",
}

if TYPE_CHECKING:
    from engine.actions import Action, Phase
    from engine.cards import Card, Suit
    from engine.chalk import parse_chalk, score_chalk
    from engine.errors import EngineError, IllegalActionError, InvalidCardError, RecordError, ResultError, RulesetError
    from engine.game import GameState
    from engine.hand import HandState
    from engine.limits import (
        check_game_result,
        check_match_totals,
        most_chalks_at_game_end,
        most_hang_jacks_in_game,
        most_points_in_hand,
    )
    from engine.penalties import ExposedCard, Misdeal, Renege, effects_under_each_setting, penalty_effect
    from engine.record import replay_record, score_record
    from engine.result import ChalkResult, HandResult
    from engine.rules import Ruleset
    from engine.seat_view import SeatView


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"engine.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Action", "Card", "ChalkResult", "EngineError", "ExposedCard", "GameState", "HandResult", "HandState",
    "IllegalActionError", "InvalidCardError", "Misdeal", "Phase", "RecordError", "Renege", "ResultError", "Ruleset",
    "RulesetError", "SeatView", "Suit", "check_game_result", "check_match_totals", "effects_under_each_setting",
    "most_chalks_at_game_end", "most_hang_jacks_in_game", "most_points_in_hand", "parse_chalk", "penalty_effect",
    "replay_record", "score_chalk", "score_record",
]
