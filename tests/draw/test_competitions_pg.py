"""Competitions on PostgreSQL with a real Celery worker on Redis: standings in the organiser's order of
tiebreaks, forfeits, withdrawals and byes through a Swiss event paired by the worker, and ratings rebuilt
from history when a result is corrected. (Team-match bullseye races: ``test_team_matches_pg.py``.)

Run with ``DATABASE_URL=postgres://… REDIS_URL=redis://…/15``; skipped without them (a failure under
``REQUIRE_SERVICES=1``)."""

from __future__ import annotations

import pytest
from django.db.models import F

from draw.models import Bye, Round
from draw.publishing import publish_round
from draw.request import request_pairing
from games import services
from games.models import Match
from league import entries
from league.models import Competition, Entry
from standings.models import PlayerRating, StandingRow
from standings.tasks import refresh_standings_task
from tests.factories import enter, make_club, make_competition, make_partnership
from tests.services import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BOSTON = ["bullseyes_for", "bullseyes_against", "hang_jacks_for", "hang_jacks_against"]


def best_of_three(**fields) -> Competition:
    competition = make_competition(match_format=Competition.BEST_OF, match_games=3, club=make_club())
    Competition.objects.filter(pk=competition.pk).update(**fields)
    competition.refresh_from_db()
    return competition


def pairs(competition: Competition, count: int) -> list:
    return [enter(competition, make_partnership(club=competition.club)).partnership for _ in range(count)]


def play(competition, a, b, games_a, games_b, hang_a=0, hang_b=0, round_=None) -> Match:
    match = services.create_match(competition=competition, side_a=a, side_b=b, round=round_)
    return services.record_match_totals(match, games_a=games_a, games_b=games_b, hang_jacks_a=hang_a,
                                        hang_jacks_b=hang_b)


def table(competition) -> list[tuple]:
    """(partnership id, rank, played, won, lost, bullseyes for, against, hang jacks for, against)."""
    return list(StandingRow.objects.filter(competition=competition, section="").order_by("rank", "partnership_id")
                .values_list("partnership_id", "rank", "played", "won", "lost", "bullseyes_for", "bullseyes_against",
                             "hang_jacks_for", "hang_jacks_against"))


def settled(competition) -> bool:
    return not Match.objects.filter(competition=competition).exclude(settled_version=F("version")).exists()


def test_standings_follow_the_organisers_order_of_tiebreaks(celery_worker_process):
    """A Boston round robin ranks by bullseyes for, then fewest against, then hang jacks for, then fewest
    against; wins do not count. Under wins alone the same results share a place."""
    competition = best_of_three(tiebreaks=BOSTON)
    p0, p1, p2, p3 = pairs(competition, 4)
    play(competition, p0, p1, 2, 0)
    play(competition, p2, p3, 2, 1, hang_a=1)
    play(competition, p0, p2, 1, 2)
    play(competition, p1, p3, 1, 2, hang_a=2)
    expected = [  # P2 4 for; P0 and P3 3 for, P0 fewer against; P1 1 for
        (p2.pk, 1, 2, 2, 0, 4, 2, 1, 0),
        (p0.pk, 2, 2, 1, 1, 3, 2, 0, 0),
        (p3.pk, 3, 2, 1, 1, 3, 3, 0, 3),
        (p1.pk, 4, 2, 0, 2, 1, 4, 2, 0),
    ]
    wait_for(lambda: table(competition) == expected and settled(competition), timeout=60,
             what="the Boston standings")

    Competition.objects.filter(pk=competition.pk).update(tiebreaks=["wins"])
    refresh_standings_task.delay(competition.pk).get(timeout=60)
    ranks = {row[0]: row[1] for row in table(competition)}
    assert ranks == {p2.pk: 1, p0.pk: 2, p3.pk: 2, p1.pk: 4}  # P0 and P3 share second place


