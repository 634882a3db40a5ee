"""Every hook by which a lower layer calls into an upper one, connected in one place (``WiringConfig.ready``).

A lower layer never imports upward: it sends a signal, or keeps a registry, and the layers above listen. Which
listener answers which hook is decided here, in the top layer, and nowhere else — no app's ``ready()`` connects
anything. ``tests/config/test_wiring.py`` lists the receivers of each signal and the registered option checks and
compares them with ``HOOKS`` and ``OPTION_CHECKS``.

Option checks (``league.competition_options.register_option_check``):

- ``standings.services.check_standings_options`` — a competition's tiebreak order and standings options are
  checked with its other options (``league.entries.check_competition``), by the app that knows the metrics.

Signals (sender → listener, ``dispatch_uid``; a signal's listeners run in the order listed):

- ``games.signals.results_changing`` (inside a change of a match's results, once ``games.common.check_not_held``
  let it through the online table's hold, ``Match.held_by_table``):
  - ``tables.fixtures.end_with_forfeit`` — a forfeit on a match an online table holds: the table finishes after
    the commit, saying why.
  - ``live.notices.notify_hands_changed`` — after the commit, the match's open scoresheets render again.
- ``games.signals.team_match_decided`` → ``tables.fixtures.end_with_team_match`` — a team match decided at its
  tables (a race won at one of them): its other online tables still open stop there, after the commit.
- ``games.signals.results_settled`` (in the settle task, which fails and retries if a listener fails):
  - ``standings.receivers.refresh_as_settled`` — the standings refresh in the same task (first: the draw's
    knockout draft reads the groups' standings).
  - ``draw.receivers.draft_next_knockout_round`` — a knockout's next round drafted once a tie is decided; a round
    published tie by tie (``draw.tie_by_tie``) takes each tie as soon as both its feeders are decided.
  - ``draw.receivers.pair_next_round_when_decided`` — a competition played online: its next round paired once the
    last match of its round is decided (then published, or the organisers told it is ready, as they chose).
  - ``live.notices.notify_matches_settled`` — the recomputed matches' scoresheets render again.
  - ``notify.receivers.announce_results_settled`` — the players of a match complete now are told its result (or
    that it changed), by a task.
- ``league.signals.standings_stale`` → ``standings.receivers.refresh_when_stale`` — refresh in a task.
- ``league.signals.ratings_stale`` → ``standings.receivers.rebuild_ratings_when_stale`` — one debounced rebuild.
- ``standings.signals.standings_refreshed`` → ``live.notices.notify_standings_refreshed`` — the competition's pages.
- ``league.signals.publication_changed`` → ``live.notices.notify_publication_changed`` — every live page of it.
- ``league.signals.check_ins_changed`` → ``live.notices.notify_check_ins_changed`` — the check-in lists.
- ``league.signals.round_clock_changed`` → ``live.notices.notify_round_clock_changed`` — every page of it.
- ``league.signals.round_published``:
  - ``tables.events.open_round_tables`` — a competition played online: each match of the round gets its online
    table, seats its players', with the time it starts by itself (first: the players' notice points at it).
  - ``notify.receivers.announce_round_published`` — each player of the round is told their table, opponents and
    time, by a task.
- ``league.signals.attention_needed`` → ``notify.receivers.tell_attention_needed`` — a partner to confirm, a claim
  to answer or answered: the person's phones are told too (the e-mail is the action's own).
- ``tables.signals.table_changed`` → ``tables.live.publish`` — each seat's frame and the spectators' after every
  committed change of a table.
- ``tables.signals.presence_changed`` → ``tables.live.announce_presence`` — a seat's player went away or came back.
- ``tables.signals.event_table_changed`` → ``live.notices.notify_event_table_changed`` — a table of a competition
  played online changed: the event's page (its tables, clocks and who is there) renders again.
- ``django.contrib.auth.signals.user_logged_out``:
  - ``tables.live.close_user_sockets`` — the user's table sockets close (their seats stay theirs).
  - ``live.notices.close_user_pages`` — the user's own live pages close.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.dispatch import Signal

from draw import receivers as draw_receivers
from games.signals import results_changing, results_settled, team_match_decided
from league.competition_options import register_option_check
from league.signals import (
    attention_needed,
    check_ins_changed,
    publication_changed,
    ratings_stale,
    round_clock_changed,
    round_published,
    standings_stale,
)
from live import notices
from notify import receivers as notify_receivers
from standings import receivers as standings_receivers
from standings.services import check_standings_options
from standings.signals import standings_refreshed
from tables import events, fixtures
from tables import live as table_live
from tables.signals import event_table_changed, presence_changed, table_changed

HOOKS: list[tuple[Signal, Callable[..., Any], str]] = [
    (results_changing, fixtures.end_with_forfeit, "tables.end_with_forfeit"),
    (results_changing, notices.notify_hands_changed, "live.hands_changed"),
    (team_match_decided, fixtures.end_with_team_match, "tables.end_with_team_match"),
    (results_settled, standings_receivers.refresh_as_settled, "standings.refresh_as_settled"),
    (results_settled, draw_receivers.draft_next_knockout_round, "draw.draft_next_knockout_round"),
    (results_settled, draw_receivers.pair_next_round_when_decided, "draw.pair_next_round_when_decided"),
    (results_settled, notices.notify_matches_settled, "live.matches_settled"),
    (results_settled, notify_receivers.announce_results_settled, "notify.announce_results_settled"),
    (standings_stale, standings_receivers.refresh_when_stale, "standings.refresh_when_stale"),
    (ratings_stale, standings_receivers.rebuild_ratings_when_stale, "standings.rebuild_ratings_when_stale"),
    (standings_refreshed, notices.notify_standings_refreshed, "live.standings_refreshed"),
    (publication_changed, notices.notify_publication_changed, "live.publication_changed"),
    (check_ins_changed, notices.notify_check_ins_changed, "live.check_ins_changed"),
    (round_clock_changed, notices.notify_round_clock_changed, "live.round_clock_changed"),
    (round_published, events.open_round_tables, "tables.open_round_tables"),
    (round_published, notify_receivers.announce_round_published, "notify.announce_round_published"),
    (attention_needed, notify_receivers.tell_attention_needed, "notify.tell_attention_needed"),
    (table_changed, table_live.publish, "tables.live.publish"),
    (presence_changed, table_live.announce_presence, "tables.live.announce_presence"),
    (event_table_changed, notices.notify_event_table_changed, "live.event_table_changed"),
    (user_logged_out, table_live.close_user_sockets, "tables.live.close_user_sockets"),
    (user_logged_out, notices.close_user_pages, "live.logged_out"),
]
"""Every signal's listener with its ``dispatch_uid``, in the order connected (see the module's docstring)."""

OPTION_CHECKS: list[Callable[[Callable[[str], Any]], None]] = [check_standings_options]
"""The checks registered with ``league.competition_options.register_option_check``."""


def connect() -> None:
    """Connect every hook; connecting twice connects once (each signal by its ``dispatch_uid``, each check once)."""
    for signal, listener, uid in HOOKS:
        signal.connect(listener, dispatch_uid=uid)
    for check in OPTION_CHECKS:
        register_option_check(check)
