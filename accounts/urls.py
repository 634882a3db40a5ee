"""The door: logging in and out (the site's own login page, with django-axes' lockout), and django-allauth's
pages for signing up, confirming an address, resetting and changing the password, the e-mail addresses and the
sessions (log out everywhere) — all under /accounts/."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views
from accounts.forms import LoginForm

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", views.account, name="account"),
    path("accounts/", include("allauth.urls")),
]
