"""Every variant of the ruleset in the words of the table: its name, a sentence on what it does, and its choices.

One source of truth for the forms that set a ruleset, the pages that show one, and the engine's messages that
name a house rule; the keys, choices and bounds are ``engine.rules``'s own.

>>> VARIANTS["game_tie"].choice_words("non_dealer")
"the non-dealer's side scores Game"
>>> house_rules(Ruleset.from_dict({"target": 10, "undertrump_ban": True}))
['A game is played to 10 points', 'No undertrumping: once a plain-suit lead has been trumped, a player may not \
play a lower trump than the highest in the trick unless every card in hand is a trump']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.cards import RANK_LETTERS
from engine.rules import BOOLEANS, CHOICES, DEFAULT_KICK_POINTS, DEFAULT_RULESET, POINT_KEYS, Ruleset


class VariantKind(StrEnum):
    CHOICE = "choice"  # one of the words of ``CHOICES``
    SWITCH = "switch"  # on or off
    NUMBER = "number"  # a whole number within ``POINT_KEYS``
    KICK_POINTS = "kick_points"  # a rank-to-points table


RANK_NAMES = {"2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight",
              "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
KICK_POINT_TABLES = {  # the tables clubs use, by name
    "trinidad": DEFAULT_KICK_POINTS,
    "tobago": {"A": 1, "2": 2, "J": 3},
}


@dataclass(frozen=True)
class Variant:
    key: str
    kind: VariantKind
    label: str  # the house rule's name, e.g. "No undertrumping"
    sentence: str  # what it does
    choices: tuple[tuple[Any, str], ...] = ()  # (value, words) of a choice or a switch
    sentence_when_set: str = ""  # the rule in force, with ``{value}`` for a number

    @property
    def bounds(self) -> tuple[int, int]:
        return POINT_KEYS[self.key]

    def choice_words(self, value: Any) -> str:
        words: str = dict(self.choices).get(value, str(value))
        return words

    def in_force(self, value: Any) -> str:
        """The rule in force with ``value``, as one sentence for a page."""
        if self.kind is VariantKind.SWITCH:
            return f"{self.label}: {self.sentence_when_set}" if value else f"{self.label}: off"
        if self.kind is VariantKind.NUMBER:
            return self.sentence_when_set.format(value=value)
        if self.kind is VariantKind.KICK_POINTS:
            return f"Kick points: {kick_points_words(value)}"
        return f"{self.label}: {self.choice_words(value)}"


def kick_points_words(points: dict[str, int]) -> str:
    """``{"J": 3, "6": 2, "A": 1}`` → ``Ace 1, Six 2, Jack 3`` (by points, then rank); ``{}`` → ``no kick scores``."""
    ordered = sorted(((rank, points[rank]) for rank in RANK_LETTERS if points.get(rank)),
                     key=lambda item: (item[1], RANK_LETTERS.index(item[0])))
    return ", ".join(f"{RANK_NAMES[rank]} {value}" for rank, value in ordered) or "no kick scores"


def _switch(key: str, label: str, sentence: str, when_set: str) -> Variant:
    return Variant(key, VariantKind.SWITCH, label, sentence, ((False, "Off"), (True, "On")), when_set)


VARIANTS: dict[str, Variant] = {variant.key: variant for variant in (
    Variant("target", VariantKind.NUMBER, "Points to win a game",
            "A game is played to this many points (14 in the standard game).",
            sentence_when_set="A game is played to {value} points"),
    Variant("kick_points", VariantKind.KICK_POINTS, "Kick points",
            "What the dealer's side scores at once when the kick is one of these cards.",
            choices=tuple((name, f"{name.title()}: {kick_points_words(table)}")
                          for name, table in KICK_POINT_TABLES.items())),
    Variant("first_dealer", VariantKind.CHOICE, "First dealer", "Who deals the first hand of a game.",
            (("high_cut", "the highest cut deals"),
             ("first_jack", "cards are dealt face up round the table: the first jack deals"))),
    _switch("stand_needs_trump", "The eldest stands only with a trump",
            "When on, the eldest may stand only while holding a trump of the kicked suit, and must beg otherwise.",
            "the eldest may stand only while holding a trump of the kicked suit"),
    _switch("give_one_needs_trump", "The dealer gives one only with a trump",
            "When on, the dealer may give one only while holding a trump of the kicked suit.",
            "the dealer may give one only while holding a trump of the kicked suit"),
    _switch("give_one_to_win", "Giving one may win the game",
            "When off, the dealer may not give the point that would take the eldest's side to the target, and "
            "must run the pack.",
            "the point given may take the eldest's side to the target"),
    _switch("last_card_kick", "The pack's last card is kicked",
            "When on, a pack that cannot supply another round but still holds cards turns its next card as a "
            "last kick, with nothing dealt.",
            "a pack too short for another round turns its next card as a last kick"),
    _switch("undertrump_ban", "No undertrumping",
            "When on, once a plain-suit lead has been trumped, a player may not play a lower trump than the highest "
            "in the trick unless every card in hand is a trump.",
            "once a plain-suit lead has been trumped, a player may not play a lower trump than the highest in the "
            "trick unless every card in hand is a trump"),
    Variant("hang_jack_points", VariantKind.NUMBER, "Hang Jack scores",
            "What a side scores for winning the opponents' jack of trumps in a trick (3 in the standard game).",
            sentence_when_set="Hang Jack scores {value}"),
    Variant("game_points", VariantKind.NUMBER, "Game scores",
            "What the side with the higher count of the cards it won scores for Game (1 in the standard game).",
            sentence_when_set="Game scores {value}"),
    Variant("game_tie", VariantKind.CHOICE, "Equal counts for Game", "Who scores Game when the counts are equal.",
            (("none", "nobody scores Game"), ("non_dealer", "the non-dealer's side scores Game"))),
    Variant("renege_penalty", VariantKind.CHOICE, "A renege",
            "What a renege costs the side that reneged. The standard penalty: failing to trump a trump lead while "
            "holding A, K, Q, J or 10 of trumps loses the game; any other renege gives the opponents 1 and the side "
            "cannot score Game that hand.",
            (("standard", "the standard penalty"),
             ("lose_game", "every renege loses the game"),
             ("one_point", "a renege gives the opponents 1 point"),
             ("fourteen_points", "a renege gives the opponents 14 points"))),
    Variant("misdeal", VariantKind.CHOICE, "A misdeal", "What follows a wrong deal: the opponents score 1, and …",
            (("redeal_same_dealer", "the same dealer deals again"), ("deal_passes", "the deal passes on"))),
)}
assert set(VARIANTS) == set(Ruleset.keys())
assert all(tuple(v for v, _ in VARIANTS[key].choices) == CHOICES[key] for key in CHOICES)
assert all(VARIANTS[key].kind is VariantKind.SWITCH for key in BOOLEANS)


def house_rules(ruleset: Ruleset) -> list[str]:
    """The ruleset's differences from the standard game, one sentence each, in the order of ``VARIANTS``."""
    differ = ruleset.overrides()
    return [variant.in_force(differ[key]) for key, variant in VARIANTS.items() if key in differ]


def kick_table_name(points: dict[str, int]) -> str | None:
    """The name of the clubs' table ``points`` is (``trinidad``, ``tobago``), or ``None`` for another."""
    return next((name for name, table in KICK_POINT_TABLES.items() if table == points), None)


def standard_value(key: str) -> Any:
    return DEFAULT_RULESET.to_dict()[key]
