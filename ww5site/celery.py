"""The Celery app, configured from the Django settings named CELERY_*."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ww5site.settings")

app = Celery("ww5site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
