from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Online tables"

    def ready(self) -> None:
        from tables import live

        live.connect()  # each seat's view and the spectators' sent after every committed change
