"""RisiKo's game page says what the World War 5 page says, in RisiKo's words: the time
to answer a war (not a retreat); what a turn did, with its dice, and whose decision it is
now, after the form and after a mail's decision link; the players in the board's key
linked to their pages; where a resigning player would finish, by RisiKo's rule; and a
player already out of the game is offered no resignation."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import links, services
from games.models import Game
from risiko.kind import RisiKo
from tests.games.factories import alice, bob, carol, clock, olga
from tests.risiko.test_kind import game, placed, risiko, user_of
from tests.risiko.test_turn_form import an_attack, client_of, detail, first_player, post_form

__all__ = ["alice", "bob", "carol", "clock", "game", "olga", "risiko"]

pytestmark = pytest.mark.django_db


def page_of(game: Game, user: User | None) -> str:
    response = client_of(user).get(detail(game))
    assert response.status_code == 200
    return response.content.decode()


def outcome_of(html: str) -> str:
    found = re.search(r'<section class="outcome" id="outcome".*?</section>', html, re.S)
    assert found is not None, "the page does not say what happened"
    return found.group(0)


def one_attack(game: Game, player: str) -> dict[str, str]:
    """The fields of a turn: every army placed on a territory that attacks once from it."""
    origin, target = an_attack(game, player)
    pool = game.position["turn"]["pool"]
    return {f"place-{origin}": str(pool), "attack-1": f"{origin} {target}", "attack-1-stop": "once"}


def test_the_game_facts_give_the_time_to_answer_a_war_not_a_retreat(
    game: Game, risiko: RisiKo
) -> None:
    facts = page_of(game, None).split('<p class="game-facts">', 1)[1].split("</p>", 1)[0]

    assert "12 hours per answer to a war" in facts
    assert "retreat" not in facts


def test_after_a_turn_made_with_the_form_the_page_says_what_happened_and_who_decides_now(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    # all armies move in on a conquest, so the turn's end runs whatever the roll
    fields = {**one_attack(game, first), "attack-1-move": "all", "end": "1"}

    response = post_form(game, user_of(game, first), fields)

    assert response.status_code == 200
    outcome = outcome_of(response.content.decode())
    assert "What happened" in outcome
    assert re.search(r"attacks .* from .*: [1-6]( [1-6])* against [1-6]( [1-6])*;", outcome)
    assert "the attacker loses" in outcome  # the outcome of the roll
    game.refresh_from_db()
    (now,) = risiko.deciders(risiko.load(game.position))
    assert f"Now the game waits for {user_of(game, now).username}." in outcome


def test_after_a_decision_link_the_page_says_what_happened_and_that_the_turn_goes_on(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    seat = game.seats.get(user=user_of(game, first))
    url = links.decision_url(game, seat).split("localhost:8000", 1)[-1]

    response = Client().post(
        url, {"turn": game.turn_number, "kind_form": "1", **one_attack(game, first)}
    )

    assert response.status_code == 200
    outcome = outcome_of(response.content.decode())
    assert " against " in outcome and "the attacker loses" in outcome
    assert "It is your decision again." in outcome  # the turn goes on until its end


def test_the_boards_key_links_each_player_to_their_page(game: Game, risiko: RisiKo) -> None:
    placed(game, risiko)

    key = page_of(game, None).split('<ul class="risiko-key"', 1)[1].split("</ul>", 1)[0]

    for colour in ("red", "blue", "yellow"):
        name = user_of(game, colour).username
        assert f'<a class="player" href="/players/{name}/">{name}</a> ({colour}):' in key
    assert re.search(r": \d+ territories, \d+ armies</li>", key)


def test_the_resign_box_says_where_the_player_would_finish_by_risikos_rule(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)

    page = page_of(game, user_of(game, "red"))

    place = page.split('<p class="resign-place">', 1)[1].split("</p>", 1)[0]
    assert "If you resign now, you finish <strong>3rd of 3</strong>" in place
    assert "(K36: a player who resigns leaves at once and ranks below everyone" in place
    assert "R31" not in place  # World War 5's rule


def test_a_player_who_resigned_gets_the_page_without_a_resign_box(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    out = next(p for p in ("red", "blue", "yellow") if p != first)
    services.resign(game.pk, user_of(game, out))

    page = page_of(game, user_of(game, out))

    assert "Leave this game" not in page
    assert 'class="resign-place"' not in page
    assert "Leave this game" in page_of(game, user_of(game, first))
