from django.contrib import admin

from accounts.models import OutgoingMail


@admin.register(OutgoingMail)
class OutgoingMailAdmin(admin.ModelAdmin):
    """The outbox: what was sent, what waits for the mail server, what was given up and why."""

    list_display = ("created_at", "subject", "recipients", "state", "tries", "sent_at", "last_error")
    list_filter = ("state",)
    search_fields = ("subject", "to")
    readonly_fields = [field.name for field in OutgoingMail._meta.fields]

    @admin.display(description="to")
    def recipients(self, mail: OutgoingMail) -> str:
        return ", ".join(mail.to)
