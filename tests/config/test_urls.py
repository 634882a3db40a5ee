"""Every URL of the site keeps its name and its path as the apps were split by domain and their URLs by audience:
the pages' routes as they were before, each resolved to the same name and reversed to the same path,
and every name of the API."""

from __future__ import annotations

import re

import pytest
from django.urls import get_resolver, resolve, reverse
from django.urls.resolvers import URLPattern, URLResolver

PAGES = [  # (name, route) as they were before the split
    ('match_game_results', 'matches/<int:pk>/games/'),
    ('match_game_result_delete', 'matches/<int:pk>/games/<int:number>/delete/'),
    ('match_match_totals', 'matches/<int:pk>/totals/'),
    ('token_game_results', 'enter/<str:token>/games/'),
    ('token_game_result_delete', 'enter/<str:token>/games/<int:number>/delete/'),
    ('token_match_totals', 'enter/<str:token>/totals/'),
    ('match_forfeit', 'matches/<int:pk>/forfeit/'),
    ('match_print', 'matches/<int:pk>/print/'),
    ('hand_replay', 'matches/<int:pk>/hands/<int:hand_pk>/replay/'),  # a hand's replay
    ('team_match', 'team-matches/<int:pk>/'),
    ('team_match_totals', 'team-matches/<int:pk>/totals/'),
    ('team_matches', 'clubs/<slug:club_slug>/<slug:competition_slug>/team-matches/'),
    ('team_match_new', 'clubs/<slug:club_slug>/<slug:competition_slug>/team-matches/new/'),
    ('match_sheet', 'matches/<int:pk>/'),
    ('match_manage', 'matches/<int:pk>/manage/'),
    ('match_enter', 'matches/<int:pk>/enter/'),
    ('match_enter_record', 'matches/<int:pk>/enter/record/'),
    ('match_undo', 'matches/<int:pk>/enter/undo/'),
    ('match_hand_edit', 'matches/<int:pk>/enter/hands/<int:hand_pk>/edit/'),
    ('match_hand_delete', 'matches/<int:pk>/enter/hands/<int:hand_pk>/delete/'),
    ('token_enter', 'enter/<str:token>/'),
    ('token_enter_record', 'enter/<str:token>/record/'),
    ('token_undo', 'enter/<str:token>/undo/'),
    ('token_hand_edit', 'enter/<str:token>/hands/<int:hand_pk>/edit/'),
    ('token_hand_delete', 'enter/<str:token>/hands/<int:hand_pk>/delete/'),
    ('home', ''),
    ('login', 'accounts/login/'),
    ('logout', 'accounts/logout/'),
    ('account', 'accounts/'),  # the account's page (accounts), and django-allauth's pages below (ALLAUTH)
    ('notification_settings', 'accounts/notifications/'),  # what the site tells the person, and how (notify)
    ('join', 'join/<str:token>/'),  # a club's invitation to its people, and the organisers' pages of them
    ('club_role_invitations', 'clubs/<slug:club_slug>/people/invitations/'),
    ('club_role_invitation', 'clubs/<slug:club_slug>/people/invitations/<int:pk>/'),
    ('competition_fees', 'clubs/<slug:club_slug>/<slug:competition_slug>/fees/'),  # entry fees
    ('competition_entering', 'clubs/<slug:club_slug>/<slug:competition_slug>/enter/'),  # entries by the entrants
    ('competition_entry_requests', 'clubs/<slug:club_slug>/<slug:competition_slug>/entry-requests/'),
    ('competition_check_in', 'clubs/<slug:club_slug>/<slug:competition_slug>/check-in/'),  # check-in on the night
    ('competition_check_in_screen', 'clubs/<slug:club_slug>/<slug:competition_slug>/check-in/screen/'),
    ('venue_check_in', 'check-in/<str:token>/'),
    ('players', 'players/'),
    ('player', 'players/<int:pk>/'),
    ('club_import', 'clubs/<slug:club_slug>/import/'),
    ('club_import_template', 'clubs/<slug:club_slug>/import/<slug:template>.csv'),
    ('competition_standings_csv', 'clubs/<slug:club_slug>/<slug:competition_slug>/standings.csv'),
    ('competition_results_csv', 'clubs/<slug:club_slug>/<slug:competition_slug>/results.csv'),
    ('competition_rounds', 'clubs/<slug:club_slug>/<slug:competition_slug>/rounds/'),
    ('round_detail', 'clubs/<slug:club_slug>/<slug:competition_slug>/rounds/<int:number>/'),
    ('competition_bracket', 'clubs/<slug:club_slug>/<slug:competition_slug>/bracket/'),
    ('round_manage', 'clubs/<slug:club_slug>/<slug:competition_slug>/rounds/<int:number>/manage/'),
    ('round_pairing_status', 'clubs/<slug:club_slug>/<slug:competition_slug>/rounds/<int:number>/pairing-status/'),
    ('competition_create', 'clubs/<slug:club_slug>/competitions/new/'),
    ('competition_edit', 'clubs/<slug:club_slug>/<slug:competition_slug>/setup/'),
    ('competition_publish', 'clubs/<slug:club_slug>/<slug:competition_slug>/publish/'),
    ('competition_entries', 'clubs/<slug:club_slug>/<slug:competition_slug>/entries/'),
    ('team_create', 'clubs/<slug:club_slug>/<slug:competition_slug>/teams/new/'),
    ('team_edit', 'clubs/<slug:club_slug>/<slug:competition_slug>/teams/<int:team_pk>/'),
    ('club', 'clubs/<slug:club_slug>/'),
    ('competition', 'clubs/<slug:club_slug>/<slug:competition_slug>/'),
    ('competition_standings', 'clubs/<slug:club_slug>/<slug:competition_slug>/standings/'),
    # online tables
    ('tables_lobby', 'tables/'),
    ('table', 'tables/<int:pk>/'),
    ('table_start', 'tables/<int:pk>/start/'),
    ('table_rematch', 'tables/<int:pk>/rematch/'),
    ('table_take_seat', 'tables/<int:pk>/seats/<int:number>/take/'),
    ('table_leave_seat', 'tables/<int:pk>/seats/<int:number>/leave/'),
    ('table_add_bot', 'tables/<int:pk>/seats/<int:number>/bot/'),
    ('table_remove_bot', 'tables/<int:pk>/seats/<int:number>/bot/remove/'),
    ('table_replay', 'tables/<int:pk>/hands/<int:number>/replay/'),
    ('match_online', 'matches/<int:pk>/online/'),
    ('match_online_start', 'matches/<int:pk>/online/start/'),
    ('match_online_end', 'matches/<int:pk>/online/end/'),
    ('match_online_give_time', 'matches/<int:pk>/online/give-time/'),
    ('match_online_seat_renew', 'matches/<int:pk>/online/seats/<int:number>/renew/'),
    ('match_online_seat_revoke', 'matches/<int:pk>/online/seats/<int:number>/revoke/'),
    ('match_online_moves', 'matches/<int:pk>/online/moves.csv'),  # every move of a match played online (organisers)
    ('match_online_void', 'matches/<int:pk>/online/void/'),  # void a match played online and play it again
    # a club's season kept by the club
    ('competition_copy', 'clubs/<slug:club_slug>/<slug:competition_slug>/copy/'),
    ('my_matches', 'my/matches/'),
    ('club_create', 'clubs/new/'),
    ('club_people', 'clubs/<slug:club_slug>/people/'),
    ('club_player', 'clubs/<slug:club_slug>/people/<int:pk>/'),
    # a competition at its end: archived or deleted
    ('competition_archive', 'clubs/<slug:club_slug>/<slug:competition_slug>/archive/'),
    ('competition_delete', 'clubs/<slug:club_slug>/<slug:competition_slug>/delete/'),
    ('club_archive', 'clubs/<slug:club_slug>/archive/'),
    ('my_invitations', 'invitations/'),  # invitations between clubs, answered by the club invited or its players
    ('invitation_answer', 'invitations/<int:pk>/answer/'),
    ('invitation_cancel', 'invitations/<int:pk>/cancel/'),  # taken back by the inviting competition's organisers
    ('team_invitation', 'clubs/<slug:club_slug>/<slug:competition_slug>/invitations/team/'),
    ('team', 'clubs/<slug:club_slug>/<slug:competition_slug>/team/<int:team_pk>/'),
    ('competition_fixture_list', 'clubs/<slug:club_slug>/<slug:competition_slug>/fixtures/edit/'),
    ('entry_service_worker', 'entry-sw.js'),
    ('entry_manifest', 'entry.webmanifest'),
    ('match_confirm', 'matches/<int:pk>/confirm/'),  # both sides agree the score: a player's page
    ('token_confirm', 'confirm/<str:token>/'),  # a side's own link
    ('competition_disputes', 'clubs/<slug:club_slug>/<slug:competition_slug>/disputes/'),  # for organisers
]
API_NAMES = [
    'api-root',
    'auth-token',
    'club-detail',
    'club-list',
    'competition-copy-season',
    'competition-detail',
    'competition-entries',
    'competition-invitations',
    'competition-list',
    'competition-matches',
    'competition-reinstate',
    'competition-rounds',
    'competition-standings',
    'competition-withdraw',
    'docs',
    'game-detail',
    'hand-detail',
    'hand-versions',
    'invitation-accept',
    'invitation-cancel',
    'invitation-decline',
    'invitation-detail',
    'invitation-list',
    'match-agreement',  # both sides agree the score: where they stand, confirm, dispute, decide
    'match-confirm-result',
    'match-decide-result',
    'match-delete-game-result',
    'match-dispute-result',
    'match-detail',
    'match-forfeit',
    'match-game-results',
    'match-hands',
    'match-link',
    'match-list',
    'match-moves',  # every move of a match played online, timed (organisers)
    'match-scorekeepers',
    'match-totals',
    'match-undo',
    'match-void',  # void a match played online and play it again (organisers)
    'not-found',
    'partnership-detail',
    'partnership-list',
    'player-detail',
    'player-list',
    'round-byes',
    'round-detail',
    'round-publish',
    'round-remove-bye',
    'round-unpublish',
    'schema',
    'team-match-detail',
    'team-match-forfeit',
    'team-match-list',
    'team-match-tables',
    'team-match-totals',
]
COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"
BUTTONS = [  # (name, route) of the POST-only view of each form and button of the organiser's pages
    ('round_pair', f'{COMPETITION}rounds/<int:number>/pair/'),
    ('round_publish', f'{COMPETITION}rounds/<int:number>/publish/'),
    ('round_publish_with_competition', f'{COMPETITION}rounds/<int:number>/publish-with-competition/'),
    ('round_unpublish', f'{COMPETITION}rounds/<int:number>/unpublish/'),
    ('round_swap', f'{COMPETITION}rounds/<int:number>/swap/'),
    ('round_edit_match', f'{COMPETITION}rounds/<int:number>/edit-match/'),
    ('round_sit_out', f'{COMPETITION}rounds/<int:number>/sit-out/'),
    ('round_pair_byes', f'{COMPETITION}rounds/<int:number>/pair-byes/'),
    ('fixture_list_add_round', f'{COMPETITION}fixtures/rounds/new/'),
    ('fixture_list_edit_round', f'{COMPETITION}fixtures/rounds/<int:number>/edit/'),
    ('fixture_list_publish_round', f'{COMPETITION}fixtures/rounds/<int:number>/publish/'),
    ('fixture_list_unpublish_round', f'{COMPETITION}fixtures/rounds/<int:number>/unpublish/'),
    ('fixture_list_add_fixture', f'{COMPETITION}fixtures/new/'),
    ('fixture_list_remove_fixture', f'{COMPETITION}fixtures/<int:fixture_pk>/remove/'),
    ('fixture_list_add_bye', f'{COMPETITION}fixtures/byes/new/'),
    ('fixture_list_remove_bye', f'{COMPETITION}fixtures/byes/<int:bye_pk>/remove/'),
    ('competition_entry_add', f'{COMPETITION}entries/new/'),
    ('competition_entries_arrange', f'{COMPETITION}entries/arrange/'),
    ('competition_entry_withdraw', f'{COMPETITION}entries/<int:entry_pk>/withdraw/'),
    ('competition_entry_reinstate', f'{COMPETITION}entries/<int:entry_pk>/reinstate/'),
    ('competition_entry_remove', f'{COMPETITION}entries/<int:entry_pk>/remove/'),
    ('club_save', 'clubs/<slug:club_slug>/people/club/'),
    ('club_organiser_add', 'clubs/<slug:club_slug>/people/organisers/new/'),
    ('club_organiser_remove', 'clubs/<slug:club_slug>/people/organisers/<int:user_pk>/remove/'),
    ('club_player_add', 'clubs/<slug:club_slug>/people/new/'),
    ('club_player_save', 'clubs/<slug:club_slug>/people/<int:pk>/save/'),
    ('club_player_link_login', 'clubs/<slug:club_slug>/people/<int:pk>/login/'),
    ('club_player_merge_plan', 'clubs/<slug:club_slug>/people/<int:pk>/merge/'),
    ('club_player_merge', 'clubs/<slug:club_slug>/people/<int:pk>/merge/confirm/'),
    ('club_player_delete', 'clubs/<slug:club_slug>/people/<int:pk>/delete/'),
    ('match_scorekeeper_add', 'matches/<int:pk>/manage/scorekeepers/new/'),
    ('match_scorekeeper_remove', 'matches/<int:pk>/manage/scorekeepers/<int:user_pk>/remove/'),
    ('match_link_revoke', 'matches/<int:pk>/manage/link/revoke/'),
    ('match_link_renew', 'matches/<int:pk>/manage/link/renew/'),
    ('match_forfeit_clear', 'matches/<int:pk>/forfeit/clear/'),
    ('team_match_totals_clear', 'team-matches/<int:pk>/totals/clear/'),
    ('match_match_totals_clear', 'matches/<int:pk>/totals/clear/'),
    ('token_match_totals_clear', 'enter/<str:token>/totals/clear/'),
    ('club_role_invitation_revoke', 'clubs/<slug:club_slug>/people/invitations/<int:pk>/revoke/'),
    ('competition_entry_fee', f'{COMPETITION}fees/<int:entry_pk>/<str:state>/'),
    ('competition_entering_ask', f'{COMPETITION}enter/ask/'),
    ('competition_entering_confirm', f'{COMPETITION}enter/<int:request_pk>/confirm/'),
    ('competition_entering_decline', f'{COMPETITION}enter/<int:request_pk>/decline/'),
    ('competition_entering_withdraw', f'{COMPETITION}enter/<int:request_pk>/withdraw/'),
    ('competition_entry_request_approve', f'{COMPETITION}entry-requests/<int:request_pk>/approve/'),
    ('competition_entry_request_refuse', f'{COMPETITION}entry-requests/<int:request_pk>/refuse/'),
    ('competition_entry_request_withdraw', f'{COMPETITION}entry-requests/<int:request_pk>/withdraw/'),
    ('competition_check_in_close', f'{COMPETITION}check-in/close/'),
    ('competition_check_in_drop', f'{COMPETITION}check-in/drop/'),
    ('competition_check_in_tap', f'{COMPETITION}check-in/<int:entry_pk>/in/'),
    ('competition_check_in_untap', f'{COMPETITION}check-in/<int:entry_pk>/out/'),
    ('competition_check_in_myself', f'{COMPETITION}check-in/me/'),
    ('competition_calendar', 'clubs/<slug:club_slug>/<slug:competition_slug>/calendar.ics'),  # iCal feeds
    ('player_calendar', 'players/<int:pk>/calendar.ics'),
    ('competition_display', 'clubs/<slug:club_slug>/<slug:competition_slug>/display/'),  # the big screen
    ('competition_live', 'clubs/<slug:club_slug>/<slug:competition_slug>/live/'),  # an event played online
    ('round_clock', 'clubs/<slug:club_slug>/<slug:competition_slug>/rounds/<int:number>/clock/'),  # the clock
    ('round_table_cards', 'clubs/<slug:club_slug>/<slug:competition_slug>/rounds/<int:number>/cards/'),  # to print
    ('club_tables', 'clubs/<slug:club_slug>/tables/'),  # the venue's tables
    ('club_table_save', 'clubs/<slug:club_slug>/tables/<int:number>/'),
    ('round_move_table', f'{COMPETITION}rounds/<int:number>/move-table/'),
    ('round_clock_set', f'{COMPETITION}rounds/<int:number>/clock/set/'),
    ('round_clock_start', f'{COMPETITION}rounds/<int:number>/clock/start/'),
    ('round_clock_pause', f'{COMPETITION}rounds/<int:number>/clock/pause/'),
    ('round_clock_resume', f'{COMPETITION}rounds/<int:number>/clock/resume/'),
    ('round_clock_extend', f'{COMPETITION}rounds/<int:number>/clock/extend/'),
    ('round_clock_reset', f'{COMPETITION}rounds/<int:number>/clock/reset/'),
    ('qr_code', 'qr.svg'),  # a share box's QR code
    ('player_claim', 'players/<int:pk>/claim/'),  # a person asks to be a player record; the organiser answers
    ('club_claim_approve', 'clubs/<slug:club_slug>/people/claims/<int:pk>/approve/'),
    ('club_claim_refuse', 'clubs/<slug:club_slug>/people/claims/<int:pk>/refuse/'),
    ('push_subscribe', 'accounts/notifications/phones/'),  # a phone notified, or no longer (static/js/push.js)
    ('push_unsubscribe', 'accounts/notifications/phones/forget/'),
    ('push_subscription_remove', 'accounts/notifications/phones/<int:pk>/remove/'),
    ('match_decide', 'matches/<int:pk>/decide/'),  # an organiser decides a disputed result
    ('healthz', 'healthz'),  # the health endpoints (ops.health)
    ('readyz', 'readyz'),
]
# django-allauth's pages under accounts/, by their own names (its login and logout paths are the site's own pages)
ALLAUTH = {"account_login", "account_logout", "account_inactive", "account_signup", "account_reauthenticate",
           "account_request_reauthentication_code", "account_confirm_reauthentication_code", "account_email",
           "account_email_verification_sent", "account_change_password", "account_set_password",
           "account_reset_password", "account_confirm_login_code", "account_confirm_email",
           "account_reset_password_from_key_done", "account_reset_password_from_key", "account_reset_password_done",
           "usersessions_list"}
