"""What a person is told, and how each telling travels.

A :class:`Notification` is one thing said to one person, unique by ``(user, kind, key)``: the key names what it is
about (a round's publication, a match's result as it stands, a fixture at its time), so the same thing is never
queued twice, whoever announces it and however often. Each channel it goes by is a :class:`Delivery` (one by
e-mail, one per phone), which a worker claims, sends and marks sent; a try whose worker died is taken again once its
lease runs out. Delivery is therefore at least once, and each channel carries the notification's own idempotency
key (the mail's Message-ID, the push's Topic and its tag on the phone), so that a repeat is the same message and
is shown once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class NotificationKind(models.TextChoices):
    ROUND_PUBLISHED = "round", "A round is published: your table, your opponents, the time"
    RESULT = "result", "Your match's result is entered or changed"
    NEEDS_YOU = "needs-you", "Something needs you: an entry, a claim, a result to confirm"
    REMINDER = "reminder", "A reminder before a fixture"


class Channel(models.TextChoices):
    EMAIL = "email", "e-mail"
    PUSH = "push", "phone"


class DeliveryState(models.TextChoices):
    WAITING = "waiting", "waiting to be sent"
    SENDING = "sending", "being sent"
    SENT = "sent", "sent"
    GAVE_UP = "gave-up", "given up"


def _one_of(field: str, choices: type[models.TextChoices], name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__in": choices.values}), name=name)


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=12, choices=NotificationKind.choices)
    key = models.CharField(max_length=200, help_text="What it is about: the same key is never told twice")
    title = models.CharField(max_length=200)
    body = models.TextField()
    url = models.CharField(max_length=500, help_text="The page it leads to, with the site's address")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "kind", "key"], name="notification_told_once"),
                       _one_of("kind", NotificationKind, "notification_kind_known")]

    def __str__(self) -> str:
        return f"{self.title} → {self.user}"

    @property
    def tag(self) -> str:
        """The notification's idempotency key on every channel: the push's Topic (RFC 8030 §5.4: at most 32
        characters of the URL-safe base64 alphabet) and tag, and the mail's Message-ID."""
        return f"n{self.pk}"


class PushSubscription(models.Model):
    """A phone (a browser) that the person asked to be notified on: where its push service takes messages for it,
    and the keys its messages are encrypted to (RFC 8291)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200, help_text="The browser's P-256 public key, base64url")
    auth = models.CharField(max_length=64, help_text="The browser's 16-byte auth secret, base64url")
    device = models.CharField(max_length=200, blank=True, help_text="The browser that subscribed, in words")
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.device or 'a phone'} of {self.user}"


class Delivery(models.Model):
    """One notification by one channel: by e-mail (handed to the outbox, ``accounts.mail``) or to one phone."""

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=5, choices=Channel.choices)
    subscription = models.ForeignKey(PushSubscription, null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="deliveries")
    state = models.CharField(max_length=7, choices=DeliveryState.choices, default=DeliveryState.WAITING)
    tries = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField(default=timezone.now, help_text="When it is due; while sending, its lease's end")
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "deliveries"
        indexes = [models.Index(fields=["state", "next_try_at"], name="delivery_due")]
        constraints = [
            models.UniqueConstraint(fields=["notification"], condition=Q(channel="email"), name="one_mail_each"),
            models.UniqueConstraint(fields=["notification", "subscription"], condition=Q(channel="push"),
                                    name="one_push_a_phone_each"),
            models.CheckConstraint(condition=Q(channel="email", subscription__isnull=True)
                                   | Q(channel="push", subscription__isnull=False), name="push_goes_to_a_phone"),
            models.CheckConstraint(condition=~Q(state="sent") | Q(sent_at__isnull=False),
                                   name="delivery_sent_has_its_time"),
            _one_of("channel", Channel, "delivery_channel_known"),
            _one_of("state", DeliveryState, "delivery_state_known"),
        ]

    def __str__(self) -> str:
        return f"{self.notification} by {self.get_channel_display()} ({self.get_state_display()})"


class NotificationSetting(models.Model):
    """A person's choice for one kind; without a row the kind's defaults hold (``notify.preferences``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings")
    kind = models.CharField(max_length=12, choices=NotificationKind.choices)
    email = models.BooleanField()
    push = models.BooleanField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_setting_a_kind"),
                       _one_of("kind", NotificationKind, "setting_kind_known")]


class Announcement(models.Model):
    """Work to announce, kept until done: a round published or results settled, written as it happens and done by
    a task; one whose task was lost (a worker killed, the broker down) is done by the sweep."""

    kind = models.CharField(max_length=12, choices=NotificationKind.choices)
    subject_id = models.PositiveBigIntegerField(help_text="The round (a round published), the competition (results)")
    match_ids = models.JSONField(default=list, blank=True, help_text="Results: the matches the settle recomputed")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [_one_of("kind", NotificationKind, "announcement_kind_known")]


class VapidKey(models.Model):
    """The site's VAPID key (RFC 8292) when ``VAPID_PRIVATE_KEY`` is not set: made once, kept here, so that every
    process of the install signs with the same key the phones subscribed with."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    private_key = models.CharField(max_length=64, help_text="The P-256 private key, raw, base64url")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="one_vapid_key")]
