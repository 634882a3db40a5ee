"""Results entered coarser than hand by hand, and forfeits.

A club keeps a match's result hand by hand (``games.entry``), game by game (each game's winner and hang jacks,
its chalks when known), or only as the match's totals; a forfeit (a no-show) completes a match whatever its
level. A match is kept at one level: entering at another is refused until the first is cleared
(``check_level``). Each change is kept as a ``ResultVersion`` with who made it and why
(``games.common.record_version``, also logged to ``games.results``), and bumps the match's version like a hand
does, so that the settle task carries it to the match's result.
"""

from __future__ import annotations

from django.db import transaction

from games.checks import check_format_totals, check_game_result, check_match_totals, format_winner
from games.choices import ResultAction
from games.common import (
    FORFEIT_WINNER,
    FORFEITS,
    EntryError,
    author_name,
    chalk_pair,
    check_not_held,
    lock_match,
    record_version,
    side_letter,
    whole_number,
)
from games.models import GAME_LEVEL, HAND_LEVEL, MATCH_LEVEL, SIDE_A, SIDE_B, Game, Hand, Match, TeamMatch
from games.settle import mark_changed
from games.team_checks import check_table_games, check_table_totals

LEVEL_NAMES: dict[str, str] = {HAND_LEVEL: "hand by hand", GAME_LEVEL: "as game results",
                               MATCH_LEVEL: "as match totals only"}
LEVEL_ENTERED: dict[str, str] = {HAND_LEVEL: "hands are entered", GAME_LEVEL: "game results are entered",
                                 MATCH_LEVEL: "match totals are recorded"}
TOTALS_FIELDS = ("result_level", "games_a", "games_b", "hang_jacks_a", "hang_jacks_b", "chalks_a", "chalks_b",
                 "chalks_known", "winner")


# ----------------------------------------------------------------------------- what a match takes
def check_level(match: Match, level: str) -> None:
    """Refuse to enter a result at ``level`` into a match kept at another level, or recorded as a forfeit."""
    if match.outcome != Match.PLAYED:
        raise EntryError("match", f"the match was recorded as a forfeit ({match.get_outcome_display().lower()}): "
                                  "clear the forfeit first")
    current = match.result_level
    if level != HAND_LEVEL and _has_hands(match):
        current = HAND_LEVEL
    elif current in (level, HAND_LEVEL) or not _has_result_at(match, current):
        return
    raise EntryError("match", f"{LEVEL_ENTERED[current]} for this match: a match is kept at one level, so it "
                              f"cannot also be entered {LEVEL_NAMES[level]} — clear what was entered first")


def why_closed(match: Match) -> str:
    """Why the match takes no more results, worded for the scorekeeper: a forfeit, the team match or the table's
    games are over, or the match is won."""
    if match.outcome != Match.PLAYED:
        return f"the match was recorded as a forfeit ({match.get_outcome_display().lower()})"
    team = match.team_match
    if team is not None:
        if team.status == TeamMatch.COMPLETE:
            return f"the team match {team} is over"
        return f"table {match.table_number} has played its {team.games_per_table} games"
    return f"the match is over: {match.side_name(match.winner)} won it"


def _has_hands(match: Match) -> bool:
    return Hand.objects.filter(game__match=match, deleted=False).exists()


def _has_result_at(match: Match, level: str) -> bool:
    if level == HAND_LEVEL:
        return _has_hands(match)
    if level == GAME_LEVEL:
        return match.games.filter(entered=True).exists()
    return True


# ----------------------------------------------------------------------------- game by game
def enter_game_result(match: Match, *, number: int, winner: str, hang_jacks_a: int = 0, hang_jacks_b: int = 0,
                      score_a: int | None = None, score_b: int | None = None, user=None, author_label: str = "",
                      reason: str = "") -> Game:
    """Enter (or correct) game ``number`` of the match as a result: its winner, each side's hang jacks and,
    when the club kept them, its final chalks (``scores_known`` is False without them). The games are entered
    in order (1, 2, …) and none after the match is decided by its format; at a table of a team match, none after
    the race is won (race) or after the table's games (fixed). The match's level becomes ``game``."""
    number = whole_number("number", number)
    if number < 1:
        raise EntryError("number", "games are numbered from 1")
    winner = side_letter("winner", winner)
    hang = {SIDE_A: whole_number("hang_jacks_a", hang_jacks_a), SIDE_B: whole_number("hang_jacks_b", hang_jacks_b)}
    score_a, score_b = chalk_pair("score_a", score_a, "score_b", score_b)
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(match)
        check_not_held(match, "game", user=user)
        check_level(match, GAME_LEVEL)
        check_game_result(match.competition.engine_ruleset(), winner=winner, hang_jacks_a=hang[SIDE_A],
                          hang_jacks_b=hang[SIDE_B], score_a=score_a, score_b=score_b)
        correcting = _check_game_order(match, number, winner)
        Game.objects.filter(match=match, entered=False, hands__isnull=True).exclude(number=number).delete()
        game, _ = Game.objects.update_or_create(match=match, number=number, defaults={
            "entered": True, "winner": winner, "score_a": score_a or 0, "score_b": score_b or 0,
            "scores_known": score_a is not None, "hang_jacks_a": hang[SIDE_A], "hang_jacks_b": hang[SIDE_B],
            "hands_counted": 0})
        match.result_level = GAME_LEVEL
        mark_changed(match, "result_level")
        action = ResultAction.GAME_CORRECTED if correcting else ResultAction.GAME_ENTERED
        record_version(match=match, action=action, user=user, label=label, reason=reason,
                       data={"game": number, "winner": winner, "hang_jacks": hang,
                             "chalks": {SIDE_A: score_a, SIDE_B: score_b}})
    return game


