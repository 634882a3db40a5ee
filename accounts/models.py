"""The mail the site sends, kept until it is delivered.

Every mail (a sign-up's confirmation, a password reset, later the invitations) is written here by
:class:`accounts.mail.OutboxBackend` in the transaction of the action that caused it, then delivered by a Celery
task once that transaction commits. A mail whose delivery fails is tried again, later and later; one whose task was
lost (a worker killed, the broker down) is picked up by the sweep. So a mail server that does not answer never
fails a request and never loses the action, and the mail goes out once it answers again.
"""

from __future__ import annotations

from django.db import models


class MailState(models.TextChoices):
    WAITING = "waiting", "waiting to be sent"
    SENT = "sent", "sent"
    GAVE_UP = "gave-up", "given up"


class OutgoingMail(models.Model):
    """One message, as Django's e-mail framework would send it."""

    subject = models.CharField(max_length=998)
    body = models.TextField()
    html = models.TextField(blank=True, help_text="the HTML alternative of the body, if any")
    from_email = models.CharField(max_length=320)
    to = models.JSONField(default=list)
    cc = models.JSONField(default=list)
    bcc = models.JSONField(default=list)
    reply_to = models.JSONField(default=list)
    headers = models.JSONField(default=dict)
    state = models.CharField(max_length=10, choices=MailState.choices, default=MailState.WAITING)
    tries = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    next_try_at = models.DateTimeField(auto_now_add=True, help_text="when a waiting mail is due to be tried")
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["state", "next_try_at"], name="mail_waiting_due")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(state="sent") | models.Q(sent_at__isnull=False),
                                   name="mail_sent_has_its_time"),
        ]

    def __str__(self) -> str:
        return f"{self.subject} → {', '.join(self.to)} ({self.get_state_display()})"
