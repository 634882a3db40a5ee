"""Django admin for clubs, players, partnerships, competitions and their entries."""

from django.contrib import admin

from league.models import Club, ClubRole, Competition, Entry, Partnership, Player


class ClubRoleInline(admin.TabularInline):
    model = ClubRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "town", "slug", "created_at"]
    search_fields = ["name", "town", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubRoleInline]


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "club"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "nickname", "home_club", "user", "created_at"]
    list_filter = ["home_club"]
    search_fields = ["name", "nickname", "user__username"]
    autocomplete_fields = ["home_club", "user"]
    list_select_related = ["home_club", "user"]


@admin.register(Partnership)
class PartnershipAdmin(admin.ModelAdmin):
    list_display = ["display_name", "player_one", "player_two", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "player_one__name", "player_one__nickname", "player_two__name", "player_two__nickname"]
    autocomplete_fields = ["player_one", "player_two", "club"]
    list_select_related = ["player_one", "player_two", "club"]

    @admin.display(description="Partnership", ordering="name")
    def display_name(self, obj: Partnership) -> str:
        return obj.display_name


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["partnership"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "season", "players", "match_format", "match_games", "published", "created_at"]
    list_filter = ["published", "players", "match_format", "club"]
    search_fields = ["name", "slug", "season", "club__name"]
    prepopulated_fields = {"slug": ["name"]}
    autocomplete_fields = ["club"]
    list_select_related = ["club"]
    inlines = [EntryInline]  # draw's admin adds the rounds


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["partnership", "competition", "seed", "withdrawn"]
    list_filter = ["withdrawn", "competition"]
    search_fields = ["partnership__name", "partnership__player_one__name", "partnership__player_two__name",
                     "competition__name"]
    autocomplete_fields = ["competition", "partnership"]
    list_select_related = ["competition", "partnership__player_one", "partnership__player_two"]
