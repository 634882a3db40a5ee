"""Ratings: the pure replay of a history through openskill (``standings.ratings.rate_history``), the rebuild
from the database after results are entered and corrected through ``games.services``, and the public
players' pages (the ratings table, a profile with its rating chart drawn as inline SVG).

Celery runs eagerly, but the settle task is queued with ``transaction.on_commit``, which a test inside a
transaction never reaches: ``commit`` runs the captured callbacks, as a real commit would.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openskill.models import BradleyTerryFull

from draw.models import Round
from draw.publishing import publish_round
from games import services
from games.models import Hand, Match
from league.competition_options import set_published
from standings.models import PlayerRating, RatingPoint
from standings.ratings import (
    MU,
    SIGMA,
    RatedMatch,
    RatingError,
    display_rating,
    rate_history,
    rating_model,
    rebuild_ratings,
)
from standings.tasks import rebuild_ratings_task
from tests.factories import make_club, make_competition, make_match, make_partnership, make_player

NIGHT = datetime(2025, 3, 7, 20, 0, tzinfo=UTC)


def rated(match_id: int, side_a: tuple[int, ...], side_b: tuple[int, ...], winner: str) -> RatedMatch:
    return RatedMatch(match_id, f"match {match_id}", NIGHT + timedelta(days=match_id), side_a, side_b, winner)


# ----------------------------------------------------------------------------- the pure replay
def test_a_newcomer_shows_1500():
    assert display_rating(MU, SIGMA) == 1500.0
    ratings, points = rate_history([])
    assert ratings == {} and points == []


def test_a_winner_gains_a_loser_drops_and_partners_move_together():
    ratings, points = rate_history([rated(1, (1, 2), (3, 4), "a")])
    assert ratings[1].mu > MU > ratings[3].mu
    assert ratings[1] == ratings[2] and ratings[3] == ratings[4]
    assert ratings[1].display > 1500 > ratings[3].display
    assert all(rating.sigma < SIGMA and rating.matches == 1 for rating in ratings.values())
    assert [(p.player_id, p.sequence, p.match_id, p.label) for p in points] == [
        (1, 1, 1, "match 1"), (2, 1, 1, "match 1"), (3, 1, 1, "match 1"), (4, 1, 1, "match 1")]
    assert points[0].ordinal == ratings[1].display and points[0].played_at == NIGHT + timedelta(days=1)


def test_side_b_winning_mirrors_side_a_winning():
    a_wins, _ = rate_history([rated(1, (1, 2), (3, 4), "a")])
    b_wins, _ = rate_history([rated(1, (3, 4), (1, 2), "b")])
    assert a_wins == b_wins


def test_a_draw_between_equals_moves_no_mu_and_between_unequals_pulls_them_together():
    level, _ = rate_history([rated(1, (1, 2), (3, 4), "d")])
    assert all(rating.mu == pytest.approx(MU) for rating in level.values())
    assert all(rating.sigma < SIGMA for rating in level.values())  # a draw still tells something
    before, _ = rate_history([rated(1, (1, 2), (3, 4), "a")])
    after, _ = rate_history([rated(1, (1, 2), (3, 4), "a"), rated(2, (1, 2), (3, 4), "d")])
    assert after[1].mu < before[1].mu and after[3].mu > before[3].mu
    assert after[1].mu > after[3].mu


def test_all_twos_sides_are_teams_of_one_and_move_more_than_a_pair():
    singles, points = rate_history([rated(1, (1,), (2,), "a")])
    pairs, _ = rate_history([rated(1, (1, 3), (2, 4), "a")])
    assert set(singles) == {1, 2} and len(points) == 2
    assert singles[1].mu > MU > singles[2].mu
    assert singles[1].mu - MU > pairs[1].mu - MU  # alone, a player carries the whole result


def test_plackett_luce_and_bradley_terry_agree_on_two_teams():
    """Why Plackett–Luce: with two sides it gives Bradley–Terry's update (and is the cheaper model)."""
    pl, bt = rating_model(), BradleyTerryFull(mu=MU, sigma=SIGMA)
    for ranks in ([1, 2], [2, 1], [1, 1]):
        one = pl.rate([[pl.rating(mu=28, sigma=6), pl.rating()], [pl.rating(mu=22), pl.rating(sigma=4)]], ranks=ranks)
        two = bt.rate([[bt.rating(mu=28, sigma=6), bt.rating()], [bt.rating(mu=22), bt.rating(sigma=4)]], ranks=ranks)
        assert [x for team in one for r in team for x in (r.mu, r.sigma)] == pytest.approx(
            [x for team in two for r in team for x in (r.mu, r.sigma)])


