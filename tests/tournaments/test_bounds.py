"""Every duration and number an organiser types is bounded, in the admin's form (beside
its field) and in the services (refused, nothing saved): an event whose round time or
game times the site cannot add to a date never exists, so its start never fails."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import bot_event
from tests.tournaments.test_admin import settings_form
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import League, Tournament
from tournaments.services import rounds, sweeps

pytestmark = pytest.mark.django_db

FOREVER = timedelta(days=999_999_999)
# Beyond the bounds and beyond any date (today plus it is past the year 9999), yet a
# duration every database stores (SQLite keeps microseconds in 64 bits: FOREVER's overflow).
UNDATEABLE = timedelta(days=9_999_999)
FAR = datetime(9999, 12, 31, 23, 0, tzinfo=timezone.get_current_timezone())

OUT_OF_BOUNDS = [
    ({"round_time": FOREVER}, "allow a round an hour to 365 days"),
    ({"decision_time": FOREVER}, "at most 30 days"),
    ({"retreat_time": FOREVER}, "at most 30 days"),
    ({"time_control": "bank", "bank_time": FOREVER}, "at most 30 days"),
    ({"time_control": "bank", "increment": FOREVER}, "at most 30 days"),
    ({"bank_time": FOREVER}, "at most 30 days"),  # kept even while the time is fixed
    ({"missed_limit": 40_000}, "20 missed decisions"),
    ({"swiss_rounds": 40_000}, "a Swiss has 1 to 30 rounds"),
    ({"format": "swiss_cut", "cut_size": 40_000}, "a top cut takes 2 to 10,000 players"),
    ({"advance_per_table": 40_000}, "of each table"),
    ({"cap": 10**12}, "a cap is 1 to 10,000 players"),
    ({"late_join_until_round": 40_000}, "late joins end before round 0"),
    ({"starts_at": FAR}, "at most five years ahead"),
    ({"registration_closes_at": FAR}, "at most five years ahead"),
    ({"check_in_opens_at": FAR}, "at most five years ahead"),
]


@pytest.mark.parametrize(("settings", "message"), OUT_OF_BOUNDS)
def test_a_setting_out_of_bounds_is_refused_and_nothing_is_saved(
    league_a: League, anna: Any, settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(TournamentError, match=message):
        services.create_tournament(league_a, anna, "Endless", **settings)

    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("settings", "message"), OUT_OF_BOUNDS)
def test_an_edit_out_of_bounds_is_refused_and_changes_nothing(
    league_a: League, anna: Any, settings: dict[str, Any], message: str
) -> None:
    event = services.create_tournament(league_a, anna, "Bounded", format="swiss_cut", cut_size=8)
    before = Tournament.objects.filter(pk=event.pk).values().get()

    with pytest.raises(TournamentError, match=message):
        services.update_tournament(event, anna, **settings)

    assert Tournament.objects.filter(pk=event.pk).values().get() == before


def test_the_longest_round_time_still_starts_the_event(league_a: League, anna: Any) -> None:
    event = bot_event(
        league_a, anna, 4, round_time=timedelta(days=365), decision_time=timedelta(days=30)
    )

    made = rounds.start(event.pk)

    assert made is not None and made.deadline is not None
    assert made.deadline - made.started_at == timedelta(days=365)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("round_time", "999999999 00:00:00", "Allow a round an hour to 365 days."),
        ("decision_time", "999999999 00:00:00", "Allow a decision a minute to 30 days."),
        ("bank_time", "31 00:00:00", "A time bank holds at most 30 days."),
        ("increment", "999999999 00:00:00", "An increment is none to 30 days."),
        ("missed_limit", "32767", "A player forfeits after 1 to 20 missed decisions."),
        ("swiss_rounds", "32767", "A Swiss has 1 to 30 rounds"),
        ("cap", "999999999", "A cap is 1 to 10,000 players"),
        ("late_join_until_round", "32767", "Late joins end before round 0 (none) to 30."),
        ("starts_at_0", "9999-12-31", "An event&#x27;s dates are at most five years ahead."),
    ],
)
def test_the_admin_form_tells_a_setting_out_of_bounds_beside_its_field(
    league_a: League, anna: Any, field: str, value: str, message: str
) -> None:
    client = Client()
    client.force_login(anna)
    form = settings_form(league_a, **{field: value})
    if field == "starts_at_0":
        form["starts_at_1"] = "12:00"

    response = client.post(reverse("admin:tournaments_tournament_add"), form)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert field.removesuffix("_0") in errors
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_event_saved_before_the_bounds_is_refused_at_its_start_with_the_reason(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 4)
    Tournament.objects.filter(pk=event.pk).update(
        round_time=UNDATEABLE, starts_at=timezone.now() - timedelta(minutes=1)
    )

    with pytest.raises(TournamentError, match="allow a round an hour to 365 days"):
        services.start_event(event, anna)
    sweeps.sweep()  # the start time has passed: the sweep leaves it to an organiser

    event.refresh_from_db()
    assert event.status == Tournament.Status.REGISTRATION and not event.rounds.exists()
