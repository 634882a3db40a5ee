"""What ``games`` announces to the layers above it (``league.signals`` has the ones it shares with ``league``)."""

from __future__ import annotations

from django.dispatch import Signal

results_settled = Signal()
"""``competition_id``, ``wanted``, ``matches``: the settle task settled the competition's results up to results-clock
version ``wanted``, recomputing ``matches`` (their ids). Sent inside the task, which fails if a listener fails (and
is then retried): the standings refresh listens and runs in the same task, so a settled burst costs one refresh."""

results_changing = Signal()
"""``match``, ``action``, ``user``, ``holder``: a result of ``match`` is about to change (``action``: ``hand``,
``game``, ``totals``, ``forfeit``, ``forfeit cleared``), sent inside the change's transaction with the match locked,
once ``games.common.check_not_held`` has let it through (an online table's hold is ``Match.held_by_table``, checked
there). A receiver acts on the change after the commit (``transaction.on_commit``); it never refuses it."""

team_match_decided = Signal()
"""``team_match_id``, ``match_ids``: a team match was decided at its tables (a race won at one of them, the last
game of a fixed one played), committed; ``match_ids``: its tables, complete with it. A race stops every table where
it is won: a table still playing plays no more (its games would not count). Sent after the commit of the settle
that decided it; a forfeit is told by ``results_changing`` instead, table by table."""
