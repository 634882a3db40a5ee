"""An organiser's pages for the club itself: a new club, its people (details, organisers, players)."""

from django.urls import path

from league import views_clubs

urlpatterns = [
    path("clubs/new/", views_clubs.club_create, name="club_create"),
    path("clubs/<slug:club_slug>/people/", views_clubs.club_people, name="club_people"),
    path("clubs/<slug:club_slug>/people/<int:pk>/", views_clubs.player_edit, name="club_player"),
]
