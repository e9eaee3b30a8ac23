"""The management commands: rebuild_positions and seed_demo."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import AbstractBaseUser
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from games import services
from games.management.commands.seed_demo import DEMO_NAME, site_url
from games.models import Game, Move
from tests.games.factories import STRICT_SETUP, LoadedDice, play, seated_game


def run(command: str, *args: str) -> str:
    out = StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- rebuild_positions ---------------------------------------------------------------


@pytest.fixture
def played(dice: LoadedDice, alice: AbstractBaseUser, bob: AbstractBaseUser) -> Game:
    """Alice and Bob after the setup and two decisions in play."""
    game = seated_game(dice, [alice, bob])
    return play(game, *STRICT_SETUP, "grow alaska", "grow scandinavia")


def corrupt(game: Game) -> dict[str, Any]:
    """Take a piece off the stored position (not the log); returns the true position."""
    game.refresh_from_db()
    true_position = game.position
    assert true_position is not None
    wrong = {**true_position, "pieces": dict(true_position["pieces"])}
    del wrong["pieces"]["alaska"]
    Game.objects.filter(pk=game.pk).update(position=wrong)
    return true_position


def test_rebuild_reports_a_match_for_a_played_game(played: Game) -> None:
    out = run("rebuild_positions")

    assert f"Game {played.pk}: matches the move log" in out
    assert "Checked 1 game(s): 0 wrong, 0 fixed." in out


def test_rebuild_reports_a_corrupted_position_and_fails(played: Game) -> None:
    corrupt(played)
    out = StringIO()

    with pytest.raises(CommandError, match="1 game\\(s\\) do not match") as failure:
        call_command("rebuild_positions", stdout=out)

    assert failure.value.returncode == 1  # what manage.py exits with
    assert f"Game {played.pk}: does NOT match the move log" in out.getvalue()
    played.refresh_from_db()
    assert "alaska" not in played.position["pieces"]  # reported, not changed


def test_rebuild_with_fix_stores_the_replayed_position(played: Game) -> None:
    true_position = corrupt(played)
    moves = Move.objects.count()

    out = run("rebuild_positions", "--fix")

    assert f"Game {played.pk}: did not match; stored the replayed position" in out
    played.refresh_from_db()
    assert played.position == true_position
    assert Move.objects.count() == moves
    assert f"Game {played.pk}: matches the move log" in run("rebuild_positions")


def test_rebuild_checks_only_the_games_asked_for(
    played: Game, dice: LoadedDice, alice: AbstractBaseUser, carol: AbstractBaseUser
) -> None:
    unstarted = services.create_game(alice, home="asia")
    other = play(seated_game(dice, [alice, carol]), "place small alaska")
    corrupt(other)

    out = run("rebuild_positions", "--game", str(played.pk), "--game", str(unstarted.pk))

    assert f"Game {played.pk}: matches the move log" in out
    assert f"Game {unstarted.pk}: not started, nothing to check" in out
    assert f"Game {other.pk}" not in out


def test_rebuild_refuses_an_unknown_game(played: Game) -> None:
    with pytest.raises(CommandError, match="there is no game 999999"):
        run("rebuild_positions", "--game", "999999")


def test_rebuild_reports_a_log_that_does_not_replay(played: Game) -> None:
    Move.objects.filter(game=played, number=7).update(action="grow usa")  # a large cannot grow
    out = StringIO()

    with pytest.raises(CommandError):
        call_command("rebuild_positions", stdout=out)

    assert f"Game {played.pk}: the move log does not replay" in out.getvalue()


# --- seed_demo -----------------------------------------------------------------------


@pytest.fixture
def debugging(settings: Any, db: None) -> None:
    settings.DEBUG = True


def demo_games() -> Any:
    return Game.objects.filter(name=DEMO_NAME)


def test_seed_demo_makes_the_admin_and_a_started_demo_game(
    debugging: None, django_user_model: Any
) -> None:
    out = run("seed_demo")

    admin = django_user_model.objects.get(username="admin")
    assert admin.is_staff and admin.is_superuser
    assert EmailAddress.objects.filter(
        user=admin, email="admin@localhost", verified=True, primary=True
    ).exists()
    game = demo_games().get()
    assert game.is_public and game.status == Game.Status.SETUP
    seats = [(s.user, s.bot, s.home) for s in game.seats.order_by("number")]
    assert seats == [
        (admin, "", "north-america"),
        (None, "greedy", "europe"),
        (None, "random", "asia"),
    ]
    assert game.to_move is not None
    assert "Admin: http://localhost:8000/admin/  user: admin  password: ww5-admin" in out
    assert f"Demo game: http://localhost:8000{reverse('games:detail', args=[game.pk])}" in out


def test_the_demo_bots_play_until_it_is_the_admins_decision(debugging: None) -> None:
    run("seed_demo")
    game = demo_games().get()

    services.play_bot_turns(game.pk)  # what the task does once the seed commits

    game.refresh_from_db()
    assert game.to_move is not None and game.to_move.user is not None
    assert game.to_move.user.username == "admin"


def test_the_admin_signs_in_with_the_printed_password(debugging: None, client: Client) -> None:
    out = run("seed_demo")
    password = re.search(r"password: (\S+)", out)
    assert password is not None

    response = client.post(
        reverse("account_login"), {"login": "admin", "password": password.group(1)}
    )

    assert response.status_code == 302
    assert client.session.get("_auth_user_id") is not None
    assert Client().login(username="admin", password=password.group(1))


def test_seeding_twice_makes_no_second_admin_or_game(
    debugging: None, django_user_model: Any
) -> None:
    first = run("seed_demo")
    second = run("seed_demo")

    assert django_user_model.objects.filter(username="admin").count() == 1
    assert EmailAddress.objects.filter(email="admin@localhost").count() == 1
    assert demo_games().count() == 1
    link = re.compile(r"Demo game: (\S+)")
    assert link.search(first).group(1) == link.search(second).group(1)  # type: ignore[union-attr]
    assert "still running" in second


def test_seeding_keeps_an_existing_admins_password(debugging: None, django_user_model: Any) -> None:
    django_user_model.objects.create_superuser("admin", "boss@example.com", "my-own-secret")

    run("seed_demo")

    admin = django_user_model.objects.get(username="admin")
    assert admin.check_password("my-own-secret")
    assert EmailAddress.objects.get(user=admin).email == "boss@example.com"


def test_a_finished_demo_is_replaced_by_a_new_one(debugging: None) -> None:
    run("seed_demo")
    old = demo_games().get()
    services.abandon_game(old.pk, old.creator)

    out = run("seed_demo")

    new = demo_games().exclude(pk=old.pk).get()
    assert new.status == Game.Status.SETUP
    assert "(new;" in out


def test_seed_demo_refuses_without_debug(settings: Any, django_user_model: Any) -> None:
    settings.DEBUG = False

    with pytest.raises(CommandError, match="only with DEBUG on"):
        run("seed_demo")

    assert not django_user_model.objects.filter(username="admin").exists()
    assert not demo_games().exists()


@pytest.mark.parametrize(
    ("address", "url"),
    [
        ("127.0.0.1:8000", "http://localhost:8000"),
        ("8001", "http://localhost:8001"),
        ("0.0.0.0:8000", "http://localhost:8000"),
        ("example.org:8080", "http://example.org:8080"),
    ],
)
def test_the_printed_links_follow_the_address_the_site_runs_on(address: str, url: str) -> None:
    assert site_url(address) == url


def test_the_periodic_jobs_run_in_process_for_the_embedded_default(
    dice: Any, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = seated_game(dice, [alice, bob])
    Game.objects.filter(pk=game.pk).update(deadline=game.deadline - timedelta(days=3))
    out = StringIO()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("run_periodic_jobs", "--once", stdout=out)

    game.refresh_from_db()
    assert game.grace_used  # the sweep claimed it and the policy gave its grace
    assert "sweep-deadlines: done" in out.getvalue() and "sweep-outbox: done" in out.getvalue()
