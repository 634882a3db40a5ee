from django.contrib import admin

from notify.models import Delivery, Notification, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["title", "user", "kind", "created_at"]
    list_filter = ["kind"]


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["notification", "channel", "state", "tries", "sent_at"]
    list_filter = ["channel", "state"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "device", "created_at", "last_sent_at"]
