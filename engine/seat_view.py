"""What one seat may know of a hand: ``SeatView``, a snapshot of the state that holds its own cards,
everything face up and the scores, never another seat's unplayed cards. Bots decide from it alone.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from engine.cards import CARD_NAMES, SUIT_LETTERS, names_of
from engine.errors import EngineError
from engine.words import seat_index_range

if TYPE_CHECKING:
    from engine.hand import HandState


class SeatView:
    """One seat's knowledge of a hand: its own cards, everything face up, the scores.

    Bots decide from this alone. ``to_dict()`` is what an online table sends to that seat.

    A view is a snapshot of the moment it was taken, but cheap to take: ``legal`` is read at once, every
    other attribute on first use. Before the state changes it hands each view still in use the values
    it has not read yet (``_freeze``), so a view kept for later still shows that moment.

    >>> from engine.hand import HandState
    >>> hand = HandState.from_cards(2, dealer=1, hands=[["AS", "KH", "2C", "TD", "9S", "3H"],
    ...     ["QS", "JS", "4H", "5D", "7C", "8C"]], kick="KS")
    >>> view = hand.view(0)
    >>> hand.apply("stand"); hand.apply("AS")
    >>> str(view.phase), view.plays, hand.view(0).plays
    ('beg', [], [51])
    """

    __slots__ = (
        "seat", "legal", "players", "dealer", "ruleset", "phase", "turn", "hand", "hand_sizes", "kicks",
        "trump", "begged", "beg", "runs", "score", "score_before", "kick_points", "beg_points",
        "tricks", "trick", "leader", "plays", "winner", "pack_left", "_state", "__weakref__",
    )

    def __init__(self, state: HandState, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < state.players):
            raise EngineError(f"seat: must be {seat_index_range(state.players)}, got {seat!r}")
        self.seat = seat
        self.legal = state.legal_actions() if state.turn == seat else []
        self._state: HandState | None = state
        views = state.seat_views
        if views is None:
            state.seat_views = [_weak(self)]
        else:
            views.append(_weak(self))

    def __getattr__(self, name: str) -> Any:
        """A field not read yet: copied from the state now (only ``_SEAT_FIELDS`` are)."""
        read = _SEAT_FIELDS.get(name)
        state = self._state
        if read is None or state is None:
            raise AttributeError(f"'SeatView' object has no attribute {name!r}")
        value = read(state, self.seat)
        object.__setattr__(self, name, value)
        return value

    def _freeze(self) -> None:
        """Copy every field not read yet, and stop reading the state (it is about to change)."""
        state, seat = self._state, self.seat
        for name, read in _SEAT_FIELDS.items():
            try:
                object.__getattribute__(self, name)
            except AttributeError:
                object.__setattr__(self, name, read(state, seat))
        self._state = None

    @property
    def team(self) -> int:
        return self.seat % 2

    def seat_of_play(self, n: int) -> int:
        """The seat that played the n-th card of the hand."""
        trick_no, pos = divmod(n, self.players)
        leader: int = self.tricks[trick_no][0] if trick_no < len(self.tricks) else self.leader
        seat: int = (leader + pos) % self.players
        return seat

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "phase": str(self.phase),
            "turn": self.turn,
            "hand": names_of(self.hand),
            "hand_sizes": self.hand_sizes,
            "kicks": [CARD_NAMES[c] for c in self.kicks],
            "trump": SUIT_LETTERS[self.trump] if self.trump >= 0 else None,
            "beg": self.beg,
            "score": self.score,
            "kick_points": self.kick_points,
            "beg_points": self.beg_points,
            "tricks": [
                {"leader": leader, "cards": [CARD_NAMES[c] for c in cards], "winner": winner}
                for leader, cards, winner in self.tricks
            ],
            "trick": {"leader": self.leader, "cards": [CARD_NAMES[c] for c in self.trick]},
            "legal": [str(a) for a in self.legal],
            "winner": self.winner,
        }


_weak = weakref.ref
_SEAT_FIELDS: dict[str, Any] = {
    "players": lambda state, seat: state.players,
    "dealer": lambda state, seat: state.dealer,
    "ruleset": lambda state, seat: state.ruleset,
    "phase": lambda state, seat: state.phase,
    "turn": lambda state, seat: state.turn,
    "hand": lambda state, seat: state.hands[seat],
    "hand_sizes": lambda state, seat: [h.bit_count() for h in state.hands],
    "kicks": lambda state, seat: list(state.kicks),
    "trump": lambda state, seat: state.trump,
    "begged": lambda state, seat: state.begged,
    "beg": lambda state, seat: state.beg,
    "runs": lambda state, seat: state.runs,
    "score": lambda state, seat: list(state.score),
    "score_before": lambda state, seat: state.score_before,
    "kick_points": lambda state, seat: list(state.kick_points),
    "beg_points": lambda state, seat: list(state.beg_points),
    # a completed trick's list of cards never changes, so the tricks are copied one level deep
    "tricks": lambda state, seat: list(state.tricks),
    "trick": lambda state, seat: list(state.trick),
    "leader": lambda state, seat: state.leader,
    "plays": lambda state, seat: list(state.plays),
    "winner": lambda state, seat: state.winner,
    "pack_left": lambda state, seat: state.pack_left,
}
"""How each field of a ``SeatView`` is read from the state: only what the seat may know."""
