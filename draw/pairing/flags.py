"""The words of a draw: why a pairing or a bye is as it is (:class:`PairingFlag`), and what a draft edited by
hand breaks (:class:`PairingProblem`). Each member carries a description for the organiser; a flag's value is
what a match's ``pairing_flags`` and a bye's ``flags`` store, a problem's value a warning's ``code``. The codes
of a pairing's problems are the flags the engine puts on its own pairings (``rematch``, ``same_club``, …).

>>> PairingFlag("same_club") is PairingFlag.SAME_CLUB, PairingFlag.SAME_CLUB == "same_club"
(True, True)
>>> PairingFlag.FLOAT.description
'Float: paired outside its score group'
>>> PairingProblem.SAME_CLUB == PairingFlag.SAME_CLUB
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self, overload


class _Described(StrEnum):
    """A string enum whose members are ``(value, description)``."""

    description: str

    # Declaring a member takes its value and description; looking one up (``PairingFlag("same_club")``, which
    # never reaches this ``__new__``) takes the value alone: the overloads say both to the type checker.
    @overload
    def __new__(cls, value: str) -> Self: ...

    @overload
    def __new__(cls, value: str, description: str) -> Self: ...

    def __new__(cls, value: str, description: str = "") -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.description = description
        return member

    @classmethod
    def choices(cls) -> list[tuple[str, str]]:
        """``[(value, description)]``, as Django's and DRF's ``choices``."""
        return [(member.value, member.description) for member in cls]


class PairingFlag(_Described):
    """Why a pairing (or a bye) is as it is: what the engine or an organiser's edit put on it."""

    REMATCH = "rematch", "Rematch: they have met before"
    SAME_CLUB = "same_club", "Same club"
    FLOAT = "float", "Float: paired outside its score group"
    REPEAT_PARTNER = "repeat_partner", "Partners again: no new partner was possible"
    REPEAT_OPPONENT = "repeat_opponent", "Opponents again: no new opponent was possible"
    BYE = "bye", "Bye"
    BYE_TWICE = "bye_twice", "Second bye: everyone still playing has had one"
    AVOIDS_REMATCH = "avoids_rematch", "Bye moved up: a lower-ranked pair sitting out would have forced a rematch"
    OPPONENT_WITHDREW = "opponent_withdrew", "Opponent withdrew"
    SITTING_OUT = "sitting_out", "Sits this round out"
    WALKOVER = "walkover", "Walkover: no opponent in the bracket"
    THIRD_PLACE = "third_place", "Third-place match"
    EDITED = "edited", "Changed by hand"
    SET_BY_HAND = "set by hand", "Set by hand"  # a fixture list's bye; the spelling stored since the first one


class PairingProblem(_Described):
    """What a draft breaks, as a warning's ``code`` (``draw.pairing.check``; ``NOT_IN_BRACKET`` from the
    web app's check of a knockout's later rounds)."""

    UNKNOWN = "unknown", "An id that is not an entrant"
    DUPLICATE = "duplicate", "An entrant paired (or given the bye, or seated) more than once"
    MISSING = "missing", "An entrant neither paired nor given the bye (nor seated nor sitting out)"
    BYE_NOT_NEEDED = "bye_not_needed", "A bye in an even field, or a second bye in an odd one"
    BYE_MISSING = "bye_missing", "Nobody has the bye in an odd field"
    SECOND_BYE = "second_bye", "The bye to an entrant who has had more byes than someone who plays"
    BYE_NOT_LOWEST = "bye_not_lowest", "The bye to an entrant ranked above one who could have had it"
    BYE_COUNT = "bye_count", "Not as many byes as the bracket has empty places"
    BYE_NOT_TOP_SEED = "bye_not_top_seed", "A bye to an entrant that is not one of the top seeds"
    NOT_SEEDED = "not_seeded", "A first-round match that the seeded bracket does not have"
    NOT_IN_BRACKET = "not_in_bracket", "A tie that the previous round's winners do not make"
    REMATCH = "rematch", "Two entrants who have met before"
    SAME_CLUB = "same_club", "Two entrants of one club"
    FLOAT = "float", "A pairing across score groups that a better draft would not need"
    REPEAT_PARTNER = "repeat_partner", "Two players who have partnered before"
    REPEAT_OPPONENT = "repeat_opponent", "Two players on opposite sides who have faced each other before"
    SIT_OUT_COUNT = "sit_out_count", "Not as many players sitting out as the tables leave over"
    SECOND_SIT_OUT = "second_sit_out", "A player sits out with more sit-outs than one who plays"
