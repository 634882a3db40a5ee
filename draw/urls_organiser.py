"""The organiser's pages of the draw: archive or delete a competition; a round's page (review the draft), each of
its buttons (pair, edit, publish) on a URL of its own, and its pairing status (JSON). Setting a competition up (its
format, entries, teams, the fixture list set by hand) is ``pages.urls_organiser``."""

from django.urls import path

from draw import views, views_cards, views_clock, views_lifecycle

COMPETITION = "clubs/<slug:club_slug>/<slug:competition_slug>/"

urlpatterns = [
    path(f"{COMPETITION}archive/", views_lifecycle.competition_archive, name="competition_archive"),
    path(f"{COMPETITION}delete/", views_lifecycle.competition_delete, name="competition_delete"),
    path(f"{COMPETITION}rounds/<int:number>/manage/", views.manage, name="round_manage"),
    *[path(f"{COMPETITION}rounds/<int:number>/{route}/", view, name=name) for route, view, name in (
        ("pair", views.pair, "round_pair"),
        ("publish", views.publish, "round_publish"),
        ("publish-with-competition", views.publish_with_competition, "round_publish_with_competition"),
        ("unpublish", views.unpublish, "round_unpublish"),
        ("swap", views.swap, "round_swap"),
        ("edit-match", views.edit_match, "round_edit_match"),
        ("sit-out", views.sit_out, "round_sit_out"),
        ("move-table", views.move_table, "round_move_table"),
        ("clock/set", views_clock.clock_set, "round_clock_set"),
        ("clock/start", views_clock.clock_start, "round_clock_start"),
        ("clock/pause", views_clock.clock_pause, "round_clock_pause"),
        ("clock/resume", views_clock.clock_resume, "round_clock_resume"),
        ("clock/extend", views_clock.clock_extend, "round_clock_extend"),
        ("clock/reset", views_clock.clock_reset, "round_clock_reset"),
        ("pair-byes", views.pair_byes, "round_pair_byes"),
    )],
    path(f"{COMPETITION}rounds/<int:number>/clock/", views_clock.clock_reading, name="round_clock"),  # JSON, public
    path(f"{COMPETITION}rounds/<int:number>/cards/", views_cards.table_cards, name="round_table_cards"),
    path(f"{COMPETITION}rounds/<int:number>/pairing-status/", views.pairing_status, name="round_pairing_status"),
]
