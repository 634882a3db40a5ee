from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live pages"

    def ready(self) -> None:
        from live import notices

        notices.connect()  # a committed hand, a refreshed standings or a publication reaches the open pages
