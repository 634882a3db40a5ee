"""The organiser's setup pages: create and edit a competition, publish it, its entries and its teams."""

from django.urls import path

from league import views_setup

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path("clubs/<slug:club_slug>/competitions/new/", views_setup.competition_create, name="competition_create"),
    path(COMPETITION + "setup/", views_setup.competition_edit, name="competition_edit"),
    path(COMPETITION + "publish/", views_setup.competition_publish, name="competition_publish"),
    path(COMPETITION + "entries/", views_setup.competition_entries, name="competition_entries"),
    path(COMPETITION + "teams/new/", views_setup.team_create, name="team_create"),
    path(COMPETITION + "teams/<int:team_pk>/", views_setup.team_edit, name="team_edit"),
]
