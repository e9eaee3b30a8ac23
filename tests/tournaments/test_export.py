"""The standings as CSV: a display name a spreadsheet would read as a formula is
written as text."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.services import update_profile
from tests.personas import persona
from tests.tournaments.test_rounds import LATER
from tournaments import services
from tournaments.models import League, Tournament
from tournaments.services import rounds, sweeps

pytestmark = pytest.mark.django_db

erin = persona("erin")

FORMULAS = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)"]


def test_a_display_name_that_starts_a_formula_is_exported_as_text(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any, dave: Any, erin: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Formula Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for user, name in zip((alice, bob, carol, dave), FORMULAS, strict=True):
        update_profile(user, name, "UTC", "each")
        services.register(event, user)
    update_profile(erin, "Erin", "UTC", "each")
    services.register(event, erin)
    rounds.start(event.pk)
    sweeps.sweep(timezone.now() + LATER)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    client = Client()
    client.force_login(anna)

    download = client.get(reverse("admin:tournaments_tournament_standings", args=[event.pk]))

    rows = list(csv.reader(io.StringIO(download.content.decode())))
    names = {row[rows[0].index("player")] for row in rows[1:]}
    # Each formula's first character is escaped with a quote, as spreadsheets expect;
    # a plain name is left as it is.
    assert names == {"'" + name for name in FORMULAS} | {"Erin"}
    for row in rows[1:]:
        assert not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for cell in row)
