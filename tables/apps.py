from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Online tables"

    def ready(self) -> None:
        from tables import ticker

        ticker.start_with_the_server()  # an ASGI server ticks from its start: pending deadlines survive a restart
        # the tables' listeners (each seat's frames after a change, a forfeit ending a fixture) are in config.wiring
