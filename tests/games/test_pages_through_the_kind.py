"""World War 5's game pages come through its kind: the game page, its live fragment, the
replay and the decision link's page include the kind's ``ww5/position.html`` for each of
their parts (its styles, the board, the position in words, its script), with the board,
its key and tables as they were; the seats table gives colours and homes from the kind;
the finished list names the options in the kind's words."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games import links, services
from games.models import Game
from tests.games import test_pages_support as support
from tests.games.test_pages_support import client_for

pytestmark = pytest.mark.django_db

alice, bob, carol = support.alice, support.bob, support.carol

WW5_TEMPLATES = {"ww5/position.html", "ww5/_board.html", "ww5/_position_tables.html"}
BOARD_SECTION = '<section id="live-board" class="board-first" aria-labelledby="board-heading"'


@pytest.fixture
def in_play(alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Alice (blue) and bob (purple) after their strict setup, in play."""
    return support.set_up(support.started_game(alice, bob), alice, bob)


def templates(response: Any) -> set[str]:
    return {t.name for t in response.templates if t.name}


def test_the_game_page_shows_the_board_and_the_position_from_the_kinds_template(
    in_play: Game, alice: AbstractBaseUser
) -> None:
    response = client_for(alice).get(reverse("games:detail", args=[in_play.pk]))
    html = response.content.decode()

    assert WW5_TEMPLATES | {"ww5/_styles.html"} <= templates(response)
    assert html.count(BOARD_SECTION + ">") == 1
    assert '<h2 id="board-heading">The board</h2>' in html
    assert 'class="board"' in html and "<svg" in html
    assert 'class="board-key"' in html and "svg.board {" in html, "the key and its styles"
    assert '<section id="live-position" aria-label="The position in words">' in html
    assert '<details class="position-tables">' in html
    assert "<caption>The position, territory by territory</caption>" in html
    assert "<caption>Pieces in each player's supply</caption>" in html
    assert html.count("js/board.js") == 1, "the board's script, once, at the end"
    # the decision form, from the kind's choice groups, named as the rules name them
    assert '<section class="decision" id="decision"' in html
    assert "games/_decision_form.html" in templates(response), "a kind without its own form"
    assert '<fieldset class="group-invade">' in html and "(R1" in html
    assert "chance to win the fight" in html
    # the seats: each player's colour and home continent, as the kind names them
    assert '<th scope="col">Colour</th><th scope="col">Home</th>' in html
    assert 'style="background: blue"></span>blue</td>' in html
    assert '<td data-label="Home">North America</td>' in html
    assert "Original (2008)" in html, "the options in the kind's words"


def test_the_live_fragment_swaps_the_kinds_parts_out_of_band(
    in_play: Game, alice: AbstractBaseUser
) -> None:
    response = client_for(alice).get(reverse("games:live", args=[in_play.pk]), {"v": "stale"})
    html = response.content.decode()

    assert WW5_TEMPLATES <= templates(response)
    assert BOARD_SECTION + ' hx-swap-oob="true">' in html
    assert '<h2 id="board-heading">The board</h2>' in html
    assert 'id="live-position" aria-label="The position in words" hx-swap-oob="true"' in html
    assert '<details class="position-tables">' in html
    assert 'id="live-seats"' in html and 'id="live-log"' in html
    assert "js/board.js" not in html and "svg.board {" not in html, "no script nor styles"


def test_the_replay_shows_the_whole_position_at_each_step(
    in_play: Game, carol: AbstractBaseUser
) -> None:
    response = client_for(carol).get(reverse("games:replay", args=[in_play.pk]), {"step": 3})
    html = response.content.decode()

    assert WW5_TEMPLATES | {"ww5/_styles.html"} <= templates(response)
    assert '<section aria-labelledby="board-heading">' in html
    assert '<h2 id="board-heading">The board at this step</h2>' in html
    assert "<caption>The position, territory by territory</caption>" in html
    assert html.count("js/board.js") == 1
    assert "<strong>Move 3:</strong>" in html


def test_the_decision_links_page_shows_the_choices_and_the_board(
    in_play: Game, alice: AbstractBaseUser
) -> None:
    in_play.refresh_from_db()
    assert in_play.to_move is not None
    url = links.decision_url(in_play, in_play.to_move).split("localhost:8000", 1)[-1]

    response = Client().get(url)
    html = response.content.decode()

    assert response.status_code == 200
    assert WW5_TEMPLATES <= templates(response)
    assert '<fieldset class="group-invade">' in html
    assert '<h2 id="board-heading">The board</h2>' in html and "svg.board {" in html


def test_the_finished_list_names_each_games_options_in_the_kinds_words(
    in_play: Game, bob: AbstractBaseUser
) -> None:
    services.resign(in_play.pk, bob)

    html = Client().get(reverse("games:finished")).content.decode()

    assert '<th scope="col">Rules</th>' in html
    assert "<td>World War 5: Original (2008)</td>" in html


def test_several_lines_typed_into_a_game_of_one_move_at_a_time_are_refused(
    in_play: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    mover = alice if in_play.to_move.user == alice else bob
    before = in_play.turn_number
    html = client_for(mover).get(reverse("games:detail", args=[in_play.pk])).content.decode()
    assert '<textarea name="notation"' not in html and 'id="id_notation"' in html

    response = client_for(mover).post(
        reverse("games:move", args=[in_play.pk]),
        {"turn": before, "notation": "grow usa\nmove usa colombia"},
    )

    assert response.status_code == 400
    assert "this game takes one move at a time" in response.content.decode()
    in_play.refresh_from_db()
    assert in_play.turn_number == before
