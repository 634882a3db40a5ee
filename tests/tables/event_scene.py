"""An event played online for the tests of its spectators and its live page: a published competition played online,
its round 1 published with two matches between four pairs whose players have logins, and each match's table open
(``tables.fixtures.open_match_table``, as publishing the round opens it) with its start time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from draw.models import Round
from games.models import Match
from league.choices import OnlineSpectators
from league.models import Competition
from tables import dealing, presence
from tables.fixtures import fixture_players, open_match_table
from tables.models import Table
from tests.factories import make_club, make_match, make_organiser, make_partnership, make_user

PAIRS = ("Lions", "Tigers", "Eagles", "Sharks")


@dataclass
class Event:
    competition: Competition
    round: Round
    matches: list[Match]
    tables: list[Table]
    organiser: object

    def players(self, index: int = 0) -> list:
        """The players of match ``index`` in seat order (side A, side B, side A, side B)."""
        return fixture_players(Match.objects.select_related("competition", "side_a__player_one", "side_a__player_two",
                                                            "side_b__player_one", "side_b__player_two")
                               .get(pk=self.matches[index].pk))


def make_event(*, spectators: str = OnlineSpectators.TRICK_BEHIND, grace_minutes: int = 10, name: str = "Friday",
               ruleset: dict | None = None, **options) -> Event:
    """The event with its two tables waiting for their players."""
    club = make_club(f"{name} Club")
    organiser = make_user()
    make_organiser(club, organiser)
    competition = Competition.objects.create(
        club=club, name=f"{name} Online", slug=f"{name.lower()}-online", published=True, system=Competition.SWISS,
        planned_rounds=3, play_online=True, online_spectators=spectators, online_grace_minutes=grace_minutes,
        ruleset=ruleset or {}, **options)
    round_ = Round.objects.create(competition=competition, number=1, status=Round.PUBLISHED,
                                  published_at=timezone.now())
    pairs = []
    for pair_name in PAIRS:
        pair = make_partnership(club=club, name=pair_name)
        for player in (pair.player_one, pair.player_two):
            player.user = make_user(f"{name.lower()}-{pair_name.lower()}{1 if player == pair.player_one else 2}")
            player.save()
        pairs.append(pair)
    matches = []
    for table_number, (side_a, side_b) in enumerate(((pairs[0], pairs[1]), (pairs[2], pairs[3])), start=1):
        match = make_match(competition, side_a=side_a, side_b=side_b)
        Match.objects.filter(pk=match.pk).update(round=round_, table=str(table_number))
        matches.append(Match.objects.get(pk=match.pk))
    starts = timezone.now() + timedelta(minutes=grace_minutes)
    tables = [open_match_table(match, starts_at=starts) for match in matches]
    return Event(competition, round_, matches, tables, organiser)


def started(table: Table) -> Table:
    """Every player of the table comes (a socket each): it starts by itself, as ``tables.events`` starts it."""
    for seat in range(table.players):
        presence.mark_back(table.pk, seat)
    table = Table.objects.get(pk=table.pk)
    if table.status == Table.LOBBY:
        dealing.start(table.pk)
    return Table.objects.get(pk=table.pk)
