"""Two players sign up, meet in the lobby and play a whole game in a real browser.

Alice and Bob each use their own browser context (their own cookies, so their own
session). They act only through the pages; the test reads whose decision it is from
the page, and checks the database only at the end. The dice are a seeded generator,
so the game is the same every run.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games import services
from games.models import Game, Move
from mail.models import OutgoingMail
from ww5 import boardshapes
from ww5.engine import BOARDS

PASSWORD = "correct horse battery staple"
GAME_NAME = "Alice against Bob"
SEED = 5
MAX_DECISIONS = 40
CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/accounts/confirm-email/[^/\s]+/)")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BOARD = BOARDS["original"]
HOME = {"alice": "north-america", "bob": "europe"}


def territories_of(continent: str) -> set[str]:
    members = BOARD.continent_territories[BOARD.continent_index[continent]]
    return {BOARD.territories[t] for t in members}


@dataclass
class Player:
    name: str
    page: Page

    @property
    def email(self) -> str:
        return f"{self.name}@example.com"


@dataclass
class Played:
    """What the players did, to compare with the log, the record and the database."""

    decisions: int = 0
    typed: int = 0
    chosen: int = 0
    invades: int = 0
    confirmed_eliminations: int = 0


# --- accounts ------------------------------------------------------------------------


def sign_up_and_sign_in(browser: Browser, site: str, name: str, outbox: list) -> Player:
    context = browser.new_context(base_url=site)
    context.set_default_timeout(10_000)
    player = Player(name, context.new_page())
    page = player.page
    page.goto("/")
    page.get_by_role("navigation").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill(name)
    page.get_by_label("Email").fill(player.email)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("heading", name="Confirm your email address")).to_be_visible()

    page.goto(confirmation_path(outbox, player.email))
    expect(page.get_by_text(player.email)).to_be_visible()
    page.get_by_role("button", name="Confirm").click()

    page.get_by_role("navigation").get_by_role("link", name="Sign in").click()
    page.get_by_label("Login").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("heading", name="Games", exact=True)).to_be_visible()
    expect(page.get_by_role("navigation").get_by_role("link", name=name)).to_be_visible()
    return player


def confirmation_path(outbox: list[mail.EmailMessage], email: str) -> str:
    message = next(m for m in reversed(outbox) if m.to == [email])
    found = CONFIRM_LINK.search(message.body)
    assert found, message.body
    return found.group(1)


# --- opening the game ----------------------------------------------------------------


def the_form_shows_what_applies(page: Page) -> None:
    """The new-game form hides the warning and the fields the choices made leave out."""
    warning = page.locator("p.many-players")
    decision_time = page.get_by_label("Time allowed per decision (hours)")
    bank = page.get_by_label("Each player's time bank (hours)")
    expect(warning).to_be_hidden()  # two players
    expect(decision_time).to_be_visible()
    expect(bank).to_be_hidden()  # a fixed time per decision
    page.get_by_label("Players:", exact=True).select_option("5")
    expect(warning).to_be_visible()
    page.get_by_label("A time bank per player").check()
    expect(bank).to_be_visible()
    expect(decision_time).to_be_hidden()
    page.get_by_label("Random at the start").check()
    expect(page.get_by_label("Your home continent")).to_be_hidden()
    page.get_by_label("A fixed time for each decision").check()
    page.get_by_label("Players choose in join order").check()


def create_game(alice: Player) -> str:
    page = alice.page
    page.get_by_role("navigation").get_by_role("link", name="New game").click()
    the_form_shows_what_applies(page)
    page.get_by_label("Name:", exact=True).fill(GAME_NAME)
    page.get_by_label("Players:", exact=True).select_option("2")
    page.get_by_label("Board:", exact=True).select_option("original")
    page.get_by_label("Setup:", exact=True).select_option("strict")
    page.get_by_label("Players choose in join order").check()
    page.get_by_label("Your home continent").select_option(HOME["alice"])
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_role("heading", name=GAME_NAME)).to_be_visible()
    expect(page.get_by_text(f"Your game “{GAME_NAME}” is open for players.")).to_be_visible()
    return page.url


def join_from_the_lobby(bob: Player) -> None:
    page = bob.page
    page.get_by_role("navigation").get_by_role("link", name="Games").click()
    open_games = page.locator("section", has=page.get_by_role("heading", name="Open games"))
    open_games.get_by_role("link", name=GAME_NAME).click()
    page.get_by_label("Your home continent").select_option(HOME["bob"])
    page.get_by_role("button", name="Join this game").click()
    expect(page.get_by_text(f"You joined “{GAME_NAME}”.")).to_be_visible()


# --- playing -------------------------------------------------------------------------


def waiting_for(page: Page) -> str | None:
    """The name of the player the game waits for, as the page says; None once it is over."""
    waiting = page.locator("p.waiting strong")
    if waiting.count() == 0:
        return None
    return waiting.first.inner_text().strip()


def offered(page: Page) -> list[str]:
    """The canonical actions of the decision form's radio buttons."""
    return page.locator("#decision input[name=action]").evaluate_all(
        "inputs => inputs.map(input => input.value)"
    )


