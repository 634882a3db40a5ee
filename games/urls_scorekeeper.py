"""The scorekeeper's entry pages: hand by hand, game results and match totals. Each exists twice, for an account
(``matches/<id>/…``, named ``match_<name>``) and for the match's private link (``enter/<token>/…``, named
``token_<name>``); the views check the permission."""

from django.urls import path

from games import offline, views, views_agreement, views_results

ENTRY_PAGES = [  # (route, view, name)
    ("enter/", views.enter, "enter"),
    ("enter/record/", views.enter_record, "enter_record"),
    ("enter/undo/", views.undo, "undo"),
    ("enter/hands/<int:hand_pk>/edit/", views.hand_edit, "hand_edit"),
    ("enter/hands/<int:hand_pk>/delete/", views.hand_delete, "hand_delete"),
    ("games/", views_results.game_results, "game_results"),
    ("games/<int:number>/delete/", views_results.game_result_delete, "game_result_delete"),
    ("totals/", views_results.match_totals, "match_totals"),
    ("totals/clear/", views_results.match_totals_clear, "match_totals_clear"),
]


def _by_link(route: str) -> str:
    """The private link's route of an entry page: ``enter/<token>/`` stands for ``matches/<id>/enter/``."""
    return route.removeprefix("enter/")


urlpatterns = [
    path("my/matches/", views.my_matches, name="my_matches"),
    path("matches/<int:pk>/confirm/", views_agreement.match_confirm, name="match_confirm"),
    path("confirm/<str:token>/", views_agreement.token_confirm, name="token_confirm"),
    # at the root, so that the service worker's scope covers both routes of the entry page, offline too
    path("entry-sw.js", offline.service_worker, name="entry_service_worker"),
    path("entry.webmanifest", offline.manifest, name="entry_manifest"),
    *[path(f"matches/<int:pk>/{route}", view, name=f"match_{name}") for route, view, name in ENTRY_PAGES],
    *[path(f"enter/<str:token>/{_by_link(route)}", view, name=f"token_{name}") for route, view, name in ENTRY_PAGES],
]
