"""The Celery app. With no ``REDIS_URL`` tasks run in-process (the embedded default)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("allfours", task_cls="config.worker:OutageTolerantTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
