"""The places of a draft round that an organiser can swap: sides of matches and team matches, seats of an
individual event's tables, byes — each with a key for the page's forms.
"""

from __future__ import annotations

from dataclasses import dataclass

from draw.models import Bye, Round
from games.models import Match, TeamMatch
from league.models import Competition


@dataclass
class Slot:
    """A place in a draft round: one side of a match (in an individual event one seat of a side: ``seat`` 1
    or 2), one side of a team match, or a bye."""

    key: str
    match: Match | None = None
    team_match: TeamMatch | None = None
    side: str = ""
    seat: int = 0
    bye: Bye | None = None

    @property
    def holder(self) -> Match | TeamMatch | None:
        return self.match if self.match is not None else self.team_match

    @property
    def prefix(self) -> str:
        return "team" if self.team_match is not None else "side"


def slot_key(match: Match | TeamMatch | None = None, side: str = "", seat: int = 0, bye: Bye | None = None) -> str:
    if bye is not None:
        return f"y{bye.pk}"
    letter = "t" if isinstance(match, TeamMatch) else "m"
    assert match is not None  # a slot is a bye's or a match's
    return f"{letter}{match.pk}-{side}{seat or ''}"


def round_slots(round_: Round) -> dict[str, Slot]:
    """Every place of the round, by key: ``m<match>-a`` / ``m<match>-b`` (pairs), ``m<match>-a1`` …
    (players in an individual event), ``t<team match>-a`` … (teams), ``y<bye>``."""
    kind = round_.competition.entrant_kind
    slots: dict[str, Slot] = {}
    if kind == Competition.TEAMS:
        for team_match in TeamMatch.objects.filter(round=round_).select_related("team_a", "team_b").order_by("id"):
            for side in ("a", "b"):
                key = slot_key(team_match, side)
                slots[key] = Slot(key, team_match=team_match, side=side)
    else:
        individual = kind == Competition.INDIVIDUAL
        for match in Match.objects.filter(round=round_, team_match__isnull=True).select_related(
                "side_a__player_one", "side_a__player_two", "side_b__player_one", "side_b__player_two").order_by("id"):
            for side in ("a", "b"):
                for seat in ((1, 2) if individual else (0,)):
                    key = slot_key(match, side, seat)
                    slots[key] = Slot(key, match=match, side=side, seat=seat)
    for bye in Bye.objects.filter(round=round_).select_related(
            "entry__partnership__player_one", "entry__partnership__player_two", "entry__player", "entry__team") \
            .order_by("id"):
        key = slot_key(bye=bye)
        slots[key] = Slot(key, bye=bye)
    return slots
