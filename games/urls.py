"""Pages of a match, split by audience: the public scoresheet; the scorekeeper's entry pages, reached with
an account (``matches/<id>/…``) or through the match's private link (``enter/<token>/…``); the organiser's
page for scorekeepers and the link."""

from django.urls import include, path

from games import views

# Each entry page exists twice: for an account and for the private link; the views check the permission.
ENTRY_PAGES = [
    ("", views.enter, "enter"),
    ("record/", views.enter_record, "enter_record"),
    ("undo/", views.undo, "undo"),
    ("hands/<int:hand_pk>/edit/", views.hand_edit, "hand_edit"),
    ("hands/<int:hand_pk>/delete/", views.hand_delete, "hand_delete"),
]

urlpatterns = [
    path("", include("games.urls_results")),
    path("matches/<int:pk>/", views.match_sheet, name="match_sheet"),
    path("matches/<int:pk>/manage/", views.manage, name="match_manage"),
    *[path(f"matches/<int:pk>/enter/{route}", view, name=f"match_{name}") for route, view, name in ENTRY_PAGES],
    *[path(f"enter/<str:token>/{route}", view, name=f"token_{name}") for route, view, name in ENTRY_PAGES],
]
