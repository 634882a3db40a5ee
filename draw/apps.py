from django.apps import AppConfig


class DrawConfig(AppConfig):
    name = "draw"
    verbose_name = "Rounds and pairings"  # its listeners are connected in config.wiring
