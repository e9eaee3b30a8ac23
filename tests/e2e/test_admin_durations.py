"""Durations in the admin, read in a browser at 1280 and 390 pixels: a started event's
settings and a game's options read "2d", "1d 12h", read-only or in their fields, and an
organiser extends a game's deadline by a duration typed as people write it."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services as games
from games.models import Game
from tests.e2e.test_two_players_play_a_game import DESKTOP, PHONE, PNG_SIGNATURE
from tournaments import services
from tournaments.models import Tournament

PASSWORD = "pw-anna-12345"
CLOCK = re.compile(r"\d+ days?, \d|\d+:\d\d:\d\d")  # "2 days, 0:00:00", "12:00:00"


def sign_in(page: Page, username: str) -> None:
    page.goto("/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")


def shown(page: Page, name: str) -> Any:
    return page.locator(f".field-{name} .readonly")


@pytest.mark.django_db(transaction=True)
def test_an_organiser_reads_and_types_durations_in_the_admin(
    browser: Browser,
    live_server: LiveServer,
    django_user_model: Any,
    screenshot: Callable[..., Path],
) -> None:
    anna = django_user_model.objects.create_user("anna", "anna@example.com", PASSWORD)
    anna.is_staff = True
    anna.save()
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    league = services.create_league("Admin League", anna)
    event = services.create_tournament(
        league, anna, "Started Cup", retreat_time=timedelta(minutes=90), swiss_rounds=1
    )
    services.open_registration(event, anna)
    # People, not bots: a table of bots may finish the event before the page is read.
    for name in ("carl", "dina", "emil", "fay"):
        player = django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        services.register(event, player)
    services.start_event(event, anna)
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING
    game = games.create_game(
        anna,
        name="Anna v Bob",
        home="europe",
        time_control="bank",
        decision_time=timedelta(days=1, hours=12),
        bank_time=timedelta(days=3),
        increment=timedelta(hours=12),
    )
    games.join_game(game.pk, bob, home="asia")
    game.refresh_from_db()
    deadline = game.deadline
    assert deadline is not None

    context = browser.new_context(base_url=live_server.url, viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    sign_in(page, "anna")
    for width, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page.set_viewport_size(viewport)
        page.goto(f"/admin/tournaments/tournament/{event.pk}/change/")
        expect(shown(page, "decision_time")).to_have_text("2d")
        expect(shown(page, "retreat_time")).to_have_text("1h 30min")
        expect(shown(page, "increment")).to_have_text("1d")
        # a running event's round time may still change (from its next round), and its
        # field shows the duration as people write it
        expect(page.locator("#id_round_time")).to_have_value("14d")
        assert not CLOCK.search(page.locator("#content-main").inner_text())
        assert (
            screenshot(page, f"admin-durations-event-{width}")
            .read_bytes()
            .startswith(PNG_SIGNATURE)
        )

        page.goto(f"/admin/games/game/{game.pk}/change/")
        expect(shown(page, "decision_time")).to_have_text("1d 12h")
        expect(shown(page, "bank_time")).to_have_text("3d")
        expect(page.locator("td.field-bank_left").first).to_have_text("3d")
        assert not CLOCK.search(page.locator("#content-main").inner_text())
        assert (
            screenshot(page, f"admin-durations-game-{width}").read_bytes().startswith(PNG_SIGNATURE)
        )

    page.get_by_role("button", name="Extend the deadline…").click()
    expect(page.locator("#id_extension")).to_have_value("1d")
    page.fill("#id_extension", "soon")
    page.get_by_role("button", name="Extend the deadline").click()
    expect(
        page.locator(".errorlist").get_by_text(
            'Write a duration such as "2d", "12h", "90 min" or "1d 12h".'
        )
    ).to_be_visible()
    assert (
        screenshot(page, "admin-durations-extend-refused-390")
        .read_bytes()
        .startswith(PNG_SIGNATURE)
    )
    assert Game.objects.get(pk=game.pk).deadline == deadline

    page.set_viewport_size(DESKTOP)
    page.fill("#id_extension", "1d 12h")
    page.get_by_role("button", name="Extend the deadline").click()
    expect(page.get_by_text("Anna v Bob: deadline extended by 1 day, 12 hours.")).to_be_visible()
    assert screenshot(page, "admin-durations-extended-1280").read_bytes().startswith(PNG_SIGNATURE)
    context.close()
    assert Game.objects.get(pk=game.pk).deadline == deadline + timedelta(hours=36)
