"""The site's name, as every page and mail signs with it: ``{% site_name %}``, a built-in
tag of the templates (``SITE_NAME``), so that no template writes the name itself."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def site_name() -> str:
    return str(settings.SITE_NAME)
