"""Public pages (home, clubs, competitions) and logging in and out."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from league import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("league.urls_players")),
    path("", include("league.urls_csv")),
    path("", include("league.urls_rounds")),
    path("", include("league.urls_setup")),
    path("clubs/<slug:club_slug>/", views.club, name="club"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/", views.competition, name="competition"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/standings/", views.standings, name="competition_standings"),
]
