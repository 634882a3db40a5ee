"""What the live page of an event played online shows (``pages.views_event_live``): the round in play with each
match's table (``tables.event_board``: who is there, the score, the clocks), its results as they finish, the
standings, and when the next round comes (``draw.next_round``: paired by itself, published at once or by the
organiser) with the round's clock (``draw.round_clock``) when it has one.

Everything here is what a visitor may see: published rounds only, and of the tables nothing of a hand (spectators
watch a table from its own page, a trick behind or not at all, ``tables.spectators``). The page is rendered once for
all its visitors and sent again over the live layer whenever a table, a result or the standings change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from draw.models import Round
from draw.next_round import next_round_rule, round_decided
from draw.round_clock import clock_of
from draw.selectors import Fixture, fixture_of, published_rounds, table_order
from games.models import Match
from league.choices import WhenPaired
from league.models import Competition
from standings.columns import standings_of
from tables.event_board import TableOnBoard, event_tables
from tables.spectators import Watching, watching_event

LATEST_RESULTS = 12


@dataclass(frozen=True)
class EventRow:
    """A match of the round in play, with its online table (``None``: never opened online — a bye's match, a result
    entered on its sheet)."""

    fixture: Fixture
    table: TableOnBoard | None

    @property
    def decided(self) -> bool:
        return self.fixture.status == Match.COMPLETE


def event_page(competition: Competition) -> dict[str, Any]:
    """The page's context: ``round`` (the last published round, ``None`` before the first), its ``rows``, the
    ``results`` decided in it (the latest first), whether it is ``decided``, ``next_round`` in words, how spectators
    ``watching`` its tables, whether it ``has_clock``, and the standings (``standings.columns.standings_of``)."""
    round_ = published_rounds(competition).last()
    rows: list[EventRow] = []
    if round_ is not None:
        matches = [fixture_of(match) for match in Match.objects.filter(round=round_).select_related(
            "side_a__player_one", "side_a__player_two", "side_b__player_one", "side_b__player_two")]
        matches.sort(key=lambda fixture: (getattr(fixture.obj, "team_match_id", None) or 0,
                                          table_order(fixture.table), fixture.pk))
        tables = event_tables(fixture.pk for fixture in matches)
        rows = [EventRow(fixture, tables.get(fixture.pk)) for fixture in matches]
    decided = round_ is not None and round_decided(round_)
    results = sorted((row.fixture for row in rows if row.decided), key=lambda fixture: fixture.obj.updated_at,
                     reverse=True)[:LATEST_RESULTS]
    return {
        "round": round_, "rows": rows, "results": results, "decided": decided,
        "playing": sum(1 for row in rows if row.table is not None and row.table.is_playing),
        "next_round": next_round_words(competition, round_, decided),
        "watching": watching_event(competition.pk, competition.online_spectators).value,
        "has_clock": round_ is not None and clock_of(round_) is not None,
        **standings_of(competition),
    }


def next_round_words(competition: Competition, round_: Round | None, decided: bool) -> str:
    """When the next round comes, in the players' words: paired and published by itself as soon as the last match
    ends, paired for the organiser to publish, or left to the organiser; a round being paired or waiting to be
    published says so (with its date when it has one)."""
    if round_ is None:
        return "The first round is published by the organiser: its tables open at once."
    rule = next_round_rule(competition)
    after = competition.rounds.filter(number__gt=round_.number).order_by("number").first()
    number = round_.number + 1
    on = f" It is set for {after.starts_on:%A %-d %B}." if after is not None and after.starts_on else ""
    if after is not None:  # a draft: being paired, or paired and waiting
        if after.pairing_state in (Round.QUEUED, Round.RUNNING):
            return f"Round {after.number} is being paired." + on
        if after.when_paired == WhenPaired.PUBLISH and after.pairing_state == Round.DONE:
            return f"Round {after.number} is paired: it is published in a moment, and its tables open." + on
        return f"Round {after.number} is paired: the organiser publishes it, and its tables open then." + on
    if decided and last_planned(competition, round_):
        return "That was the last round: the event is over."
    if rule == WhenPaired.PUBLISH:
        return (f"Round {number} is paired as soon as the last match of this round ends, and published at once: "
                "its tables open then." if not decided else f"Round {number} is being paired.")
    if rule == WhenPaired.REVIEW:
        return (f"Round {number} is paired as soon as the last match of this round ends; the organiser then "
                "publishes it." if not decided else f"Round {number} is being paired for the organiser to publish.")
    return f"The organiser pairs and publishes round {number}."


def last_planned(competition: Competition, round_: Round) -> bool:
    """Whether ``round_`` is the competition's last by its plan: a Swiss's last planned round, or a knockout's
    final (a round of one tie, a third-place match aside)."""
    if competition.system == Competition.SWISS and competition.planned_rounds:
        return round_.number >= competition.planned_rounds
    if competition.system in (Competition.KNOCKOUT, Competition.GROUPS_KNOCKOUT):
        return Match.objects.filter(round=round_, third_place=False, team_match__isnull=True).count() == 1
    return False


WATCHING_WORDS = {
    Watching.TRICK_BEHIND.value: "Watch any table: spectators see it a trick behind, never a hand.",
    Watching.CLOSED.value: "The organiser keeps the tables out of sight until every match is played.",
}
