"""A league fixture played online: opened by its scorekeeper, seats for the partnerships' players, the match's
format game after game, every hand stored through ``games``' entry service — so the match comes out exactly as
the same hands entered by a scorekeeper."""

from __future__ import annotations

import pytest

from games.models import Hand, Match
from games.services import enter_hand, next_hand, settle_match
from league.models import Competition
from tables import services
from tables.models import TableHand
from tables.services import TableError
from tests.factories import make_match, make_scene, make_user
from tests.tables.helpers import play_out

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
        services.open_fixture(match, users[0])
    table = services.open_fixture(match, scene["scorekeeper"])
    assert services.open_fixture(match, scene["organiser"]) == table  # one open table a match
    assert [services.seat_of_user(table, user) for user in users] == list(range(players))
    with pytest.raises(TableError, match="belong to the partnerships' players"):
        services.take_seat(table, 0, make_user())
    table = play_out(services.start(table))  # nobody moves: the clock plays every seat
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
        services.open_fixture(scene["match"], scene["organiser"])
