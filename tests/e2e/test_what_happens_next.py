"""What comes next, read in a real browser at 1280 and 390 pixels: a player whose table
is over is told how the round ends and what follows; an organiser sees the job that
started the event; a player who joins a ladder sees who else waits and when the next
table can form. Every page fits a phone without scrolling sideways."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services as games
from ratings.services import ladder as ladders
from tests.e2e.test_player_journeys import make_player, signed_in_context
from tests.e2e.test_two_players_play_a_game import DESKTOP, PHONE, PNG_SIGNATURE, fits_the_screen
from tournaments import services
from tournaments.models import TableSeat, Tournament
from tournaments.services import eventjobs

pytestmark = pytest.mark.django_db(transaction=True)


def at_both_sizes(page: Page, name: str, screenshot: Callable[..., Path]) -> None:
    page.set_viewport_size(DESKTOP)
    page.reload()
    assert screenshot(page, f"{name}-1280").read_bytes().startswith(PNG_SIGNATURE)
    page.set_viewport_size(PHONE)
    page.reload()
    fits_the_screen(page)
    assert screenshot(page, f"{name}-390").read_bytes().startswith(PNG_SIGNATURE)


def started_event(django_user_model: Any) -> Tournament:
    """Six players, tables of three, three Swiss rounds; started through a job."""
    for name in ("anna", "alice", "bob", "carol", "dave", "erin", "fred"):
        make_player(django_user_model, name)
    anna = django_user_model.objects.get(username="anna")
    league = services.create_league("Evening League", anna)
    event = services.create_tournament(league, anna, "Evening Cup", table_size=3, swiss_rounds=3)
    services.open_registration(event, anna)
    for name in ("alice", "bob", "carol", "dave", "erin", "fred"):
        services.register(event, django_user_model.objects.get(username=name))
    assert eventjobs.queue(event, anna, "start").state == "done"
    event.refresh_from_db()
    return event


def test_a_player_whose_table_is_over_reads_what_happens_next(
    browser: Browser,
    live_server: LiveServer,
    django_user_model: Any,
    screenshot: Callable[..., Path],
) -> None:
    event = started_event(django_user_model)
    seat = TableSeat.objects.get(entry__user__username="alice")
    names = [s.player_name for s in seat.table.game.seats.order_by("number")]
    games.adjudicate(seat.table.game_id, [[name] for name in names], "a test")
    path = f"/tournaments/leagues/{event.league.slug}/{event.slug}/"

    player = signed_in_context(browser, live_server.url, "alice").pages[0]
    player.goto(path)
    place = player.locator("section", has=player.get_by_role("heading", name="Your place"))
    expect(place).to_contain_text("your table is over")
    expect(place).to_contain_text("the round ends when the other table finishes")
    expect(place).to_contain_text("Then round 2 is paired from the standings and starts at once")
    expect(place).not_to_contain_text("checked in")
    at_both_sizes(player, "event-what-next", screenshot)

    organiser = signed_in_context(browser, live_server.url, "anna").pages[0]
    organiser.goto(path)
    jobs = organiser.locator("section.jobs")
    expect(jobs).to_contain_text("Start the event: done — started: round 1 is paired.")
    at_both_sizes(organiser, "event-jobs", screenshot)
    player.context.close()
    organiser.context.close()


def test_a_player_who_joins_a_ladder_sees_who_waits_and_when_a_table_forms(
    browser: Browser,
    live_server: LiveServer,
    django_user_model: Any,
    screenshot: Callable[..., Path],
) -> None:
    for name in ("anna", "alice", "bob"):
        make_player(django_user_model, name)
    anna = django_user_model.objects.get(username="anna")
    league = services.create_league("Ladder League", anna)
    ladder = ladders.create_ladder(league, anna, "Foursomes", player_count="4")
    ladders.join(ladder, django_user_model.objects.get(username="bob"))

    page = signed_in_context(browser, live_server.url, "alice").pages[0]
    page.goto(f"/ladders/{ladder.pk}/")
    page.get_by_role("button", name="Join the ladder").click()

    waiting = page.locator("section", has=page.get_by_role("heading", name="Waiting for a table"))
    expect(waiting.get_by_role("link", name="bob")).to_be_visible()
    expect(waiting.get_by_role("link", name="alice")).to_be_visible()
    expect(waiting).to_contain_text("A table needs 4 players: 2 more must join")
    expect(waiting).to_contain_text("Matchmaking runs next")
    at_both_sizes(page, "ladder-waiting", screenshot)
    page.context.close()
