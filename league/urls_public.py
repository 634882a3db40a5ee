"""Public pages of the league: home and a club (logging in and out is ``accounts``')."""

from django.urls import path

from league import views, views_role_invitations

urlpatterns = [
    path("", views.home, name="home"),
    path("join/<str:token>/", views_role_invitations.join, name="join"),  # an invitation's private link
    path("clubs/<slug:club_slug>/", views.club, name="club"),
    path("clubs/<slug:club_slug>/archive/", views.club_archive, name="club_archive"),
]
