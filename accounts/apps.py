from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts and mail"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.signals import listed_in_the_sessions

        user_logged_in.connect(listed_in_the_sessions, dispatch_uid="accounts.listed_in_the_sessions")
