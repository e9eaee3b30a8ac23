"""The game page and its decision form: only the legal actions, for the one who decides,
and every bad submission refused with a message and nothing changed."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from accounts.services import update_profile
from games import services
from games.models import Game, Move
from tests.games import test_pages_support as support
from tests.games.test_pages_support import (
    client_for,
    messages_of,
    position,
    put_position,
    status_lines,
)
from ww5 import engine
from ww5.engine.bots import BOTS

pytestmark = pytest.mark.django_db

alice, bob, carol, olga, dice = (
    support.alice,
    support.bob,
    support.carol,
    support.olga,
    support.dice,
)


@pytest.fixture
def game(alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Alice (blue) and bob (purple) in strict setup; alice places first."""
    return support.started_game(alice, bob)


def page(client: Client, game: Game) -> Any:
    return client.get(reverse("games:detail", args=[game.pk]))


def post_move(client: Client, game: Game, follow: bool = True, **data: Any) -> Any:
    return client.post(reverse("games:move", args=[game.pk]), data, follow=follow)


def snapshot(game: Game) -> tuple[int, Any, int]:
    game.refresh_from_db()
    return game.moves.count(), game.position, game.turn_number


# --- who sees the form ---------------------------------------------------------------


def test_the_player_to_decide_sees_every_legal_action_as_a_radio_and_nothing_else(
    game: Game, alice: AbstractBaseUser
) -> None:
    response = page(client_for(alice), game)

    legal = engine.legal_actions(services.state_of(game))
    radios = [a for a in legal if f'name="action" value="{a}"' in response.content.decode()]
    assert radios == legal
    assert response.content.decode().count('name="action"') == len(legal)
    assert "Setup placement" in response.content.decode()
    assert f'name="turn" value="{game.turn_number}"' in response.content.decode()


def test_the_other_player_sees_the_game_but_no_decision_form(
    game: Game, bob: AbstractBaseUser
) -> None:
    response = page(client_for(bob), game)

    assert response.status_code == 200
    assert "Your decision" not in response.content.decode()
    assert 'name="action"' not in response.content.decode()
    assert (
        'The game waits for <strong><a class="player" href="/players/alice/">Alice</a></strong>'
        in response.content.decode()
    )


def test_an_anonymous_spectator_sees_a_public_game_read_only(game: Game) -> None:
    response = page(Client(), game)

    assert response.status_code == 200
    assert "<svg" in response.content.decode()
    assert 'name="action"' not in response.content.decode()


def test_the_start_roll_is_told_in_words(game: Game, carol: AbstractBaseUser) -> None:
    response = page(client_for(carol), game)

    assert "Start roll: Alice (blue) 6, Bob (purple) 1." in response.content.decode()
    assert "Alice (blue) rolled highest and goes first." in response.content.decode()


def test_the_deadline_shows_in_the_viewers_time_zone_with_the_zone_named(
    game: Game, bob: AbstractBaseUser
) -> None:
    bob.profile.time_zone = "Europe/Paris"
    bob.profile.save()
    Game.objects.filter(pk=game.pk).update(deadline=datetime(2026, 11, 21, 17, 30, tzinfo=UTC))

    response = page(client_for(bob), game)

    assert "21 Nov 2026 18:30 CET (Europe/Paris)" in response.content.decode()


def test_a_deadline_in_utc_names_the_zone_once(game: Game, bob: AbstractBaseUser) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=datetime(2026, 11, 21, 17, 30, tzinfo=UTC))

    content = page(client_for(bob), game).content.decode()

    assert re.search(
        r"21 Nov 2026 17:30 UTC</time>( <span class=\"time-left\">[^<]*</span>)?\.", content
    )
    assert "UTC (UTC)" not in content


