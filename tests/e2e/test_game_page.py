"""The game page in a real browser, on a phone (390 px) and a desktop (1280 px): the board
first, then the decision, then the log; what a one-click decision did; the page following
the game while another player moves."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import links, services
from games.models import Game
from tests.e2e.test_player_journeys import make_player, signed_in_context
from tests.games import test_pages_support as support
from ww5 import engine

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def game_in_play(rounds: int = 0) -> Game:
    """Alice (blue) against bob (purple), their strict setup played and then ``rounds``
    rounds of quiet moves (one each): alice decides."""
    users = get_user_model().objects
    alice, bob = users.get(username="alice"), users.get(username="bob")
    game = support.set_up(support.started_game(alice, bob), alice, bob)
    for _ in range(rounds):
        for user in (alice, bob):
            services.submit_move(game.pk, user, quiet_move(game), game.turn_number)
            game.refresh_from_db()
    return game


def quiet_move(game: Game) -> str:
    """A move between a player's own territories that keeps their home held."""
    state = services.state_of(game)
    for action in engine.legal_actions(state):
        if action.startswith("move") and not engine.eliminates_mover(state, action):
            return action
    raise AssertionError("no quiet move")


@pytest.fixture
def players(django_user_model: Any, request: pytest.FixtureRequest) -> None:
    real_dice = services.use_dice(random.Random(7))
    request.addfinalizer(lambda: services.use_dice(real_dice))
    make_player(django_user_model, "alice")
    make_player(django_user_model, "bob")


def first_legal(game: Game, verb: str) -> str:
    return next(a for a in engine.legal_actions(services.state_of(game)) if a.startswith(verb))


def top(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box["y"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_the_board_comes_first_then_the_decision_then_the_folded_log(
    browser: Browser, live_server: LiveServer, players: None, screenshot: Any, size: Any
) -> None:
    game = game_in_play(rounds=3)
    context = signed_in_context(browser, live_server.url, "alice")
    page = context.pages[0]
    page.set_viewport_size(size)

    page.goto(reverse("games:detail", args=[game.pk]))

    assert top(page, "#live-board") < top(page, "#decision") < top(page, "#live-log")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    # the log shows its last moves; the earlier ones are folded away
    expect(page.locator("details.log-earlier")).not_to_have_attribute("open", "")
    expect(page.locator("details.log-earlier summary")).to_contain_text("Earlier moves")
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"game page at {size['width']} px: {height} CSS pixels tall")
    assert height < 6000
    # every piece is drawn over a white halo, so it stands out on its own continent
    pieces = page.locator("svg.board polygon.piece").count()
    assert pieces > 0
    assert page.locator("svg.board polygon.piece-halo").count() == pieces
    screenshot(page, f"game-page-{size['width']}px")
    context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_a_one_click_decision_shows_its_dice_and_whose_decision_it_is_now(
    browser: Browser, live_server: LiveServer, players: None, screenshot: Any, size: Any
) -> None:
    game = game_in_play()
    seat = game.to_move
    invade = first_legal(game, "invade")
    context = browser.new_context(base_url=live_server.url, viewport=size)
    page = context.new_page()

    page.goto(reverse("games:decide", args=[links.token_for(game, seat)]))
    page.locator(f'#decision input[name=action][value="{invade}"]').check()
    page.get_by_role("button", name="Submit my decision").click()

    outcome = page.locator("#outcome")
    expect(outcome).to_contain_text("What happened")
    expect(outcome).to_contain_text(" rolls ")  # the dice
    expect(outcome).to_contain_text("the attack")  # its outcome
    game.refresh_from_db()
    now = "It is your decision again." if game.to_move_id == seat.pk else "waits for bob"
    expect(outcome.locator(".outcome-now")).to_contain_text(now)
    screenshot(page, f"one-click-outcome-{size['width']}px")
    context.close()


@pytest.mark.django_db(transaction=True)
def test_the_page_shows_another_players_move_without_a_reload(
    browser: Browser,
    live_server: LiveServer,
    players: None,
    screenshot: Any,
    settings: Any,
) -> None:
    settings.GAME_PAGE_POLL_SECONDS = 1
    game = game_in_play()
    alice = get_user_model().objects.get(username="alice")
    context = signed_in_context(browser, live_server.url, "bob")
    page = context.pages[0]
    page.set_viewport_size(PHONE)
    page.goto(reverse("games:detail", args=[game.pk]))
    expect(page.locator("#live-status")).to_contain_text("waits for alice")
    expect(page.get_by_role("heading", name="Your decision")).to_have_count(0)
    page.evaluate("window.notReloaded = true")

    move = services.submit_move(game.pk, alice, first_legal(game, "move"), game.turn_number)

    expect(page.get_by_role("heading", name="Your decision")).to_be_visible(timeout=8_000)
    expect(page.locator("#live-log")).to_contain_text("alice (blue) moves")
    expect(page.locator("#live-status")).to_contain_text("waits for bob")
    assert page.evaluate("window.notReloaded") is True
    assert move.move.number > 0
    screenshot(page, "game-page-updated-390px")
    context.close()


@pytest.mark.django_db(transaction=True)
def test_with_scripts_off_the_page_works_and_a_reload_shows_the_change(
    browser: Browser, live_server: LiveServer, players: None
) -> None:
    game = game_in_play()
    alice = get_user_model().objects.get(username="alice")
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Login").fill("bob")
    page.get_by_label("Password").fill("correct horse battery staple")
    page.get_by_role("button", name="Sign In").click()
    page.goto(reverse("games:detail", args=[game.pk]))
    expect(page.locator("#live-status")).to_contain_text("waits for alice")

    services.submit_move(game.pk, alice, first_legal(game, "move"), game.turn_number)
    page.reload()

    expect(page.get_by_role("heading", name="Your decision")).to_be_visible()
    expect(page.locator("#live-log")).to_contain_text("alice (blue) moves")
    context.close()
