"""Every move of a match played online, with the time each took, for the organiser's review after the fact (a
disconnect storm, a player suspected of help from outside): the rows of the export (CSV on the match's online page,
JSON from the API) and the per-player summary the online page shows.

**Which moves**: every ``TableAction`` of every table the match was played at, over its life (a match ended online
and opened again, or voided and played again, has several), in order: table, hand, ``seq``. **How long a move
took**: from the start of its turn — the previous move of the same hand, or the hand's deal for its first move — to
the move, as the server stored both (``TableAction.created_at``, ``TableHand.created_at``). It includes the time the
turn took to reach the player's phone, and a bot's pace (``Table.bot_pace``) for a bot's move; a move by the clock
took the whole of the player's time.

**Hidden cards**: a move is a bid (stand, beg, give one, run the pack) or a card played face up — what every reader
of the table saw as it was made; the pack, the hands as dealt and the cards never played are not in it. Even so,
while a table plays, the hand in play is left out until it ends (``in_play_left_out``): spectators of an event may
see a table a trick late, and the export is for the organisers' review, never a live view of a table.

Who may read it: the club's organisers (``can_review``): the times and who moved for whom are a player's record the
club's people keep, as the scorekeepers do not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from engine.cards import Card
from engine.errors import EngineError
from games.models import Match
from league.permissions import is_organiser
from tables.changes import OPEN, TableError
from tables.fixtures import fixture_players
from tables.models import Seat, Table, TableAction, TableHand

COLUMNS = ("table", "hand", "game", "seat", "side", "player", "moved_by", "by", "action", "in_words", "seconds",
           "at")
"""The export's columns, in order (the CSV's header, the JSON's keys of a move)."""

BID_WORDS = {"stand": "stood", "beg": "begged", "give": "gave one", "run": "ran the pack"}
MOVER_WORDS = {TableAction.BOT: "bot", TableAction.CLOCK: "bot (the clock ran out)",
               TableAction.COVER: "covered by bot"}


def can_review(user: Any, match: Match) -> bool:
    """Whether ``user`` may read the match's moves and times: the club's organisers."""
    return is_organiser(user, match.competition.club_id)


@dataclass(frozen=True)
class Move:
    table: int
    hand: int
    game: int
    seat: int  # 1 to 4, as the online page numbers them
    side: str  # the match's side name
    player: str  # the match's player at the seat
    moved_by: str  # the login (or "<name> (seat link)"), "bot", "bot (the clock ran out)", "covered by bot"
    by: str  # TableAction.BY: player, bot, clock, cover
    action: str  # the engine's text: stand, beg, give, run or a card (JH)
    in_words: str  # "played J♥", "stood"
    seconds: float
    at: datetime

    def values(self) -> list[Any]:
        return [getattr(self, name) for name in COLUMNS]


@dataclass
class PlayerSummary:
    """One seat's player over the match: their moves, how long their own took, and the moves a bot made for them."""

    seat: int
    side: str
    player: str
    login: str
    moves: int = 0
    own: list[float] = field(default_factory=list)
    by_clock: int = 0
    by_cover: int = 0
    by_bot: int = 0

    @property
    def own_moves(self) -> int:
        return len(self.own)

    @property
    def average_seconds(self) -> float | None:
        return round(sum(self.own) / len(self.own), 1) if self.own else None

    @property
    def longest_seconds(self) -> float | None:
        return round(max(self.own), 1) if self.own else None

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "side": self.side, "player": self.player, "login": self.login,
                "moves": self.moves, "own_moves": self.own_moves, "average_seconds": self.average_seconds,
                "longest_seconds": self.longest_seconds, "by_clock": self.by_clock, "by_cover": self.by_cover,
                "by_bot": self.by_bot}


