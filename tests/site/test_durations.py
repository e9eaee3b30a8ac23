"""Durations as organisers type them, and as forms show them back."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django import forms
from django.contrib import admin
from django.contrib.admin.utils import flatten_fieldsets
from django.core.validators import MaxValueValidator
from django.db import models
from django.test import RequestFactory

from ratings.models import Ladder
from ww5site.durations import (
    DurationField,
    ShortDurationsAdmin,
    ShortDurationsInline,
    parse,
    short,
    words,
)

DAY, HOUR, MINUTE = timedelta(days=1), timedelta(hours=1), timedelta(minutes=1)


@pytest.mark.parametrize(
    ("typed", "length"),
    [
        ("2d", 2 * DAY),
        ("12h", 12 * HOUR),
        ("90 min", 90 * MINUTE),
        ("1d 12h", DAY + 12 * HOUR),
        ("2 days", 2 * DAY),
        ("1 day, 12 hours", DAY + 12 * HOUR),
        ("1 week", 7 * DAY),
        ("1.5h", 90 * MINUTE),
        ("1 00:00:00", DAY),  # as the admin wrote durations before
        ("12:00:00", 12 * HOUR),
        ("P2D", 2 * DAY),
    ],
)
def test_a_duration_is_read_as_people_write_it(typed: str, length: timedelta) -> None:
    assert parse(typed) == length


@pytest.mark.parametrize("typed", ["", "90", "soon", "2 parsecs", "2d tomorrow", "d"])
def test_what_says_no_duration_is_not_read_as_one(typed: str) -> None:
    assert parse(typed) is None


@pytest.mark.parametrize(
    ("length", "shown"),
    [(2 * DAY, "2d"), (12 * HOUR, "12h"), (DAY + 12 * HOUR, "1d 12h"), (90 * MINUTE, "1h 30min")],
)
def test_a_field_shows_a_duration_as_it_is_typed_and_reads_it_back(
    length: timedelta, shown: str
) -> None:
    assert short(length) == shown
    assert parse(shown) == length


def test_words_never_show_a_clock() -> None:
    assert words(14 * DAY) == "14 days"
    assert words(DAY + 12 * HOUR) == "1 day, 12 hours"


class Settings(forms.Form):
    round_time = DurationField(validators=[MaxValueValidator(timedelta(days=60))])


def test_the_form_field_takes_words_and_refuses_nonsense_clearly() -> None:
    good = Settings({"round_time": "2d 12h"})
    assert good.is_valid() and good.cleaned_data["round_time"] == 2 * DAY + 12 * HOUR
    form = Settings({"round_time": "next week"})
    assert not form.is_valid()
    assert form.errors["round_time"] == [
        'Write a duration such as "2d", "12h", "90 min" or "1d 12h".'
    ]


def test_the_form_field_leaves_bounds_to_its_validators() -> None:
    form = Settings({"round_time": "61d"})
    assert not form.is_valid()
    assert form.errors["round_time"] == ["Ensure this value is less than or equal to 60 days."]


def test_the_form_field_shows_its_value_in_short() -> None:
    form = Settings(initial={"round_time": 14 * DAY})
    assert 'value="14d"' in str(form["round_time"])


# --- the admin: durations shown read-only and in lists ---------------------------------


def test_every_admin_of_a_model_with_durations_shows_them_short() -> None:
    """Each admin page (and inline) of a model with a duration uses the project's
    admin for durations, so that none reads "2 days, 0:00:00" where it is read-only."""

    def has_durations(model: type[models.Model]) -> bool:
        return any(isinstance(f, models.DurationField) for f in model._meta.concrete_fields)

    checked = set()
    for model, model_admin in admin.site._registry.items():
        if has_durations(model):
            assert isinstance(model_admin, ShortDurationsAdmin), model
            checked.add(model._meta.label)
        for inline in model_admin.inlines:
            if has_durations(inline.model):
                assert issubclass(inline, ShortDurationsInline), inline
                checked.add(inline.model._meta.label)
    assert checked >= {"games.Game", "games.Seat", "tournaments.Tournament", "ratings.Ladder"}


class LadderDurations(ShortDurationsAdmin, admin.ModelAdmin):
    """An admin with no fieldsets of its own: Django lists its read-only fields after
    the form's."""

    list_display = ("name", "decision_time", "season_length")
    readonly_fields = ("name", "decision_time", "season_length")


@pytest.mark.django_db
def test_an_admins_read_only_durations_and_columns_read_short(
    rf: RequestFactory, admin_user: Any
) -> None:
    model_admin = LadderDurations(Ladder, admin.AdminSite(name="durations"))
    request = rf.get("/")
    request.user = admin_user
    ladder = Ladder(name="Club ladder", decision_time=timedelta(days=1, hours=12))

    columns = model_admin.get_list_display(request)
    fields = flatten_fieldsets(model_admin.get_fieldsets(request, ladder))
    readonly = model_admin.get_readonly_fields(request, ladder)

    assert [c if isinstance(c, str) else c(ladder) for c in columns] == ["name", "1d 12h", "-"]
    assert [str(c) for c in columns] == ["name", "decision_time", "season_length"]
    shown = [f for f in fields if not isinstance(f, str)]
    assert [str(f) for f in shown] == ["decision_time", "season_length"]  # each once
    assert "decision_time" not in fields and all(f in readonly for f in shown)
    assert "retreat_time" in fields  # an editable duration stays a field of the form
    assert "decision_time" not in model_admin.get_form(request, ladder).base_fields
