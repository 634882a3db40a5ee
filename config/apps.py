"""The project's own app: last in ``INSTALLED_APPS``, it wires the layers together once every app is loaded."""

from django.apps import AppConfig


class WiringConfig(AppConfig):
    name = "config"
    label = "wiring"
    verbose_name = "Wiring of the layers"

    def ready(self) -> None:
        from config import wiring

        wiring.connect()  # every signal's listeners and the option checks: the list is in config.wiring
