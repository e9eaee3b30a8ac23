"""Durations as people say and type them: "14 days", "2d", "1d 12h", "90 min".

``words`` is for pages and mails, ``short`` for a form's field, and ``parse`` reads what
an organiser types, so a value shown in a form reads back as itself. ``DurationField``
is the form field the admin uses for every duration; it only parses and formats, so any
bounds a model or form sets are its validators, checked as usual.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.dateparse import parse_duration

UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))
SHORT = {"day": "d", "hour": "h", "minute": "min", "second": "s"}

# Every way a unit is written, to its length in seconds.
SPELLINGS = {
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), 7 * 86400),
    **dict.fromkeys(("d", "day", "days"), 86400),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 3600),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1),
}
AMOUNT = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+)")
SEPARATORS = re.compile(r"[\s,]+|\band\b")

HINT = 'Write a duration such as "2d", "12h", "90 min" or "1d 12h".'


def _parts(length: timedelta) -> list[tuple[int, str]]:
    seconds = int(length.total_seconds())
    parts = []
    for unit, size in UNITS:
        n, seconds = divmod(seconds, size)
        if n:
            parts.append((n, unit))
    return parts


def words(length: timedelta, smallest: str = "minute") -> str:
    """'14 days', '2 days, 12 hours', '1 hour, 30 minutes': in words, down to
    ``smallest`` (a minute unless told)."""
    if length < timedelta(0):
        return f"minus {words(-length, smallest)}"
    keep = [u for u, _ in UNITS][: [u for u, _ in UNITS].index(smallest) + 1]
    parts = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in _parts(length) if unit in keep]
    if not length:
        return "no time"
    return ", ".join(parts) or f"less than a {smallest}"


def short(length: timedelta) -> str:
    """'2d', '12h', '1d 12h', '1h 30min': as a field shows it, and reads it back."""
    if length < timedelta(0):
        return f"-{short(-length)}"
    return " ".join(f"{n}{SHORT[unit]}" for n, unit in _parts(length)) or "0min"


def parse(text: str) -> timedelta | None:
    """The duration ``text`` says ('2d', '12h', '90 min', '1d 12h', '2 days', '1 week',
    Django's own '1 00:00:00' or ISO 8601's 'P2D'), or None when it says none. A bare
    number is no duration: minutes or days? The writer must say."""
    typed = text.strip()
    text = typed.lower()
    if not text or re.fullmatch(r"[\d.]+", text):
        return None
    amounts = AMOUNT.findall(text)
    leftover = SEPARATORS.sub("", AMOUNT.sub("", text))
    if amounts and not leftover and all(unit in SPELLINGS for _, unit in amounts):
        return timedelta(seconds=round(sum(float(n) * SPELLINGS[unit] for n, unit in amounts)))
    return parse_duration(typed)


class DurationField(forms.DurationField):
    """A duration typed as people write it, shown the same way ('1d 12h')."""

    default_error_messages = {"invalid": HINT, "overflow": "That duration is too long."}

    def prepare_value(self, value: Any) -> Any:
        return short(value) if isinstance(value, timedelta) else value

    def to_python(self, value: Any) -> timedelta | None:
        if value in self.empty_values:
            return None
        if isinstance(value, timedelta):
            return value
        try:
            length = parse(str(value))
        except OverflowError:
            raise ValidationError(self.error_messages["overflow"], code="overflow") from None
        if length is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return length

    def run_validators(self, value: Any) -> None:
        """The validators' own messages, their durations in words: "at most 60 days",
        never "60 days, 0:00:00"."""
        try:
            super().run_validators(value)
        except ValidationError as refusal:
            raise ValidationError([_in_words(e) for e in refusal.error_list]) from None


def _in_words(error: ValidationError) -> ValidationError:
    params = error.params or {}
    said = {k: words(v, "second") if isinstance(v, timedelta) else v for k, v in params.items()}
    return ValidationError(error.message, code=error.code, params=said)


# A ModelAdmin's ``formfield_overrides``: every model duration gets the field above.
ADMIN_OVERRIDES: dict[Any, dict[str, Any]] = {models.DurationField: {"form_class": DurationField}}