def test_a_name_ending_with_a_full_stop_ends_the_sentence_with_one(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    update_profile(alice, "Alice W.", "UTC", "each")

    content = page(client_for(bob), game).content.decode()

    assert 'waits for <strong><a class="player" href="/players/alice/">Alice W.</a></strong>\n' in (
        content
    )
    assert "Alice W.." not in content


def test_a_paused_game_says_so_and_offers_no_decision(
    game: Game, alice: AbstractBaseUser, olga: AbstractBaseUser
) -> None:
    services.pause_game(game.pk, olga)

    response = page(client_for(alice), game)

    assert "Paused by an organiser" in response.content.decode()
    assert 'name="action"' not in response.content.decode()


# --- submitting ----------------------------------------------------------------------


def test_a_chosen_action_is_played_and_logged_in_words(game: Game, alice: AbstractBaseUser) -> None:
    client = client_for(alice)

    response = post_move(client, game, action="place small alaska", turn=0)

    assert status_lines(response) == ["Your decision was recorded: Place your small in Alaska."]
    move = game.moves.get()
    assert (move.action, move.source, move.seat.user) == ("place small alaska", "web", alice)
    log = response.content.decode()
    assert "Alice (blue) places a small in Alaska." in log
    assert ">Web<" in log


def test_the_recorded_decision_is_said_from_the_move_not_carried_in_a_cookie(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    """The move's answer sets no message cookie: the page it redirects to says the decision
    was recorded, to its player only; another player or a visitor opening the same
    address reads what happened, not that sentence."""
    client = client_for(alice)

    answer = post_move(client, game, follow=False, action="place small alaska", turn=0)

    assert answer.status_code == 302
    assert "messages" not in answer.cookies
    shown = client.get(answer["Location"])
    assert status_lines(shown) == ["Your decision was recorded: Place your small in Alaska."]
    for other in (client_for(bob), Client()):
        seen = other.get(answer["Location"])
        assert seen.status_code == 200
        assert "Your decision was recorded" not in seen.content.decode()
        assert "Alice (blue) places a small in Alaska." in seen.content.decode()


def test_typed_notation_is_parsed_leniently_and_wins_over_the_radio(
    game: Game, alice: AbstractBaseUser
) -> None:
    post_move(client_for(alice), game, action="place small alaska", notation="P S Canada", turn=0)

    assert game.moves.get().action == "place small canada"


def test_typed_notation_the_engine_refuses_shows_its_message_and_changes_nothing(
    game: Game, alice: AbstractBaseUser
) -> None:
    before = snapshot(game)

    response = post_move(client_for(alice), game, notation="fly to the moon", turn=0)

    assert any("'fly' is not a verb" in m for m in messages_of(response))
    assert snapshot(game) == before


def test_a_forged_action_that_is_not_legal_is_refused_and_changes_nothing(
    game: Game, alice: AbstractBaseUser
) -> None:
    before = snapshot(game)

    response = post_move(client_for(alice), game, action="place large usa", turn=0)

    (message,) = messages_of(response)
    assert message.startswith("Your move was not accepted: place large usa:")
    assert "strict setup places all smalls now" in message
    assert snapshot(game) == before


def test_an_action_from_another_game_is_refused_and_changes_nothing(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    other = services.create_game(carol, home="africa")
    before = snapshot(game)

    response = post_move(client_for(alice), game, action="place small northwest-africa", turn=0)

    assert any(
        "pieces are placed on your home continent (R6): northwest-africa is not" in m
        for m in messages_of(response)
    )
    assert snapshot(game) == before
    assert other.moves.count() == 0


def test_a_move_out_of_turn_is_refused_and_changes_nothing(
    game: Game, bob: AbstractBaseUser
) -> None:
    before = snapshot(game)

    response = post_move(client_for(bob), game, action="place small scandinavia", turn=0)

    assert messages_of(response) == [
        "Your move was not accepted: it is not your decision: the game waits for Alice"
    ]
    assert snapshot(game) == before


def test_a_stale_form_is_refused_and_changes_nothing(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    client = client_for(alice)
    post_move(client, game, action="place small alaska", turn=0)
    post_move(client_for(bob), game, action="place small scandinavia", turn=1)
    before = snapshot(game)

    response = post_move(client, game, action="place medium canada", turn=1)

    assert any("the game has moved on since this form was made" in m for m in messages_of(response))
    assert snapshot(game) == before


def test_a_double_submit_is_applied_once(game: Game, alice: AbstractBaseUser) -> None:
    client = client_for(alice)
    post_move(client, game, action="place small alaska", turn=0)
    before = snapshot(game)

    response = post_move(client, game, action="place small alaska", turn=0)

    assert (
        "Your decision for this turn was already recorded: Place your small in Alaska. "
        "This submission was not applied." in messages_of(response)
    )
    assert snapshot(game) == before
    assert game.moves.count() == 1


def test_a_stranger_cannot_move_in_another_players_game(
    game: Game, carol: AbstractBaseUser
) -> None:
    before = snapshot(game)

    response = post_move(client_for(carol), game, action="place small alaska", turn=0)

    assert messages_of(response) == ["Your move was not accepted: you have no seat in this game"]
    assert snapshot(game) == before


@pytest.mark.parametrize("turn", ["abc", "", "-1"])
def test_a_bogus_turn_value_is_refused_and_changes_nothing(
    game: Game, alice: AbstractBaseUser, turn: str
) -> None:
    before = snapshot(game)

    response = post_move(client_for(alice), game, action="place small alaska", turn=turn)

    assert any("this form is damaged" in m for m in messages_of(response))
    assert snapshot(game) == before


def test_an_empty_decision_is_refused_and_changes_nothing(
    game: Game, alice: AbstractBaseUser
) -> None:
    before = snapshot(game)

    response = post_move(client_for(alice), game, turn=0)

    assert any("Choose an action or type your move." in m for m in messages_of(response))
    assert snapshot(game) == before


def test_a_refused_move_answers_the_game_page_with_a_4xx_status_and_the_reason(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    before = snapshot(game)

    not_yours = post_move(client_for(bob), game, follow=False, action="pass", turn=0)
    illegal = post_move(client_for(alice), game, follow=False, action="grow usa", turn=0)
    stale = post_move(client_for(alice), game, follow=False, action="place small usa", turn=3)
    damaged = post_move(client_for(alice), game, follow=False, action="place small usa")

    assert not_yours.status_code == 403
    assert "it is not your decision" in " ".join(messages_of(not_yours))
    assert illegal.status_code == 400
    assert "Your move was not accepted" in " ".join(messages_of(illegal))
    assert stale.status_code == 409
    assert damaged.status_code == 400
    for response in (not_yours, illegal, stale, damaged):
        assert "<h1>" in response.content.decode()  # the game page itself, not a redirect
    assert snapshot(game) == before


def test_an_accepted_move_redirects_to_the_game_page(game: Game, alice: AbstractBaseUser) -> None:
    response = post_move(client_for(alice), game, follow=False, action="place small usa", turn=0)

    assert response.status_code == 302
    assert response["Location"] == reverse("games:detail", args=[game.pk]) + "?done=1"


def test_an_anonymous_post_is_sent_to_sign_in_and_changes_nothing(game: Game) -> None:
    before = snapshot(game)

    response = post_move(Client(), game, follow=False, action="place small alaska", turn=0)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert snapshot(game) == before


def test_the_move_endpoint_takes_only_post(game: Game, alice: AbstractBaseUser) -> None:
    response = client_for(alice).get(reverse("games:move", args=[game.pk]))

    assert response.status_code == 405


# --- invasions, odds and R15 ---------------------------------------------------------


@pytest.fixture
def battle(game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Blue's last home piece is the large in USA, next to purple's medium in Western
    Europe; blue also has a small in Brazil, next to Western Europe too."""
    support.set_up(game, alice, bob)
    return put_position(
        game,
        position(
            {
                "usa": ("blue", "large"),
                "brazil": ("blue", "small"),
                "western-europe": ("purple", "medium"),
                "scandinavia": ("purple", "small"),
            }
        ),
    )


def test_each_invade_shows_its_exact_odds_as_a_fraction_and_a_percentage(
    battle: Game, alice: AbstractBaseUser
) -> None:
    content = page(client_for(alice), battle).content.decode()

    odds = engine.combat_odds("large", "medium")
    assert f"{odds.numerator}/{odds.denominator} ({float(odds) * 100:.1f}%)" in content
    small = engine.combat_odds("small", "medium")
    assert f"{small.numerator}/{small.denominator} ({float(small) * 100:.1f}%)" in content
    assert (
        "Invade Western Europe from USA: your large against Bob (purple)&#x27;s medium" in content
    )


def _label_of(content: str, action: str) -> str:
    start = content.index(f'value="{action}"')
    return content[start : content.index("</label>", start)]


def test_decisions_that_eliminate_the_player_are_marked_in_the_list(
    battle: Game, alice: AbstractBaseUser
) -> None:
    content = page(client_for(alice), battle).content.decode()

    assert "this eliminates you (R15)" in _label_of(content, "move usa colombia")
    assert "this eliminates you (R15) if the attack succeeds" in _label_of(
        content, "invade usa western-europe"
    )
    assert "R15" not in _label_of(content, "invade brazil western-europe")
    assert "R15" not in _label_of(content, "build alaska")
    assert "R15" not in _label_of(content, "move usa alaska")


CONFIRM_BOX = 'name="confirm_elimination"'


def test_the_r15_box_shows_when_some_choice_would_eliminate_the_player(
    battle: Game, alice: AbstractBaseUser
) -> None:
    assert CONFIRM_BOX in page(client_for(alice), battle).content.decode()


def test_the_r15_box_does_not_show_for_a_setup_placement(
    game: Game, alice: AbstractBaseUser
) -> None:
    content = page(client_for(alice), game).content.decode()

    assert "Setup placement" in content
    assert CONFIRM_BOX not in content and "I understand this eliminates me" not in content


def test_the_r15_box_does_not_show_for_a_retreat_that_cannot_eliminate(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    support.set_up(game, alice, bob)
    pending = {
        "retreat": {
            "player": "purple",
            "territory": "western-europe",
            "attacker": "blue",
            "from": "usa",
            "options": ["brazil", "northwest-africa", "scandinavia"],
        }
    }
    put_position(
        game,
        position(
            {
                "usa": ("blue", "large"),
                "canada": ("blue", "small"),
                "western-europe": ("purple", "medium"),
                "southern-europe": ("purple", "small"),
            },
            to_move="purple",
            pending=pending,
        ),
    )

    content = page(client_for(bob), game).content.decode()

    assert "Retreat to Brazil" in content
    assert CONFIRM_BOX not in content


def test_an_eliminating_decision_without_the_confirmation_comes_back_and_changes_nothing(
    battle: Game, alice: AbstractBaseUser
) -> None:
    before = snapshot(battle)

    response = post_move(client_for(alice), battle, action="move usa colombia", turn=6)

    (message,) = messages_of(response)
    assert "it eliminates you (R15)" in message
    assert "Tick “I understand this eliminates me” to submit it. Nothing was changed." in message
    assert 'value="move usa colombia" checked' in response.content.decode()
    assert snapshot(battle) == before


def test_typed_notation_that_eliminates_needs_the_confirmation_too(
    battle: Game, alice: AbstractBaseUser
) -> None:
    before = snapshot(battle)

    response = post_move(client_for(alice), battle, notation="m usa > colombia", turn=6)

    assert any("it eliminates you (R15)" in m for m in messages_of(response))
    assert snapshot(battle) == before


def test_a_confirmed_eliminating_decision_is_played(battle: Game, alice: AbstractBaseUser) -> None:
    response = post_move(
        client_for(alice), battle, action="move usa colombia", turn=6, confirm_elimination="on"
    )

    battle.refresh_from_db()
    assert battle.status == Game.Status.OVER
    assert battle.winner.player_name == "purple"
    assert "Alice (blue) is eliminated" in response.content.decode()


def test_a_successful_invade_out_of_the_last_home_territory_is_detected(
    battle: Game, alice: AbstractBaseUser, dice: random.Random
) -> None:
    before = snapshot(battle)

    response = post_move(client_for(alice), battle, action="invade usa western-europe", turn=6)

    assert any("it eliminates you (R15)" in m for m in messages_of(response))
    assert snapshot(battle) == before


def test_the_defender_chooses_a_retreat_and_a_retreat_out_of_its_last_home_is_marked(
    game: Game, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    support.set_up(game, alice, bob)
    pending = {
        "retreat": {
            "player": "purple",
            "territory": "western-europe",
            "attacker": "blue",
            "from": "usa",
            "options": ["brazil", "northwest-africa"],
        }
    }
    put_position(
        game,
        position(
            {
                "usa": ("blue", "large"),
                "canada": ("blue", "small"),
                "scandinavia": ("blue", "small"),
                "southern-europe": ("blue", "medium"),
                "western-europe": ("purple", "medium"),
            },
            to_move="purple",
            pending=pending,
        ),
    )

    content = page(client_for(bob), game).content.decode()

    assert "Retreat (the defender&#x27;s choice)" in content
    assert "Retreat to Brazil" in content
    assert "this eliminates you (R15)" in _label_of(content, "retreat brazil")
    assert "to choose where their beaten piece retreats" in content
    assert 'name="action"' not in page(client_for(alice), game).content.decode()


# --- a whole game --------------------------------------------------------------------


def test_a_whole_two_player_game_is_played_through_the_web_to_its_end(
    alice: AbstractBaseUser, bob: AbstractBaseUser, dice: random.Random
) -> None:
    game = support.started_game(alice, bob)
    clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    chooser = random.Random(11)
    for turn in range(500):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            break
        assert game.turn_number == turn
        action = BOTS["greedy"](services.state_of(game), chooser)
        response = post_move(
            clients[game.to_move.user_id],
            game,
            follow=False,
            action=action,
            turn=turn,
            confirm_elimination="on",
        )
        assert response.status_code == 302
        assert Move.objects.filter(game=game).count() == turn + 1
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert game.winner is not None
    assert services.rebuild_position(game)
    content = page(clients[alice.pk], game).content.decode()
    winner = game.winner.user.get_username()
    assert (
        f'<a class="player" href="/players/{winner}/">{game.winner.display_name}</a>'
        f" ({game.winner.player_name}) won." in content
    )  # the winner's name links to their page
    assert "wins" in content
    assert "winner (rank 1)" in content
    assert 'name="action"' not in content
    assert any(move.dice for move in game.moves.all())  # fights were fought, dice recorded


def test_the_log_shows_each_moves_source_and_time_in_the_viewers_zone(
    game: Game, alice: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    services.submit_move(game.pk, alice, "place small alaska", 0)
    Move.objects.filter(game=game).update(created_at=datetime(2026, 11, 21, 17, 30, tzinfo=UTC))
    carol.profile.time_zone = "America/New_York"
    carol.profile.save()

    content = page(client_for(carol), game).content.decode()

    log = content[content.index('<table class="log stack">') :]
    assert "When (America/New_York)" in log
    assert "21 Nov 2026 12:30 EST" in log
    assert '<td data-label="How">Web</td>' in log
    assert "Alice (blue) places a small in Alaska." in log


def test_a_bot_seat_answers_a_web_decision_by_itself(
    alice: AbstractBaseUser, dice: random.Random, django_capture_on_commit_callbacks: Any
) -> None:
    game = support.open_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(alice).post(
            reverse("games:add_bot", args=[game.pk]), {"bot": "greedy", "home": "europe"}
        )
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        while game.to_move.user_id == alice.pk and game.turn_number < 6:
            action = engine.legal_actions(services.state_of(game))[0]
            post_move(client_for(alice), game, follow=False, action=action, turn=game.turn_number)
            game.refresh_from_db()

    content = page(client_for(alice), game).content.decode()
    assert game.moves.filter(source=Move.Source.BOT).exists()
    assert '<td data-label="How">Bot</td>' in content
    assert "Greedy bot 2" in content


def test_a_move_sent_after_signing_out_comes_back_on_the_game_page_after_signing_in(
    game: Game, alice: AbstractBaseUser
) -> None:
    alice.set_password("a long enough secret")
    alice.save()
    alice.emailaddress_set.create(email=alice.email, verified=True, primary=True)
    client = Client()  # alice signed out in another tab, then sent her move

    sent = post_move(client, game, follow=False, action="place small canada", turn=0)
    login = client.get(sent["Location"])
    assert login.status_code == 200
    signed_in = client.post(
        sent["Location"],
        {"login": "alice", "password": "a long enough secret"},
        follow=True,
    )

    assert signed_in.status_code == 200
    assert signed_in.redirect_chain[-1][0].startswith(reverse("games:detail", args=[game.pk]))
    content = signed_in.content.decode()
    assert 'value="place small canada" checked' in content
    assert not game.moves.exists()  # shown again to submit, not submitted behind her back
