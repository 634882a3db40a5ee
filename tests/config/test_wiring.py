"""Every cross-layer listener is connected in one place, ``config.wiring``: the receivers connected to each signal
(the project's own; Django's and other packages' aside) and the option checks registered with
``league.competition_options`` are exactly the listed ones, in order, and each is named in the module's docstring."""

from __future__ import annotations

import weakref

from django.apps import apps
from django.contrib.auth.signals import user_logged_out

from config import wiring
from games.signals import results_changing, results_settled, team_match_decided
from league import competition_options as entries
from league.signals import (
    attention_needed,
    check_ins_changed,
    publication_changed,
    ratings_stale,
    round_clock_changed,
    round_published,
    standings_stale,
)
from standings.signals import standings_refreshed
from tables.signals import event_table_changed, presence_changed, table_changed

PROJECT = ("engine", "league", "games", "standings", "draw", "tables", "live", "notify", "importer", "config")

EXPECTED = {
    "games.signals.results_changing": (results_changing, [
        ("tables.fixtures.end_with_forfeit", "tables.end_with_forfeit"),
        ("live.notices.notify_hands_changed", "live.hands_changed"),
    ]),
    "games.signals.team_match_decided": (team_match_decided, [
        ("tables.fixtures.end_with_team_match", "tables.end_with_team_match"),
    ]),
    "games.signals.results_settled": (results_settled, [
        ("standings.receivers.refresh_as_settled", "standings.refresh_as_settled"),
        ("draw.receivers.draft_next_knockout_round", "draw.draft_next_knockout_round"),
        ("draw.receivers.pair_next_round_when_decided", "draw.pair_next_round_when_decided"),
        ("live.notices.notify_matches_settled", "live.matches_settled"),
        ("notify.receivers.announce_results_settled", "notify.announce_results_settled"),
    ]),
    "league.signals.standings_stale": (standings_stale, [
        ("standings.receivers.refresh_when_stale", "standings.refresh_when_stale"),
    ]),
    "league.signals.ratings_stale": (ratings_stale, [
        ("standings.receivers.rebuild_ratings_when_stale", "standings.rebuild_ratings_when_stale"),
    ]),
    "standings.signals.standings_refreshed": (standings_refreshed, [
        ("live.notices.notify_standings_refreshed", "live.standings_refreshed"),
    ]),
    "league.signals.round_clock_changed": (round_clock_changed, [
        ("live.notices.notify_round_clock_changed", "live.round_clock_changed"),
    ]),
    "league.signals.round_published": (round_published, [
        ("tables.events.open_round_tables", "tables.open_round_tables"),
        ("notify.receivers.announce_round_published", "notify.announce_round_published"),
    ]),
    "league.signals.attention_needed": (attention_needed, [
        ("notify.receivers.tell_attention_needed", "notify.tell_attention_needed"),
    ]),
    "league.signals.check_ins_changed": (check_ins_changed, [
        ("live.notices.notify_check_ins_changed", "live.check_ins_changed"),
    ]),
    "league.signals.publication_changed": (publication_changed, [
        ("live.notices.notify_publication_changed", "live.publication_changed"),
    ]),
    "tables.signals.table_changed": (table_changed, [("tables.live.publish", "tables.live.publish")]),
    "tables.signals.presence_changed": (presence_changed, [
        ("tables.live.announce_presence", "tables.live.announce_presence"),
    ]),
    "tables.signals.event_table_changed": (event_table_changed, [
        ("live.notices.notify_event_table_changed", "live.event_table_changed"),
    ]),
    "django.contrib.auth.signals.user_logged_out": (user_logged_out, [
        ("tables.live.close_user_sockets", "tables.live.close_user_sockets"),
        ("live.notices.close_user_pages", "live.logged_out"),
    ]),
}


def project_receivers(signal) -> list[tuple[str, str]]:
    """The signal's receivers from the project's own packages, as ``(module.name, dispatch_uid)`` in order."""
    found = []
    for (uid, _sender), receiver, *_ in signal.receivers:
        if isinstance(receiver, weakref.ReferenceType):
            receiver = receiver()
        if receiver is None or receiver.__module__.split(".")[0] not in PROJECT:
            continue
        found.append((f"{receiver.__module__}.{receiver.__qualname__}", uid))
    return found


def test_each_signal_has_exactly_the_listeners_wired_in_config():
    for name, (signal, expected) in EXPECTED.items():
        assert project_receivers(signal) == expected, name


def test_the_registered_option_checks_are_the_wired_ones():
    assert [f"{check.__module__}.{check.__qualname__}" for check in entries.OPTION_CHECKS] == \
        ["standings.services.check_standings_options"]
    assert entries.OPTION_CHECKS == wiring.OPTION_CHECKS


def test_the_wiring_lists_every_hook_in_its_docstring_and_connects_once():
    assert len(wiring.HOOKS) == sum(len(expected) for _, expected in EXPECTED.values())
    doc = wiring.__doc__ or ""
    for signal_name, (_, expected) in EXPECTED.items():
        assert signal_name in doc
        for listener, _uid in expected:
            assert listener in doc, listener
    before = {name: project_receivers(signal) for name, (signal, _) in EXPECTED.items()}
    wiring.connect()  # again: each hook by its dispatch_uid, each check once
    assert {name: project_receivers(signal) for name, (signal, _) in EXPECTED.items()} == before
    assert len(entries.OPTION_CHECKS) == 1


def test_the_wiring_runs_from_the_last_installed_app():
    assert list(apps.get_app_configs())[-1].name == "config"
