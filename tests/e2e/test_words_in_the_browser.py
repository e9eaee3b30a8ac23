"""Words people use, read in a browser at 1280 and 390 pixels: an event's rules and a
ladder's time control say durations, counts and meetings in words and name the board,
and an organiser types durations in the admin as people write them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from ratings.services import ladder as ladders
from tests.e2e.test_two_players_play_a_game import DESKTOP, PHONE, PNG_SIGNATURE, fits_the_screen
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import rounds


@pytest.mark.django_db(transaction=True)
def test_an_events_and_a_ladders_pages_say_times_and_counts_in_words(
    browser: Browser,
    live_server: LiveServer,
    django_user_model: Any,
    screenshot: Callable[..., Path],
) -> None:
    anna = django_user_model.objects.create_user("anna", "anna@example.com", "x")
    league = services.create_league("Words League", anna)
    event = services.create_tournament(
        league,
        anna,
        "Words Cup",
        format=Tournament.Format.ROUND_ROBIN,
        table_size=3,
        missed_limit=1,
    )
    services.open_registration(event, anna)
    for _ in range(3):
        services.add_bot(event, anna)
    rounds.start(event.pk)
    ladder = ladders.create_ladder(league, anna, "Words Ladder", decision_time=timedelta(hours=36))

    context = browser.new_context(base_url=live_server.url, viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    for width, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page.set_viewport_size(viewport)
        page.goto(f"/tournaments/leagues/{league.slug}/{event.slug}/")
        rules = page.locator("ul.rules")
        expect(rules).to_contain_text("Board: Original (2008);")
        expect(rules).to_contain_text("at its deadline (14 days after it starts)")
        expect(rules).to_contain_text("misses 1 turn of a game")
        expect(page.get_by_text("each pair meets once")).to_be_visible()
        assert "0:00:00" not in page.content()
        fits_the_screen(page)
        assert screenshot(page, f"words-event-{width}").read_bytes().startswith(PNG_SIGNATURE)

        page.goto(f"/ladders/{ladder.pk}/")
        expect(page.get_by_text("1 day, 12 hours per decision")).to_be_visible()
        expect(page.get_by_text("Original (2008)")).to_be_visible()
        fits_the_screen(page)
        assert screenshot(page, f"words-ladder-{width}").read_bytes().startswith(PNG_SIGNATURE)
    context.close()


@pytest.mark.django_db(transaction=True)
def test_an_organiser_types_durations_in_words_in_the_admin(
    browser: Browser,
    live_server: LiveServer,
    django_user_model: Any,
    screenshot: Callable[..., Path],
) -> None:
    anna = django_user_model.objects.create_user("anna", "anna@example.com", "pw-anna-12345")
    anna.is_staff = True
    anna.save()
    league = services.create_league("Admin League", anna)
    event = services.create_tournament(league, anna, "Typed Cup")

    context = browser.new_context(base_url=live_server.url, viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto("/admin/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "pw-anna-12345")
    page.click("input[type=submit]")
    page.goto(f"/admin/tournaments/tournament/{event.pk}/change/")
    expect(page.locator("#id_round_time")).to_have_value("14d")
    expect(page.locator("#id_retreat_time")).to_have_value("12h")
    expect(page.locator("#id_board option:checked")).to_have_text("Original (2008)")
    page.fill("#id_decision_time", "1d 12h")
    page.fill("#id_round_time", "10 days")
    page.click("input[name=_continue]")
    expect(page.locator("#id_decision_time")).to_have_value("1d 12h")
    expect(page.locator("#id_round_time")).to_have_value("10d")
    assert screenshot(page, "words-admin-1280").read_bytes().startswith(PNG_SIGNATURE)

    page.set_viewport_size(PHONE)
    page.fill("#id_round_time", "soon")
    page.click("input[name=_continue]")
    expect(
        page.get_by_text('Write a duration such as "2d", "12h", "90 min" or "1d 12h".')
    ).to_be_visible()
    assert screenshot(page, "words-admin-390").read_bytes().startswith(PNG_SIGNATURE)
    context.close()
    event.refresh_from_db()
    assert event.decision_time == timedelta(days=1, hours=12)
    assert event.round_time == timedelta(days=10)