def random_history(seed: int, size: int = 300) -> list[RatedMatch]:
    rng = random.Random(seed)
    history = []
    for number in range(1, size + 1):
        players = rng.sample(range(1, 25), 4)
        history.append(rated(number, tuple(players[:2]), tuple(players[2:]), rng.choice("aabbd")))
    return history


def test_the_same_history_gives_the_same_ratings():
    first = rate_history(random_history(7))
    second = rate_history(random_history(7))
    assert first == second
    ratings, points = first
    assert sum(rating.matches for rating in ratings.values()) == len(points) == 4 * 300
    last = {}
    for point in points:
        last[point.player_id] = point
    assert {player: (p.mu, p.sigma) for player, p in last.items()} == {
        player: (r.mu, r.sigma) for player, r in ratings.items()}


def test_history_order_matters():
    """Ratings are replayed in the order given: the same results in another order give other ratings."""
    history = [rated(1, (1, 2), (3, 4), "a"), rated(2, (1, 5), (3, 6), "b"), rated(3, (1, 2), (5, 6), "a")]
    forward, points = rate_history(history)
    backward, reversed_points = rate_history(list(reversed(history)))
    assert forward[1] != backward[1]
    assert [p.match_id for p in points if p.player_id == 1] == [1, 2, 3]
    assert [p.match_id for p in reversed_points if p.player_id == 1] == [3, 2, 1]
    assert [p.sequence for p in points if p.player_id == 1] == [1, 2, 3]


@pytest.mark.parametrize(("side_a", "side_b", "winner", "words"), [
    ((1, 2), (2, 3), "a", "on both sides"),
    ((1, 1), (2, 3), "a", "twice"),
    ((), (2, 3), "a", "at least one player"),
    ((1, 2), (3, 4), "x", "winner must be"),
])
def test_a_result_that_cannot_be_rated_is_refused(side_a, side_b, winner, words):
    with pytest.raises(RatingError, match=words):
        RatedMatch(1, "bad", NIGHT, side_a, side_b, winner)


# ----------------------------------------------------------------------------- from the database
def sweep(team: int) -> dict:
    """A chalk entry where ``team`` takes High, Low, Jack and Game: 4 chalks (5C kicks nothing)."""
    return {"kicks": ["5C"], "beg": "stand", "high": {"team": team}, "low": {"team": team},
            "jack": {"team": team}, "game": {"team": team}}


@pytest.fixture
def play(django_capture_on_commit_callbacks):
    """Enter hands through ``games.services.enter_hand`` (``"a"`` or ``"b"`` sweeps each hand), each settled by
    the on-commit task as a real commit would."""

    def do(match: Match, sides: str) -> Match:
        for number, side in enumerate(sides, start=1):
            with django_capture_on_commit_callbacks(execute=True):
                services.enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep("ab".index(side)),
                                    author_label="test")
        match.refresh_from_db()
        return match

    return do


def players_of(match: Match) -> tuple[list[int], list[int]]:
    return ([p for p in (match.side_a.player_one_id, match.side_a.player_two_id) if p],
            [p for p in (match.side_b.player_one_id, match.side_b.player_two_id) if p])


