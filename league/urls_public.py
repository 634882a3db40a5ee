"""Public pages of the league: home, a club, and logging in and out."""

from django.contrib.auth import views as auth_views
from django.urls import path

from league import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("clubs/<slug:club_slug>/", views.club, name="club"),
    path("clubs/<slug:club_slug>/archive/", views.club_archive, name="club_archive"),
]
