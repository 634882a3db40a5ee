from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Online tables"

    def ready(self) -> None:
        from tables import live, ticker

        live.connect()  # each seat's view and the spectators' sent after every committed change
        ticker.start_with_the_server()  # an ASGI server ticks from its start: pending deadlines survive a restart