def ratings_by_player() -> dict[int, tuple[float, float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.ordinal, r.matches) for r in PlayerRating.objects.all()}


def history_of(player_id: int) -> list[tuple[int, int, float]]:
    return [(p.sequence, p.match_id, p.ordinal) for p in RatingPoint.objects.filter(player_id=player_id)]


@pytest.mark.django_db
def test_rebuild_rates_complete_played_public_matches(play, django_capture_on_commit_callbacks):
    club = make_club()
    published = make_competition(club=club)
    draft = make_competition(club=club, published=False)
    twos = make_competition(club=club, players=2)
    won = play(make_match(published), "aaaa")
    in_draft = play(make_match(draft), "bbbb")
    in_draft_round = make_match(published)
    round_ = Round.objects.create(competition=published, number=1, status=Round.DRAFT)
    Match.objects.filter(pk=in_draft_round.pk).update(round=round_)
    in_draft_round = play(Match.objects.get(pk=in_draft_round.pk), "aaaa")
    single = play(make_match(twos), "bbbb")
    unfinished = play(make_match(published), "aa")
    forfeited = make_match(published)
    Match.objects.filter(pk=forfeited.pk).update(status=Match.COMPLETE, outcome=Match.FORFEIT_A, winner="b")
    assert (won.status, won.winner, in_draft.winner, in_draft_round.winner, single.winner) == (
        Match.COMPLETE, "a", "b", "a", "b")
    assert unfinished.status == Match.IN_PROGRESS
    assert PlayerRating.objects.count() == 6  # the settle task queued a rebuild as each match completed
    PlayerRating.objects.all().delete()
    RatingPoint.objects.all().delete()  # from scratch, as on a new database

    counts = rebuild_ratings()

    assert counts == {"matches": 2, "skipped": 0, "players": 6, "points": 6, "deleted": 0, "written": 12}
    ratings = ratings_by_player()
    for match, winners in ((won, 0), (single, 1)):
        sides = players_of(match)
        assert all(ratings[p][2] > 1500 for p in sides[winners])
        assert all(ratings[p][2] < 1500 for p in sides[1 - winners])
    for match in (unfinished, forfeited, in_draft, in_draft_round):  # nothing of a draft is rated
        assert not set(sum(players_of(match), [])) & set(ratings)
    assert len(players_of(single)[0]) == 1 and RatingPoint.objects.filter(match_id=single.pk).count() == 2

    with django_capture_on_commit_callbacks(execute=True):  # publishing queues a rebuild: now they rate
        set_published(competition=draft, published=True)
        publish_round(round_)
    assert set(sum(players_of(in_draft), []) + sum(players_of(in_draft_round), [])) <= set(ratings_by_player())


@pytest.mark.django_db
def test_a_correction_that_flips_the_winner_changes_the_ratings_and_the_history_after_it(
        play, django_capture_on_commit_callbacks):
    competition = make_competition()
    lions, tigers, eagles = (make_partnership(club=competition.club, name=name)
                             for name in ("Lions", "Tigers", "Eagles"))
    first = play(make_match(competition, side_a=lions, side_b=tigers), "aaabbba")  # 16-12 to the Lions
    second = play(make_match(competition, side_a=lions, side_b=eagles), "aaaa")
    assert (first.winner, first.games_a, second.winner) == ("a", 1, "a")
    lion, tiger = lions.player_one_id, tigers.player_one_id

    assert rebuild_ratings()["matches"] == 2
    before, lion_before, tiger_before = ratings_by_player(), history_of(lion), history_of(tiger)
    assert [(sequence, match_id) for sequence, match_id, _ in lion_before] == [(1, first.pk), (2, second.pk)]
    assert lion_before[0][2] > 1500 > tiger_before[0][2]
    again = rebuild_ratings()
    assert again == {"matches": 2, "skipped": 0, "players": 6, "points": 8, "deleted": 0, "written": 0}
    assert ratings_by_player() == before and history_of(lion) == lion_before  # idempotent, nothing rewritten

    hand = Hand.objects.get(game__match=first, number=7)
    with django_capture_on_commit_callbacks(execute=True):
        services.correct_hand(hand=hand, mode=Hand.CHALK, entry=sweep(1), reason="the Tigers took hand 7",
                              version=hand.version, author_label="organiser")
    first.refresh_from_db()
    assert (first.status, first.winner, first.games_b) == (Match.COMPLETE, "b", 1)

    rebuild_ratings()
    after, lion_after, tiger_after = ratings_by_player(), history_of(lion), history_of(tiger)
    # the corrected match keeps its place in the history: the first point is now a loss, the second follows
    assert [(sequence, match_id) for sequence, match_id, _ in lion_after] == [(1, first.pk), (2, second.pk)]
    assert lion_after[0][2] < 1500 < tiger_after[0][2]
    assert lion_after[1][2] != lion_before[1][2]  # the later match is rated from the corrected start
    assert after[lion][0] < before[lion][0] and after[tiger][0] > before[tiger][0]
    eagle = eagles.player_one_id
    assert after[eagle] != before[eagle]  # the Eagles met a weaker Lions pair than before


