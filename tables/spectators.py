"""Who may watch a table of an event played online, and how: the organiser's choice
(``Competition.online_spectators``) read for one table, and the readers who are never a spectator of it.

A table of a match of a competition played online (an *event table*) is watched by whoever may see the competition
— no invite link is needed, its page links every table — in one of two ways while the event is on:

- ``TRICK_BEHIND``: spectators see the table as it stood when its last complete trick was taken
  (``reader_views.trick_behind``): the cards of the trick in progress, and the calls of a hand until its first
  trick is complete, reach them only once that trick is complete.
- ``CLOSED`` (the organiser chose "Nothing until it is over"): no spectator at all while the competition still has
  a match to play; its tables can be watched (and their hands replayed) once every match is decided.

Any other table (a casual one, a fixture opened by hand in a competition not played online) is watched as before,
live (``LIVE``), a private one with its invite.

Whoever plays at the table is never its spectator: a signed-in player of the match is sent to their seat, and so is
a browser that opened the table with a seat's private link (the session remembers it). What the server cannot see
— one person with a second account, or another phone — it cannot refuse; that is what the delay is for: nothing a
spectator is sent is ahead of the table (docs/online-tables.md, "Spectators of an event").

Nothing here is cached: the rule is read with the change that needs it (one query for an event table's frames, none
for a casual table's), so a competition's setting changed by its organiser holds from the next frame on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.models import Match
from league.choices import OnlineSpectators
from league.permissions import plays_in
from tables.changes import signed_in
from tables.fixtures import fixture_players
from tables.models import Seat, Table


class Watching(StrEnum):
    """How a table's spectators see it now."""

    LIVE = "live"
    TRICK_BEHIND = "trick"
    CLOSED = "closed"


SEAT_LINKS_KEY = "tables.seat_links"
"""The session's record of the seat links its browser opened: ``{table id: seat token}`` (event tables only)."""

CLOSED_REASON = ("The organiser keeps the event's tables out of sight until every match is played: follow the "
                 "scores and results on the event's page.")
PLAYER_REASON = "You play at this table: open it from your seat, not as a spectator."
SEAT_LINK_REASON = "This browser holds a seat's link at this table: open your seat, not the table as a spectator."


@dataclass(frozen=True)
class SpectatorRule:
    """How the spectators of one table watch it now: ``competition_id`` and ``match_id`` are an event table's
    (``None`` for any other); ``public`` whether its competition is published (its tables then need no invite)."""

    watching: Watching
    competition_id: int | None = None
    match_id: int | None = None
    public: bool = False

    @property
    def is_event(self) -> bool:
        return self.competition_id is not None


NOT_AN_EVENT = SpectatorRule(Watching.LIVE)


def rule_for(match_id: int | None) -> SpectatorRule:
    """The rule of a table of match ``match_id`` (``None``: a casual table, watched live, with no query)."""
    if match_id is None:
        return NOT_AN_EVENT
    row = (Match.objects.filter(pk=match_id, competition__play_online=True)
           .values("competition_id", "competition__online_spectators", "competition__published").first())
    if row is None:
        return NOT_AN_EVENT
    competition_id = row["competition_id"]
    watching = watching_event(competition_id, row["competition__online_spectators"])
    return SpectatorRule(watching, competition_id, match_id, bool(row["competition__published"]))


def rule_of(table: Table) -> SpectatorRule:
    return rule_for(table.match_id if table.kind == Table.FIXTURE else None)


def watching_event(competition_id: int, online_spectators: str) -> Watching:
    """How the spectators of the tables of a competition played online watch them now, by its organiser's choice
    (``online_spectators``): a trick behind, or not at all while a match is still to be played."""
    if online_spectators == OnlineSpectators.AFTER_EVENT and event_on(competition_id):
        return Watching.CLOSED
    return Watching.TRICK_BEHIND


def event_on(competition_id: int) -> bool:
    """Whether the competition still has a match to play (not complete: neither played out nor forfeited)."""
    return Match.objects.filter(competition_id=competition_id).exclude(status=Match.COMPLETE).exists()


# ----------------------------------------------------------------------------- readers who are never spectators
@dataclass(frozen=True)
class NotASpectator:
    """Why a reader may not watch an event table as a spectator, and the seat's link to send them to instead
    (``seat_token`` ``""``: nowhere — the table is closed to spectators, or their seat's link was revoked)."""

    reason: str
    seat_token: str = ""


def why_not_spectator(table: Table, rule: SpectatorRule, user: Any,
                      held_links: dict | None = None) -> NotASpectator | None:
    """Whether the reader of ``table`` — not seated there by their login nor by a seat link in the address — may
    not watch it: ``None`` when they may. A table closed to spectators refuses everyone; a signed-in player of the
    match is sent to their seat (its private link, when the seat was opened before their login was linked to
    their player record); a browser whose session holds one of the table's seat links (``held_links``) is sent
    back to that seat. Only event tables refuse anyone here."""
    if not rule.is_event:
        return None
    held = remembered_link(table, held_links)
    if held is not None:
        return NotASpectator(SEAT_LINK_REASON, held)
    if signed_in(user) and rule.match_id is not None:
        match = Match.objects.select_related("competition", "side_a__player_one", "side_a__player_two",
                                             "side_b__player_one", "side_b__player_two").get(pk=rule.match_id)
        if plays_in(user, match):
            return NotASpectator(PLAYER_REASON, _players_seat_link(table, match, user))
    if rule.watching == Watching.CLOSED:
        return NotASpectator(CLOSED_REASON)
    return None


def _players_seat_link(table: Table, match: Match, user: Any) -> str:
    """The seat link of ``user``'s seat at the match's table, unless it was revoked (then nowhere: the organiser
    renews it)."""
    indexes = [index for index, player in enumerate(fixture_players(match)) if player.user_id == user.pk]
    seat = Seat.objects.filter(table=table, index__in=indexes, link_revoked=False).order_by("index").first()
    return seat.seat_token if seat is not None else ""


def remembered_link(table: Table, held_links: dict | None) -> str | None:
    """The seat link of ``table`` this browser opened (``held_links``: its session's ``SEAT_LINKS_KEY``), if it is
    still the seat's link."""
    token = (held_links or {}).get(str(table.pk)) if isinstance(held_links, dict) else None
    if not isinstance(token, str) or not token:
        return None
    return token if Seat.objects.filter(table=table, seat_token=token).exists() else None


def remember_link(session: Any, table: Table, seat_token: str) -> None:
    """The browser opened an event table with a seat's link: its session remembers it, so the same browser is
    sent back to the seat instead of watching the table."""
    links = dict(session.get(SEAT_LINKS_KEY) or {})
    if links.get(str(table.pk)) != seat_token:
        links[str(table.pk)] = seat_token
        session[SEAT_LINKS_KEY] = links