def test_a_swiss_with_a_bye_a_forfeit_and_a_withdrawal(celery_worker_process):
    """Five pairs: the worker pairs round 1 (a bye to the lowest-ranked), one match is played, one forfeited;
    the loser withdraws; round 2 pairs neither the withdrawn pair nor the first bye again as the bye."""
    competition = best_of_three(system=Competition.SWISS, planned_rounds=3, bye_policy=Competition.BYE_FIXED,
                                bye_score={"bullseyes_for": 2, "chalks_for": 28})
    field = pairs(competition, 5)
    first = request_pairing(competition)
    wait_for(lambda: Round.objects.get(pk=first.pk).pairing_state == Round.DONE, timeout=60,
             what="round 1 to be paired by the worker")
    publish_round(Round.objects.get(pk=first.pk))
    matches = list(Match.objects.filter(round=first).order_by("id"))
    byes = list(Bye.objects.filter(round=first).select_related("entry"))
    assert len(matches) == 2 and len(byes) == 1
    bye_pair = byes[0].entry.partnership
    assert bye_pair == field[-1]  # the lowest-ranked (all level on score: the last of the field)

    played, forfeited = matches
    services.record_match_totals(played, games_a=2, games_b=1, hang_jacks_b=1)
    services.record_forfeit(forfeited, outcome=Match.FORFEIT_A)  # side A did not show
    loser = played.side_b
    entries.withdraw(entry=Entry.objects.get(competition=competition, partnership=loser))

    def rows():
        return {row.partnership_id: row for row in StandingRow.objects.filter(competition=competition, section="")}

    def as_expected() -> bool:
        lines = rows()
        return (len(lines) == 5 and lines[loser.pk].withdrawn and settled(competition)
                and lines[forfeited.side_b_id].won == 1)

    wait_for(as_expected, timeout=60, what="standings with the bye, the forfeit and the withdrawal")
    lines = rows()
    bye_line = lines[bye_pair.pk]
    assert (bye_line.played, bye_line.won, bye_line.byes) == (1, 1, 1)
    assert (bye_line.bullseyes_for, bye_line.chalks_for) == (2, 28)
    winner_line, absent_line = lines[forfeited.side_b_id], lines[forfeited.side_a_id]
    assert (winner_line.won, winner_line.bullseyes_for, winner_line.chalks_for) == (1, 2, 0)
    assert (absent_line.lost, absent_line.metrics["forfeits"]) == (1, 1)
    loser_line = lines[loser.pk]
    assert (loser_line.lost, loser_line.bullseyes_for, loser_line.hang_jacks_for) == (1, 1, 1)
    assert lines[played.side_a_id].won == 1

    second = request_pairing(competition)
    wait_for(lambda: Round.objects.get(pk=second.pk).pairing_state == Round.DONE, timeout=60,
             what="round 2 to be paired by the worker")
    paired = {side for m in Match.objects.filter(round=second) for side in (m.side_a_id, m.side_b_id)}
    second_byes = [b.entry.partnership_id for b in Bye.objects.filter(round=second).select_related("entry")]
    assert loser.pk not in paired and loser.pk not in second_byes
    assert len(paired) == 4 and second_byes == []  # four pairs left: nobody sits out
    met = {frozenset((m.side_a_id, m.side_b_id)) for m in Match.objects.filter(competition=competition)}
    assert len(met) == Match.objects.filter(competition=competition).count()  # no pair met twice


def test_ratings_are_rebuilt_from_history_when_a_result_is_corrected(celery_worker_process):
    competition = best_of_three()
    a, b = pairs(competition, 2)
    match = play(competition, a, b, 2, 0)
    players_a = {a.player_one_id, a.player_two_id}
    players_b = {b.player_one_id, b.player_two_id}

    def ratings():
        return dict(PlayerRating.objects.values_list("player_id", "ordinal"))

    def side_a_ahead():
        now = ratings()
        return len(now) == 4 and min(now[p] for p in players_a) > max(now[p] for p in players_b) and now

    wait_for(side_a_ahead, timeout=60, what="the ratings after the match")
    services.record_match_totals(Match.objects.get(pk=match.pk), games_a=1, games_b=2)  # the result corrected

    def side_b_ahead():
        now = ratings()
        return len(now) == 4 and min(now[p] for p in players_b) > max(now[p] for p in players_a) and now

    wait_for(side_b_ahead, timeout=60, what="the ratings rebuilt after the correction")
    assert PlayerRating.objects.filter(matches=1).count() == 4  # rebuilt from history, not added on top