@pytest.mark.django_db
def test_a_rebuild_writes_only_what_changed_and_drops_what_no_longer_counts(play, monkeypatch):
    monkeypatch.setattr("standings.receivers.schedule_ratings_rebuild", lambda: None)  # only the rebuilds of this test
    competition = make_competition()
    lions = make_partnership(club=competition.club)
    first = play(make_match(competition, side_a=lions), "aaaa")
    rebuild_ratings()
    second = play(make_match(competition, side_a=lions), "bbbb")
    counts = rebuild_ratings()
    assert (counts["deleted"], counts["written"]) == (2, 8)  # the Lions' 2 ratings; 4 points and 4 ratings
    full = {r.player_id: (r.mu, r.sigma, r.ordinal, r.matches) for r in PlayerRating.objects.all()}

    Match.objects.filter(pk=first.pk).update(outcome=Match.FORFEIT_B)  # the organiser rules it a no-show
    counts = rebuild_ratings()
    assert (counts["matches"], counts["players"], counts["points"]) == (1, 4, 4)
    assert not set(players_of(first)[1]) & set(ratings_by_player())  # first's losers no longer rated
    lion = ratings_by_player()[lions.player_one_id]
    assert history_of(lions.player_one_id) == [(1, second.pk, lion[2])]  # the history starts again at second
    assert lion != full[lions.player_one_id] and lion[3] == 1


@pytest.mark.django_db
def test_history_order_is_scheduled_time_then_creation_not_completion(play):
    competition = make_competition()
    pair = make_partnership(club=competition.club)
    late = play(make_match(competition, side_a=pair), "aaaa")
    early = play(make_match(competition, side_a=pair), "bbbb")
    Match.objects.filter(pk=early.pk).update(scheduled_at=late.created_at - timedelta(days=1))
    rebuild_ratings()
    history = history_of(pair.player_one_id)
    assert [match_id for _, match_id, _ in history] == [early.pk, late.pk]
    assert [p.played_at for p in RatingPoint.objects.filter(player_id=pair.player_one_id)] == [
        late.created_at - timedelta(days=1), late.created_at]


@pytest.mark.django_db
def test_the_task_rebuilds_the_ratings(play):
    play(make_match(make_competition()), "aaaa")
    assert rebuild_ratings_task.delay().get()["matches"] == 1
    assert PlayerRating.objects.count() == 4


# ----------------------------------------------------------------------------- the pages
def completed(competition, side_a=None, side_b=None, *, winner: str = "a", when=None) -> Match:
    """A match marked complete directly (the services are exercised above; the pages only read results)."""
    match = make_match(competition, side_a=side_a, side_b=side_b)
    Match.objects.filter(pk=match.pk).update(status=Match.COMPLETE, winner=winner, games_a=int(winner == "a"),
                                             games_b=int(winner == "b"), scheduled_at=when)
    match.refresh_from_db()
    return match


