"""A small event in a real browser: an organiser sets it up in the admin and opens
registration, three players register and check in on the tournament's page, the
organiser starts it, and the player who moves first opens their table's game from the
tournament's page and makes the first setup placement."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game, Move
from tests.e2e.test_player_journeys import (
    PASSWORD,
    decide_first_choice,
    make_player,
    signed_in_context,
)
from tournaments import services
from tournaments.models import Entry, Tournament

PLAYERS = ("alice", "bob", "carol")
EVENT = "Spring Cup"
EVENT_PATH = "/tournaments/leagues/amsterdam-pyramids/spring-cup/"


def organiser_in_the_admin(browser: Browser, site: str) -> Page:
    context = browser.new_context(base_url=site)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto("/admin/login/")
    page.locator("#id_username").fill("anna")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Tournaments", exact=True).first).to_be_visible()
    return page


def create_the_event(page: Page) -> None:
    page.goto("/admin/tournaments/tournament/add/")
    page.get_by_label("League:").select_option(label="Amsterdam Pyramids")
    page.get_by_label("Name:").fill(EVENT)
    page.get_by_label("Swiss rounds:").fill("1")
    page.get_by_label("Format:").select_option("swiss")
    # Check-in opened yesterday (in the site's zone: any zone's yesterday is past).
    yesterday = timezone.localdate() - timedelta(days=1)
    page.locator("#id_check_in_opens_at_0").fill(yesterday.isoformat())
    page.locator("#id_check_in_opens_at_1").fill("00:00:00")
    expect(page.get_by_label("Board:")).to_have_value("original")  # the defaults stand
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text(f"“{EVENT}” was added successfully")


def run_action(page: Page, action: str, said: str) -> None:
    """On the list of tournaments: tick the event, run the action, read its message."""
    page.goto("/admin/tournaments/tournament/")
    row = page.locator("#result_list tbody tr", has_text=EVENT)
    row.locator("input[name=_selected_action]").check()
    page.locator("select[name=action]").select_option(label=action)
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".messagelist")).to_contain_text(said)


def register_and_check_in(browser: Browser, site: str, name: str) -> BrowserContext:
    context = signed_in_context(browser, site, name)
    page = context.pages[0]
    page.goto(EVENT_PATH)
    expect(page.get_by_role("heading", name=EVENT)).to_be_visible()
    page.get_by_role("button", name="Register").click()
    expect(page.locator(".messages")).to_contain_text(f"You are registered for {EVENT}.")
    page.get_by_role("button", name="Check in").click()
    expect(page.locator(".messages")).to_contain_text("You are checked in.")
    expect(page.get_by_role("region", name="Your place")).to_contain_text("You are checked in.")
    return context


@pytest.mark.django_db(transaction=True)
def test_an_organiser_runs_a_small_event_and_its_players_play_round_one(
    browser: Browser, live_server: LiveServer, django_user_model: Any
) -> None:
    anna = django_user_model.objects.create_user("anna", "anna@example.com", PASSWORD)
    services.create_league("Amsterdam Pyramids", anna)  # site staff name its organiser
    for name in PLAYERS:
        make_player(django_user_model, name)

    admin = organiser_in_the_admin(browser, live_server.url)
    create_the_event(admin)
    run_action(
        admin, "Open registration for the selected events", f"{EVENT}: registration is open."
    )

    players = {name: register_and_check_in(browser, live_server.url, name) for name in PLAYERS}
    event = Tournament.objects.get(name=EVENT)
    assert set(event.entries.values_list("status", flat=True)) == {Entry.Status.CHECKED_IN}

    run_action(
        admin,
        "Start the selected events now (round 1 is paired)",
        f"{EVENT}: started: round 1 is paired.",
    )

    game = Game.objects.get(tournament_table__round__tournament=event)
    assert game.to_move is not None and game.to_move.user is not None
    first = game.to_move.user.get_username()
    page = players[first].pages[0]
    page.goto(EVENT_PATH)
    expect(page.get_by_role("link", name="open your game")).to_have_count(1)
    mine = page.locator("section", has=page.get_by_role("heading", name="Your place"))
    expect(mine).to_contain_text("your game at table 1, seat ")
    mine.get_by_role("link", name="open your game").click()
    expect(page.get_by_role("heading", name=f"{EVENT}, round 1, table 1")).to_be_visible()
    expect(page.get_by_role("heading", name="Your decision")).to_be_visible()
    action = decide_first_choice(page)

    move = Move.objects.get(game=game)
    assert move.action == action and action.startswith("place ")
    assert move.player.get_username() == first and move.source == Move.Source.WEB
    for context in players.values():
        context.close()
    admin.context.close()
