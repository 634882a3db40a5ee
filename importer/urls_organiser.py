"""A club's CSV import page (organisers) and an empty template file of each kind."""

from django.urls import path

from importer import views

urlpatterns = [
    path("clubs/<slug:club_slug>/import/", views.import_page, name="club_import"),
    path("clubs/<slug:club_slug>/import/<slug:template>.csv", views.import_template, name="club_import_template"),
]
