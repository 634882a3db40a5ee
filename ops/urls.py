"""The health endpoints, at the root before every app's routes (``config/urls.py``)."""

from django.urls import path

from ops import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
]