SAMPLE = {"club_slug": "oval", "competition_slug": "pennant", "pk": 7, "number": 3, "hand_pk": 11, "team_pk": 5,
          "token": "tok3n", "template": "players", "state": "paid", "user_pk": 13, "entry_pk": 17, "fixture_pk": 19,
          "bye_pk": 23, "request_pk": 29}
PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


def sample_path(route: str) -> tuple[str, dict]:
    kwargs = {name: SAMPLE[name] for name in PARAMETER.findall(route)}
    return "/" + PARAMETER.sub(lambda m: str(SAMPLE[m.group(1)]), route), kwargs


@pytest.mark.parametrize(("name", "route"), PAGES + BUTTONS, ids=[name for name, _ in PAGES + BUTTONS])
def test_every_page_url_resolves_and_reverses_as_before(name: str, route: str) -> None:
    path, kwargs = sample_path(route)
    assert resolve(path).url_name == name
    assert reverse(name, kwargs=kwargs) == path


def _names(patterns, namespace: str = "") -> list[tuple[str, str]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _names(pattern.url_patterns, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            found.append((namespace, pattern.name))
    return found


def test_no_page_url_came_or_went_and_the_api_keeps_every_name() -> None:
    names = _names(get_resolver().url_patterns)
    assert {name for namespace, name in names if namespace == ""} == {name for name, _ in PAGES + BUTTONS} | ALLAUTH
    assert {name for namespace, name in names if namespace == "api"} == set(API_NAMES)
