from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = "Standings and ratings"

    def ready(self) -> None:
        from league.competition_options import register_option_check
        from standings import receivers  # noqa: F401  (connects the listeners)
        from standings.services import check_standings_options

        register_option_check(check_standings_options)
