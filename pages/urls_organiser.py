"""The organiser's pages that set a competition up: create and edit it, publish it, copy it to a new season, its
entries and teams, and the fixture list of one whose fixtures are set by hand (each button on a URL of its own)."""

from django.urls import path

from pages import views_fixture_list, views_setup

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path("clubs/<slug:club_slug>/competitions/new/", views_setup.competition_create, name="competition_create"),
    path(f"{COMPETITION}setup/", views_setup.competition_edit, name="competition_edit"),
    path(f"{COMPETITION}publish/", views_setup.competition_publish, name="competition_publish"),
    path(f"{COMPETITION}copy/", views_setup.competition_copy, name="competition_copy"),
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
    path(f"{COMPETITION}fixtures/edit/", views_fixture_list.fixture_list, name="competition_fixture_list"),
    *[path(f"{COMPETITION}fixtures/{route}/", view, name=name) for route, view, name in (
        ("rounds/new", views_fixture_list.add_round, "fixture_list_add_round"),
        ("rounds/<int:number>/edit", views_fixture_list.edit_round, "fixture_list_edit_round"),
        ("rounds/<int:number>/publish", views_fixture_list.publish_round, "fixture_list_publish_round"),
        ("rounds/<int:number>/unpublish", views_fixture_list.unpublish_round, "fixture_list_unpublish_round"),
        ("new", views_fixture_list.add_fixture, "fixture_list_add_fixture"),
        ("<int:fixture_pk>/remove", views_fixture_list.remove_fixture, "fixture_list_remove_fixture"),
        ("byes/new", views_fixture_list.add_bye, "fixture_list_add_bye"),
        ("byes/<int:bye_pk>/remove", views_fixture_list.remove_bye, "fixture_list_remove_bye"),
    )],
]
