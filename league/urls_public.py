"""Public pages of the league: home and a club (logging in and out is ``accounts``')."""

from django.urls import path

from league import views

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/<slug:club_slug>/", views.club, name="club"),
    path("clubs/<slug:club_slug>/archive/", views.club_archive, name="club_archive"),
]
