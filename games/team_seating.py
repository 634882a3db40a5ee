"""A team match that seats itself: in a competition played online (``Competition.play_online``) nobody stands at the
bar to hand in a line-up, so when **each** team of a team match has exactly as many pairs on its roster as the
competition has tables a team match (``Competition.team_tables``) — no captain has a choice to make — its tables are
set from the two rosters as it is published (``draw.publishing`` asks, for a round published and for the ties that
join a knockout round published tie by tie).

- The line-up: each team's pairs in the order the club made them (``Partnership.id``, the order the setup and the
  seeded demo list them); table ``n`` is team A's ``n``-th pair against team B's ``n``-th pair.
- The seating is a captain's: ``games.teams.set_team_tables``, with its checks (a pair of the team, of the game's
  size, at one table only) and its signal — seated once the round is published, the tables join the round
  (``round_published`` naming them: a competition played online opens them, their players are told); seated as
  the round is being published, the round's own publication opens them. Nothing here opens a table.
- A team with more pairs than tables still waits for its captain (or the organiser) to choose, and so does the
  other team of its match: a line-up is set whole, both teams' pairs at once. A team with fewer pairs than tables
  cannot play the match as it stands; a roster that does not pass the captain's checks is logged and left to the
  organiser. A team match with tables, totals or a forfeit already recorded is left as it is.
- A competition **not** played online is left as before, whatever its rosters: its captains still hand in their
  line-ups on the night (which pair meets which at which table is theirs to choose even when each team brought
  only its K pairs), and a line-up once set cannot be changed — seating it for them would take that choice away.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from games.common import EntryError
from games.models import HAND_LEVEL, Match, TeamMatch
from games.teams import TableLineUp, set_team_tables
from league.models import Partnership, Team

logger = logging.getLogger(__name__)


def line_up_without_choice(team_match: TeamMatch) -> TableLineUp | None:
    """The team match's line-up when neither team has a choice to make (each has exactly its ``tables`` pairs on
    its roster), table by table; ``None`` when a captain must choose (or a team is short of pairs)."""
    rosters = [_roster(team) for team in (team_match.team_a, team_match.team_b)]
    if any(len(roster) != team_match.tables for roster in rosters):
        return None
    return list(zip(rosters[0], rosters[1], strict=True))


def _roster(team: Team) -> list[Partnership]:
    return list(team.partnerships.select_related("player_one", "player_two").order_by("id"))


def seat_without_choice(team_match_ids: Iterable[int]) -> list[Match]:
    """Seat each of these team matches of a competition played online whose teams have no choice to make
    (:func:`line_up_without_choice`) and that has no tables, totals or forfeit yet; returns the tables made. A
    line-up the captain's checks refuse is logged and left to the organiser: never raises for it."""
    seated: list[Match] = []
    waiting = (TeamMatch.objects.filter(pk__in=list(team_match_ids), competition__play_online=True,
                                        result_level=HAND_LEVEL, outcome__in=["", Match.PLAYED])
               .exclude(status=TeamMatch.COMPLETE).exclude(table_matches__isnull=False)
               .select_related("competition", "team_a", "team_b").order_by("pk"))
    for team_match in waiting:
        line_up = line_up_without_choice(team_match)
        if line_up is None:
            continue
        try:
            seated += set_team_tables(team_match, line_up)
        except EntryError as error:
            logger.warning("team match %s (%s) was not seated by itself: %s: %s", team_match.pk, team_match,
                           error.field, error.reason)
    return seated