def page(client, name: str, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_ratings_table_ranks_players_and_links_their_profiles(client):
    club = make_club("Belmont Sports Club")
    competition = make_competition(club=club)
    winners, losers = make_partnership(club=club), make_partnership(club=club)
    completed(competition, winners, losers)
    newcomer = make_player("Nobody Yet", club=club)
    rebuild_ratings()

    html = page(client, "players")
    top = PlayerRating.objects.order_by("-ordinal").first()
    assert top.player_id in (winners.player_one_id, winners.player_two_id)
    rows = re.findall(r'class="num rank">(\d+)</td>\s*<th scope="row" class="name"><a href="/players/(\d+)/">', html)
    assert [rank for rank, _ in rows] == ["1", "1", "3", "3"]  # partners share their rating and their place
    assert {int(pk) for _, pk in rows[:2]} == {winners.player_one_id, winners.player_two_id}
    assert f">{round(top.ordinal)}<" in html and "Belmont Sports Club" in html
    assert "Not yet rated" in html and f'href="{reverse("player", args=[newcomer.pk])}"' in html
    profile = page(client, "player", newcomer.pk)
    assert "Not yet rated" in profile and "rating-chart" not in profile and "No rated match yet" in profile


@pytest.mark.django_db
def test_the_profile_draws_the_rating_history_as_an_svg_chart(client):
    club = make_club()
    competition = make_competition(club=club)
    lions = make_partnership(club=club, name="Lions")
    lions.player_one.nickname = "Boss"
    lions.player_one.save()
    start = timezone.now() - timedelta(days=30)
    matches = [completed(competition, lions, winner="ab"[n % 2] if n < 3 else "a", when=start + timedelta(days=n))
               for n in range(5)]
    rebuild_ratings()
    player = lions.player_one
    points = list(RatingPoint.objects.filter(player=player))

    html = page(client, "player", player.pk)
    assert player.name in html and "Boss" in html and club.name in html
    assert f'id="rating">{round(player.rating.ordinal)}<' in html
    chart = html[html.index('class="rating-chart"'):]  # the chart's own svg (the share box's QR code is another)
    svg = chart[chart.index("<svg"):chart.index("</svg>")]
    circles = re.findall(r'<circle class="point[^"]*" cx="([\d.]+)" cy="([\d.]+)"[^>]*><title>([^<]*)</title>', svg)
    assert len(circles) == len(points) + 1 == 6  # the starting rating and one point a match
    assert circles[0][2] == "Start: 1500"
    assert all(f"Match {n} ·" in circles[n][2] and f"rating {round(p.ordinal)}" in circles[n][2]
               for n, p in enumerate(points, start=1))
    xs = [float(x) for x, _, _ in circles]
    assert xs == sorted(xs) and len(set(xs)) == 6
    ys = [float(y) for _, y, _ in circles]
    assert (ys[1] < ys[0]) == (points[0].ordinal > 1500)  # SVG y grows downwards
    assert '<polyline class="line" points="' in svg
    assert ">Rating</text>" in svg and ">Rated matches played</text>" in svg  # the axis titles
    assert ">1500</text>" in svg  # a y-axis label
    for match in matches:  # each point links to its scoresheet
        assert f'<a href="{reverse("match_sheet", args=[match.pk])}">' in svg
    assert html.count(reverse("match_sheet", args=[matches[-1].pk])) >= 3  # chart, table, recent matches
    assert lions.player_two.name in html  # the partner, in the recent matches and the partnerships
    assert f'href="{reverse("player", args=[lions.player_two_id])}"' in html
    for match in matches:  # the opponents, linked
        assert f'href="{reverse("player", args=[match.side_b.player_one_id])}"' in html
    assert competition.name in html and "Won" in html and "Lost" in html


@pytest.mark.django_db
def test_the_pages_are_public_and_never_name_an_unpublished_competition(client):
    club = make_club()
    public = make_competition(club=club)
    secret = make_competition(club=club, published=False)
    secret.name = "Secret Cup"
    secret.save()
    lions = make_partnership(club=club)
    visible = completed(public, lions, when=timezone.now() - timedelta(days=2))
    hidden = completed(secret, lions, winner="b", when=timezone.now() - timedelta(days=1))
    rebuild_ratings()
    player = lions.player_one
    assert PlayerRating.objects.get(player=player).matches == 1  # the draft's result is not rated

    profile = page(client, "player", player.pk)
    table = page(client, "players")
    for html in (profile, table):
        assert "Secret Cup" not in html and secret.slug not in html
    assert reverse("match_sheet", args=[hidden.pk]) not in profile and hidden.side_b_name not in profile
    assert reverse("match_sheet", args=[visible.pk]) in profile
    # the start and the public result, in each of the chart's two drawings (wide, and narrow for a phone): the
    # draft's sides are named nowhere
    assert profile.count("<circle") == 2 * 2 and profile.count('<svg class="narrow"') == 1
    assert public.name in profile
    assert client.get(reverse("player", args=[player.pk + 10_000])).status_code == 404


def query_counts(client, matches: int) -> tuple[int, int]:
    club = make_club()
    competition = make_competition(club=club)
    lions = make_partnership(club=club)
    for n in range(matches):
        completed(competition, lions, winner="ab"[n % 2], when=timezone.now() - timedelta(hours=matches - n))
    rebuild_ratings()
    counts = []
    for name, args in (("player", [lions.player_one_id]), ("players", [])):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse(name, args=args)).status_code == 200
        counts.append(len(queries))
    return counts[0], counts[1]


