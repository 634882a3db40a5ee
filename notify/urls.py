"""A person's notification settings, beside their account's page under /accounts/."""

from django.urls import path

from notify import views

urlpatterns = [
    path("accounts/notifications/", views.notification_settings, name="notification_settings"),
    path("accounts/notifications/phones/", views.push_subscribe, name="push_subscribe"),
    path("accounts/notifications/phones/forget/", views.push_unsubscribe, name="push_unsubscribe"),
    path("accounts/notifications/phones/<int:pk>/remove/", views.push_subscription_remove,
         name="push_subscription_remove"),
]
