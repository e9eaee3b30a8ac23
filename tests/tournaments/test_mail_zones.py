"""An event's mails give its times in the reader's time zone, the zone named once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from accounts.services import update_profile
from mail.models import OutgoingMail
from tournaments import services
from tournaments.models import League, Tournament
from tournaments.services import sweeps

pytestmark = pytest.mark.django_db

CHECK_IN = datetime(2030, 1, 15, 17, 30, tzinfo=UTC)


@pytest.fixture
def event(league_a: League, anna: Any) -> Tournament:
    tournament = services.create_tournament(
        league_a, anna, "Winter Swiss", check_in_opens_at=CHECK_IN
    )
    services.open_registration(tournament, anna)
    tournament.refresh_from_db()
    return tournament


def in_zone(player: Any, zone: str) -> Any:
    """The player with ``zone`` chosen on their profile, as a new request loads them."""
    update_profile(player, player.get_username().title(), zone, "each")
    return type(player).objects.get(pk=player.pk)


def registered_mail(event: Tournament, player: Any) -> OutgoingMail:
    services.register(event, player)
    return OutgoingMail.objects.get(to_user=player, subject__contains="you are registered")


def test_the_registration_mail_gives_the_check_in_time_in_the_players_zone(
    event: Tournament, alice: Any
) -> None:
    mail = registered_mail(event, in_zone(alice, "Asia/Tokyo"))

    # 17:30 UTC is 02:30 the next day in Tokyo.
    assert "Check in from 16 Jan 2030 02:30 JST (Asia/Tokyo)" in mail.body_text
    assert "16 Jan 2030 02:30 JST (Asia/Tokyo)" in mail.body_html


def test_a_time_in_utc_names_its_zone_once_in_the_events_mails(event: Tournament, bob: Any) -> None:
    mail = registered_mail(event, in_zone(bob, "UTC"))

    assert "Check in from 15 Jan 2030 17:30 UTC:" in mail.body_text
    assert "UTC (UTC)" not in mail.body_text and "UTC (UTC)" not in mail.body_html


def test_the_check_in_mail_gives_the_start_in_the_players_zone(
    league_a: League, anna: Any, carol: Any
) -> None:
    carol = in_zone(carol, "America/Sao_Paulo")
    now = datetime.now(UTC)
    event = services.create_tournament(
        league_a,
        anna,
        "Spring Swiss",
        check_in_opens_at=now + timedelta(hours=1),
        starts_at=datetime(2030, 3, 1, 12, 0, tzinfo=UTC),
    )
    services.open_registration(event, anna)
    services.register(event, carol)
    sweeps.sweep(now=now + timedelta(hours=2))

    mail = OutgoingMail.objects.get(to_user=carol, subject__contains="check in now")
    assert "starts, at 1 Mar 2030 09:00 -03 (America/Sao_Paulo), is dropped" in mail.body_text
