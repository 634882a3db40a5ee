"""A league fixture played online: opened by its scorekeeper, seats for the partnerships' players, the match's
format game after game, every hand stored through ``games``' entry service — so the match comes out exactly as
the same hands entered by a scorekeeper. While a table plays the match, its results change at the table only: the
match's other entries are refused naming the table, until the organiser ends online play (the table then closes
and says why); a forfeit ends the match and the table with it; a sheet changed behind the table's back stops it
cleanly instead of leaving it stuck."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.entry import correct_hand, undo_last_hand
from games.models import Hand, Match
from games.services import (
    MatchHeldError,
    enter_game_result,
    enter_hand,
    next_hand,
    record_forfeit,
    record_match_totals,
    settle_match,
)
from league.models import Competition
from tables import acting, clock, dealing, fixtures, seating
from tables.changes import TableError
from tables.models import Table, TableHand
from tests.factories import make_match, make_scene, make_user, sweep
from tests.tables.helpers import fresh, play_out

pytestmark = pytest.mark.django_db

MATCH_FIELDS = ("status", "winner", "games_a", "games_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b")
GAME_FIELDS = ("number", "score_a", "score_b", "winner", "first_dealer", "hang_jacks_a", "hang_jacks_b")


def with_logins(match: Match) -> list:
    """Each of the match's players gets a login; the users in seat order."""
    players = [match.side_a.player_one, match.side_b.player_one, match.side_a.player_two, match.side_b.player_two]
    users = []
    for player in players[:match.competition.players]:
        player.user = make_user()
        player.save()
        users.append(player.user)
    return users


def outcome(match: Match) -> tuple:
    match = settle_match(match.pk)
    games = [tuple(getattr(game, name) for name in GAME_FIELDS) for game in match.games.order_by("number")]
    return tuple(getattr(match, name) for name in MATCH_FIELDS), games


@pytest.mark.parametrize("players", [4, 2])
def test_a_fixture_played_online_equals_the_same_hands_entered_by_a_scorekeeper(players):
    scene = make_scene("Online", organiser="org", scorekeeper="keeper", players=players,
                       match_format=Competition.BEST_OF, match_games=3, ruleset={"target": 5})
    match = scene["match"]
    users = with_logins(match)
    with pytest.raises(TableError, match="organisers and scorekeepers"):
        fixtures.open_fixture(match, users[0])
    table = fixtures.open_fixture(match, scene["scorekeeper"])
    assert fixtures.open_fixture(match, scene["organiser"]) == table  # one open table a match
    assert [seating.seat_of_user(table, user) for user in users] == list(range(players))
    with pytest.raises(TableError, match="belong to the partnerships' players"):
        seating.take_seat(table, 0, make_user())
    table = play_out(dealing.start(table))  # nobody moves: the clock plays every seat
    match.refresh_from_db()
    assert table.status == "finished" and match.status == Match.COMPLETE
    assert table.games_won == [match.games_a, match.games_b] and max(table.games_won) == 2
    hands = list(TableHand.objects.filter(table=table).order_by("number"))
    assert all(hand.stored_hand_id for hand in hands)
    stored = Hand.objects.filter(game__match=match)
    assert stored.count() == len(hands) and set(stored.values_list("mode", flat=True)) == {Hand.RECORD}
    by_keeper = make_match(match.competition, side_a=match.side_a, side_b=match.side_b,
                           first_dealer=match.first_dealer)
    for hand in hands:  # the same records typed in by the scorekeeper, hand after hand
        target = next_hand(by_keeper)
        enter_hand(match=by_keeper, number=target.number, mode=Hand.RECORD, entry=hand.record,
                   user=scene["scorekeeper"])
    assert outcome(by_keeper) == outcome(match)


def test_a_complete_match_cannot_be_opened_online():
    scene = make_scene("Done", organiser="org2", scorekeeper="keeper2")
    Match.objects.filter(pk=scene["match"].pk).update(status=Match.COMPLETE)
    with pytest.raises(TableError, match="complete"):
        fixtures.open_fixture(scene["match"], scene["organiser"])


# ----------------------------------------------------------------------------- one place of entry at a time
@pytest.fixture
def scene():
    scene = make_scene("Held", organiser="org3", scorekeeper="keeper3", match_format=Competition.BEST_OF,
                       match_games=3, ruleset={"target": 5})
    with_logins(scene["match"])
    return scene


def play_hands(table: Table, count: int) -> Table:
    """Let the clock play every seat until ``count`` hands of the table are stored (or it stops)."""
    for _ in range(20_000):
        table = fresh(table)
        if table.status != Table.PLAYING or TableHand.objects.filter(table=table, stored_hand__isnull=False
                                                                     ).count() >= count:
            return table
        clock.play_due(table.pk, now=table.deadline_at)
    raise AssertionError("the hands were not played")


def keeper_entries(scene) -> dict:
    """Every way the match's pages and API change its results, each as the scorekeeper would."""
    match, keeper = scene["match"], scene["scorekeeper"]
    hand = Hand.objects.filter(game__match=match, deleted=False).order_by("-game__number", "-number").first()
    entries = {
        "a hand": lambda: enter_hand(match=match, number=next_hand(match).number, mode=Hand.CHALK, entry=sweep(0),
                                     user=keeper),
        "a game result": lambda: enter_game_result(match, number=1, winner="a", user=keeper),
        "match totals": lambda: record_match_totals(match, games_a=2, games_b=0, user=keeper),
    }
    if hand is not None:
        entries["a correction"] = lambda: correct_hand(hand=hand, mode=Hand.CHALK, entry=sweep(1), reason="typo",
                                                       version=hand.version, user=keeper)
        entries["an undo"] = lambda: undo_last_hand(match=match, user=keeper)
    return entries