def typed_form(action: str) -> str:
    """The canonical action as a player might type it (the contract's lenient notation)."""
    verb, *rest = action.split()
    places = [word.replace("-", " ").title() for word in rest]
    if verb == "invade":
        return f"attack {places[0]} > {places[1]}"
    return f"{verb[0].upper()} " + " ".join(places)


def plan(player: Player, actions: list[str], played: Played) -> tuple[str, bool]:
    """The decision to take, and whether to type it rather than pick it from the list.

    Bob walks his pieces out of Europe one by one; Alice attacks once, then grows and
    builds at home. Setup placements and retreats take the first choice offered.
    """
    verb = actions[0].split()[0]
    if verb in ("place", "retreat"):
        return actions[0], player.name == "alice" and played.typed == 0
    if player.name == "bob":
        europe = territories_of("europe")
        leaving = [a for a in actions if a.startswith("move ") and a.split()[1] in europe]
        outward = [a for a in leaving if a.split()[2] not in europe]
        return (outward or leaving or actions)[0], False
    if played.invades == 0:
        invades = [a for a in actions if a.startswith("invade ")]
        if invades:
            return invades[0], True
    for prefix in ("grow ", "build "):
        for action in actions:
            if action.startswith(prefix):
                return action, False
    home = territories_of(HOME["alice"])
    safe = [a for a in actions if a.startswith("move ") and a.split()[1] not in home]
    return (safe or actions)[0], False


def decide(player: Player, game_url: str, played: Played) -> None:
    """The player opens the game page and submits the decision it waits for."""
    page = player.page
    page.goto(game_url)
    expect(page.get_by_role("heading", name="Your decision")).to_be_visible()
    turn = page.locator("#decision input[name=turn]").input_value()
    action, type_it = plan(player, offered(page), played)
    if type_it:
        page.get_by_label("Or type your move").fill(typed_form(action))
    else:
        page.locator(f'#decision input[name=action][value="{action}"]').check()
    # The page marks a choice that would leave the player's home continent empty.
    radio = page.locator(f'[value="{action}"]')
    eliminating = page.locator("label.eliminates", has=radio).count() > 0
    page.get_by_role("button", name="Submit my decision").click()

    if eliminating:
        # R15: the first submission only warns, and changes nothing.
        expect(page.locator(".messages .error")).to_contain_text("it eliminates you (R15)")
        assert page.locator("#decision input[name=turn]").input_value() == turn
        expect(page.locator(f'#decision input[name=action][value="{action}"]')).to_be_checked()
        page.get_by_label("I understand this eliminates me").check()
        page.get_by_role("button", name="Submit my decision").click()
        played.confirmed_eliminations += 1

    expect(page.locator(".messages")).to_contain_text("Your decision was recorded")
    played.decisions += 1
    played.typed += type_it
    played.chosen += not type_it
    played.invades += action.startswith("invade ")


def only_the_player_to_move_gets_a_decision_form(players: dict[str, Player], game_url: str) -> str:
    """Both open the game page: both read whose decision it is, only that one can decide."""
    waiting = {name: waiting_for_on(player.page, game_url) for name, player in players.items()}
    mover = waiting["alice"]
    assert mover is not None and waiting["bob"] == mover
    for name, player in players.items():
        form = player.page.get_by_role("heading", name="Your decision")
        expect(form).to_have_count(1 if name == mover else 0)
    return mover


def waiting_for_on(page: Page, game_url: str) -> str | None:
    page.goto(game_url)
    return waiting_for(page)


def a_mistyped_move_is_refused_and_changes_nothing(player: Player, game_url: str) -> None:
    page = player.page
    page.goto(game_url)
    turn = page.locator("#decision input[name=turn]").input_value()
    page.get_by_label("Or type your move").fill("place small atlantis")
    page.get_by_role("button", name="Submit my decision").click()
    expect(page.locator(".messages .error")).to_contain_text("Your move was not accepted")
    expect(page.locator(".messages .error")).to_contain_text("atlantis")
    assert page.locator("#decision input[name=turn]").input_value() == turn
    expect(page.get_by_text("No decision yet.")).to_be_visible()


def play_to_the_end(players: dict[str, Player], game_url: str) -> Played:
    played = Played()
    page = players["alice"].page
    page.goto(game_url)
    while (name := waiting_for(page)) is not None:
        assert played.decisions < MAX_DECISIONS, "the game should have ended by now"
        decide(players[name], game_url, played)
        page = players[name].page
    return played


# --- on a phone ----------------------------------------------------------------------

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
READABLE_PX = 12  # the least height on screen of a territory's name on the board
DECIDE_LINK = re.compile(r"https?://[^/\s]+(/games/decide/[^/\s]+/)")


