"""The organiser's pages: create and edit a competition, publish it, its entries and teams; the fixture list of
one whose fixtures are set by hand; a round's page (review the draft), each of its buttons (pair, edit, publish)
on a URL of its own, and its pairing status (JSON)."""

from django.urls import path

from draw import views, views_fixtures, views_lifecycle, views_setup

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path("clubs/<slug:club_slug>/competitions/new/", views_setup.competition_create, name="competition_create"),
    path(f"{COMPETITION}setup/", views_setup.competition_edit, name="competition_edit"),
    path(f"{COMPETITION}publish/", views_setup.competition_publish, name="competition_publish"),
    path(f"{COMPETITION}copy/", views_setup.competition_copy, name="competition_copy"),
    path(f"{COMPETITION}archive/", views_lifecycle.competition_archive, name="competition_archive"),
    path(f"{COMPETITION}delete/", views_lifecycle.competition_delete, name="competition_delete"),
    path(f"{COMPETITION}entries/", views_setup.competition_entries, name="competition_entries"),
    path(f"{COMPETITION}entries/new/", views_setup.entry_add, name="competition_entry_add"),
    path(f"{COMPETITION}entries/arrange/", views_setup.entries_arrange, name="competition_entries_arrange"),
    *[path(f"{COMPETITION}entries/<int:entry_pk>/{route}/", view, name=name) for route, view, name in (
        ("withdraw", views_setup.entry_withdraw, "competition_entry_withdraw"),
        ("reinstate", views_setup.entry_reinstate, "competition_entry_reinstate"),
        ("remove", views_setup.entry_remove, "competition_entry_remove"),
    )],
    path(f"{COMPETITION}teams/new/", views_setup.team_create, name="team_create"),
    path(f"{COMPETITION}teams/<int:team_pk>/", views_setup.team_edit, name="team_edit"),
    path(f"{COMPETITION}fixtures/edit/", views_fixtures.fixture_list, name="competition_fixture_list"),
    *[path(f"{COMPETITION}fixtures/{route}/", view, name=name) for route, view, name in (
        ("rounds/new", views_fixtures.add_round, "fixture_list_add_round"),
        ("rounds/<int:number>/edit", views_fixtures.edit_round, "fixture_list_edit_round"),
        ("rounds/<int:number>/publish", views_fixtures.publish_round, "fixture_list_publish_round"),
        ("rounds/<int:number>/unpublish", views_fixtures.unpublish_round, "fixture_list_unpublish_round"),
        ("new", views_fixtures.add_fixture, "fixture_list_add_fixture"),
        ("<int:fixture_pk>/remove", views_fixtures.remove_fixture, "fixture_list_remove_fixture"),
        ("byes/new", views_fixtures.add_bye, "fixture_list_add_bye"),
        ("byes/<int:bye_pk>/remove", views_fixtures.remove_bye, "fixture_list_remove_bye"),
    )],
    path(f"{COMPETITION}rounds/<int:number>/manage/", views.manage, name="round_manage"),
    *[path(f"{COMPETITION}rounds/<int:number>/{route}/", view, name=name) for route, view, name in (
        ("pair", views.pair, "round_pair"),
        ("publish", views.publish, "round_publish"),
        ("publish-with-competition", views.publish_with_competition, "round_publish_with_competition"),
        ("unpublish", views.unpublish, "round_unpublish"),
        ("swap", views.swap, "round_swap"),
        ("edit-match", views.edit_match, "round_edit_match"),
        ("sit-out", views.sit_out, "round_sit_out"),
        ("pair-byes", views.pair_byes, "round_pair_byes"),
    )],
    path(f"{COMPETITION}rounds/<int:number>/pairing-status/", views.pairing_status, name="round_pairing_status"),
]
