"""The organiser's admin: games, seats and the move log; every change through a service."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser, Permission
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import services
from games.admin import MoveAdmin
from games.models import Game, GameEvent, Move
from games.options import GameOptions
from tests.games import factories
from tests.games.factories import STRICT_SETUP, Clock, LoadedDice, play, seated_game, snapshot
from ww5 import engine

CHANGELIST = reverse("admin:games_game_changelist")


def change_page(game: Game) -> str:
    return reverse("admin:games_game_change", args=[game.pk])


def game_page(name: str, game: Game) -> str:
    return reverse(f"admin:games_game_{name}", args=[game.pk])


def messages_of(response: Any) -> list[tuple[int, str]]:
    return [(m.level, str(m)) for m in get_messages(response.wsgi_request)]


def run_action(client: Client, action: str, *games: Game, **extra: str) -> Any:
    data = {"action": action, "_selected_action": [str(g.pk) for g in games], **extra}
    return client.post(CHANGELIST, data, follow=True)


def submit(client: Client, page: Any, marker: str, **fields: str) -> Any:
    """Submit the page's form that holds ``marker``, with its hidden fields and ``fields``."""
    html = page.content.decode()
    for action, body in re.findall(
        r'<form method="post"(?: action="([^"]*)")?[^>]*>(.*?)</form>', html, re.S
    ):
        if marker in body:
            data: dict[str, list[str]] = {}
            for name, value in re.findall(
                r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body
            ):
                data.setdefault(name, []).append(value)
            return client.post(action or page.wsgi_request.path, {**data, **fields}, follow=True)
    raise AssertionError(f"no form holds {marker!r}")


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def game(dice: LoadedDice, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Alice (blue, first) against Bob (purple), in setup."""
    game = seated_game(dice, [alice, bob])
    Game.objects.filter(pk=game.pk).update(name="Alice v Bob")
    game.refresh_from_db()
    return game


@pytest.fixture
def game_in_play(game: Game) -> Game:
    """The same game after the setup: Alice's decision in play."""
    return play(game, *STRICT_SETUP)


@pytest.fixture
def staff_viewer(django_user_model: Any) -> AbstractBaseUser:
    """Staff who may look at games but not change them."""
    user = factories.make_user(django_user_model, "vera", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_game"))
    return user


# --- pages ---------------------------------------------------------------------------


def test_game_list_shows_seats_turn_and_whose_decision(
    admin_client: Client, game_in_play: Game
) -> None:
    response = admin_client.get(CHANGELIST)

    assert response.status_code == 200
    page = response.content.decode()
    assert "Alice v Bob" in page
    assert "alice, bob" in page
    assert '<td class="field-turn_number">6</td>' in page
    assert '<td class="field-whose_decision">alice</td>' in page


def test_game_list_filters_by_status_and_searches_seat_usernames(
    admin_client: Client, game: Game, carol: AbstractBaseUser
) -> None:
    other = services.create_game(carol, name="Carol's table", home="asia")

    by_status = admin_client.get(CHANGELIST, {"status__exact": "setup"}).content.decode()
    by_player = admin_client.get(CHANGELIST, {"q": "bob"}).content.decode()
    filtered = admin_client.get(
        CHANGELIST,
        {"board": "original", "setup": "strict", "is_public__exact": 1},
    )

    assert "Alice v Bob" in by_status and str(other) not in by_status
    assert "Alice v Bob" in by_player and str(other) not in by_player
    assert filtered.status_code == 200


def test_game_list_shows_boards_by_name_and_filters_by_board_and_setup(
    admin_client: Client, game: Game, carol: AbstractBaseUser
) -> None:
    other = services.create_game(
        carol, name="Carol's table", home="asia", board="balanced", setup="casual"
    )

    listed = admin_client.get(CHANGELIST).content.decode()
    balanced = admin_client.get(CHANGELIST, {"board": "balanced"}).content.decode()
    strict = admin_client.get(CHANGELIST, {"setup": "strict"}).content.decode()

    assert f'<td class="field-board">{engine.BOARDS["balanced"].name}</td>' in listed
    assert f'<td class="field-board">{engine.BOARDS["original"].name}</td>' in listed
    assert escape(str(other)) in balanced and "Alice v Bob" not in balanced
    assert "Alice v Bob" in strict and escape(str(other)) not in strict


def test_game_page_shows_seats_move_log_and_pretty_position_read_only(
    admin_client: Client, game_in_play: Game
) -> None:
    response = admin_client.get(change_page(game_in_play))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Seats" in page and "Move log (read-only)" in page
    assert "place large western-europe" in page
    assert "&quot;board&quot;: &quot;original&quot;," in page  # indented JSON, escaped
    assert 'name="name"' not in page  # no editable field
    assert 'name="_save"' not in page
    assert 'name="seats-0-user"' not in page  # the seat inline has no form fields


def test_game_page_shows_durations_as_people_write_them(
    admin_client: Client, dice: LoadedDice, alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    game = seated_game(
        dice,
        [alice, bob],
        time_control="bank",
        decision_time=timedelta(days=1, hours=12),
        retreat_time=timedelta(minutes=90),
        bank_time=timedelta(days=3),
        increment=timedelta(hours=12),
    )

    page = admin_client.get(change_page(game)).content.decode()

    shown = {name: readonly_value(page, name) for name in SHOWN_DURATIONS}
    assert shown == {
        "decision_time": "1d 12h",
        "retreat_time": "1h 30min",
        "bank_time": "3d",
        "increment": "12h",
    }
    # Each seat's bank, in the seats' table.
    banks = re.findall(r'<td class="field-bank_left">\s*<p>(.*?)</p>', page, re.S)
    assert banks == ["3d", "3d"]
    assert "Each player's time bank at the start" in page  # the fields' help stays
    assert 'column-bank_left">Bank left' in page and "What is left of the player" in page
    assert ", 0:00:00" not in page and not re.search(r"\b\d+ days?, \d", page)
    assert not re.search(r">\s*\d+:\d\d:\d\d\s*<", page)


SHOWN_DURATIONS = ("decision_time", "retreat_time", "bank_time", "increment")


def readonly_value(html: str, name: str) -> str:
    """What the admin page shows of read-only field ``name``."""
    found = re.search(
        rf'class="[^"]*\bfield-{name}\b.*?<div class="readonly">(.*?)</div>', html, re.S
    )
    assert found, f"{name} is not shown read-only"
    return found.group(1).strip()


def test_game_page_links_to_the_organisers_tools(admin_client: Client, game_in_play: Game) -> None:
    game = game_in_play
    page = admin_client.get(change_page(game)).content.decode()

    for name in ("move", "forfeit", "replace"):
        assert game_page(name, game) in page
    for action in ("pause_games", "extend_deadlines", "abandon_games"):
        assert f'value="{action}"' in page
    assert f"?game__id__exact={game.pk}" in page


def test_forfeit_is_not_offered_during_setup(admin_client: Client, game: Game) -> None:
    page = admin_client.get(change_page(game)).content.decode()

    assert game_page("move", game) in page and game_page("replace", game) in page
    assert game_page("forfeit", game) not in page


def test_saving_the_game_form_is_refused(admin_client: Client, game: Game) -> None:
    before = snapshot(game)

    response = admin_client.post(change_page(game), {"name": "Renamed", "status": "over"})

    assert response.status_code == 403
    game.refresh_from_db()
    assert game.name == "Alice v Bob"
    assert snapshot(game) == before


def test_games_are_neither_added_nor_deleted_in_the_admin(admin_client: Client, game: Game) -> None:
    add = admin_client.get(reverse("admin:games_game_add"))
    delete = admin_client.post(reverse("admin:games_game_delete", args=[game.pk]), {"post": "yes"})

    assert add.status_code == 403
    assert delete.status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


def test_move_log_can_be_read_but_not_added_changed_or_deleted(
    admin_client: Client, admin_user: AbstractBaseUser, game_in_play: Game, rf: Any
) -> None:
    move = game_in_play.moves.get(number=1)
    moves = Move.objects.count()

    listing = admin_client.get(
        reverse("admin:games_move_changelist"), {"game__id__exact": game_in_play.pk}
    )
    view = admin_client.get(reverse("admin:games_move_change", args=[move.pk]))
    add = admin_client.post(reverse("admin:games_move_add"), {"action": "grow usa"})
    change = admin_client.post(
        reverse("admin:games_move_change", args=[move.pk]), {"action": "grow usa"}
    )
    delete = admin_client.post(reverse("admin:games_move_delete", args=[move.pk]), {"post": "yes"})

    assert listing.status_code == 200 and "place small alaska" in listing.content.decode()
    assert view.status_code == 200 and 'name="_save"' not in view.content.decode()
    assert (add.status_code, change.status_code, delete.status_code) == (403, 403, 403)
    move.refresh_from_db()
    assert move.action == "place small alaska"
    assert Move.objects.count() == moves
    request = rf.get("/")
    request.user = admin_user
    move_admin = MoveAdmin(Move, None)  # type: ignore[arg-type]
    assert not move_admin.has_add_permission(request)
    assert not move_admin.has_change_permission(request, move)
    assert not move_admin.has_delete_permission(request, move)


# --- list actions --------------------------------------------------------------------


def test_pausing_a_running_game(admin_client: Client, game: Game) -> None:
    response = run_action(admin_client, "pause_games", game)

    game.refresh_from_db()
    assert game.is_paused
    assert (messages.SUCCESS, "Alice v Bob: paused.") in messages_of(response)


def test_pausing_a_finished_game_is_refused_and_changes_nothing(
    admin_client: Client, admin_user: AbstractBaseUser, game: Game
) -> None:
    services.abandon_game(game.pk, admin_user)
    before = snapshot(game)

    response = run_action(admin_client, "pause_games", game)

    assert (
        messages.ERROR,
        "Could not pause Alice v Bob: only a running game can be paused.",
    ) in messages_of(response)
    assert snapshot(game) == before


def test_resuming_moves_the_deadline_on_by_the_paused_time(
    admin_client: Client, admin_user: AbstractBaseUser, game: Game, clock: Clock
) -> None:
    services.pause_game(game.pk, admin_user)
    game.refresh_from_db()
    deadline = game.deadline
    assert deadline is not None
    clock.advance(timedelta(hours=3))

    response = run_action(admin_client, "resume_games", game)

    game.refresh_from_db()
    assert not game.is_paused
    assert game.deadline == deadline + timedelta(hours=3)
    assert (messages.SUCCESS, "Alice v Bob: resumed.") in messages_of(response)


def test_resuming_a_game_that_is_not_paused_is_refused(admin_client: Client, game: Game) -> None:
    before = snapshot(game)

    response = run_action(admin_client, "resume_games", game)

    assert (messages.ERROR, "Could not resume Alice v Bob: this game is not paused.") in (
        messages_of(response)
    )
    assert snapshot(game) == before


def test_extending_a_deadline_asks_for_a_duration_then_adds_it(
    admin_client: Client, game: Game
) -> None:
    deadline = game.deadline
    assert deadline is not None

    form = run_action(admin_client, "extend_deadlines", game)
    game.refresh_from_db()
    page = form.content.decode()
    assert form.status_code == 200 and "Add to the deadline" in page
    assert 'name="extension" value="1d"' in page and "90 min" in page  # its example
    assert game.deadline == deadline

    response = run_action(admin_client, "extend_deadlines", game, apply="1", extension="1d 12h")

    game.refresh_from_db()
    assert game.deadline == deadline + timedelta(hours=36)
    assert (messages.SUCCESS, "Alice v Bob: deadline extended by 1 day, 12 hours.") in (
        messages_of(response)
    )
    event = GameEvent.objects.get(game=game, kind=GameEvent.Kind.EXTEND)
    assert event.text.endswith("deadline by 1 day, 12 hours.")  # as the players are told


@pytest.mark.parametrize(
    ("typed", "extension"),
    [
        ("12h", timedelta(hours=12)),
        ("90 min", timedelta(minutes=90)),
        ("2d", timedelta(days=2)),
        ("2 days", timedelta(days=2)),
        ("1 week", timedelta(days=7)),
        ("365d", timedelta(days=365)),  # the longest extension at once
    ],
)
def test_a_deadline_is_extended_by_a_duration_as_people_write_it(
    admin_client: Client, game: Game, typed: str, extension: timedelta
) -> None:
    deadline = game.deadline
    assert deadline is not None

    run_action(admin_client, "extend_deadlines", game, apply="1", extension=typed)

    game.refresh_from_db()
    assert game.deadline == deadline + extension


def test_extending_from_the_game_page_returns_to_it(admin_client: Client, game: Game) -> None:
    deadline = game.deadline
    assert deadline is not None
    page = admin_client.get(change_page(game))

    form = submit(admin_client, page, 'value="extend_deadlines"')
    response = submit(admin_client, form, 'name="extension"', extension="2h", apply="1")

    game.refresh_from_db()
    assert game.deadline == deadline + timedelta(hours=2)
    assert response.redirect_chain[-1][0] == change_page(game)
    assert (messages.SUCCESS, "Alice v Bob: deadline extended by 2 hours.") in (
        messages_of(response)
    )


@pytest.mark.parametrize(
    ("typed", "told"),
    [
        ("soon", 'Write a duration such as "2d", "12h", "90 min" or "1d 12h".'),
        ("24", 'Write a duration such as "2d", "12h", "90 min" or "1d 12h".'),  # hours? days?
        ("2 parsecs", 'Write a duration such as "2d", "12h", "90 min" or "1d 12h".'),
        ("0h", "Ensure this value is greater than or equal to 1 minute."),
        ("366d", "Ensure this value is less than or equal to 365 days."),
        ("9999999999d", "That duration is too long."),  # past any date
        ("", "This field is required."),
    ],
)
def test_extending_by_what_is_no_duration_or_out_of_bounds_is_refused(
    admin_client: Client, game: Game, typed: str, told: str
) -> None:
    before = snapshot(game)

    response = run_action(admin_client, "extend_deadlines", game, apply="1", extension=typed)

    assert response.status_code == 200
    assert escape(told) in response.content.decode()
    assert snapshot(game) == before
    assert not GameEvent.objects.filter(game=game, kind=GameEvent.Kind.EXTEND).exists()
    assert not messages_of(response)  # nothing was done, so nothing is reported done


def test_extending_a_finished_games_deadline_is_refused(
    admin_client: Client, admin_user: AbstractBaseUser, game: Game
) -> None:
    services.abandon_game(game.pk, admin_user)
    before = snapshot(game)

    response = run_action(admin_client, "extend_deadlines", game, apply="1", extension="5h")

    assert (
        messages.ERROR,
        "Could not extend the deadline of Alice v Bob: this game has no deadline running.",
    ) in messages_of(response)
    assert snapshot(game) == before


def test_abandoning_asks_for_confirmation_first(admin_client: Client, game: Game) -> None:
    before = snapshot(game)

    response = run_action(admin_client, "abandon_games", game)

    assert response.status_code == 200
    assert "Yes, abandon them" in response.content.decode()
    assert snapshot(game) == before


def test_abandoning_a_game_once_confirmed(admin_client: Client, game: Game) -> None:
    response = run_action(admin_client, "abandon_games", game, confirm="yes")

    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert game.deadline is None
    assert (messages.SUCCESS, "Alice v Bob: abandoned.") in messages_of(response)


def test_an_action_started_on_the_game_page_returns_there(admin_client: Client, game: Game) -> None:
    response = run_action(admin_client, "abandon_games", game, confirm="yes", _from_game="1")

    assert response.redirect_chain[-1][0] == change_page(game)


# --- making a move for a player -------------------------------------------------------


def test_move_page_shows_whose_decision_and_the_legal_actions(
    admin_client: Client, game: Game
) -> None:
    response = admin_client.get(game_page("move", game))

    assert response.status_code == 200
    page = response.content.decode()
    assert "The game waits for <strong>alice (seat 1, blue)</strong>" in page
    for action in engine.legal_actions(services.state_of(game)):
        assert f'value="{action}"' in page


def test_moving_for_a_player_records_the_move_from_the_admin(
    admin_client: Client, admin_user: AbstractBaseUser, game: Game
) -> None:
    form = admin_client.get(game_page("move", game))
    response = submit(admin_client, form, 'name="turn_number"', choice="place small alaska")

    move = Move.objects.get(game=game)
    assert (move.action, move.source, move.actor, move.seat.user.username) == (
        "place small alaska",
        Move.Source.ADMIN,
        admin_user,
        "alice",
    )
    assert response.redirect_chain[-1][0] == change_page(game)
    assert (
        messages.SUCCESS,
        "Recorded move 1 for alice (seat 1, blue): place small alaska.",
    ) in messages_of(response)


def test_a_typed_move_is_read_like_a_players(admin_client: Client, game: Game) -> None:
    admin_client.post(game_page("move", game), {"turn_number": "0", "text": "P S Alaska"})

    assert Move.objects.get(game=game).action == "place small alaska"


def test_an_illegal_move_for_a_player_is_refused_and_changes_nothing(
    admin_client: Client, game: Game
) -> None:
    before = snapshot(game)

    response = admin_client.post(
        game_page("move", game), {"turn_number": "0", "text": "place small scandinavia"}
    )

    assert response.status_code == 200
    [(level, text)] = messages_of(response)
    assert level == messages.ERROR
    assert text.startswith("The move was refused:")
    assert snapshot(game) == before


def test_a_move_from_a_stale_page_is_refused(admin_client: Client, game: Game) -> None:
    play(game, "place small alaska")
    before = snapshot(game)

    response = admin_client.post(
        game_page("move", game),
        {"turn_number": "0", "text": "place small scandinavia"},
        follow=True,
    )

    assert snapshot(game) == before
    [(level, text)] = messages_of(response)
    assert level == messages.ERROR and "moved on" in text


def test_a_finished_game_waits_for_no_move(
    admin_client: Client, admin_user: AbstractBaseUser, game: Game
) -> None:
    services.abandon_game(game.pk, admin_user)
    before = snapshot(game)

    page = admin_client.get(game_page("move", game))
    response = admin_client.post(game_page("move", game), {"turn_number": "0", "text": "pass"})

    assert "This game waits for no decision." in page.content.decode()
    assert (messages.ERROR, "The move was refused: this game waits for no decision.") in (
        messages_of(response)
    )
    assert snapshot(game) == before


def test_choosing_and_typing_a_move_at_once_is_refused(admin_client: Client, game: Game) -> None:
    before = snapshot(game)

    response = admin_client.post(
        game_page("move", game),
        {"turn_number": "0", "choice": "place small alaska", "text": "place small usa"},
    )

    assert "not both" in response.content.decode()
    assert snapshot(game) == before


# --- forfeiting and replacing a player -----------------------------------------------


def test_forfeit_page_lists_the_players_still_in_the_game(
    admin_client: Client, game_in_play: Game
) -> None:
    response = admin_client.get(game_page("forfeit", game_in_play))

    assert response.status_code == 200
    page = response.content.decode()
    assert "alice (seat 1, blue)" in page and "bob (seat 2, purple)" in page
    assert "out of the game at once: their pieces leave the board (R31)." in page


def test_the_forfeit_page_of_a_risiko_game_says_what_a_risiko_forfeit_does(
    admin_client: Client, alice: AbstractBaseUser, bob: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    from risiko.kind import RisiKo
    from tests.kinds.registered import registered

    with registered(RisiKo()):
        table = [services.TableSeat("", user=user) for user in (alice, bob, carol)]
        made = services.create_table(GameOptions(kind="risiko"), table, name="Risiko night")
        response = admin_client.get(game_page("forfeit", made))

    assert response.status_code == 200
    page = response.content.decode()
    assert "their armies stay on the board as neutral armies" in page and "(K36)" in page
    assert "pieces" not in page and "R31" not in page
    for user in (alice, bob, carol):  # each still in the game, to choose from
        assert f"{user.username} (seat " in page


def test_forfeiting_a_player_records_it_from_the_admin(
    admin_client: Client,
    admin_user: AbstractBaseUser,
    game_in_play: Game,
    alice: AbstractBaseUser,
    bob: AbstractBaseUser,
) -> None:
    seat = game_in_play.seats.get(user=bob)

    response = admin_client.post(game_page("forfeit", game_in_play), {"seat": seat.pk}, follow=True)

    move = game_in_play.moves.latest("number")
    assert (move.action, move.source, move.actor) == ("forfeit purple", "admin", admin_user)
    game_in_play.refresh_from_db()
    assert game_in_play.status == Game.Status.OVER
    assert game_in_play.winner is not None and game_in_play.winner.user == alice
    assert (messages.SUCCESS, "bob (seat 2, purple) forfeited (move 7).") in messages_of(response)


def test_forfeiting_during_setup_is_refused_and_changes_nothing(
    admin_client: Client, game: Game, bob: AbstractBaseUser
) -> None:
    before = snapshot(game)

    response = admin_client.post(game_page("forfeit", game), {"seat": game.seats.get(user=bob).pk})

    assert response.status_code == 200
    assert (
        messages.ERROR,
        "The forfeit was refused: a player can forfeit only during play, not in setup.",
    ) in messages_of(response)
    assert snapshot(game) == before


def test_replacing_a_player_keeps_the_seats_pieces(
    admin_client: Client, game_in_play: Game, alice: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    seat = game_in_play.seats.get(user=alice)
    position = game_in_play.position

    form = admin_client.get(game_page("replace", game_in_play))
    response = admin_client.post(
        game_page("replace", game_in_play), {"seat": seat.pk, "username": "carol"}, follow=True
    )

    assert form.status_code == 200
    seat.refresh_from_db()
    game_in_play.refresh_from_db()
    assert (seat.user, seat.home) == (carol, "north-america")
    assert game_in_play.position == position
    assert (messages.SUCCESS, "carol now plays seat 1; its pieces stay.") in messages_of(response)


def test_replacing_with_a_player_already_seated_is_refused(
    admin_client: Client, game: Game, alice: AbstractBaseUser
) -> None:
    before = snapshot(game)

    response = admin_client.post(
        game_page("replace", game), {"seat": game.seats.get(user=alice).pk, "username": "bob"}
    )

    assert response.status_code == 200
    assert (
        messages.ERROR,
        "The replacement was refused: bob already has a seat in this game.",
    ) in messages_of(response)
    assert snapshot(game) == before


def test_replacing_with_an_unknown_user_is_refused(
    admin_client: Client, game: Game, alice: AbstractBaseUser
) -> None:
    before = snapshot(game)

    response = admin_client.post(
        game_page("replace", game), {"seat": game.seats.get(user=alice).pk, "username": "nobody"}
    )

    assert "There is no user named “nobody”." in response.content.decode()
    assert snapshot(game) == before


# --- who may use them ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["move", "forfeit", "replace"])
def test_a_player_cannot_open_the_organisers_pages(
    client: Client, alice: AbstractBaseUser, game_in_play: Game, name: str
) -> None:
    client.force_login(alice)
    before = snapshot(game_in_play)

    shown = client.get(game_page(name, game_in_play))
    posted = client.post(
        game_page(name, game_in_play),
        {"turn_number": "6", "choice": "build usa", "seat": "1", "username": "alice"},
    )

    for response in (shown, posted):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))
    assert snapshot(game_in_play) == before


@pytest.mark.parametrize("name", ["move", "forfeit", "replace"])
def test_staff_without_change_permission_get_forbidden(
    client: Client, staff_viewer: AbstractBaseUser, game_in_play: Game, name: str
) -> None:
    client.force_login(staff_viewer)
    before = snapshot(game_in_play)

    shown = client.get(game_page(name, game_in_play))
    posted = client.post(game_page(name, game_in_play), {"turn_number": "6", "text": "build usa"})

    assert (shown.status_code, posted.status_code) == (403, 403)
    assert snapshot(game_in_play) == before


def test_staff_who_may_only_view_see_the_game_without_its_tools(
    client: Client, staff_viewer: AbstractBaseUser, game: Game
) -> None:
    client.force_login(staff_viewer)
    before = snapshot(game)

    page = client.get(change_page(game)).content.decode()
    action = run_action(client, "pause_games", game)

    assert "Alice v Bob" in page
    assert game_page("move", game) not in page
    assert 'value="pause_games"' not in page
    assert action.status_code == 200  # the list ignores an action it does not offer
    assert snapshot(game) == before


def test_the_position_shown_is_the_stored_one(admin_client: Client, game_in_play: Game) -> None:
    page = admin_client.get(change_page(game_in_play)).content.decode()

    shown = json.dumps(game_in_play.position, indent=2).replace('"', "&quot;")
    assert shown in page
