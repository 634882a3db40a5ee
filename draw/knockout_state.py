"""Where a knockout's rounds stand, place by place: which ties (or byes) of each round are paired, which are still
to play, and which are not paired yet — each of those waiting for a tie before it, or ready to join its round now
that both the ties that feed it are decided.

A later knockout round's places follow from the round before it (tie ``k`` is fed by ties ``2k - 1`` and ``2k``),
not from what it holds: a round being paired or published tie by tie (``Competition.online_tie_by_tie``) holds only
some of its ties, and its size, the names of its ties and the rounds after it must not shrink to them. Read for the
whole competition in four queries, whatever its size.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.db.models import BooleanField, Case, Q, Value, When

from draw.models import Bye, Round
from draw.placement import KNOCKOUT
from games.models import Match, TeamMatch


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

    @property
    def places(self) -> int:
        """Places in the round's bracket: its ties and byes, the ties still to come included."""
        return max(self.paired | set(self.waiting), default=0)

    @property
    def undecided(self) -> frozenset[int]:
        """The places whose winner is not known yet: a tie still to play, or one not paired yet."""
        return self.to_play | frozenset(self.waiting)

    def ready_after(self) -> list[int]:
        """The ties of the next round whose two feeders (places ``2k - 1`` and ``2k`` here) are both decided."""
        undecided = self.undecided
        return [tie for tie in range(1, (self.places + 1) // 2 + 1)
                if 2 * tie - 1 not in undecided and 2 * tie not in undecided]


def knockout_rounds(competition_id: int) -> dict[int, KnockoutRound]:
    """The competition's knockout rounds (``Round.stage`` knockout) by number, each with its places; a round whose
    previous round is a knockout round too has its missing places ``waiting`` (and some of them ``ready``)."""
    rounds = list(Round.objects.filter(competition_id=competition_id, stage=KNOCKOUT).order_by("number")
                  .values_list("pk", "number", "status"))
    ids = [pk for pk, _, _ in rounds]
    paired, to_play = _positions(ids)
    found: dict[int, KnockoutRound] = {}
    for pk, number, status in rounds:
        state = KnockoutRound(pk, number, status == Round.PUBLISHED, frozenset(paired[pk]), frozenset(to_play[pk]))
        previous = found.get(number - 1)
        if previous is not None:
            feeders_decided = set(previous.ready_after())
            waiting = tuple(tie for tie in range(1, (previous.places + 1) // 2 + 1) if tie not in state.paired)
            state = replace(state, waiting=waiting, ready=tuple(tie for tie in waiting if tie in feeders_decided))
        found[number] = state
    return found


def _positions(round_ids: Iterable[int]) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """(every place paired, the places whose tie is still to play) of each round, by round id."""
    paired: dict[int, set[int]] = defaultdict(set)
    to_play: dict[int, set[int]] = defaultdict(set)
    still_to_play = Case(When(Q(outcome__in=["", Match.PLAYED]) & ~Q(status=Match.COMPLETE), then=Value(True)),
                         default=Value(False), output_field=BooleanField())
    for rows in (Match.objects.filter(team_match__isnull=True),  # a team match's tables: the team match is the tie
                 TeamMatch.objects.all()):
        for round_id, position, open_ in (rows.filter(round_id__in=round_ids, third_place=False,
                                                      bracket_position__isnull=False)
                                          .values_list("round_id", "bracket_position", still_to_play).order_by()):
            paired[round_id].add(position)
            if open_:
                to_play[round_id].add(position)
    for round_id, place in Bye.objects.filter(round_id__in=round_ids).values_list("round_id", "bracket_position"):
        if place is not None:
            paired[round_id].add(place)
    return paired, to_play
