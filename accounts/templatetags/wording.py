"""Filters for how pages and mails word a player's name, a time, a duration and a count."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import dateformat, timezone

from ww5site import durations

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


@register.filter
def duration_words(length: timedelta | None) -> str:
    """'14 days', '2 days, 12 hours', '1 hour, 30 minutes': never '14 days, 0:00:00'."""
    return "" if length is None else durations.words(length)


@register.filter
def times(count: int) -> str:
    """'once', 'twice', '3 times'."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


# '1 game', '3 games': the count with its noun, as every page, mail and message says it.
counted = register.filter("counted", durations.counted)


@register.simple_tag
def meetings(fewest: int, most: int) -> str:
    """How often pairs of players meet, as people say it: 'pairs meet at most once',
    'each pair meets twice', 'pairs meet once or twice', 'pairs meet 1 to 3 times'."""
    if most <= 0:
        return "no pair meets"
    if fewest == most:
        return f"each pair meets {times(most)}"
    if fewest <= 0:
        return f"pairs meet at most {times(most)}"
    if most == fewest + 1 and most <= 2:
        return f"pairs meet {times(fewest)} or {times(most)}"
    return f"pairs meet {fewest} to {most} times"
