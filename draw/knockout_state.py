"""Where a knockout's rounds stand, place by place: which ties (or byes) of each round are paired, which are still
to play, and which are not paired yet — each of those waiting for a tie before it, or ready to join its round now
that both the ties that feed it are decided.

A later knockout round's places follow from the round before it (tie ``k`` is fed by ties ``2k - 1`` and ``2k``),
not from what it holds: a round being paired or published tie by tie (``Competition.online_tie_by_tie``) holds only
some of its ties, and its size, the names of its ties and the rounds after it must not shrink to them. Read for the
whole competition in four queries, whatever its size.

**Nobody through.** A place can be decided with nobody going on from it: a tie both sides forfeited (a double
forfeit, a no-show of both at an online table), a tie or a walkover whose winner has withdrawn since, or an empty
place. A tie of the next round one of whose feeders sent nobody is a walkover for the other feeder's winner
(``draw.knockout.advance`` writes it as a bye); a tie neither of whose feeders sent anyone is **empty**: it is never
paired, it waits for nothing, and it sends nobody on in its turn — so the tie after it is a walkover, or empty too,
and so on up to the final. Without this a round holding an empty place would wait for it forever: never whole, so
never published by itself, and the rounds after it never ready.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.db.models import BooleanField, Case, Exists, OuterRef, Q, QuerySet, Value, When

from draw.models import Bye, Round
from draw.placement import KNOCKOUT
from games.models import Match, TeamMatch
from league.models import Entry


@dataclass(frozen=True)
class KnockoutRound:
    """One knockout round's places (the third-place match aside), by bracket position."""

    round_id: int
    number: int
    published: bool
    paired: frozenset[int]  # a tie or a bye (a walkover) is there
    to_play: frozenset[int]  # a tie there is not decided yet
    waiting: tuple[int, ...] = ()  # nothing there yet: its tie is still to be paired
    ready: tuple[int, ...] = ()  # of ``waiting``: both ties that feed it are decided, so it can be paired now
    empty: tuple[int, ...] = ()  # nothing there, ever: neither tie that feeds it sent anyone on
    nobody: frozenset[int] = frozenset()  # decided with nobody going on: a double forfeit, a winner withdrawn, empty

    @property
    def places(self) -> int:
        """Places in the round's bracket: its ties and byes, the ties still to come and the empty ones included."""
        return max(self.paired | set(self.waiting) | set(self.empty), default=0)

    @property
    def undecided(self) -> frozenset[int]:
        """The places whose winner is not known yet: a tie still to play, or one not paired yet."""
        return self.to_play | frozenset(self.waiting)

    def ready_after(self) -> list[int]:
        """The ties of the next round whose two feeders (places ``2k - 1`` and ``2k`` here) are both decided, one of
        them at least sending someone on (a tie, or a walkover when the other sent nobody)."""
        undecided = self.undecided
        return [tie for tie in range(1, (self.places + 1) // 2 + 1)
                if 2 * tie - 1 not in undecided and 2 * tie not in undecided and tie not in self.empty_after()]

    def empty_after(self) -> list[int]:
        """The ties of the next round that nobody reaches: both their feeders here sent nobody on (a place past the
        last of this round's sends nobody either)."""
        gone = self.nobody | frozenset(range(self.places + 1, self.places + 2))
        return [tie for tie in range(1, (self.places + 1) // 2 + 1) if 2 * tie - 1 in gone and 2 * tie in gone]


def knockout_rounds(competition_id: int) -> dict[int, KnockoutRound]:
    """The competition's knockout rounds (``Round.stage`` knockout) by number, each with its places; a round whose
    previous round is a knockout round too has its missing places ``waiting`` (and some of them ``ready``)."""
    rounds = list(Round.objects.filter(competition_id=competition_id, stage=KNOCKOUT).order_by("number")
                  .values_list("pk", "number", "status"))
    ids = [pk for pk, _, _ in rounds]
    paired, to_play, nobody = _positions(ids)
    found: dict[int, KnockoutRound] = {}
    for pk, number, status in rounds:
        state = KnockoutRound(pk, number, status == Round.PUBLISHED, frozenset(paired[pk]), frozenset(to_play[pk]),
                              nobody=frozenset(nobody[pk]))
        previous = found.get(number - 1)
        if previous is not None:
            feeders_decided, reached_by_nobody = set(previous.ready_after()), set(previous.empty_after())
            unpaired = [tie for tie in range(1, (previous.places + 1) // 2 + 1) if tie not in state.paired]
            waiting = tuple(tie for tie in unpaired if tie not in reached_by_nobody)
            empty = tuple(tie for tie in unpaired if tie in reached_by_nobody)
            state = replace(state, waiting=waiting, ready=tuple(tie for tie in waiting if tie in feeders_decided),
                            empty=empty, nobody=state.nobody | frozenset(empty))
        found[number] = state
    return found


Places = dict[int, set[int]]


def _positions(round_ids: Iterable[int]) -> tuple[Places, Places, Places]:
    """(every place paired, the places whose tie is still to play, the places decided with nobody going on) of each
    round, by round id."""
    round_ids = list(round_ids)
    paired: Places = defaultdict(set)
    to_play: Places = defaultdict(set)
    nobody: Places = defaultdict(set)
    still_to_play = Case(When(Q(outcome__in=["", Match.PLAYED]) & ~Q(status=Match.COMPLETE), then=Value(True)),
                         default=Value(False), output_field=BooleanField())
    # a team match's tables are not ties: the team match is
    for rows, entrant, sides in ((Match.objects.filter(team_match__isnull=True), "partnership", "side"),
                                 (TeamMatch.objects.all(), "team", "team")):
        for round_id, position, open_, outcome, winner, a_gone, b_gone in (
                rows.filter(round_id__in=round_ids, third_place=False, bracket_position__isnull=False)
                .values_list("round_id", "bracket_position", still_to_play, "outcome", "winner",
                             Exists(_gone(**{f"{entrant}_id": OuterRef(f"{sides}_a_id")})),
                             Exists(_gone(**{f"{entrant}_id": OuterRef(f"{sides}_b_id")})))
                .order_by()):
            paired[round_id].add(position)
            if open_:
                to_play[round_id].add(position)
            elif _sends_nobody(outcome, winner, a_gone=a_gone, b_gone=b_gone):
                nobody[round_id].add(position)
    for round_id, place, gone in (Bye.objects.filter(round_id__in=round_ids)
                                  .values_list("round_id", "bracket_position", Exists(_gone(pk=OuterRef("entry_id"))))):
        if place is not None:
            paired[round_id].add(place)
            if gone:
                nobody[round_id].add(place)
    return paired, to_play, nobody


def _gone(**entry: OuterRef) -> QuerySet[Entry]:
    """The entry behind a tie's side (or a bye), when it has withdrawn before the round after the tie's: it goes on
    no more (``league.entries.plays_round``)."""
    return Entry.objects.filter(withdrawn=True, competition_id=OuterRef("round__competition_id"), **entry).filter(
        Q(withdrawn_after_round__isnull=True) | Q(withdrawn_after_round__lte=OuterRef("round__number")))


def _sends_nobody(outcome: str, winner: str, *, a_gone: bool, b_gone: bool) -> bool:
    """Whether a decided tie sends nobody on: both sides forfeited, or its winner has withdrawn since."""
    if outcome == Match.DOUBLE_FORFEIT:
        return True
    if outcome in (Match.FORFEIT_A, Match.FORFEIT_B):
        return b_gone if outcome == Match.FORFEIT_A else a_gone
    return (winner == "a" and a_gone) or (winner == "b" and b_gone)
