"""Django admin for the standings rows (read-only: the standings task writes them)."""

from django.contrib import admin

from standings.models import StandingRow


@admin.register(StandingRow)
class StandingRowAdmin(admin.ModelAdmin):
    """Written by the standings task; shown read-only."""

    list_display = ["competition", "rank", "partnership", "played", "won", "lost", "bullseyes_for",
                    "bullseyes_against", "chalks_for", "chalks_against", "hang_jacks_for", "updated_at"]
    list_filter = ["competition"]
    search_fields = ["partnership__name", "competition__name"]
    list_select_related = ["competition", "partnership__player_one", "partnership__player_two"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
