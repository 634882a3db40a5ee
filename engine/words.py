"""How the engine's messages name sides and seats for people.

Records and results keep their indexes (team 0 and 1, seats 0 to 3), but a message says what the players at
the table say: side A and side B (side A holds the seats of index 0 and 2), seats 1 to 4 round the table.

>>> side(0), side(1), seat(0), seat(3), seat_index_range(4)
('side A', 'side B', 'seat 1', 'seat 4', 'a seat index from 0 to 3 (seat 1 to seat 4)')
>>> team_value(1)
'1 (side B)'
"""

from __future__ import annotations

SIDE_LETTERS = "AB"


def side(team: int, *, capital: bool = False) -> str:
    """``side A`` for team 0, ``side B`` for team 1 (``Side A`` to start a sentence)."""
    return f"{'Side' if capital else 'side'} {SIDE_LETTERS[team]}"


def seat(index: int, *, capital: bool = False) -> str:
    """``seat 1`` for the seat of index 0, and so on (``Seat 1`` to start a sentence)."""
    return f"{'Seat' if capital else 'seat'} {index + 1}"


def seat_index_range(players: int) -> str:
    """What a seat field holds, for a message about its value."""
    return f"a seat index from 0 to {players - 1} ({seat(0)} to {seat(players - 1)})"


def team_value(team: int) -> str:
    """A team index as a value, with the side it stands for: ``0 (side A)``."""
    return f"{team} ({side(team)})"
