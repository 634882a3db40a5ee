"""A competition played online runs itself (``tables.events``, ``draw.next_round``): publishing a round opens a
table for each of its matches, seats its players', holding the match, with a start time; the table starts when its
four players are seated, or at the start time with those present, each empty seat settled by the competition's
no-show rule (a forfeit to the side that came, a bot that plays it and marks the match, or waiting for the
organiser); and when the last match of a round is decided the next round is paired by itself, then published with
its tables open or announced to the organisers, as they chose. Time is driven by moving ``starts_at`` into the past
and calling the ticker's check, never by sleeping."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from draw.models import Round
from draw.next_round import pair_next_round
from draw.publishing import publish_round, unpublish_round
from draw.request import request_pairing
from games.models import Match
from league.choices import OnlineNextRound, OnlineNoShow, WhenPaired
from league.models import Competition, Entry
from league.signals import attention_needed
from standings.ratings import rated_matches_query
from tables import events, presence
from tables.models import Table
from tests.factories import make_club, make_partnership, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("olive")


@pytest.fixture
def club(organiser):
    return make_club("Belmont Sports Club", organisers=[organiser])


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """``run(function, *args, **kwargs)``: the call, then what it left for after the commit (the listeners, the
    settle and pairing tasks, which run in-process here), as a real commit would run them."""

    def do(function, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    return do


def swiss(club, *, play_online: bool = True, **options) -> Competition:
    """A published Swiss of four pairs over two planned rounds, every player with a login."""
    options = {"name": "Friday Online", "slug": "friday-online", **options}
    competition = Competition.objects.create(club=club, published=True, system=Competition.SWISS, planned_rounds=2,
                                             play_online=play_online, **options)
    for seed in range(1, 5):
        partnership = make_partnership(club=club, name=f"Pair {seed}")
        for player in (partnership.player_one, partnership.player_two):
            player.user = make_user()
            player.save()
        Entry.objects.create(competition=competition, partnership=partnership, seed=seed)
    return competition


def paired_and_published(run, competition: Competition) -> Round:
    round_ = run(request_pairing, competition)
    round_.refresh_from_db()
    assert round_.pairing_state == Round.DONE, round_.pairing_message
    return run(publish_round, round_)


def tables_of(round_: Round) -> list[Table]:
    return list(Table.objects.filter(match__round=round_).select_related("match").order_by("match_id"))


def seated(run, table: Table, *seats: int) -> None:
    """The players of ``seats`` open the table (a socket each counts in)."""
    for seat in seats:
        run(presence.mark_back, table.pk, seat)


def due_now(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(starts_at=timezone.now() - timedelta(seconds=1))


# ----------------------------------------------------------------------------- opening
def test_publishing_a_round_opens_a_table_per_match_seated_by_its_players(club, run):
    competition = swiss(club, online_grace_minutes=15)
    before = timezone.now()
    round_ = paired_and_published(run, competition)
    tables = tables_of(round_)
    matches = list(Match.objects.filter(round=round_).order_by("pk"))
    assert len(tables) == len(matches) == 2
    for table, match in zip(tables, matches, strict=True):
        match.refresh_from_db()
        assert table.kind == Table.FIXTURE and table.status == Table.LOBBY and table.match_id == match.pk
        assert match.held_by_table == table.pk  # the table holds its match: its hands land on the sheet
        players = [match.side_a.player_one, match.side_b.player_one, match.side_a.player_two, match.side_b.player_two]
        assert [seat.user_id for seat in table.seats.order_by("index")] == [player.user_id for player in players]
        assert all(seat.seat_token for seat in table.seats.all())  # a private link each, for those without a login
        assert before + timedelta(minutes=15) <= table.starts_at <= timezone.now() + timedelta(minutes=15)


def test_publishing_again_or_the_listener_run_twice_opens_no_second_table(club, run):
    competition = swiss(club)
    round_ = paired_and_published(run, competition)
    first = {table.pk for table in tables_of(round_)}
    events.open_round_tables(round_id=round_.pk)
    run(unpublish_round, round_)
    run(publish_round, round_)
    assert {table.pk for table in tables_of(round_)} == first
    assert Table.objects.count() == 2


def test_a_socket_opened_as_its_table_is_dealt_reads_the_lobby_never_a_hand_without_its_row(club, run, monkeypatch):
    """The race a benchmark met (bench/bench_events.py): a table's fourth player opens its socket, counts in and the
    table is dealt while another socket of it reads its state — the hand, read once before the deal, is not read
    again (a state with no hand row failed its socket, and the player's seat was left empty)."""
    from tables import dealing, reader_views
    from tables import state as live

    table = tables_of(paired_and_published(run, swiss(club)))[0]
    lobby = Table.objects.get(pk=table.pk)  # read by the socket before the deal
    run(dealing.start, table.pk)
    real, reads = live.current_hand, []

    def dealt_after_the_first_read(read_table):
        reads.append(read_table.pk)
        return None if len(reads) == 1 else real(read_table)

    monkeypatch.setattr(live, "current_hand", dealt_after_the_first_read)
    frame = reader_views.view_for(lobby, 0)
    assert frame["view"] is None and frame["table"]["status"] == Table.LOBBY and reads == [table.pk]


def test_a_competition_not_played_online_or_still_a_draft_opens_no_table(club, run):
    round_ = paired_and_published(run, swiss(club, play_online=False))
    assert Match.objects.filter(round=round_).count() == 2 and not Table.objects.exists()
    draft = swiss(club, slug="draft-online")
    Competition.objects.filter(pk=draft.pk).update(published=False)
    paired_and_published(run, draft)
    assert not Table.objects.exists()  # its pairings are not public yet


# ----------------------------------------------------------------------------- starting
def test_the_table_starts_when_its_four_players_are_seated(club, run):
    table = tables_of(paired_and_published(run, swiss(club)))[0]
    seated(run, table, 0, 1, 2)
    table.refresh_from_db()
    assert table.status == Table.LOBBY and table.starts_at > timezone.now()  # three of four: it waits
    assert events.due_starts() == []
    seated(run, table, 3)
    table.refresh_from_db()
    assert table.status == Table.PLAYING and table.hand_number == 1


def test_at_the_start_time_the_side_with_an_empty_seat_forfeits_to_the_side_that_came(club, run):
    tables = tables_of(paired_and_published(run, swiss(club, online_no_show=OnlineNoShow.FORFEIT)))
    came_a, half_b = tables
    seated(run, came_a, 0, 2)  # side A came, side B did not
    seated(run, half_b, 0, 1, 2)  # side B one player short
    assert run(events.start_due) == []  # not yet: the start time is ahead
    for table in tables:
        due_now(table)
    assert sorted(run(events.start_due)) == sorted(table.pk for table in tables)
    for table, forfeited in ((came_a, Match.FORFEIT_B), (half_b, Match.FORFEIT_B)):
        table.refresh_from_db()
        match = Match.objects.get(pk=table.match_id)
        assert match.outcome == forfeited and match.winner == "a" and match.status == Match.COMPLETE
        assert table.status == Table.FINISHED and match.held_by_table is None
        assert "did not come to the table by its start time" in table.end_reason
        assert f"{match.side_a_name} win by forfeit" in table.end_reason


def test_at_the_start_time_nobody_there_is_a_double_forfeit_and_side_a_absent_forfeits_to_b(club, run):
    nobody, side_b_only = tables_of(paired_and_published(run, swiss(club)))
    seated(run, side_b_only, 1, 3, 2)  # side A's second player came, its first did not
    due_now(nobody)
    due_now(side_b_only)
    run(events.start_due)
    assert Match.objects.get(pk=nobody.match_id).outcome == Match.DOUBLE_FORFEIT
    match = Match.objects.get(pk=side_b_only.match_id)
    assert match.outcome == Match.FORFEIT_A and match.winner == "b"
    nobody.refresh_from_db()
    assert nobody.status == Table.FINISHED and "Neither side came" in nobody.end_reason


@pytest.mark.parametrize("rated", [False, True])
def test_at_the_start_time_a_bot_plays_an_empty_seat_and_the_match_is_marked(club, run, client, rated):
    competition = swiss(club, online_no_show=OnlineNoShow.BOT, online_bot_rated=rated)
    table = tables_of(paired_and_published(run, competition))[0]
    seated(run, table, 0, 1, 2)
    due_now(table)
    run(events.start_due)
    table.refresh_from_db()
    assert table.status == Table.PLAYING
    seats = {seat.index: seat for seat in table.seats.all()}
    assert seats[3].covering and not any(seats[index].covering for index in (0, 1, 2))
    match = Match.objects.get(pk=table.match_id)
    assert match.bot_played and match.outcome == Match.PLAYED
    assert "a bot played" in client.get(f"/matches/{match.pk}/").content.decode()  # marked on the scoresheet
    Match.objects.filter(pk=match.pk).update(status=Match.COMPLETE, winner="a", games_a=1)  # as if played out
    assert rated_matches_query().filter(pk=match.pk).exists() is rated  # not rated unless the competition says so


def test_at_the_start_time_the_wait_rule_leaves_the_table_for_the_organiser(club, run, client, organiser):
    table = tables_of(paired_and_published(run, swiss(club, online_no_show=OnlineNoShow.WAIT)))[0]
    seated(run, table, 0, 1)
    due_now(table)
    assert events.due_starts() == [] and run(events.start_due) == []
    assert events.start_event_table(table.pk) is None
    table.refresh_from_db()
    match = Match.objects.get(pk=table.match_id)
    assert table.status == Table.LOBBY and match.outcome == Match.PLAYED and not match.bot_played
    client.force_login(organiser)
    page = client.get(f"/matches/{match.pk}/online/").content.decode()
    assert page.count("seat-missing") == 2 and page.count("seat-here") == 2  # who is missing, for the organiser
    seated(run, table, 2, 3)  # they come after all: the table starts
    table.refresh_from_db()
    assert table.status == Table.PLAYING


# ----------------------------------------------------------------------------- the next round
@pytest.fixture
def told():
    """What the organisers were told (``league.signals.attention_needed``), as ``(user id, title)``."""
    heard: list[tuple[int, str]] = []

    def listen(sender=None, *, user_id, title, **kwargs):
        heard.append((user_id, title))

    attention_needed.connect(listen, dispatch_uid="test.told")
    yield heard
    attention_needed.disconnect(dispatch_uid="test.told")


def no_shows_decide(run, round_: Round) -> None:
    """Each match of the round decided at its start time: side A came, side B did not."""
    for table in tables_of(round_):
        seated(run, table, 0, 2)
        due_now(table)
    run(events.start_due)
    assert not Match.objects.filter(round=round_).exclude(status=Match.COMPLETE).exists()


def test_the_last_match_decided_pairs_the_next_round_publishes_it_and_opens_its_tables(club, run, told):
    competition = swiss(club, online_no_show=OnlineNoShow.FORFEIT, online_next_round=OnlineNextRound.PUBLISH)
    round_one = paired_and_published(run, competition)
    no_shows_decide(run, round_one)
    round_two = Round.objects.get(competition=competition, number=2)
    assert round_two.is_published and round_two.when_paired == WhenPaired.PUBLISH
    assert len(tables_of(round_two)) == 2 and all(t.status == Table.LOBBY for t in tables_of(round_two))
    assert told == []
    no_shows_decide(run, round_two)  # the last planned round: nothing more is paired
    assert competition.rounds.count() == 2


def test_the_next_round_is_paired_as_a_draft_for_the_organisers_to_review(club, run, told, organiser):
    competition = swiss(club, online_next_round=OnlineNextRound.REVIEW)
    round_one = paired_and_published(run, competition)
    tables = tables_of(round_one)
    seated(run, tables[0], 0, 2)
    due_now(tables[0])
    run(events.start_due)  # one match of two decided: nothing yet
    assert competition.rounds.count() == 1 and told == []
    seated(run, tables[1], 0, 2)
    due_now(tables[1])
    run(events.start_due)
    round_two = Round.objects.get(competition=competition, number=2)
    assert round_two.pairing_state == Round.DONE and not round_two.is_published
    assert not tables_of(round_two) and Match.objects.filter(round=round_two).count() == 2
    assert told == [(organiser.pk, "Round 2 of Friday Online is paired")]
    assert run(pair_next_round, competition.pk) is None  # asked again: the draft is there, nothing more


def test_nothing_is_paired_by_itself_when_the_organiser_chose_so(club, run, told):
    competition = swiss(club, online_next_round=OnlineNextRound.NOTHING)
    no_shows_decide(run, paired_and_published(run, competition))
    assert competition.rounds.count() == 1 and told == []


def team_cup(club, *, pairs: dict[str, int], play_online: bool = True, **options):
    """A published team competition of two tables a team match (fixed: one game a table, unless ``options`` say
    otherwise); ``pairs``: each team's name and how many pairs its roster has. Returns the competition and each
    team's pairs (by team id), in the order they were made."""
    from league.models import Team

    options = {"team_mode": Competition.TEAM_FIXED, "team_games_per_table": 1, **options}
    competition = Competition.objects.create(
        club=club, name="Online Teams", slug="online-teams", published=True, play_online=play_online,
        entrant_kind=Competition.TEAMS, team_tables=2, **options)
    members = {}
    for seed, (name, count) in enumerate(pairs.items(), start=1):
        team = Team.objects.create(competition=competition, club=club, name=name)
        members[team.pk] = [make_partnership(club=club, name=f"{name} {n}") for n in range(1, count + 1)]
        team.partnerships.add(*members[team.pk])
        Entry.objects.create(competition=competition, team=team, seed=seed)
    return competition, members


def test_a_team_matchs_tables_seated_after_its_round_is_published_open_online(club, run):
    from games.models import TeamMatch
    from games.services import set_team_tables

    competition, members = team_cup(club, pairs={"Red": 3, "Blue": 2})  # Red's captain chooses two of three pairs
    round_ = paired_and_published(run, competition)
    tie = TeamMatch.objects.get(round=round_)
    assert not Table.objects.exists()  # published before its captains seated the pairs: no table yet
    line_up = list(zip(members[tie.team_a_id][:2], members[tie.team_b_id][:2], strict=True))
    seated_matches = run(set_team_tables, tie, line_up)
    tables = tables_of(round_)
    assert sorted(table.match_id for table in tables) == sorted(match.pk for match in seated_matches)
    assert all(table.status == Table.LOBBY and table.starts_at for table in tables)


def test_a_team_match_whose_teams_have_no_choice_is_seated_by_itself_and_opens_online_as_its_round_is_published(
        club, run):
    from games.models import TeamMatch

    competition, members = team_cup(club, pairs={"Red": 2, "Blue": 2})  # two pairs each for two tables
    before = timezone.now()
    round_ = paired_and_published(run, competition)
    tie = TeamMatch.objects.get(round=round_)
    seated_matches = list(Match.objects.filter(team_match=tie).order_by("table_number"))
    assert [(m.side_a_id, m.side_b_id) for m in seated_matches] == [
        (a.pk, b.pk) for a, b in zip(members[tie.team_a_id], members[tie.team_b_id], strict=True)]  # roster order
    tables = tables_of(round_)
    assert [table.match_id for table in tables] == [match.pk for match in seated_matches]
    for table, match in zip(tables, seated_matches, strict=True):
        match.refresh_from_db()
        assert table.status == Table.LOBBY and match.held_by_table == table.pk
        assert table.starts_at >= before + timedelta(minutes=competition.online_grace_minutes)
    events.open_round_tables(round_id=round_.pk)  # the listener again: no second table
    assert Table.objects.count() == 2


def test_a_team_match_whose_captain_has_a_choice_waits_for_its_line_up(club, run):
    from games.models import TeamMatch

    competition, _ = team_cup(club, pairs={"Red": 2, "Blue": 3})
    round_ = paired_and_published(run, competition)
    tie = TeamMatch.objects.get(round=round_)
    assert not Match.objects.filter(team_match=tie).exists() and not Table.objects.exists()


def test_a_team_match_not_played_online_is_left_to_its_captains_whatever_its_rosters(club, run):
    from games.models import TeamMatch

    competition, _ = team_cup(club, pairs={"Red": 2, "Blue": 2}, play_online=False)
    round_ = paired_and_published(run, competition)
    tie = TeamMatch.objects.get(round=round_)
    assert not Match.objects.filter(team_match=tie).exists() and not Table.objects.exists()


def test_a_team_race_won_at_one_table_stops_the_other_table_at_once(club, run):
    """A race stops every table where it is won: the other table's hand in play could not count, so the table
    finishes at once (``games.signals.team_match_decided``), saying why, and its players are free for their next
    table; the table whose hand decided finishes by itself."""
    from games.models import TeamMatch
    from games.services import enter_hand
    from tables import dealing
    from tests.factories import sweep

    competition, _ = team_cup(club, pairs={"Red": 2, "Blue": 2}, team_mode=Competition.TEAM_RACE, team_target=1,
                              ruleset={"target": 4})  # one sweep (4 chalks) wins a game, one game the race
    round_ = paired_and_published(run, competition)
    tie = TeamMatch.objects.get(round=round_)
    deciding, other = tables_of(round_)
    for table in (deciding, other):
        run(dealing.start, table.pk)
    match = Match.objects.get(pk=deciding.match_id)
    run(enter_hand, match=match, number=1, mode="chalk", entry=sweep(1), holder=deciding)  # the way the table stores it

    tie.refresh_from_db()
    assert tie.status == TeamMatch.COMPLETE and tie.winner == "b" and (tie.bullseyes_a, tie.bullseyes_b) == (0, 1)
    other.refresh_from_db()
    assert other.status == Table.FINISHED
    assert other.end_reason == f"The team match is over: {tie.team_b_name} won, bullseyes {tie.team_a_name} 0 – 1 " \
                               f"{tie.team_b_name}. This table stops here, and hand 1, still in play, is not stored."
    assert Match.objects.get(pk=other.match_id).held_by_table is None  # released: nothing holds its sheet
    assert not Match.objects.get(pk=other.match_id).games.filter(hands__isnull=False).exists()


def test_a_round_whose_pairing_task_died_before_publishing_it_is_published_by_the_sweep(club, run, told,
                                                                                       monkeypatch):
    from draw import run as pairing_run
    from draw.tasks import sweep_pairings

    competition = swiss(club, online_no_show=OnlineNoShow.FORFEIT, online_next_round=OnlineNextRound.PUBLISH)
    round_one = paired_and_published(run, competition)
    with monkeypatch.context() as died:  # the task stores the pairing, then its worker is killed
        died.setattr(pairing_run, "after_paired", lambda round_id: None)
        no_shows_decide(run, round_one)
    round_two = Round.objects.get(competition=competition, number=2)
    assert round_two.pairing_state == Round.DONE and not round_two.is_published and not tables_of(round_two)
    assert run(sweep_pairings, 30)["published_late"] == []  # too recent: it may still be publishing
    Round.objects.filter(pk=round_two.pk).update(pairing_heartbeat_at=timezone.now() - timedelta(minutes=5))
    assert run(sweep_pairings, 30)["published_late"] == [round_two.pk]
    round_two.refresh_from_db()
    assert round_two.is_published and len(tables_of(round_two)) == 2
    assert run(sweep_pairings, 30)["published_late"] == [] and told == []  # once


def test_a_round_that_could_not_be_published_by_itself_goes_to_the_organisers_and_not_back_to_the_sweep(
        club, run, told, monkeypatch):
    from draw import next_round
    from draw.errors import RoundError
    from draw.tasks import sweep_pairings

    competition = swiss(club, online_no_show=OnlineNoShow.FORFEIT, online_next_round=OnlineNextRound.PUBLISH)
    round_one = paired_and_published(run, competition)

    def refused(round_):
        raise RoundError("round", "a check-in is still open")

    with monkeypatch.context() as refusing:
        refusing.setattr(next_round, "publish_round", refused)
        no_shows_decide(run, round_one)
    round_two = Round.objects.get(competition=competition, number=2)
    assert not round_two.is_published and round_two.when_paired == WhenPaired.REVIEW
    assert told and all("is paired" in title for _, title in told)
    Round.objects.filter(pk=round_two.pk).update(pairing_heartbeat_at=timezone.now() - timedelta(minutes=5))
    assert run(sweep_pairings, 30)["published_late"] == []
