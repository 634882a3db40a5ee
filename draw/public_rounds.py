"""Read queries for the public pages of rounds: a published round's pairings and results, results by round, the
knockout bracket, and the fixtures of the competition page round by round (draft rounds only for organisers)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db.models import Q

from draw.models import Bye, Round
from draw.placement import KNOCKOUT
from draw.selectors import BYE_RELATED, MATCH_RELATED, Fixture, fixtures_of, published_rounds, rounds_with_pairings
from games.models import Match
from games.selectors import competition_matches
from league.models import Competition
from league.permissions import published_round_filter


@dataclass
class PublicRound:
    round: Round
    matches: list[Fixture]
    byes: list[Bye]

    @property
    def title(self) -> str:
        return str(self.round)

    @property
    def has_venues(self) -> bool:
        """Some fixture names where or when it is played (a club's own list): the pairings show a column."""
        return any(getattr(m.obj, "venue", "") or getattr(m.obj, "scheduled_at", None) for m in self.matches)

    @property
    def groups(self) -> list[tuple[str, list[Fixture]]]:
        grouped: dict[str, list[Fixture]] = {}
        for match in self.matches:
            grouped.setdefault(match.group, []).append(match)
        return sorted(grouped.items())


def public_round(competition: Competition, number: int) -> PublicRound | None:
    """A published round's pairings (tables, sides, byes) and results; None for a draft or no round."""
    rounds = rounds_with_pairings(published_rounds(competition).filter(number=number))
    if not rounds:
        return None
    round_ = rounds[0]
    return PublicRound(round_, fixtures_of(round_), list(round_.byes.all()))


def results_by_round(rounds: Iterable[Round]) -> list[PublicRound]:
    """These rounds (a page of ``published_rounds``), in order, with their matches and byes — read for these
    rounds only."""
    return [PublicRound(r, fixtures_of(r), list(r.byes.all())) for r in rounds_with_pairings(rounds)]


@dataclass
class Tie:
    position: int
    match: Fixture | None = None
    bye: Bye | None = None

    @property
    def bye_name(self) -> str:
        return self.bye.entry.display_name if self.bye is not None else ""


@dataclass
class BracketColumn:
    round: Round
    ties: list[Tie]
    third_place: Fixture | None = None


def bracket(competition: Competition) -> list[BracketColumn]:
    """The published knockout rounds as columns, each tie in bracket order (its match, or its bye)."""
    rounds = published_rounds(competition)
    if competition.system != Competition.KNOCKOUT:
        rounds = rounds.filter(stage=KNOCKOUT)
    columns = []
    for round_ in rounds_with_pairings(rounds):
        ties: dict[int, Tie] = {}
        third = None
        for match in fixtures_of(round_):
            if match.third_place:
                third = match
                continue
            position = match.position or (len(ties) + 1)
            ties[position] = Tie(position, match=match)
        for bye in round_.byes.all():
            position = bye.bracket_position or (max(ties, default=0) + 1)
            ties.setdefault(position, Tie(position, bye=bye))
        columns.append(BracketColumn(round_, [ties[p] for p in sorted(ties)], third))
    return columns


def has_knockout(competition: Competition) -> bool:
    return competition.system in (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT)




@dataclass
class RoundOfMatches:
    round: Round | None
    matches: list[Match]
    byes: list[Bye] = field(default_factory=list)

    @property
    def title(self) -> str:
        return str(self.round) if self.round is not None else "Unscheduled"


def fixture_rounds(competition: Competition, *, include_drafts: bool = False) -> list[int | None]:
    """The rounds the competition page shows fixtures of, in round order, in one query: the id of each round
    with a match or a bye (a bye shows as soon as its round is published), then None when some matches have no
    round; draft rounds only for the organisers (``include_drafts``). The page is cut from this list, and only
    its rounds' matches and byes are read (``fixtures_by_round``)."""
    matches = Match.objects.filter(competition=competition)
    byes = Bye.objects.filter(round__competition=competition)
    if not include_drafts:
        matches, byes = matches.filter(published_round_filter()), byes.filter(round__status=Round.PUBLISHED)
    keys = (matches.order_by().values_list("round_id", "round__number")
            .union(byes.order_by().values_list("round_id", "round__number")))
    return [round_id for round_id, _ in sorted(keys, key=lambda key: (key[0] is None, key[1] or 0))]


def fixtures_by_round(competition: Competition, rounds: Sequence[int | None], *,
                      include_drafts: bool = False) -> list[RoundOfMatches]:
    """The matches and byes of ``rounds`` (ids from ``fixture_rounds``; None: the matches without a round)
    grouped by round in that order, in two queries whatever the competition's size; the matches of draft rounds
    only for the organisers (``include_drafts``)."""
    ids = [round_id for round_id in rounds if round_id is not None]
    in_rounds = Q(round_id__in=ids) | (Q(round__isnull=True) if None in rounds else Q(pk__in=[]))
    groups: dict[int | None, RoundOfMatches] = {}
    matches = competition_matches(competition, include_drafts=include_drafts).filter(in_rounds).select_related(
        *MATCH_RELATED)  # players' links
    for match in matches:
        groups.setdefault(match.round_id, RoundOfMatches(match.round, [])).matches.append(match)
    byes = Bye.objects.filter(round__competition=competition, round_id__in=ids).select_related(
        "round", *BYE_RELATED).order_by("id")
    if not include_drafts:
        byes = byes.filter(round__status=Round.PUBLISHED)
    for bye in byes:
        groups.setdefault(bye.round_id, RoundOfMatches(bye.round, [])).byes.append(bye)
    return [groups[round_id] for round_id in rounds if round_id in groups]
