"""Trinidad All Fours rules engine: pure Python, standard library only.

>>> from engine import GameState, score_record
>>> game = GameState.new(players=4, seed=1)
>>> sorted(str(a) for a in game.legal_actions())
['beg', 'stand']
"""

from engine.cards import Card, Suit
from engine.errors import EngineError, IllegalActionError, InvalidCardError, RecordError, RulesetError
from engine.game import GameState
from engine.hand import Action, HandState, SeatView
from engine.record import replay_record, score_record
from engine.rules import Ruleset

__all__ = [
    "Action", "Card", "EngineError", "GameState", "HandState", "IllegalActionError", "InvalidCardError",
    "RecordError", "Ruleset", "RulesetError", "SeatView", "Suit", "replay_record", "score_record",
]
