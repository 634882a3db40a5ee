"""Django admin for rounds; a competition's page lists its rounds too."""

from django.contrib import admin

from draw.models import Round
from league.admin import CompetitionAdmin
from league.models import Competition


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0


# league's competition page with draw's rounds under the entries (league's admin does not import draw)
admin.site.unregister(Competition)


@admin.register(Competition)
class CompetitionWithRoundsAdmin(CompetitionAdmin):
    inlines = [*CompetitionAdmin.inlines, RoundInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "number", "competition", "starts_on"]
    list_filter = ["competition"]
    search_fields = ["name", "competition__name"]
    autocomplete_fields = ["competition"]
    list_select_related = ["competition"]
