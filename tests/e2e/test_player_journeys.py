"""A player's journeys in a real browser: a game against bots started from the lobby,
a move sent after signing out in another tab, and resigning."""

from __future__ import annotations

import random
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Game, GameEvent, Move

PASSWORD = "correct horse battery staple"


def make_player(django_user_model: Any, name: str) -> None:
    user = django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def sign_in(page: Page, name: str) -> None:
    """On the sign-in page: fill it in and send it."""
    page.get_by_label("Login").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()


def signed_in_context(browser: Browser, site: str, name: str) -> BrowserContext:
    context = browser.new_context(base_url=site)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto("/accounts/login/")
    sign_in(page, name)
    expect(page.get_by_role("navigation").get_by_role("link", name=name)).to_be_visible()
    return context


def decide_first_choice(page: Page) -> str:
    """Submit the first action the decision form offers; returns it."""
    action = page.locator("#decision input[name=action]").first.get_attribute("value") or ""
    page.locator(f'#decision input[name=action][value="{action}"]').check()
    page.get_by_role("button", name="Submit my decision").click()
    expect(page.locator(".messages")).to_contain_text("Your decision was recorded")
    return action


@pytest.mark.django_db(transaction=True)
def test_a_player_plays_bots_from_the_lobby_moves_after_signing_out_and_resigns(
    browser: Browser,
    live_server: LiveServer,
    django_user_model: Any,
    request: pytest.FixtureRequest,
) -> None:
    real_dice = services.use_dice(random.Random(7))
    request.addfinalizer(lambda: services.use_dice(real_dice))
    make_player(django_user_model, "alice")
    context = signed_in_context(browser, live_server.url, "alice")
    page = context.pages[0]

    # One step from the lobby: a started game against a greedy bot.
    page.get_by_role("navigation").get_by_role("link", name="Games").click()
    bots = page.locator("form.play-bots")
    bots.get_by_label("Opponents").select_option("1")
    bots.get_by_label("Bots").select_option("greedy")
    bots.get_by_role("button", name="Play").click()
    expect(page.locator(".messages")).to_contain_text("has started")
    expect(page.get_by_role("heading", name="Your decision")).to_be_visible()
    game = Game.objects.get(creator__username="alice")
    game_url = page.url.split("#")[0]

    # The lobby's link leads to the game waiting for her.
    page.goto("/games/")
    page.get_by_role("link", name="Next game where it is your turn").click()
    expect(page.get_by_role("heading", name="Your decision")).to_be_visible()

    # She signs out in another tab, then sends a move from this one: after signing in
    # again she is back on the game page with her choice, not on a blank page.
    other = context.new_page()
    other.goto("/games/")
    other.get_by_role("button", name="Sign out").click()
    action = page.locator("#decision input[name=action]").nth(1).get_attribute("value") or ""
    page.locator(f'#decision input[name=action][value="{action}"]').check()
    page.get_by_role("button", name="Submit my decision").click()
    expect(page.get_by_label("Login")).to_be_visible()
    sign_in(page, "alice")
    expect(page.get_by_role("heading", name="Your decision")).to_be_visible()
    expect(page.locator(f'#decision input[name=action][value="{action}"]')).to_be_checked()
    assert not Move.objects.filter(game=game, player__username="alice").exists()
    page.get_by_role("button", name="Submit my decision").click()
    expect(page.locator(".messages")).to_contain_text("Your decision was recorded")

    # The rest of the setup; the bot answers each placement at once.
    for _ in range(2):
        page.goto(game_url)
        decide_first_choice(page)
    page.goto(game_url)
    expect(page.locator("p.game-facts")).to_contain_text("In play")

    # Resigning asks for a confirmation first.
    resign = page.locator("section.resign")
    resign.get_by_role("button", name="Resign").click()
    expect(page.locator("p.result")).to_have_count(0)  # the browser asked for the tick
    resign.get_by_label("Yes, I resign").check()
    resign.get_by_role("button", name="Resign").click()
    expect(page.locator(".messages")).to_contain_text("You resigned")
    expect(page.locator("p.result")).to_contain_text("won.")
    expect(page.locator("#live-log")).to_contain_text("resigned")

    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.winner is not None and game.winner.bot
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.RESIGN).count() == 1
    hers = Move.objects.filter(game=game, player__username="alice", source="web")
    assert [m.action.split()[0] for m in hers.order_by("number")] == ["place"] * 3 + ["forfeit"]
    context.close()
