"""Trinidad All Fours rules engine: pure Python, standard library only.

>>> from engine import GameState, score_record
>>> game = GameState.new(players=4, seed=1)
>>> sorted(str(a) for a in game.legal_actions())
['beg', 'stand']
"""

from engine.cards import Card, Suit
from engine.chalk import parse_chalk, score_chalk
from engine.errors import EngineError, IllegalActionError, InvalidCardError, RecordError, RulesetError
from engine.game import GameState
from engine.hand import Action, HandState, SeatView
from engine.penalties import ExposedCard, Misdeal, Renege, effects_under_each_setting, penalty_effect
from engine.record import replay_record, score_record
from engine.rules import Ruleset

__all__ = [
    "Action", "Card", "EngineError", "ExposedCard", "GameState", "HandState", "IllegalActionError",
    "InvalidCardError", "Misdeal", "RecordError", "Renege", "Ruleset", "RulesetError", "SeatView", "Suit",
    "effects_under_each_setting", "parse_chalk", "penalty_effect", "replay_record", "score_chalk", "score_record",
]