@pytest.mark.django_db
def test_the_pages_take_as_many_queries_for_1_match_as_for_10(client, django_assert_num_queries,
                                                              django_assert_max_num_queries):
    one = query_counts(client, 1)
    ten = query_counts(client, 10)
    assert one == ten
    player = PlayerRating.objects.order_by("-matches").first().player_id
    with django_assert_num_queries(7):  # player, rank, points, linked matches, partnerships, competitions, recent
        client.get(reverse("player", args=[player]))
    with django_assert_max_num_queries(5):  # a page of ratings (count, rows), their places, a page of unrated
        client.get(reverse("players"))


# ----------------------------------------------------------------------------- PostgreSQL and a real worker
@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_worker_recomputes_the_ratings_after_a_correction(celery_worker_process):
    """The settle task and the rebuild run in a real worker on PostgreSQL: a correction that hands the match
    to the other side turns the winners' gain into a loss."""
    from tests.services import wait_settled

    competition = make_competition()
    match = make_match(competition)
    for number, side in enumerate("aaabbba", start=1):
        services.enter_hand(match=match, number=number, mode=Hand.CHALK, entry=sweep("ab".index(side)),
                            author_label="test")
        wait_settled(match)
    assert Match.objects.get(pk=match.pk).winner == "a"
    assert rebuild_ratings_task.delay().get(timeout=60)["matches"] == 1
    (winners, losers) = players_of(match)
    assert all(PlayerRating.objects.get(player_id=p).ordinal > 1500 for p in winners)

    hand = Hand.objects.get(game__match=match, number=7)
    services.correct_hand(hand=hand, mode=Hand.CHALK, entry=sweep(1), reason="side B took hand 7",
                          version=hand.version, author_label="organiser")
    assert wait_settled(match).winner == "b"
    assert rebuild_ratings_task.delay().get(timeout=60)["written"] == 8  # 4 ratings and 4 history points
    assert all(PlayerRating.objects.get(player_id=p).ordinal < 1500 for p in winners)
    assert all(PlayerRating.objects.get(player_id=p).ordinal > 1500 for p in losers)
