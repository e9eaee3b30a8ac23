"""A tournament's pages on a phone: a finished Swiss of bots, its standings with every
tie-break and its rounds of tables, read at 390 pixels without scrolling sideways."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.test_two_players_play_a_game import DESKTOP, PHONE, PNG_SIGNATURE, fits_the_screen
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import rounds, sweeps


def finished_swiss(django_user_model: Any) -> Tournament:
    """Seven bots, two Swiss rounds, played out through the round deadlines."""
    from datetime import timedelta

    from django.utils import timezone

    anna = django_user_model.objects.create_user("anna", "anna@example.com", "x")
    league = services.create_league("Phone League", anna)
    event = services.create_tournament(league, anna, "Phone Cup", swiss_rounds=2)
    services.open_registration(event, anna)
    for _ in range(7):
        services.add_bot(event, anna)
    rounds.start(event.pk)
    now = timezone.now()
    for _ in range(4):
        now += timedelta(days=30)
        sweeps.sweep(now)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    return event


@pytest.mark.django_db(transaction=True)
def test_a_finished_swiss_reads_on_a_phone(
    browser: Browser,
    live_server: LiveServer,
    django_user_model: Any,
    screenshot: Callable[..., Path],
) -> None:
    event = finished_swiss(django_user_model)
    context = browser.new_context(base_url=live_server.url, viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()

    page.goto("/tournaments/")
    page.get_by_role("link", name="Phone Cup").click()
    expect(page.get_by_role("heading", name="Standings")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    assert screenshot(page, "tournament-1280").read_bytes().startswith(PNG_SIGNATURE)

    page.set_viewport_size(PHONE)
    page.reload()
    fits_the_screen(page)
    assert screenshot(page, "tournament-390").read_bytes().startswith(PNG_SIGNATURE)
    first_line = page.locator("table.standings tbody tr").first
    expect(first_line.locator("td[data-label='Opponents\\' average']")).to_be_visible()
    page.get_by_role(
        "link", name=f"Game {event.rounds.get(number=1).tables.first().game_id}"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    fits_the_screen(page)
    context.close()
