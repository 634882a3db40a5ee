from django.apps import AppConfig


class DrawConfig(AppConfig):
    name = "draw"
    verbose_name = "Rounds and pairings"

    def ready(self) -> None:
        from draw import receivers

        receivers.connect()  # a knockout's next round drafted once its last tie is decided
