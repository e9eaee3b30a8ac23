"""Filters for how pages and mails word a player's name and a time."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import dateformat, timezone

register = template.Library()

SENTENCE_ENDS = (".", "!", "?")


@register.filter
def full_stop(text: object) -> str:
    """The full stop a sentence ending with ``text`` still needs: none after a name that
    ends with one already ("Alice W."), so the page never shows two."""
    return "" if str(text).rstrip().endswith(SENTENCE_ENDS) else "."


@register.filter
def in_zone(moment: datetime | None) -> str:
    """'21 Nov 2026 18:30 CET (Europe/Paris)': the moment in the current time zone, the
    zone named after its abbreviation, unless that is its name already ('20:47 UTC')."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    text = dateformat.format(local, "j M Y H:i T")
    zone = timezone.get_current_timezone_name()
    return text if local.tzname() == zone else f"{text} ({zone})"