def fits_the_screen(page: Page) -> None:
    """Nothing on the page makes it scroll sideways."""
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= page.evaluate("window.innerWidth"), page.url


def the_board_reads_on_a_phone(page: Page) -> None:
    """At phone width the board keeps its labels readable and pans inside its frame; the
    layout's estimate of each name's width holds in this browser's font."""
    names = page.locator("svg.board text.territory-name")
    heights = names.evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    assert len(heights) == len(BOARD.territories)
    assert min(heights) >= READABLE_PX
    assert page.locator(".board-wrap").evaluate("wrap => wrap.scrollWidth > wrap.clientWidth")
    widths = names.evaluate_all("els => els.map(e => [e.textContent, e.getBBox().width])")
    for text, width in widths:
        assert width <= boardshapes.text_width(text, boardshapes.NAME_SIZE), text


def the_decision_link_fits_a_phone(browser: Browser, site: str, email: str) -> None:
    """The one-click decision page of the player's decision mail (read from the outbox
    table the site sends from), opened on a phone."""
    mail = OutgoingMail.objects.filter(to_address=email, kind="decision").latest("id")
    found = DECIDE_LINK.search(mail.body_text)
    assert found, mail.body_text
    context = browser.new_context(base_url=site, viewport=PHONE)
    page = context.new_page()
    page.goto(found.group(1))
    expect(page.get_by_role("heading", name="Your decision")).to_be_visible()
    fits_the_screen(page)
    the_board_reads_on_a_phone(page)
    context.close()


def the_pages_fit_a_phone(page: Page, game_url: str, screenshot: Callable[..., Path]) -> None:
    """The game page at desktop and phone width (both kept as screenshots), then the
    other pages with tables or forms, at phone width."""
    page.set_viewport_size(DESKTOP)
    page.goto(game_url)
    assert screenshot(page, "game-page-1280").read_bytes().startswith(PNG_SIGNATURE)
    page.set_viewport_size(PHONE)
    page.goto(game_url)
    assert screenshot(page, "game-page-390").read_bytes().startswith(PNG_SIGNATURE)
    fits_the_screen(page)
    the_board_reads_on_a_phone(page)
    for path in ("/games/", f"{game_url}replay/?step=3", "/games/new/", "/accounts/profile/"):
        page.goto(path)
        fits_the_screen(page)


# --- the story -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_players_sign_up_and_play_a_game_to_the_end_in_the_browser(
    browser: Browser,
    live_server: LiveServer,
    mailoutbox: list,
    request: pytest.FixtureRequest,
    screenshot: Callable[[Page, str], Path],
) -> None:
    real_dice = services.use_dice(random.Random(SEED))
    request.addfinalizer(lambda: services.use_dice(real_dice))
    alice = sign_up_and_sign_in(browser, live_server.url, "alice", mailoutbox)
    bob = sign_up_and_sign_in(browser, live_server.url, "bob", mailoutbox)

    game_url = create_game(alice)
    join_from_the_lobby(bob)
    expect(bob.page.get_by_role("heading", name="Who starts (R5)")).to_be_visible()

    players = {"alice": alice, "bob": bob}
    first = only_the_player_to_move_gets_a_decision_form(players, game_url)
    the_decision_link_fits_a_phone(browser, live_server.url, players[first].email)
    a_mistyped_move_is_refused_and_changes_nothing(players[first], game_url)

    played = play_to_the_end(players, game_url)

    page = alice.page
    page.goto(game_url)
    expect(page.locator("p.result")).to_contain_text("alice (blue) won.")
    log = page.locator("table.log tbody tr")
    expect(log).to_have_count(played.decisions)
    invasion = log.filter(has_text="invades")
    expect(invasion.first).to_contain_text(re.compile(r"alice \(blue\) rolls [\d +]+ = \d+"))
    expect(log.filter(has_text="bob (purple) is eliminated")).to_have_count(1)

    record_link = page.get_by_role("link", name="Download the game record (JSON)")
    response = page.request.get(record_link.get_attribute("href") or "")
    assert response.ok
    record = json.loads(response.body())
    assert record["status"] == "over"
    assert record["winner"] == "blue"
    assert len(record["moves"]) == played.decisions
    assert any(move["action"].startswith("invade ") and move["dice"] for move in record["moves"])

    game = Game.objects.get(name=GAME_NAME)
    assert game.status == Game.Status.OVER
    assert game.winner is not None and game.winner.user.username == "alice"
    moves = Move.objects.filter(game=game)
    assert moves.filter(source=Move.Source.WEB).count() == moves.count() == played.decisions
    assert [m["action"] for m in record["moves"]] == [m.action for m in moves.order_by("number")]
    assert services.rebuild_position(game)
    assert played.typed >= 1 and played.chosen >= 1
    assert played.invades >= 1 and played.confirmed_eliminations == 1

    the_pages_fit_a_phone(page, game_url, screenshot)
