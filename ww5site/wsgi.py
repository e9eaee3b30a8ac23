"""WSGI entry point: `application` for gunicorn, uWSGI and the like."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ww5site.settings")

application = get_wsgi_application()
