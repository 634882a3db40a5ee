"""A league fixture played online: opening its table (seats belonging to the partnerships' players), the table's
hold on the match, ending online play, and the table finishing when the organiser records a forfeit — or, at a table
of a team match, when the team match is decided at another of its tables.

While the table is open it holds its match (``Match.held_by_table``, set here and released by
``tables.changes.leave_open`` whenever the table stops): ``games.common.check_not_held`` then refuses any change of
the match's results made elsewhere than at the table. A forfeit goes through; ``end_with_forfeit`` (a listener of
``games.signals.results_changing``, connected in ``config.wiring``) finishes the table after its commit. A team
race won at one table stops the others (``end_with_team_match``, a listener of ``games.signals.team_match_decided``):
a hand still in play there could not count — it is not stored — and the table's players are free at once for their
next table (a player still seated at a table of the event would have the next round's seat left to its link:
``tables.one_seat``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Match, TeamMatch
from league.permissions import can_enter_hands, is_organiser
from tables import one_seat
from tables.changes import OPEN, TableError, finish, locked, match_id, publish, signed_in, stop, touch
from tables.models import Seat, Table
from tables.seating import checked_ruleset


def open_fixture(match: Match, user) -> Table:
    """The match played online: its organiser or scorekeeper opens a table whose seats belong to the two
    partnerships' players (side A at seats 0 and 2, side B at 1 and 3; each seat also has a private link). The
    table plays the match's format game after game; an open table of the match is returned as it is."""
    if not can_enter_hands(user, match):
        raise TableError("match", "only the match's organisers and scorekeepers may open it online")
    return open_match_table(match, created_by=user if signed_in(user) else None)


def open_match_table(match: Match, *, created_by=None, starts_at: datetime | None = None) -> Table:
    """The match's table opened, whoever asks: by a person (``open_fixture``, which checks who may) or by the
    competition's event when the round is published (``tables.events``, with the time it starts by itself). An
    open table of the match is returned as it is, so opening twice opens one table.

    One seat per player per event (``tables.one_seat``): a login that already holds an open seat of the competition,
    or an earlier seat of this match, is not seated again — that seat is played by its private link, and the club's
    organisers are told. The competition's row is locked first, so two openings never both seat one login."""
    with transaction.atomic():
        one_seat.lock_event(match.competition_id)  # first: a login's other seats are looked for under it
        match = Match.objects.select_for_update().select_related("competition", "side_a", "side_b").get(pk=match.pk)
        existing = Table.objects.filter(match=match, status__in=OPEN).first()
        if existing is not None:
            if match.held_by_table != existing.pk:
                _hold(existing)
            return existing
        if match.status == Match.COMPLETE:
            raise TableError("match", "the match is complete")
        if match.outcome != Match.PLAYED or match.result_level != "hand" and match.games.exists():
            raise TableError("match", "the match's result was entered above the hand level: it cannot be played "
                                      "online")
        competition = match.competition
        table = Table.objects.create(kind=Table.FIXTURE, match=match, players=competition.players,
                                     ruleset=checked_ruleset(competition.ruleset or None),
                                     visibility=Table.PRIVATE, created_by=created_by, starts_at=starts_at)
        logins, left_to_links = one_seat.seat_logins(match, fixture_players(match))
        Seat.objects.bulk_create([Seat(table=table, index=index, user_id=user_id, bank_left=table.bank_seconds)
                                  for index, user_id in enumerate(logins)])
        _hold(table)
        one_seat.tell_organisers(match, table, left_to_links)
        publish(table)
    return table


def _hold(table: Table) -> None:
    """The fixture's match is held by the table (``Match.held_by_table``): its results change at the table only
    (``games.common.check_not_held``) until ``leave_open`` releases it."""
    Match.objects.filter(pk=match_id(table)).update(held_by_table=table.pk)


def fixture_players(match: Match) -> list:
    """The players in seat order: side A's first, side B's first, side A's second, side B's second."""
    side_a, side_b = match.side_a, match.side_b
    if match.competition.players == 2:
        return [side_a.player_one, side_b.player_one]
    return [side_a.player_one, side_b.player_one, side_a.player_two, side_b.player_two]


