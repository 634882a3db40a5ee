from django.apps import AppConfig


class DrawConfig(AppConfig):
    name = "draw"
    verbose_name = "Rounds and pairings"
