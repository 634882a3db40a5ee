"""The organiser's pages: create and edit a competition, publish it, its entries and teams; the fixture list of
one whose fixtures are set by hand; a round's page (pair, review, edit, publish) and its pairing status (JSON)."""

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
    path(f"{COMPETITION}teams/new/", views_setup.team_create, name="team_create"),
    path(f"{COMPETITION}teams/<int:team_pk>/", views_setup.team_edit, name="team_edit"),
    path(f"{COMPETITION}fixtures/edit/", views_fixtures.fixture_list, name="competition_fixture_list"),
    path(f"{COMPETITION}rounds/<int:number>/manage/", views.manage, name="round_manage"),
    path(f"{COMPETITION}rounds/<int:number>/pairing-status/", views.pairing_status, name="round_pairing_status"),
]