def fixture_table(match: Match | int) -> Table | None:
    """The match's online table that is open (waiting to start or playing), if there is one."""
    match_id = match if isinstance(match, int) else match.pk
    return Table.objects.filter(kind=Table.FIXTURE, match_id=match_id, status__in=OPEN).order_by("-pk").first()


def end_fixture(table: Table | int, user) -> Table:
    """The organiser ends online play of a fixture: the table closes and says so (a hand in progress is not
    stored: its pack and moves stay at the table), and the match's results are entered on its pages again. The
    match may be opened online again later: the new table deals from the sheet."""
    with transaction.atomic():
        table = locked(table)
        if table.kind != Table.FIXTURE:
            raise TableError("table", "only a league fixture's online play is ended this way")
        match = Match.objects.select_related("competition").get(pk=match_id(table))
        if not is_organiser(user, match.competition.club_id):
            raise TableError("match", "only the club's organisers may end online play of a match")
        if table.status not in OPEN:
            raise TableError("table", f"online play has already ended: the table is "
                                      f"{table.get_status_display().lower()}")
        where = f" during hand {table.hand_number}, which is not stored" if table.status == Table.PLAYING else ""
        stop(table, Table.CLOSED, f"Online play was ended by the organiser ({user.get_username()}){where}: the "
                                  "match goes on on its scoresheet.")
        touch(table, timezone.now())
        table.save()
        publish(table)
    return table


def end_with_forfeit(sender: Any = None, match: Match | None = None, action: str = "", **kwargs: Any) -> None:
    """``games.signals.results_changing``'s receiver (``config.wiring``): a forfeit the organiser recorded on a
    match an online table holds went through (``games.common.check_not_held`` lets a forfeit pass the hold); the
    table finishes after the commit, saying why. Any other change of a held match was refused before this."""
    if match is None or action != "forfeit" or match.held_by_table is None:
        return
    table_id = match.held_by_table
    transaction.on_commit(lambda: _end_with_match(table_id))


def end_with_team_match(sender: Any = None, team_match_id: int | None = None, match_ids: list[int] | None = None,
                        **kwargs: Any) -> None:
    """``games.signals.team_match_decided``'s receiver (``config.wiring``), after the commit: each table of the team
    match still open finishes, saying that the team match is over (a hand in play is not stored: it could not count).
    A table that finished by itself already (the one whose hand decided) is left as it is."""
    open_tables = list(Table.objects.filter(kind=Table.FIXTURE, match_id__in=match_ids or [], status__in=OPEN)
                       .order_by("pk").values_list("pk", flat=True))
    team_match = TeamMatch.objects.filter(pk=team_match_id).first() if open_tables and team_match_id else None
    for table_id in open_tables:
        _end_with_match(table_id, team_match)


def _team_match_over(team_match: TeamMatch, table: Table) -> str:
    """Why a table of a decided team match stopped, in words."""
    names = {"a": team_match.team_a_name, "b": team_match.team_b_name}
    score = f"{team_match.team_a_name} {team_match.bullseyes_a} – {team_match.bullseyes_b} {team_match.team_b_name}"
    won = f"{names[team_match.winner]} won" if team_match.winner in names else "it is drawn"
    where = f", and hand {table.hand_number}, still in play, is not stored" if table.status == Table.PLAYING else ""
    return f"The team match is over: {won}, bullseyes {score}. This table stops here{where}."


def _end_with_match(table_id: int, team_match: TeamMatch | None = None) -> None:
    """After a forfeit's commit (or its team match's decision): the table finishes with the match, saying why."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status not in OPEN:
            return
        match = Match.objects.select_related("competition").get(pk=match_id(table))
        reason = _team_match_over(team_match, table) if team_match is not None else ""
        finish(table, match)
        if reason:
            table.end_reason = reason[:300]
        touch(table, timezone.now())
        table.save()
        publish(table)