def test_while_a_table_is_open_the_matchs_entries_are_refused_naming_it(scene):
    match = scene["match"]
    table = fixtures.open_fixture(match, scene["organiser"])
    for entry in keeper_entries(scene).values():  # in the lobby: the table will deal from the sheet
        with pytest.raises(MatchHeldError, match=f"played online at table {table.pk}: "):
            entry()
    table = play_hands(dealing.start(table), 2)
    assert table.status == Table.PLAYING
    stored = Hand.objects.filter(game__match=match).count()
    entries = keeper_entries(scene)
    assert {"a correction", "an undo"} <= set(entries)
    for what, entry in entries.items():
        with pytest.raises(MatchHeldError, match=f"table {table.pk}: the table stores") as refused:
            entry()
        assert refused.value.conflict and refused.value.field == "match", what  # 409 in the API
        assert "the organiser can end online play" in refused.value.reason
    assert Hand.objects.filter(game__match=match).count() == stored
    table = play_out(table)  # nothing was changed behind its back: the table plays the match to its end
    assert table.status == Table.FINISHED and Match.objects.get(pk=match.pk).status == Match.COMPLETE
    assert table.end_reason.startswith("The match is over:") and str(max(table.games_won)) in table.end_reason


def test_the_organiser_ends_online_play_and_the_sheet_takes_entries_again(scene):
    match = scene["match"]
    table = play_hands(dealing.start(fixtures.open_fixture(match, scene["scorekeeper"])), 1)
    with pytest.raises(TableError, match="only the club's organisers"):
        fixtures.end_fixture(table, scene["scorekeeper"])
    in_play = table.hand_number  # 2, or more after a redeal (R12: a redeal is not stored)
    assert in_play >= 2
    table = fixtures.end_fixture(table, scene["organiser"])
    assert table.status == Table.CLOSED and table.turn is None and table.deadline_at is None
    assert table.end_reason.startswith(f"Online play was ended by the organiser (org3) during hand {in_play}, which "
                                       "is not stored")
    with pytest.raises(TableError, match="playing"):  # its players' moves are refused now: nothing is stuck
        acting.act(table.pk, 0, "stand", table.version)
    with pytest.raises(TableError, match="already ended"):
        fixtures.end_fixture(table, scene["organiser"])
    assert fixtures.fixture_table(match) is None
    stored = Hand.objects.filter(game__match=match, deleted=False).count()
    # the hand played, and any the next deal ended at once (a kick that took a side to the target); not the one
    # in play when the organiser ended it
    assert stored == TableHand.objects.filter(table=table, stored_hand__isnull=False).count() >= 1
    assert not TableHand.objects.filter(table=table, number__gte=in_play, stored_hand__isnull=False).exists()
    keeper_hand = enter_hand(match=match, number=next_hand(match).number, mode=Hand.CHALK, entry=sweep(0),
                             user=scene["scorekeeper"])
    assert keeper_hand.entered_by == "keeper3"
    # opened online again, the new table's first deal is where the sheet is now (read before it: a kick that takes
    # a side to the target, 5 here, ends that hand at the deal and the sheet moves on at once)
    target = next_hand(Match.objects.get(pk=match.pk))
    again = dealing.start(fixtures.open_fixture(match, scene["organiser"]))
    first = TableHand.objects.filter(table=again).order_by("number").first()
    assert again.pk != table.pk and first.dealer == target.dealer
    assert first.score_before == list(target.score_before) and first.game_number == target.game.number


def test_a_forfeit_ends_the_match_and_the_table_finishes_saying_why(scene, django_capture_on_commit_callbacks):
    match = scene["match"]
    table = play_hands(dealing.start(fixtures.open_fixture(match, scene["organiser"])), 1)
    with django_capture_on_commit_callbacks(execute=True):
        record_forfeit(match, outcome=Match.FORFEIT_B, user=scene["organiser"])
    table = fresh(table)
    assert table.status == Table.FINISHED and table.deadline_at is None
    assert table.end_reason == "The match is over: the organiser recorded a forfeit — Tigers did not play, Lions won."
    assert clock.due_moves(now=timezone.now() + timedelta(days=1)) == []


def test_a_sheet_changed_behind_the_tables_back_stops_it_cleanly(scene):
    """Not through the services (an admin's edit): the table's next hand finds the match over and finishes, the
    move that ended the hand accepted, instead of refusing that move for ever."""
    match = scene["match"]
    table = play_hands(dealing.start(fixtures.open_fixture(match, scene["organiser"])), 1)
    Match.objects.filter(pk=match.pk).update(outcome=Match.FORFEIT_A, winner="b", status=Match.COMPLETE)
    hands = TableHand.objects.filter(table=table).count()
    table = play_out(table)
    assert table.status == Table.FINISHED and "Lions did not play, Tigers won" in table.end_reason
    last = TableHand.objects.filter(table=table).order_by("-number").first()
    assert TableHand.objects.filter(table=table).count() == hands and last.record and last.stored_hand is None
