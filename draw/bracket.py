"""The rest of a knockout's bracket, from its last published round to the final (and the third-place match):
every tie not paired yet, each side the winner (or loser) of a tie before it — by name once that tie is
decided, else "Winner of Semi-final 1" — the ties still to come of a round published tie by tie among them. A read
for the bracket page; nothing here is stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from draw.knockout_state import knockout_rounds
from draw.plan import bracket_ties, knockout_round_name, ties_waiting

TIE_NAMES = {1: "Final", 2: "Semi-final", 4: "Quarter-final"}


def tie_name(ties: int, position: int) -> str:
    """A tie's name in a round of ``ties`` ties: ``Final``, ``Semi-final 2``, ``Round of 16, tie 5``."""
    if ties == 1:
        return "Final"
    if ties in TIE_NAMES:
        return f"{TIE_NAMES[ties]} {position}"
    return f"{knockout_round_name(ties)}, tie {position}"


@dataclass
class PlannedSide:
    """A side of a tie not paired yet: the entrant once the tie that feeds it is decided, else ``""``."""

    source: str  # "Winner of Semi-final 1"
    name: str = ""

    @property
    def text(self) -> str:
        return self.name or self.source


@dataclass
class PlannedTie:
    position: int
    name: str
    a: PlannedSide
    b: PlannedSide
    planned: ClassVar[bool] = True  # beside a published round's ties (``Tie``) in its column: a tie to come


@dataclass
class PlannedColumn:
    name: str
    ties: list[PlannedTie]
    third_place: PlannedTie | None = None


def decided(tie) -> tuple[str, str]:
    """(winner, loser) of a published bracket tie (``draw.public_rounds.Tie``) by name; ``""`` while undecided
    (a tie to come of a round published tie by tie, too)."""
    if isinstance(tie, PlannedTie):
        return "", ""
    if tie.match is None:
        return tie.bye_name, ""
    match = tie.match
    if match.a_won:
        return match.side_a_name, "" if match.b_won else match.side_b_name
    if match.b_won:
        return match.side_b_name, match.side_a_name
    return "", ""


def planned_columns(last_ties: list, third_place: bool, places: int = 0,
                    nobody: frozenset[int] = frozenset()) -> list[PlannedColumn]:
    """The rounds after the last published one (its ties ``last_ties``, in bracket order; ``places`` places, its empty
    ones counted — else as many as its ties reach) to the final; with ``third_place`` the final's column also holds the
    third-place match between the semi-finals' losers. A side fed by a place that sends ``nobody`` on (a double
    forfeit, an empty tie) says so: the other side goes through by a walkover."""
    places = max(places, max((tie.position for tie in last_ties), default=0))
    if places <= 1:
        return []
    by_position = {tie.position: decided(tie) for tie in last_ties}
    winners = {p: by_position.get(p, ("", ""))[0] for p in range(1, places + 1)}
    losers = {p: by_position.get(p, ("", ""))[1] for p in range(1, places + 1)}
    gone = set(nobody)
    columns = []
    while places > 1:
        ties = (places + 1) // 2
        column = PlannedColumn(knockout_round_name(ties), [])
        for position in range(1, ties + 1):
            column.ties.append(PlannedTie(position, tie_name(ties, position),
                                          _fed_by(2 * position - 1, places, "Winner", winners, gone),
                                          _fed_by(2 * position, places, "Winner", winners, gone)))
        if ties == 1 and third_place and places == 2:
            column.third_place = PlannedTie(2, "Third place", _fed_by(1, 2, "Loser", losers, gone),
                                            _fed_by(2, 2, "Loser", losers, gone))
        columns.append(column)
        gone = {tie for tie in range(1, ties + 1) if 2 * tie - 1 in gone and 2 * tie in gone}
        places, winners, losers = ties, {}, {}
    return columns


def _fed_by(place: int, places: int, word: str, names: dict[int, str], gone: set[int]) -> PlannedSide:
    """The side a tie to come takes from ``place`` of the round before (``places`` places): its winner (or loser) by
    name once decided, else "Winner of Semi-final 1" — or nobody, when that place sends nobody on."""
    if place in gone:
        return PlannedSide(f"Nobody from {tie_name(places, place)}")
    return PlannedSide(f"{word} of {tie_name(places, place)}", names.get(place, ""))


def whole_bracket(columns: list, third_place: bool) -> dict:
    """The bracket page's columns: the published rounds (``draw.public_rounds.bracket``), each tie given its name
    (``tie.name``) — a round published tie by tie with its ties still to be paired in their places, as ties to come,
    and named as in the whole round — then the rounds still to come (``planned``)."""
    rounds = knockout_rounds(columns[0].round.competition_id) if columns else {}
    before: list = []
    before_places, last = 0, None
    for column in columns:
        state = rounds.get(column.round.number)
        if state is not None and state.waiting and before:
            column.ties = sorted([*column.ties, *_to_come(before, before_places, state.waiting)],
                                 key=lambda tie: tie.position)
        places = state.places if state is not None else max((tie.position for tie in column.ties), default=0)
        for tie in column.ties:
            tie.name = tie_name(max(places, 1), tie.position)
        before, before_places, last = column.ties, places, state
    planned = planned_columns(columns[-1].ties, third_place, before_places,
                              last.nobody if last is not None else frozenset()) if columns else []
    return {"columns": columns, "planned": planned}


def _to_come(before: list, places: int, positions: Iterable[int]) -> list[PlannedTie]:
    """The ties at ``positions`` of a round published tie by tie, not paired yet: each side the winner of a tie of
    the round before (its ties ``before``, ``places`` places), by name once that tie is decided."""
    winners = {tie.position: decided(tie)[0] for tie in before}
    return [PlannedTie(tie, "", PlannedSide(f"Winner of {tie_name(places, 2 * tie - 1)}", winners.get(2 * tie - 1, "")),
                       PlannedSide(f"Winner of {tie_name(places, 2 * tie)}", winners.get(2 * tie, "")))
            for tie in positions]


def waiting_ties(round_) -> list[PlannedTie]:
    """The ties of a knockout round not paired yet (a draft's, or a round's published tie by tie), each side the
    "Winner of …" of a feeder still to play (or decided while the other is not)."""
    positions = ties_waiting(round_)
    if not positions:
        return []
    previous = round_.competition.rounds.get(number=round_.number - 1)
    places = bracket_ties(previous)
    ties = (places + 1) // 2
    return [PlannedTie(tie, tie_name(ties, tie), PlannedSide(f"Winner of {tie_name(places, 2 * tie - 1)}"),
                       PlannedSide(f"Winner of {tie_name(places, 2 * tie)}")) for tie in positions]
