"""Make the local site ready to try: an admin account and a demo game against two bots.

``bin/site`` runs this after the migrations. It is safe to run again: the admin account
is made only when missing (an existing password is never reset), and a new demo game
only when there is no running one. It refuses to run unless DEBUG is on, because the
admin's password is published in the README.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse

from games import services
from games.models import Game

ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "ww5-admin"
ADMIN_EMAIL = "admin@localhost"
DEMO_NAME = "Demo: you against two bots"
# (bot, home) for the admin's opponents; the admin plays North America.
ADMIN_HOME = "north-america"
DEMO_BOTS = [("greedy", "europe"), ("random", "asia")]
LOCAL_HOSTS = {"", "127.0.0.1", "0.0.0.0", "[::]", "[::1]", "localhost"}


class Command(BaseCommand):
    help = "Create the local admin account and a demo game against two bots (DEBUG only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--address",
            default="127.0.0.1:8000",
            help="where runserver listens (a port or host:port), for the printed links",
        )

    def handle(self, *args: Any, address: str = "127.0.0.1:8000", **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "seed_demo runs only with DEBUG on: it makes an admin account whose "
                "password is public."
            )
        # One transaction: the bots' first moves run after it commits.
        with transaction.atomic():
            admin, admin_created = ensure_admin()
            game, game_created = ensure_demo_game(admin)
        game.refresh_from_db()

        site = site_url(address)
        password = ADMIN_PASSWORD if admin_created else f"{ADMIN_PASSWORD} (unless changed)"
        waiting = game.to_move.display_name if game.to_move else "no one"
        self.stdout.write(f"Site: {site}/")
        self.stdout.write(
            f"Admin: {site}{reverse('admin:index')}  user: {ADMIN_USERNAME}  password: {password}"
        )
        self.stdout.write(
            f"Demo game: {site}{reverse('games:detail', args=[game.pk])}"
            f"  ({'new' if game_created else 'still running'}; waiting for {waiting})"
        )


def ensure_admin() -> tuple[AbstractBaseUser, bool]:
    """The admin account, made if missing; an existing one is left as it is."""
    users = get_user_model()._default_manager
    admin = users.filter(username=ADMIN_USERNAME).first()
    created = admin is None
    if admin is None:
        admin = users.create_superuser(ADMIN_USERNAME, ADMIN_EMAIL, ADMIN_PASSWORD)
    # A verified address lets the admin sign in on the site too (mail must be confirmed).
    if not EmailAddress.objects.filter(user=admin).exists():
        EmailAddress.objects.create(
            user=admin, email=admin.email or ADMIN_EMAIL, verified=True, primary=True
        )
    return admin, created


def ensure_demo_game(admin: AbstractBaseUser) -> tuple[Game, bool]:
    """The admin's running demo game, or a new one if there is none (or it is over)."""
    running = (
        Game.objects.filter(
            name=DEMO_NAME,
            seats__user=admin,
            status__in=[Game.Status.SETUP, Game.Status.PLAY],
        )
        .order_by("-created_at")
        .first()
    )
    if running is not None:
        return running, False
    game = services.create_game(
        admin, name=DEMO_NAME, seats=1 + len(DEMO_BOTS), home=ADMIN_HOME, is_public=True
    )
    for bot, home in DEMO_BOTS:
        services.add_bot(game.pk, admin, bot, home=home)  # the last seat starts the game
    return game, True


def site_url(address: str) -> str:
    """http://host:port for runserver's address argument ("8001", "0.0.0.0:8000", ...)."""
    host, _, port = address.rpartition(":")
    if host in LOCAL_HOSTS:
        host = "localhost"
    return f"http://{host}:{port}"
