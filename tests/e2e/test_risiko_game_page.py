"""RisiKo's game page in a real browser, on a phone (390 px) and a desktop (1280 px), as
World War 5's: the board first, then the decision, then the log folded after its last
moves, and no sideways scroll; every territory's disc outlined so that it stands out on
its continent; the players in the board's key linked to their pages; and the page
following the game while another player takes their turn, without a reload."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.kinds import kind_of
from games.models import Game
from risiko.picture_layout import NODE_OUTLINE
from tests.e2e.test_game_page import DESKTOP, PHONE, top
from tests.e2e.test_player_journeys import signed_in_context
from tests.e2e.test_risiko_turn_form import NAMES, fits, risiko_table

__all__ = ["risiko_table"]


def user_of(game: Game, player: str) -> Any:
    return next(seat.user for seat in game.seats.all() if seat.player_name == player)


def user_deciding(game: Game) -> Any:
    """The user whose decision the game waits for (one at a time once play began)."""
    (player,) = kind_of(game).deciders(kind_of(game).load(game.position))
    return user_of(game, player)


def default_move(game: Game) -> None:
    """The player to decide makes the first of their default actions (K35): their armies
    placed on their weakest territory, then the end of their turn."""
    kind = kind_of(game)
    user = user_deciding(game)
    seat = game.seats.get(user=user)
    action = kind.legal(kind.load(game.position), seat.player_name)[0]
    services.submit_move(game.pk, user, action, game.turn_number)
    game.refresh_from_db()


def played(game: Game, moves: int) -> Game:
    """The table after ``moves`` more default actions."""
    for _ in range(moves):
        default_move(game)
    return game


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_the_board_comes_first_then_the_decision_then_the_folded_log(
    browser: Browser, live_server: LiveServer, risiko_table: Game, screenshot: Any, size: Any
) -> None:
    game = played(risiko_table, 6)  # three turns: placed, then ended
    name = user_deciding(game).username
    context = signed_in_context_at(browser, live_server, name, size)
    page = context.pages[0]

    page.goto(reverse("games:detail", args=[game.pk]))

    expect(page.locator("form.risiko-form")).to_be_visible()
    assert top(page, "#live-board") < top(page, "#decision") < top(page, "#live-log")
    assert fits(page), "the page does not scroll sideways"
    expect(page.locator("details.log-earlier")).not_to_have_attribute("open", "")
    expect(page.locator("details.log-earlier summary")).to_contain_text("Earlier moves (3)")
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"RisiKo game page at {size['width']} px: {height} CSS pixels tall")
    assert height < 8000
    # every disc on the board has its dark outline, so it stands out on its continent
    discs = page.locator(".risiko-board g.territory > circle")
    assert discs.count() == 42
    strokes = discs.evaluate_all("cs => cs.map(c => c.getAttribute('stroke'))")
    assert set(strokes) == {NODE_OUTLINE}
    board = page.locator(".risiko-board svg").bounding_box()
    assert board is not None and board["width"] <= size["width"]
    # the key names each player by a link to their page
    key = page.locator("ul.risiko-key")
    for player in NAMES:
        expect(key.get_by_role("link", name=player, exact=True)).to_have_attribute(
            "href", f"/players/{player}/"
        )
    screenshot(page, f"risiko-game-page-{size['width']}px")
    context.close()


@pytest.mark.django_db(transaction=True)
def test_the_page_shows_another_players_turn_without_a_reload(
    browser: Browser, live_server: LiveServer, risiko_table: Game, screenshot: Any, settings: Any
) -> None:
    settings.GAME_PAGE_POLL_SECONDS = 1
    game = risiko_table
    mover = user_deciding(game)
    order = [p["name"] for p in game.position["players"]]
    after = order[(order.index(game.seats.get(user=mover).player_name) + 1) % len(order)]
    waiting = user_of(game, after)
    context = signed_in_context_at(browser, live_server, waiting.username, PHONE)
    page = context.pages[0]
    page.goto(reverse("games:detail", args=[game.pk]))
    expect(page.locator("#live-status")).to_contain_text(f"waits for {mover.username}")
    expect(page.get_by_role("heading", name="Your decision")).to_have_count(0)
    page.evaluate("window.notReloaded = true")

    played(game, 2)  # the mover places their armies and ends their turn

    expect(page.get_by_role("heading", name="Your decision")).to_be_visible(timeout=8_000)
    expect(page.locator("form.risiko-form")).to_be_visible()
    expect(page.locator("#live-log")).to_contain_text(f"{mover.username} (")
    expect(page.locator("#live-log")).to_contain_text("ends turn 1")
    expect(page.locator("#live-status")).to_contain_text(f"waits for {waiting.username}")
    assert page.evaluate("window.notReloaded") is True
    assert fits(page)
    screenshot(page, "risiko-game-page-updated-390px")
    context.close()


def signed_in_context_at(browser: Browser, live_server: LiveServer, name: str, size: Any) -> Any:
    context = signed_in_context(browser, live_server.url, name)
    context.pages[0].set_viewport_size(size)
    return context
