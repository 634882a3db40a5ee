"""One seat per player per event: a login holds at most one open seat among the tables of one competition.

A competition played online opens a table for every match of a round by itself (``tables.events``), so a data
mistake — one person entered in two partnerships, an individual event's rotation that puts a player in two matches
of a round, one player record on both sides — would otherwise seat one login at two tables at once (or twice at
one), and that player could see two hands of the event. Three places keep it from happening:

- **Opening a match's table** (``tables.fixtures.open_match_table``) seats a login once: a player whose login
  already holds an open seat of the competition (or an earlier seat of the same match) has this seat left to its
  private link, and the club's organisers are told (``league.signals.attention_needed``: their phones, as they
  chose) and see it on the match's online page (``seats_left_to_links``). Why not refuse the table: a real
  organiser wants the round to go on — every other seat of the match is right, the table starts at its time, and
  the mistake is mended in a minute by sending the seat's link to whoever really plays there (or by correcting the
  pairing); a refused table would leave the match with no table at all, found out only when nobody plays it.
- **A seat link opened by a signed-in user** who already holds an open seat of another table of the same
  competition is refused, "You already have a seat in <match> of this event" (``check_link_holder``: the table
  page and its socket). A link opened with no login cannot be told apart from its rightful holder: a seat link is
  that seat's credential, as a scorekeeper's link is.
- **Seating a user** at a table of a competition (``tables.seating``) is refused the same way.

Races: two openings at once (the round's listener and an organiser's "Play online", or two workers) could each find
the login free and both seat it. Every path that seats a login at a competition's table first locks the
competition's row (``lock_event``) and checks under that lock, so the second waits for the first's commit and then
finds the seat taken. A database constraint would need a column of the competition on ``Seat`` (a partial unique
index across tables is not possible on ``Seat`` as it is); the lock needs no migration and costs one row lock per
table opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from games.models import Match
from league.models import ClubRole, Competition
from league.signals import attention_needed_after_commit
from tables.changes import OPEN, TableError, signed_in
from tables.models import Seat, Table


class SeatElsewhere(TableError):
    """The user already holds an open seat of another table of the same competition."""

    conflict = True


@dataclass(frozen=True)
class SeatLeftToLink:
    """A seat of a match's table left to its private link because its player's login sits elsewhere: ``where`` says
    where, in words ("seat 1 of this match", "a seat in Pair 1 v Pair 3 (table 12) of this event")."""

    index: int
    player: str
    login: str
    where: str

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def warning(self) -> str:
        return (f"{self.player}'s login ({self.login}) already has {self.where}, so seat {self.number} "
                "is played by its private link: send it to whoever plays there, or correct the pairing.")


def lock_event(competition_id: int) -> None:
    """Lock the competition's row for this transaction: every path that seats a login at one of its tables takes
    it before looking for the login's other seats, so two of them never both find it free."""
    Competition.objects.select_for_update(no_key=True).filter(pk=competition_id).first()


def open_seat_elsewhere(user_id: int | None, competition_id: int, *, table_id: int | None = None) -> Seat | None:
    """The open seat ``user_id`` holds at a table of the competition other than ``table_id`` (``None``: none)."""
    if user_id is None:
        return None
    seats = Seat.objects.filter(user_id=user_id, table__kind=Table.FIXTURE, table__status__in=OPEN,
                                table__match__competition_id=competition_id)
    if table_id is not None:
        seats = seats.exclude(table_id=table_id)
    return seats.select_related("table__match").order_by("table_id").first()


def where_in_words(seat: Seat) -> str:
    """"a seat in Pair 1 v Pair 3 (table 12)": an open seat of a competition's table, as its player knows it."""
    return f"a seat in {seat.table.match} (table {seat.table_id})"


