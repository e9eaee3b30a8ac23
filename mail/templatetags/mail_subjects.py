"""The site's mark at the start of every mail's subject, from the settings
(``MAIL_SUBJECT_PREFIX``), so that no template writes the site's name into a subject."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def subject_prefix() -> str:
    return str(settings.MAIL_SUBJECT_PREFIX)