def _check_game_order(match: Match, number: int, winner: str) -> bool:
    """Game ``number`` won by ``winner`` may be entered now: it is the next game, or corrects an entered one, and
    no game follows the one that decided the match (a table: that fits its team match). True when correcting."""
    games = {game.number: game for game in match.games.all()}
    entered = sorted(n for n, game in games.items() if game.entered)
    correcting = number in entered
    if not correcting and number != len(entered) + 1:
        raise EntryError("number", f"the next game of this match is game {len(entered) + 1}, not {number}")
    winners = [winner if n == number else games[n].winner for n in sorted({*entered, number})]
    if match.team_match_id is not None:
        check_table_games(match, winners, correcting=correcting)
        return correcting
    decided = _decided_after(match, winners)
    if decided is not None:
        name = match.side_name(winners[decided - 1])
        raise EntryError("number" if not correcting else "winner",
                         f"{name} won the match with game {decided}: there is no game {decided + 1} "
                         + ("(delete the games after it first)" if correcting else ""))
    return correcting


def _decided_after(match: Match, winners: list[str]) -> int | None:
    """The game after which the match was decided under the format, if a game follows it."""
    wins: dict[str, int] = {SIDE_A: 0, SIDE_B: 0}
    for number, winner in enumerate(winners, start=1):
        wins[winner] += 1
        if format_winner(match.competition, wins[SIDE_A], wins[SIDE_B]) and number < len(winners):
            return number
    return None


def delete_game_result(match: Match, *, number: int, reason: str, user=None, author_label: str = "") -> None:
    """Delete an entered game (the last one: the games stay numbered 1, 2, …). When none is left the match
    can be entered at any level again."""
    if not reason or not str(reason).strip():
        raise EntryError("reason", "say why the game is deleted")
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(match)
        check_not_held(match, "game", user=user)
        if match.outcome != Match.PLAYED:
            raise EntryError("match", why_closed(match))
        entered = sorted(match.games.filter(entered=True).values_list("number", flat=True))
        if number not in entered:
            raise EntryError("number", f"game {number} was not entered as a game result")
        if number != entered[-1]:
            raise EntryError("number", f"delete game {entered[-1]} first: games are deleted from the last one")
        match.games.filter(number=number).delete()
        if len(entered) == 1:
            match.result_level = HAND_LEVEL
        mark_changed(match, "result_level")
        record_version(match=match, action=ResultAction.GAME_DELETED, user=user, label=label, reason=reason,
                       data={"game": number})


