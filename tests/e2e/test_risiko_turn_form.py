"""RisiKo's decision form in a real browser on a phone (390 px): a player builds a turn
from its fields (armies to place, an attack until conquered, the end), reads the odds,
submits, and reads the report line by line; the page never scrolls sideways."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Game
from games.options import GameOptions
from risiko import engine
from risiko.kind import RisiKo
from tests.e2e.test_player_journeys import make_player, signed_in_context
from tests.kinds.registered import registered

PHONE = {"width": 390, "height": 844}
NAMES = ("alice", "bob", "carol")  # red, blue, yellow


@pytest.fixture
def risiko_table(django_user_model: Any, request: pytest.FixtureRequest) -> Iterator[Game]:
    """Alice, bob and carol at a RisiKo table, its sealed placement made: in play."""
    real_dice = services.use_dice(random.Random(11))
    request.addfinalizer(lambda: services.use_dice(real_dice))
    for name in NAMES:
        make_player(django_user_model, name)
    users = {u.username: u for u in get_user_model().objects.filter(username__in=NAMES)}
    with registered(RisiKo()) as kind:
        seats = [services.TableSeat("", user=users[name]) for name in NAMES]
        with transaction.atomic():
            game = services.create_table(GameOptions(kind=kind.key), seats, name="RisiKo night")
        for number, name in enumerate(NAMES, start=1):
            game.refresh_from_db()
            player = game.seats.get(number=number).player_name
            (action,) = kind.legal(kind.load(game.position), player)
            services.submit_move(game.pk, users[name], action, game.turn_number)
        game.refresh_from_db()
        yield game


def fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.django_db(transaction=True)
def test_a_player_builds_a_turn_with_the_form_on_a_phone(
    browser: Browser, live_server: LiveServer, risiko_table: Game, screenshot: Any
) -> None:
    game = risiko_table
    position = game.position
    player = position["turn"]["player"]
    name = next(s.user.username for s in game.seats.all() if s.player_name == player)
    spots = position["territories"]
    neighbours = engine.BOARDS[position["board"]].neighbors
    origin, target = next(
        (o, t)
        for o in sorted(spots)
        if spots[o]["owner"] == player and spots[o]["armies"] >= 2
        for t in sorted(neighbours[o])
        if spots[t]["owner"] != player
    )
    pool = position["turn"]["pool"]

    context = signed_in_context(browser, live_server.url, name)
    page = context.pages[0]
    page.set_viewport_size(PHONE)
    page.goto(reverse("games:detail", args=[game.pk]))

    form = page.locator("form.risiko-form")
    expect(form).to_be_visible()
    assert fits(page), "the page fits a phone's width"
    form.locator(f'input[name="place-{origin}"]').fill(str(pool))
    expect(form.locator("output.left")).to_have_text("0")
    form.locator('select[name="attack-1"]').select_option(f"{origin} {target}")
    form.locator('select[name="attack-1-stop"]').select_option("conquered")
    form.locator('select[name="attack-1-move"]').select_option("all")
    form.locator('input[name="end"]').check()
    form.locator("details", has_text="From").first.locator("summary").click()
    expect(form.locator("table.odds-table").first).to_be_visible()
    assert fits(page), "the form, its odds open, fits a phone's width"
    screenshot(page, "risiko-turn-form-390")

    form.get_by_role("button", name="Submit my turn").click()

    messages = page.locator(".messages")
    expect(messages).to_contain_text(f"“place {pool} {origin}”: done")
    expect(messages).to_contain_text(
        f"“attack {target} from {origin} until conquered move all”: done"
    )
    expect(messages).to_contain_text("“end”: done")
    assert fits(page)
    screenshot(page, "risiko-turn-report-390")
    game.refresh_from_db()
    assert game.position["turn"]["number"] == 2
    context.close()
