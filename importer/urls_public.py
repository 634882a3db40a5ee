"""A competition's standings and results as CSV files (what its page shows)."""

from django.urls import path

from importer import views

urlpatterns = [
    path("clubs/<slug:club_slug>/<slug:competition_slug>/standings.csv", views.standings_csv,
         name="competition_standings_csv"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/results.csv", views.results_csv,
         name="competition_results_csv"),
]