@dataclass(frozen=True)
class MoveExport:
    """The match's moves in order, each player's summary, and the hands left out while their table plays."""

    match: Match
    moves: list[Move]
    summary: list[PlayerSummary]
    in_play_left_out: list[dict[str, int]]
    made_at: datetime

    def rows(self) -> list[list[Any]]:
        """The CSV's rows: the header, then a move a row (times as the server's local time, ISO 8601)."""
        return [list(COLUMNS), *([*move.values()[:-1], timezone.localtime(move.at).isoformat()]
                                 for move in self.moves)]

    def as_dict(self) -> dict[str, Any]:
        """The JSON: the match, the summary, the moves, and what was left out."""
        return {
            "match": {"id": self.match.pk, "side_a": self.match.side_a_name, "side_b": self.match.side_b_name,
                      "status": self.match.status},
            "made_at": self.made_at.isoformat(),
            "seconds_measured": "from the turn's start (the previous move of the hand, or its deal) to the move",
            "in_play_left_out": self.in_play_left_out,
            "summary": [player.as_dict() for player in self.summary],
            "moves": [{**dict(zip(COLUMNS, move.values(), strict=True)), "at": move.at.isoformat()}
                      for move in self.moves],
        }


def in_words(action: str) -> str:
    """The move as a player says it: ``stood``, ``gave one``, ``played 10♦``."""
    if action in BID_WORDS:
        return BID_WORDS[action]
    try:
        return f"played {Card.parse(action).symbol}"
    except EngineError:
        return action


class NotPlayedOnline(TableError):
    """The match has no online table: no move to review (a 409)."""

    conflict = True


def match_moves(match: Match) -> MoveExport:
    """Every move of the match's online tables, timed, with each seat's player's summary (see the module);
    ``NotPlayedOnline`` for a match never played online."""
    tables = {table.pk: table for table in Table.objects.filter(match=match, kind=Table.FIXTURE).order_by("pk")}
    if not tables:
        raise NotPlayedOnline("match", "This match was not played online: it has no moves to review.")
    players = fixture_players(match)
    sides = [match.side_a_name, match.side_b_name]
    logins = {(seat.table_id, seat.index): seat.user.get_username() if seat.user is not None else ""
              for seat in Seat.objects.filter(table_id__in=tables).select_related("user")}
    hands = {hand.pk: hand for hand in TableHand.objects.filter(table_id__in=tables).defer("pack")}
    left_out = {pk for pk, hand in hands.items() if hand.record is None and tables[hand.table_id].status in OPEN}
    summary = {index: PlayerSummary(index + 1, sides[index % 2], player.name,
                                    player.user.get_username() if player.user is not None else "")
               for index, player in enumerate(players)}
    moves: list[Move] = []
    turn_began: dict[int, datetime] = {}
    for row in (TableAction.objects.filter(table_id__in=tables).exclude(hand_id__in=left_out)
                .order_by("table_id", "seq").values("table_id", "hand_id", "seat", "action", "by", "created_at")):
        hand = hands[row["hand_id"]]
        began = turn_began.get(hand.pk, hand.created_at)
        turn_began[hand.pk] = row["created_at"]
        seconds = round(max(0.0, (row["created_at"] - began).total_seconds()), 3)
        index, by = row["seat"], row["by"]
        name = players[index].name if index < len(players) else f"seat {index + 1}"
        login = logins.get((row["table_id"], index), "")
        moves.append(Move(row["table_id"], hand.number, hand.game_number, index + 1, sides[index % 2], name,
                          MOVER_WORDS.get(by) or login or f"{name} (seat link)", by, row["action"],
                          in_words(row["action"]), seconds, row["created_at"]))
        _count(summary.get(index), by, seconds)
    return MoveExport(match, moves, [summary[index] for index in sorted(summary)],
                      [{"table": hands[pk].table_id, "hand": hands[pk].number} for pk in sorted(left_out)],
                      timezone.now())


def _count(player: PlayerSummary | None, by: str, seconds: float) -> None:
    if player is None:
        return
    player.moves += 1
    if by == TableAction.PLAYER:
        player.own.append(seconds)
    elif by == TableAction.CLOCK:
        player.by_clock += 1
    elif by == TableAction.COVER:
        player.by_cover += 1
    else:
        player.by_bot += 1

