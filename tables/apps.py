from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Online tables"

    def ready(self) -> None:
        from games.signals import results_changing
        from tables import live, services, ticker

        live.connect()  # each seat's view and the spectators' sent after every committed change
        ticker.start_with_the_server()  # an ASGI server ticks from its start: pending deadlines survive a restart
        # an online table's match takes its results from the table only (entries elsewhere refused)
        results_changing.connect(services.hold_fixture_matches, dispatch_uid="tables.services.hold_fixture_matches")
