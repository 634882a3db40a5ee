"""What the live pages benchmark times: each hand from just before its POST to every open page that should show it
(its match's scoresheets, every standings page), and the updates missed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Hand:
    """A hand being posted: its row's id, when its POST was sent, and the sockets it has yet to reach."""

    match_id: int
    row_id: str
    measured: bool
    sent: float = 0.0
    chalks: tuple[int, int] | None = None  # side A's and B's chalks over the match after it (from the 201)
    sheets_left: set[int] = field(default_factory=set)
    standings_left: set[int] = field(default_factory=set)


@dataclass
class Stats:
    sheet: list[float] = field(default_factory=list)  # s, POST sent → a scoresheet socket has the row
    standings: list[float] = field(default_factory=list)  # s, POST sent → a standings socket shows the hand
    api: list[float] = field(default_factory=list)  # s, POST sent → its answer
    hands: int = 0  # measured hands answered with a 201
    errors: list[str] = field(default_factory=list)
    finished: int = 0  # matches that ended (their scorekeeper stopped)
    unexpected: int = 0  # sockets that closed or messages of an unknown type
    gone: int = 0
    connect_failures: int = 0
    messages: int = 0
    measuring: bool = False
    closing: bool = False

    def connect_failed(self) -> None:
        self.connect_failures += 1


class Tracker:
    """Matches each rendering that comes in to the hands waiting for it, and keeps what every socket has shown."""

    def __init__(self, stats: Stats, timeout: float) -> None:
        self.stats, self.timeout = stats, timeout
        self.sheet_sockets: dict[int, list[int]] = {}  # match → its scoresheet sockets
        self.standings_sockets: list[int] = []
        self.by_row: dict[tuple[int, str], Hand] = {}  # hands whose scoresheets are still awaited
        self.standings_waiting: dict[int, list[Hand]] = {}  # match → its hands the standings are awaited for
        self.shown: dict[int, dict[str, list[tuple[float, float, float]]]] = {}  # standings socket → side A's
        # name → each (time, chalks for, chalks against) it showed, as they changed
        self.measured: list[Hand] = []

    def posting(self, match_id: int, row_id: str) -> Hand:
        """A hand about to be posted: from now on its row is looked for on its scoresheets."""
        hand = Hand(match_id, row_id, self.stats.measuring, sheets_left=set(self.sheet_sockets.get(match_id, ())))
        self.by_row[match_id, row_id] = hand
        if hand.measured:
            self.measured.append(hand)
        return hand

    def answered(self, hand: Hand, chalks: tuple[int, int] | None, side_a: str) -> None:
        """The hand's 201 came (``chalks`` None: it was refused): the standings renderings already in are looked
        at, and the hand waits for the next ones."""
        if chalks is None:
            self.by_row.pop((hand.match_id, hand.row_id), None)
            hand.sheets_left.clear()
            if hand in self.measured:
                self.measured.remove(hand)
            return
        hand.chalks = chalks
        hand.standings_left = set(self.standings_sockets)
        for sock in list(hand.standings_left):
            for at, cf, ca in self.shown.get(sock, {}).get(side_a, ()):
                if at >= hand.sent and _shows(cf, ca, chalks):
                    self._reached(hand, sock, at, standings=True)
                    break
        if hand.standings_left:
            self.standings_waiting.setdefault(hand.match_id, []).append(hand)

    def sheet_seen(self, sock: int, match_id: int, rows: set[str], new: set[str], at: float) -> None:
        for row_id in new:
            hand = self.by_row.get((match_id, row_id))
            if hand is not None and sock in hand.sheets_left:
                self._reached(hand, sock, at, standings=False)
                if not hand.sheets_left:
                    del self.by_row[match_id, row_id]

    def standings_seen(self, sock: int, names: dict[str, Any], match_of: dict[str, int], at: float) -> None:
        shown = self.shown.setdefault(sock, {})
        for name, (cf, ca) in names.items():
            history = shown.setdefault(name, [])
            if history and history[-1][1:] == (cf, ca):
                continue
            history.append((at, cf, ca))
            if len(history) > 64:
                del history[:32]
            match_id = match_of.get(name)
            waiting = self.standings_waiting.get(match_id) if match_id is not None else None
            if not waiting:
                continue
            for hand in list(waiting):
                if sock in hand.standings_left and _shows(cf, ca, hand.chalks):
                    self._reached(hand, sock, at, standings=True)
                    if not hand.standings_left:
                        waiting.remove(hand)

    def _reached(self, hand: Hand, sock: int, at: float, *, standings: bool) -> None:
        (hand.standings_left if standings else hand.sheets_left).discard(sock)
        if hand.measured:
            (self.stats.standings if standings else self.stats.sheet).append(at - hand.sent)

    def outstanding(self) -> int:
        return sum(len(h.sheets_left) + len(h.standings_left) for h in self.measured)

    def missed(self) -> dict[str, int]:
        """Updates of the measured hands not there within the timeout (late ones, or none at all)."""
        late_sheet = sum(1 for x in self.stats.sheet if x > self.timeout)
        late_standings = sum(1 for x in self.stats.standings if x > self.timeout)
        never_sheet = sum(len(h.sheets_left) for h in self.measured)
        never_standings = sum(len(h.standings_left) for h in self.measured if h.chalks is not None)
        hands = sum(1 for h in self.measured if h.sheets_left or h.standings_left)
        return {"sheet": late_sheet + never_sheet, "standings": late_standings + never_standings,
                "late": late_sheet + late_standings, "never": never_sheet + never_standings, "hands": hands}


def _shows(cf: float | None, ca: float | None, chalks: tuple[int, int] | None) -> bool:
    return chalks is not None and cf is not None and ca is not None and cf >= chalks[0] and ca >= chalks[1]