# ----------------------------------------------------------------------------- match totals
def record_match_totals(match: Match, *, games_a: int, games_b: int, hang_jacks_a: int = 0, hang_jacks_b: int = 0,
                        chalks_a: int | None = None, chalks_b: int | None = None, user=None,
                        author_label: str = "", reason: str = "") -> Match:
    """Record only the match's totals: games won (bullseyes) and hang jacks per side, and the chalks over all
    games when known (``chalks_known`` is False without them). The games must be a finished result under the
    competition's format (best of 3: 2–0 or 2–1; first to N: N to fewer; a single game: 1–0) and the winner is
    derived from them. At a table of a team match: the table's games (fixed: all its games; race: the team's
    bullseyes may not pass the target). The match's level becomes ``match``; recording again corrects it."""
    games: dict[str, int] = {SIDE_A: whole_number("games_a", games_a), SIDE_B: whole_number("games_b", games_b)}
    hang: dict[str, int] = {SIDE_A: whole_number("hang_jacks_a", hang_jacks_a),
                            SIDE_B: whole_number("hang_jacks_b", hang_jacks_b)}
    chalks_a, chalks_b = chalk_pair("chalks_a", chalks_a, "chalks_b", chalks_b)
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(match)
        check_not_held(match, "totals", user=user)
        check_level(match, MATCH_LEVEL)
        if match.team_match_id is not None:
            check_table_totals(match, games[SIDE_A], games[SIDE_B])
        else:
            check_format_totals(match.competition, games[SIDE_A], games[SIDE_B])
        check_match_totals(match.competition.engine_ruleset(), games_a=games[SIDE_A], games_b=games[SIDE_B],
                           hang_jacks_a=hang[SIDE_A], hang_jacks_b=hang[SIDE_B], chalks_a=chalks_a, chalks_b=chalks_b)
        match.games.filter(entered=False, hands__isnull=True).delete()
        _set_totals(match, games, hang, (chalks_a, chalks_b))
        match.result_level = MATCH_LEVEL
        if match.team_match_id is None:  # known at once (the settle task keeps it); a table waits for its team
            match.winner = format_winner(match.competition, games[SIDE_A], games[SIDE_B])
            match.status = Match.COMPLETE
        mark_changed(match, *TOTALS_FIELDS)
        record_version(match=match, action=ResultAction.TOTALS_RECORDED, user=user, label=label, reason=reason,
                       data={"games": games, "hang_jacks": hang, "chalks": {SIDE_A: chalks_a, SIDE_B: chalks_b}})
    return match


def _set_totals(match: Match, games: dict[str, int], hang: dict[str, int],
                chalks: tuple[int | None, int | None]) -> None:
    """The match's totals as recorded; chalks left out are stored as 0 and ``chalks_known`` False."""
    match.games_a, match.games_b = games[SIDE_A], games[SIDE_B]
    match.hang_jacks_a, match.hang_jacks_b = hang[SIDE_A], hang[SIDE_B]
    match.chalks_a, match.chalks_b = chalks[0] or 0, chalks[1] or 0
    match.chalks_known = chalks[0] is not None


def clear_entered_result(match: Match, *, user=None, author_label: str = "", reason: str = "") -> Match:
    """Clear the game results or match totals entered for a match: it is back to hand by hand, unplayed."""
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(match)
        check_not_held(match, "totals", user=user)
        if match.result_level == HAND_LEVEL:
            raise EntryError("match", "no game results or match totals are entered for this match")
        match.games.filter(entered=True).delete()
        match.result_level = HAND_LEVEL
        _set_totals(match, {SIDE_A: 0, SIDE_B: 0}, {SIDE_A: 0, SIDE_B: 0}, (0, 0))
        match.winner = ""
        match.status = Match.SCHEDULED
        mark_changed(match, *TOTALS_FIELDS)
        record_version(match=match, action=ResultAction.RESULT_CLEARED, user=user, label=label, reason=reason)
    return match


# ----------------------------------------------------------------------------- forfeits
def record_forfeit(match: Match, *, outcome: str, user=None, author_label: str = "") -> Match:
    """A no-show: ``forfeit_a`` (side A did not play: side B wins), ``forfeit_b``, or ``double_forfeit``
    (neither played: nobody wins). The match is complete; what was entered stays on the sheet. For organisers
    (the pages and the API check it). A table of a team match: forfeit the team match instead."""
    if outcome not in FORFEITS:
        raise EntryError("outcome", f"must be one of {', '.join(FORFEITS)}, got {outcome!r}")
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(match)
        if match.team_match_id is not None:
            raise EntryError("match", "this is a table of a team match: record the team match's forfeit instead")
        check_not_held(match, "forfeit", user=user)
        match.outcome = outcome
        match.winner, match.status = FORFEIT_WINNER[outcome], Match.COMPLETE  # known at once; the settle keeps it
        mark_changed(match, "outcome", "winner")
        record_version(match=match, action=ResultAction.FORFEIT_RECORDED, user=user, label=label,
                       data={"outcome": outcome})
    return match


def clear_forfeit(match: Match, *, user=None, author_label: str = "") -> Match:
    """Undo a forfeit: the match's result is what was entered again."""
    label = author_name(user, author_label)
    with transaction.atomic():
        match = lock_match(match)
        if match.outcome == Match.PLAYED:
            raise EntryError("outcome", "the match is not recorded as a forfeit")
        if match.team_match_id is not None:
            raise EntryError("match", "this is a table of a team match: clear the team match's forfeit instead")
        check_not_held(match, "forfeit cleared", user=user)
        match.outcome = Match.PLAYED
        match.status = Match.IN_PROGRESS
        mark_changed(match, "outcome")
        record_version(match=match, action=ResultAction.FORFEIT_CLEARED, user=user, label=label)
    return match
