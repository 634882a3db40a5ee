"""A hand's result as a value (docs/hand-record.md, "Result"): what each team scored and why, as python-chess
gives a game's ``Outcome``. ``to_dict()`` is the JSON form the web app, the API and the CLI read.

>>> result = HandResult(trump=Suit.SPADES, kick_points=(0, 0), beg_points=(1, 0), redeal=False,
...     high=Holding(team=0, card=Card.parse("AS")), low=Holding(team=1, card=Card.parse("2S")),
...     jack=None, game=GameResult(team=0, counts=(40, 20)), played=(), points=(3, 1), score_after=(3, 1),
...     winner=None)
>>> result.to_dict()["high"], result.to_dict()["game"]
({'card': 'AS', 'team': 0}, {'team': 0, 'counts': [40, 20]})
>>> HandResult.from_dict(result.to_dict()) == result
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.cards import CARD_NAMES, CARDS, Card, Suit, parse_card_index

_NAME_OF = CARD_NAMES.__getitem__


@dataclass(frozen=True, slots=True)
class Holding:
    """High or Low: the team dealt the card (R18, R19), and the card when it is known (a chalk entry may
    leave it out)."""

    team: int
    card: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"card": None if self.card is None else str(self.card), "team": self.team}


@dataclass(frozen=True, slots=True)
class JackResult:
    """Jack (R20: the holder's team, 1 point) or Hang Jack (R21: the opponents, ``hang_jack_points``)."""

    team: int
    points: int
    hang: bool

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "points": self.points, "hang": self.hang}


@dataclass(frozen=True, slots=True)
class GameResult:
    """Game (R22): the team that scored it (``None``: nobody, on equal counts) and the counts when known."""

    team: int | None
    counts: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "counts": None if self.counts is None else list(self.counts)}


class Trick(NamedTuple):
    """A completed trick: the seat that led, the cards in order of play, the seat that won it (R17)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [str(card) for card in self.cards], "winner": self.winner}


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of one hand, scored in the order of R23. ``trump`` is ``None`` only for a redeal (R12).

    The tricks are kept as the state machine plays them, ``(leader, card indices, winner)``
    (``played``), and read as ``Trick`` values (``tricks``) when asked for: a game builds one result
    a hand, and most are never read trick by trick.
    """

    trump: Suit | None
    kick_points: tuple[int, int]
    beg_points: tuple[int, int]
    redeal: bool
    high: Holding | None
    low: Holding | None
    jack: JackResult | None
    game: GameResult | None
    played: tuple[tuple[int, tuple[int, ...], int], ...]
    points: tuple[int, int]
    score_after: tuple[int, int]
    winner: int | None

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks in order (R17), with their cards."""
        card = CARDS.__getitem__
        return tuple(Trick(leader, tuple(map(card, cards)), winner) for leader, cards, winner in self.played)

    def to_dict(self) -> dict[str, Any]:
        """The result in the JSON form of docs/hand-record.md."""
        high, low, jack, game = self.high, self.low, self.jack, self.game
        return {
            "trump": None if self.trump is None else str(self.trump),
            "kick_points": list(self.kick_points),
            "beg_points": list(self.beg_points),
            "redeal": self.redeal,
            "high": None if high is None else high.to_dict(),
            "low": None if low is None else low.to_dict(),
            "jack": None if jack is None else jack.to_dict(),
            "game": None if game is None else game.to_dict(),
            "tricks": [{"leader": leader, "cards": list(map(_NAME_OF, cards)), "winner": winner}
                       for leader, cards, winner in self.played],
            "points": list(self.points),
            "score_after": list(self.score_after),
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandResult:
        """The inverse of ``to_dict`` (for a result the engine wrote; it is not checked again)."""
        return cls(**_fields_from_dict(data))


class _HandResultSlots:
    """``HandResult``'s slots without its frozen ``__setattr__`` (``hand_result`` fills one)."""

    __slots__ = HandResult.__slots__


def hand_result(trump: Suit | None, kick_points: tuple[int, int], beg_points: tuple[int, int], redeal: bool,
                high: Holding | None, low: Holding | None, jack: JackResult | None, game: GameResult | None,
                played: tuple[tuple[int, tuple[int, ...], int], ...], points: tuple[int, int],
                score_after: tuple[int, int], winner: int | None) -> HandResult:
    """``HandResult(...)`` made six times faster (a game makes one a hand): the frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``; here plain slot stores fill an object of
    the same layout, which then becomes the ``HandResult`` (``__class__`` may be assigned between classes
    of the same slots).

    >>> args = (None, (0, 0), (0, 0), True, None, None, None, None, (), (0, 0), (3, 4), None)
    >>> hand_result(*args) == HandResult(*args), type(hand_result(*args)) is HandResult
    (True, True)
    """
    result: Any = _HandResultSlots()  # Any: HandResult's fields, set on an object that is not one yet
    result.trump, result.kick_points, result.beg_points, result.redeal = trump, kick_points, beg_points, redeal
    result.high, result.low, result.jack, result.game = high, low, jack, game
    result.played, result.points, result.score_after, result.winner = played, points, score_after, winner
    result.__class__ = HandResult
    hand: HandResult = result
    return hand


@dataclass(frozen=True, slots=True)
class ChalkResult(HandResult):
    """A chalk entry's result: no tricks, and ``penalty``, the effect of a renege, an exposed card or a
    misdeal (R25–R27) as ``PenaltyEffect.to_dict()`` plus ``game_withheld``, or ``None``."""

    penalty: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = HandResult.to_dict(self)
        data["penalty"] = self.penalty
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChalkResult:
        return cls(**_fields_from_dict(data), penalty=data.get("penalty"))


def _fields_from_dict(data: Mapping[str, Any]) -> dict[str, Any]:
    high, low, jack, game = data["high"], data["low"], data["jack"], data["game"]
    return {
        "trump": None if data["trump"] is None else Suit.parse(data["trump"]),
        "kick_points": tuple(data["kick_points"]),
        "beg_points": tuple(data["beg_points"]),
        "redeal": data["redeal"],
        "high": None if high is None else _holding(high),
        "low": None if low is None else _holding(low),
        "jack": None if jack is None else JackResult(jack["team"], jack["points"], jack["hang"]),
        "game": None if game is None else GameResult(
            game["team"], None if game["counts"] is None else tuple(game["counts"])),
        "played": tuple((t["leader"], tuple(parse_card_index(c) for c in t["cards"]), t["winner"])
                        for t in data["tricks"]),
        "points": tuple(data["points"]),
        "score_after": tuple(data["score_after"]),
        "winner": data["winner"],
    }


def _holding(data: Mapping[str, Any]) -> Holding:
    return Holding(data["team"], None if data["card"] is None else Card.parse(data["card"]))


__all__ = ["ChalkResult", "GameResult", "HandResult", "Holding", "JackResult", "Trick", "hand_result"]
