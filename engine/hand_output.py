"""A hand's result and record: ``outcome()`` as a value, ``result()`` and ``result_json()`` in the format
of docs/hand-record.md, ``to_record()`` and ``to_dict()`` to replay it. ``HandOutput`` is a base of
``engine.hand.HandState``; it only reads the state.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.actions import GIVE
from engine.cards import CARD_NAMES, CARDS, SUIT_LETTERS, Suit, names_of
from engine.hand_base import BaseHand
from engine.result import GameResult, HandResult, Holding, JackResult, hand_result


class HandOutput(BaseHand):
    """The output methods of ``HandState``."""

    __slots__ = ()

    def result(self) -> dict[str, Any]:
        """The hand's result in the format of docs/hand-record.md (``outcome().to_dict()``).

        ``trump`` names the suit that is trumps also when a kick or the beg point decides the game before
        any card is played (R23): the first kick's suit (R5), kept after a give (R8), or a run's new suit
        (R10) — the suit the last kick turned up, also the begged suit turned up again when its kick points won
        the game (R11) — as docs/hand-record.md says. It is ``None`` only for a redeal (R12).

        >>> from engine.hand import HandState
        >>> hand = HandState.from_cards(4, dealer=3, hands=[
        ...     ["AS", "KH", "2C", "TD", "9S", "3H"], ["QS", "JS", "4H", "5D", "7C", "8C"],
        ...     ["2S", "3S", "6H", "7H", "8H", "9H"], ["4S", "5S", "TH", "QC", "QH", "AH"]], kick="JH", score=(0, 12))
        >>> hand.is_over, hand.result()["trump"], hand.result()["winner"], hand.result()["tricks"]
        (True, 'H', 1, [])
        """
        return self.outcome().to_dict()

    def outcome(self) -> HandResult:
        """The hand's result as a value (``engine.result.HandResult``); ``result()`` is its ``to_dict()``."""
        high, low, jack, game = self.high, self.low, self.jack, self.game
        kick, beg, points, score = self.kick_points, self.beg_points, self.points, self.score
        return hand_result(
            _SUITS[self.trump] if self.trump >= 0 else None,
            (kick[0], kick[1]),
            (beg[0], beg[1]),
            self.redeal,
            _HOLDINGS[high[1]][high[0]] if high else None,
            _HOLDINGS[low[1]][low[0]] if low else None,
            _jack_result(jack) if jack else None,
            _game_result(game[0], game[1][0], game[1][1]) if game else None,
            tuple([(leader, tuple(cards), winner) for leader, cards, winner in self.tricks]),
            (points[0], points[1]),
            (score[0], score[1]),
            self.winner,
        )

    def result_json(self) -> str:
        """``result()`` as compact JSON text, built directly (the hot path of ``score --jsonl``);
        equal to ``json.dumps(self.result(), separators=(",", ":"))``."""
        high, low, jack, game = self.high, self.low, self.jack, self.game
        names = CARD_NAMES
        if self.players == 4:  # one template a trick: faster than joining the names
            tricks = ",".join([_TRICK4 % (leader, names[a], names[b], names[c], names[d], winner)
                               for leader, (a, b, c, d), winner in self.tricks])
        else:
            tricks = ",".join([_TRICK2 % (leader, names[a], names[b], winner)
                               for leader, (a, b), winner in self.tricks])
        trump = f'"{SUIT_LETTERS[self.trump]}"' if self.trump >= 0 else "null"
        kick, beg, points, score = self.kick_points, self.beg_points, self.points, self.score
        return (
            f'{{"trump":{trump},"kick_points":[{kick[0]},{kick[1]}],"beg_points":[{beg[0]},{beg[1]}],'
            f'"redeal":{"true" if self.redeal else "false"},'
            f'"high":{f"""{{"card":"{CARD_NAMES[high[0]]}","team":{high[1]}}}""" if high else "null"},'
            f'"low":{f"""{{"card":"{CARD_NAMES[low[0]]}","team":{low[1]}}}""" if low else "null"},'
            f'"jack":{_jack_json(jack)},"game":{_game_json(game)},"tricks":[{tricks}],'
            f'"points":[{points[0]},{points[1]}],"score_after":[{score[0]},{score[1]}],'
            f'"winner":{"null" if self.winner is None else self.winner}}}'
        )

    def to_record(self) -> dict[str, Any]:
        """The hand record (docs/hand-record.md) of everything dealt and played so far."""
        players = self.players
        record: dict[str, Any] = {
            "players": players,
            "dealer": self.dealer,
            "score_before": list(self.score_before),
            "ruleset": self.ruleset.overrides(),
            "hands": [names_of(h) for h in self.initial_hands],
            "kick": CARD_NAMES[self.kicks[0]],
        }
        beg = self.beg or ("beg" if self.phase == GIVE else None)
        if beg is not None:
            record["beg"] = beg
        if self.beg == "run":
            runs = []
            pos = 0
            for r in range(self.runs):
                extra: list[list[str]] = [[] for _ in range(players)]
                for i in range(1, players + 1):
                    seat = (self.dealer + i) % players
                    extra[seat] = [CARD_NAMES[c] for c in self.stock[pos:pos + 3]]
                    pos += 3
                runs.append({"extra": extra, "kick": CARD_NAMES[self.kicks[r + 1]]})
                pos += 1
            if self.last_kick:  # R12 last_card_kick: the pack's last card, turned with nothing dealt
                runs.append({"extra": [[] for _ in range(players)], "kick": CARD_NAMES[self.kicks[-1]]})
            record["runs"] = runs
        record["plays"] = [CARD_NAMES[c] for c in self.plays]
        return record

    def actions(self) -> list[str]:
        """Every action taken so far, in order, in ``Action`` notation."""
        taken = []
        if self.beg == "stand":
            taken.append("stand")
        elif self.beg in ("give", "run") or self.phase == GIVE:
            taken.append("beg")
            if self.beg in ("give", "run"):
                taken.append(self.beg)
        taken.extend(CARD_NAMES[c] for c in self.plays)
        return taken

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON-ready form: the deal and the actions taken; ``from_dict`` replays it exactly."""
        return {
            "players": self.players,
            "dealer": self.dealer,
            "score": list(self.score_before),
            "ruleset": self.ruleset.overrides(),
            "hands": [names_of(h) for h in self.initial_hands],
            "kick": CARD_NAMES[self.kicks[0]],
            "stock": [CARD_NAMES[c] for c in self.stock],
            "actions": self.actions(),
        }


_SUITS = tuple(Suit)
_HOLDINGS = tuple(tuple(Holding(team, card) for card in CARDS) for team in (0, 1))
"""High and Low for each team and card: values, so one of each serves every result."""


@functools.cache
def _jack_result(jack: tuple[int, int, bool]) -> JackResult:
    return JackResult(*jack)


@functools.lru_cache(maxsize=4096)
def _game_result(team: int | None, count0: int, count1: int) -> GameResult:
    return GameResult(team, (count0, count1))


_TRICK4 = '{"leader":%d,"cards":["%s","%s","%s","%s"],"winner":%d}'
_TRICK2 = '{"leader":%d,"cards":["%s","%s"],"winner":%d}'


def _jack_json(jack: tuple[int, int, bool] | None) -> str:
    if jack is None:
        return "null"
    return f'{{"team":{jack[0]},"points":{jack[1]},"hang":{"true" if jack[2] else "false"}}}'


def _game_json(game: tuple[int | None, list[int]] | None) -> str:
    if game is None:
        return "null"
    team = "null" if game[0] is None else game[0]
    return f'{{"team":{team},"counts":[{game[1][0]},{game[1][1]}]}}'
