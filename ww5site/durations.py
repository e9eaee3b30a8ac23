"""Durations as people say and type them: "14 days", "2d", "1d 12h", "90 min".

``words`` is for pages and mails, ``short`` for a form's field, and ``parse`` reads what
an organiser types, so a value shown in a form reads back as itself. ``DurationField``
is the form field the admin uses for every duration; it only parses and formats, so any
bounds a model or form sets are its validators, checked as usual. ``ShortDurationsAdmin``
gives an admin that field, and shows the durations it shows read-only or in its list's
columns the same way. ``counted`` says a count with its noun ("1 day", "3 games"), for
the durations' units and every other count the site words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models
from django.http import HttpRequest
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


def counted(count: int, noun: str) -> str:
    """'1 game', '3 games', '1 match', '2 matches': ``noun`` is 'game' or, for an
    irregular plural, 'match,matches'."""
    one, _, many = noun.partition(",")
    return f"{count} {one if count == 1 else many or one + 's'}"


def words(length: timedelta, smallest: str = "minute") -> str:
    """'14 days', '2 days, 12 hours', '1 hour, 30 minutes': in words, down to
    ``smallest`` (a minute unless told)."""
    if length < timedelta(0):
        return f"minus {words(-length, smallest)}"
    keep = [u for u, _ in UNITS][: [u for u, _ in UNITS].index(smallest) + 1]
    parts = [counted(n, unit) for n, unit in _parts(length) if unit in keep]
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


class ShortDurationsAdmin:
    """A ``ModelAdmin`` (put it first among the bases; an inline takes
    ``ShortDurationsInline``) whose durations are typed as people write them, and shown
    so where the page shows them read-only and in the list's columns: "2d", "1d 12h",
    where Django's own display says "2 days, 0:00:00".

    Django shows a read-only model field, or a list column, with its own display for the
    field's type, which no field or widget changes. So each such duration is swapped, in
    the page's fields and in the list's columns, for a ``Display`` of the same name (the
    page keeps the field's label, help text and CSS class; the column still sorts by the
    field), which joins the read-only fields. An admin's own
    ``get_readonly_fields`` (read-only fields chosen per object, as an event's settings
    once it has started) is wrapped so as well.
    """

    formfield_overrides = ADMIN_OVERRIDES

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("get_readonly_fields")
        if own is not None and not getattr(own, "shows_durations", False):

            @functools.wraps(own)
            def get_readonly_fields(self: Any, request: HttpRequest, obj: Any = None) -> Any:
                return self._with_displays(own(self, request, obj))

            get_readonly_fields.shows_durations = True  # type: ignore[attr-defined]
            cls.get_readonly_fields = get_readonly_fields  # type: ignore[method-assign]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Sequence[Any]:
        return self._with_displays(super().get_readonly_fields(request, obj))  # type: ignore[misc]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        readonly = set(self.get_readonly_fields(request, obj))
        everything = self._all_readonly(request, obj)
        seen: set[Any] = set()

        def swapped(field: Any) -> Any:
            """The field or its display function; None if the page has it already
            (Django lists a read-only field that no fieldset names both as itself and
            as its display)."""
            if self._is_duration(field) and (everything or field in readonly):
                field = self._display(field)
            if field in seen:
                return None
            seen.add(field)
            return field

        fieldsets = []
        for name, options in super().get_fieldsets(request, obj):  # type: ignore[misc]
            lines: list[Any] = []
            for line in options.get("fields", ()):
                if isinstance(line, list | tuple):
                    kept = tuple(f for f in map(swapped, line) if f is not None)
                    lines += [kept] if kept else []
                elif (field := swapped(line)) is not None:
                    lines.append(field)
            fieldsets.append((name, {**options, "fields": lines}))
        return fieldsets

    def get_list_display(self, request: HttpRequest) -> Sequence[Any]:
        editable = set(getattr(self, "list_editable", ()))
        return [
            self._display(name) if self._is_duration(name) and name not in editable else name
            for name in super().get_list_display(request)  # type: ignore[misc]
        ]

    def _with_displays(self, readonly: Sequence[Any]) -> list[Any]:
        """The read-only fields, and the display function of each duration among them."""
        shown = list(readonly)
        wanted = [self._display(name) for name in readonly if self._is_duration(name)]
        return shown + [display for display in wanted if display not in shown]

    def _all_readonly(self, request: HttpRequest, obj: Any) -> bool:
        """Is the whole page read-only (a change page the user may only view)?"""
        me: Any = self
        if isinstance(self, admin.options.InlineModelAdmin):
            return not (
                me.has_change_permission(request, obj) or me.has_add_permission(request, obj)
            )
        return obj is not None and not me.has_change_permission(request, obj)

    def _is_duration(self, name: Any) -> bool:
        if not isinstance(name, str):
            return False
        model: type[models.Model] = self.model  # type: ignore[attr-defined]
        field = next((f for f in model._meta.concrete_fields if f.name == name), None)
        return isinstance(field, models.DurationField)

    def _display(self, name: str) -> Display:
        """The display of duration ``name``: made once per admin and name, as the admin
        finds a page's read-only fields by identity."""
        made: dict[str, Display] = self.__dict__.setdefault("_duration_displays", {})
        if name not in made:
            made[name] = Display(self, name)
        return made[name]


class ShortDurationsInline(ShortDurationsAdmin):
    """``ShortDurationsAdmin`` for an inline: its table's head also gives a shown
    duration its field's help text (it looks for one in the form's help texts only)."""

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        model: type[models.Model] = self.model  # type: ignore[attr-defined]
        helps = {
            self._display(f.name): f.help_text
            for f in model._meta.concrete_fields
            if isinstance(f, models.DurationField)
        }
        kwargs["help_texts"] = {**helps, **kwargs.get("help_texts", {})}
        return super().get_formset(request, obj, **kwargs)  # type: ignore[misc]


class Display:
    """A read-only duration as the admin shows it ("1d 12h"), called with the object as
    a display function is. It reads as its field's name, so a page's CSS class, help
    text and column header are the field's."""

    do_not_call_in_templates = True  # a template shows its name, not a call's answer

    def __init__(self, model_admin: Any, name: str) -> None:
        field = model_admin.model._meta.get_field(name)
        self.model_admin, self.name, self.__name__ = model_admin, name, name
        self.short_description = field.verbose_name
        self.help_text = field.help_text
        self.admin_order_field = name  # the list's column sorts by the field

    def __call__(self, obj: models.Model) -> str:
        value = getattr(obj, self.name)
        if value is None:
            return str(self.model_admin.get_empty_value_display())
        return short(value)

    def __str__(self) -> str:
        return self.name