def seat_logins(match: Match, players: list[Any]) -> tuple[list[int | None], list[SeatLeftToLink]]:
    """The login of each seat of a new table of ``match`` (``players`` in seat order), each login seated once: a
    login already seated at this table, or holding an open seat of another table of the competition, is left off
    (the seat played by its private link), with why. The caller holds ``lock_event``."""
    logins: list[int | None] = []
    left: list[SeatLeftToLink] = []
    for index, player in enumerate(players):
        user_id = player.user_id
        if user_id is not None and user_id in logins:
            where = f"seat {logins.index(user_id) + 1} of this match"
        elif (elsewhere := open_seat_elsewhere(user_id, match.competition_id)) is not None:
            where = f"{where_in_words(elsewhere)} of this event"
        else:
            logins.append(user_id)
            continue
        logins.append(None)
        left.append(SeatLeftToLink(index, player.name, player.user.get_username(), where))
    return logins, left


def tell_organisers(match: Match, table: Table, left: list[SeatLeftToLink]) -> None:
    """After the commit, each organiser of the match's club is told (their phones, as they chose) which seats of
    the new table were left to their links and why, with a link to the match's online page."""
    if not left:
        return
    url = reverse("match_online", args=[match.pk])
    body = " ".join(seat.warning for seat in left)
    organisers = ClubRole.objects.filter(club_id=match.competition.club_id, role=ClubRole.ORGANISER)
    for user_id in sorted(set(organisers.values_list("user_id", flat=True))):
        attention_needed_after_commit(user_id=user_id, title=f"A player has two seats: {match}", body=body[:1000],
                                      url=url, key=f"two-seats:{table.pk}")


def seats_left_to_links(table: Table, match: Match, players: list[Any]) -> list[SeatLeftToLink]:
    """The seats of the match's open table whose player has a login that does not hold them (it holds another
    seat of this table or of another open table of the event): the organiser's warning on the match's online
    page. ``players`` in seat order (``tables.fixtures.fixture_players``)."""
    rows = {row.index: row for row in table.seats.all()}
    seated = [row.user_id for _, row in sorted(rows.items())]
    left = []
    for index, player in enumerate(players):
        row = rows.get(index)
        if row is None or player.user_id is None or row.user_id == player.user_id:
            continue
        if player.user_id in seated:
            where = f"seat {seated.index(player.user_id) + 1} of this match"
        elif (elsewhere := open_seat_elsewhere(player.user_id, match.competition_id, table_id=table.pk)) is not None:
            where = f"{where_in_words(elsewhere)} of this event"
        else:
            continue  # its other seat is free again: the seat is still played by its link
        left.append(SeatLeftToLink(index, player.name, player.user.get_username(), where))
    return left


def check_link_holder(seat: Seat, user: Any) -> None:
    """A signed-in ``user`` opening ``seat``'s private link: refused (``SeatElsewhere``) when the seat is at a
    competition's table and the user holds another seat of it, or an open seat of another table of that
    competition (a login left off a seat of its own match is not let in by the seat's link either)."""
    if not signed_in(user) or seat.table.match_id is None or seat.user_id == user.pk:
        return
    own = Seat.objects.filter(table_id=seat.table_id, user_id=user.pk).values_list("index", flat=True).first()
    if own is not None:
        raise SeatElsewhere("seat", f"You already have seat {own + 1} at this table: one player, one seat.")
    competition_id = Match.objects.filter(pk=seat.table.match_id).values_list("competition_id", flat=True).first()
    elsewhere = open_seat_elsewhere(user.pk, competition_id, table_id=seat.table_id) if competition_id else None
    if elsewhere is not None:
        raise SeatElsewhere("seat", f"You already have {where_in_words(elsewhere)} of this event: one player, one "
                                    "seat.")


def check_one_seat(table: Table, user: Any) -> None:
    """``user`` about to be seated at ``table``: refused (``SeatElsewhere``) when the table is a competition's and
    the user holds an open seat of another of its tables. Takes ``lock_event`` first (see the module's note on
    races); a casual table has no event and nothing is checked."""
    if table.match_id is None or not signed_in(user):
        return
    competition_id = Match.objects.filter(pk=table.match_id).values_list("competition_id", flat=True).first()
    if competition_id is None:
        return
    lock_event(competition_id)
    elsewhere = open_seat_elsewhere(user.pk, competition_id, table_id=table.pk)
    if elsewhere is not None:
        raise SeatElsewhere("seat", f"You already have {where_in_words(elsewhere)} of this event: one player, one "
                                    "seat.")
