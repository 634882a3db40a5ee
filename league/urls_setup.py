"""Filled in by its feature; included from the app's urls."""

urlpatterns: list = []
