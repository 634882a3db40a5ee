"""CSV in and out: a competition's standings and results as files, and a club's import page (organisers) with
an empty template file of each kind."""

from django.urls import path

from league import views_csv

urlpatterns = [
    path("clubs/<slug:club_slug>/import/", views_csv.import_page, name="club_import"),
    path("clubs/<slug:club_slug>/import/<slug:template>.csv", views_csv.import_template, name="club_import_template"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/standings.csv", views_csv.standings_csv,
         name="competition_standings_csv"),
    path("clubs/<slug:club_slug>/<slug:competition_slug>/results.csv", views_csv.results_csv,
         name="competition_results_csv"),
]
