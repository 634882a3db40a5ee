"""The public surface of ``games`` for the apps above it (``standings``, ``draw``, ``importer``, ``config``) and
their tests: the operations they call, re-exported from the modules that hold them. Nothing is defined here,
and nothing inside ``games`` imports from here — the app's own modules import each other directly:

- ``games.common``   the error of a scorekeeper's input, sides and forfeits, counts typed in, authors, result
                     versions, the match's lock
- ``games.checks``   the results the rules and the match format allow (pure)
- ``games.scoring``  a hand scored by the engine with the game's context filled in
- ``games.entry``    hands: the next hand, entering, correcting, deleting, undoing
- ``games.results``  game results and match totals entered coarsely, forfeits
- ``games.settle``   settling a match and the backlog, queueing the settle task
- ``games.matches``  creating a match, its scorekeepers and private entry link
- ``games.teams``    team matches: creating, seating the tables, settling, overall totals, forfeits
- ``games.team_seating`` a team match of a competition played online seated by itself when no team has a choice
- ``games.voiding``  a match's results voided to be played again (every hand struck out, a forfeit cleared)

A new caller in another app imports from here; add a name here when another app needs it.
"""

from games.checks import format_winner
from games.common import FORFEIT_WINNER, EntryError, MatchHeldError
from games.entry import correct_hand, enter_hand, next_hand, undo_last_hand
from games.matches import create_match, mark_bot_played, renew_entry_link, revoke_entry_link
from games.results import enter_game_result, record_forfeit, record_match_totals
from games.scoring import FILLED_FIELDS
from games.settle import settle_backlog, settle_match
from games.team_seating import seat_without_choice
from games.teams import create_team_match, record_team_forfeit, record_team_totals, set_team_tables, team_winner
from games.voiding import checked_void_reason, void_results, why_not_voidable

__all__ = [
    "FILLED_FIELDS", "FORFEIT_WINNER", "EntryError", "MatchHeldError",
    "checked_void_reason", "correct_hand", "create_match", "create_team_match", "enter_game_result",
    "enter_hand", "format_winner", "mark_bot_played", "next_hand", "record_forfeit", "record_match_totals",
    "record_team_forfeit", "record_team_totals", "renew_entry_link", "revoke_entry_link", "seat_without_choice",
    "set_team_tables", "settle_backlog", "settle_match", "team_winner", "undo_last_hand", "void_results",
    "why_not_voidable",
]
