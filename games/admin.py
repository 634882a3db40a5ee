"""Django admin for matches, games, hands and hand versions.

Hands are entered, corrected and deleted through ``games.entry`` (which scores them through the
engine and settles the match), so the admin shows them read-only: editing a row here would bypass
the engine and the version history.
"""

from django.contrib import admin

from games.models import Game, Hand, HandVersion, Match


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = readonly_fields = ("number", "first_dealer", "score_a", "score_b", "hang_jacks_a", "hang_jacks_b",
                                "winner", "hands_counted")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "competition", "round", "table", "scheduled_at", "status", "games_a", "games_b",
                    "winner"]
    list_filter = ["status", "competition"]
    search_fields = ["side_a_name", "side_b_name", "table", "competition__name"]
    autocomplete_fields = ["competition", "side_a", "side_b", "scorekeepers"]
    list_select_related = ["competition", "round"]
    readonly_fields = ["status", "games_a", "games_b", "winner", "version", "settled_version", "created_at",
                       "updated_at"]
    date_hierarchy = "scheduled_at"
    inlines = [GameInline]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = readonly_fields = ("number", "mode", "dealer", "points_a", "points_b", "score_a_after", "score_b_after",
                                "deleted", "void_reason", "version", "entered_by")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "number", "score_a", "score_b", "winner", "hands_counted", "next_dealer"]
    list_filter = ["winner", "match__competition"]
    search_fields = ["match__side_a_name", "match__side_b_name"]
    list_select_related = ["match"]
    inlines = [HandInline]


class HandVersionInline(admin.TabularInline):
    model = HandVersion
    extra = 0
    fields = readonly_fields = ("version", "mode", "deleted", "author_label", "reason", "created_at")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "number", "mode", "dealer", "points_a", "points_b", "score_a_after", "score_b_after",
                    "deleted", "void_reason", "version", "entered_by", "updated_at"]
    list_filter = ["mode", "deleted", "game__match__competition"]
    search_fields = ["entered_by", "game__match__side_a_name", "game__match__side_b_name"]
    list_select_related = ["game__match"]
    inlines = [HandVersionInline]


@admin.register(HandVersion)
class HandVersionAdmin(ReadOnlyAdmin):
    list_display = ["hand", "version", "mode", "deleted", "author_label", "reason", "created_at"]
    list_filter = ["mode", "deleted"]
    search_fields = ["author_label", "reason", "hand__game__match__side_a_name", "hand__game__match__side_b_name"]
    list_select_related = ["hand__game__match"]
