from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = "Standings and ratings"  # its listeners and option checks are connected in config.wiring
