"""What may still change in a round: whether it is being paired, and what has been entered in it."""

from __future__ import annotations

from django.db.models import Q

from draw.models import Round
from games.models import HAND_LEVEL, Game, Hand, Match, TeamMatch

BUSY = (Round.QUEUED, Round.RUNNING)


def results_entered(round_: Round) -> str:
    """Why nothing in the round may change any more ('' while no hand or result has been entered in it)."""
    hands = Hand.objects.filter(game__match__round=round_).count()
    if hands:
        return f"{hands} hand{'s' if hands != 1 else ''} entered in {round_}"
    game = (Game.objects.filter(match__round=round_).filter(Q(entered=True) | ~Q(winner="") | Q(hands_counted__gt=0))
            .select_related("match").first())
    if game is not None:
        return f"a game result of {game.match} was entered"
    match = Match.objects.filter(round=round_).filter(started_match()).first()
    if match is not None:
        if match.outcome != Match.PLAYED:
            return f"a forfeit was recorded for {match}"
        return f"a result of {match} was entered"
    team_match = TeamMatch.objects.filter(round=round_).filter(started_team_match()).first()
    if team_match is not None:
        return f"a result of {team_match} was entered"
    return ""


def started_match() -> Q:
    """``Match`` rows with something entered: a result, a forfeit, totals, or a status past scheduled."""
    return (Q(outcome__in=[Match.FORFEIT_A, Match.FORFEIT_B, Match.DOUBLE_FORFEIT]) | ~Q(status=Match.SCHEDULED)
            | Q(games_a__gt=0) | Q(games_b__gt=0) | Q(chalks_a__gt=0) | Q(chalks_b__gt=0)
            | Q(hang_jacks_a__gt=0) | Q(hang_jacks_b__gt=0) | ~Q(result_level=HAND_LEVEL))


def started_team_match() -> Q:
    """``TeamMatch`` rows with a result entered (overall totals, a forfeit, or a status past scheduled)."""
    return (~Q(status=TeamMatch.SCHEDULED) | Q(bullseyes_a__gt=0) | Q(bullseyes_b__gt=0)
            | ~Q(outcome__in=["", "played"]))


def fixture_results_entered(fixture: Match | TeamMatch) -> str:
    """Why the match (or team match, with its tables) may not be taken off its round: '' while nothing has been
    entered in it."""
    if isinstance(fixture, TeamMatch):
        if TeamMatch.objects.filter(pk=fixture.pk).filter(started_team_match()).exists():
            return f"a result of {fixture} was entered"
        matches = Match.objects.filter(team_match=fixture)
    else:
        matches = Match.objects.filter(pk=fixture.pk)
    entered_game = Q(entered=True) | ~Q(winner="") | Q(hands_counted__gt=0)
    if (Hand.objects.filter(game__match__in=matches).exists()
            or Game.objects.filter(entered_game, match__in=matches).exists()
            or matches.filter(started_match()).exists()):
        return f"a result of {fixture} was entered"
    return ""
