"""Names that link and provisional ratings, in the browser at 1280 and 390 pixels: a
visitor opens an event, follows a player's name from its standings to the player's page,
reads the provisional rating ("1138?") and what it means, and a bot's name stays plain.
Screenshots of the event page and the player page at both widths are kept."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from accounts.services import update_profile
from ratings.selectors import GLOBAL_MIN_GAMES, global_rating
from tests.e2e.test_two_players_play_a_game import DESKTOP, PHONE, PNG_SIGNATURE, fits_the_screen
from tests.personas import make_user
from tests.ratings.conftest import played
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import rounds, sweeps


def finished_event(django_user_model: Any) -> tuple[Tournament, list[Any], str]:
    """A one-round event of four people and a bot, played out through its deadline;
    returns it, its people and the bot's name."""
    anna = make_user(django_user_model, "anna")
    people = []
    for username, name in [
        ("alice", "Alice W."),
        ("bob", "Bob"),
        ("carol", "Carol"),
        ("erin", "Erin"),
    ]:
        user = make_user(django_user_model, username)
        update_profile(user, name, "UTC", "each")
        people.append(user)
    league = services.create_league("Names League", anna)
    event = services.create_tournament(league, anna, "Names Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for user in people:
        services.register(event, user)
    bot = services.add_bot(event, anna)
    rounds.start(event.pk)
    now = timezone.now()
    for _ in range(4):
        now += timedelta(days=30)
        sweeps.sweep(now)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    return event, people, bot.name


@pytest.mark.django_db(transaction=True)
def test_names_link_to_player_pages_and_a_provisional_rating_reads_as_such(
    browser: Browser,
    live_server: LiveServer,
    django_user_model: Any,
    screenshot: Callable[..., Path],
) -> None:
    event, (alice, bob, *_), bot_name = finished_event(django_user_model)
    played([alice, bob], [[1], [2]])  # alice: rated games, fewer than the minimum
    rating = global_rating(alice)
    assert rating is not None and rating["provisional"]
    assert rating["games"] < GLOBAL_MIN_GAMES
    games = f"{rating['games']} rated game{'s' if rating['games'] != 1 else ''}"
    title = (
        f"Provisional: {games} of the {GLOBAL_MIN_GAMES} it takes to settle, so one result "
        f"still moves it a lot. ± {rating['uncertainty']}: the player's true strength may "
        "lie this many points either side (three times the model's uncertainty); it "
        "shrinks with each game and grows a little each idle week."
    )

    for width, viewport in (("1280", DESKTOP), ("390", PHONE)):
        context = browser.new_context(base_url=live_server.url, viewport=viewport)
        context.set_default_timeout(10_000)
        page = context.new_page()

        page.goto("/tournaments/")
        page.get_by_role("link", name="Names Cup").click()
        expect(page.get_by_role("heading", name="Standings")).to_be_visible()
        fits_the_screen(page)
        # The bot's name is there, and is no link: a bot has no page.
        expect(page.locator("table.standings").get_by_text(bot_name)).to_be_visible()
        expect(page.get_by_role("link", name=bot_name)).to_have_count(0)
        # Every person's name in the standings and the round (its tables, or its bye: five
        # players at tables of 4 or 3 leave one out) is a link.
        for name in ("Alice W.", "Bob", "Carol", "Erin"):
            expect(page.locator("table.standings").get_by_role("link", name=name)).to_have_count(1)
            expect(page.locator("section.round").get_by_role("link", name=name)).to_have_count(1)
        assert screenshot(page, f"names-event-{width}").read_bytes().startswith(PNG_SIGNATURE)

        page.locator("table.standings").get_by_role("link", name="Alice W.").click()
        expect(page).to_have_url(f"{live_server.url}/players/alice/")
        expect(page.get_by_role("heading", level=1, name="Alice W.")).to_be_visible()
        fits_the_screen(page)

        shown = page.locator("span.rating.provisional").first
        expect(shown).to_have_text(f"{rating['rating']}?")
        expect(shown).to_have_attribute("title", title)
        shown.hover()
        expect(page.get_by_text("A rating followed by “?” is provisional")).to_be_visible()
        assert screenshot(page, f"names-player-{width}").read_bytes().startswith(PNG_SIGNATURE)
        context.close()
