"""One vocabulary across the apps: a change goes in an app's ``services``, a read that
changes nothing in its ``selectors``, a Celery task in its ``tasks``, and the other
top-level modules are Django's wiring. A module that is none of these is listed below
with the reason it stands on its own; a new write or read goes to the services or the
selectors, not to a new top-level module."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)

# The wiring every app may have: Django's own modules, the app's errors, signals and
# receivers, its tasks, its writes and reads, and a pure core.
WIRING = {
    "__init__",
    "apps",
    "admin",
    "models",
    "urls",
    "views",
    "forms",
    "errors",
    "signals",
    "receivers",
    "tasks",
    "services",
    "selectors",
    "templatetags",
    "migrations",
    "management",
    "core",
}

# What else remains at the top of an app, each for its reason.
OWN: dict[str, dict[str, str]] = {
    "accounts": {
        "adapter": "allauth's adapter, named in the settings (ACCOUNT_ADAPTER)",
        "backends": "the authentication backends, named in the settings",
        "clients": "the client's address, as the sign-in limits count it (named in the settings)",
        "context_processors": "a template context processor, named in the settings",
        "digest_times": "the arithmetic of a digest's due time, on the profile's own fields",
        "middleware": "the time-zone middleware, named in the settings",
        "names": "pure functions: when two display names are one name",
        "sign_in_checks": "a middleware checking one sign-in at a time, named in the settings",
        "signin": "django-axes' hooks (lockout page, username), named in the settings",
    },
    "games": {
        "adminoptions": "the game admin's filters and columns for a kind's own options",
        "clock": "pure functions: how declared absences stop a player's clock",
        "digests": "the daily digest mail (a mail's content, sent by a task)",
        "kinds": "the game-kind registry and protocol: the seam to every game",
        "links": "signed one-click decision links for the mails",
        "notify": "the mails about games, queued in the caller's transaction",
        "options": "a game's options as one value (GameOptions)",
        "replyto": "signed reply addresses for a game's mails",
        "seen": "the one door through which readers see a game's position and moves",
        "wording": "the words every game shares, for the pages and the mails",
        "pngpalette": "a board picture's PNG palette, which every game's mail picture shares",
        "pngtext": "the font and the text of every game's mail picture, as its font draws it",
    },
    "inbound": {
        "answers": "the mails answering a received message",
        "audit": "the audit row of a received message, written by the services only",
        "checks": "Django system checks (the webhook's secret)",
        "commands": "what a reply's first line asks (a move, confirm, board, help)",
        "listener": "the SMTP listener behind the mail_listener command",
        "reading": "pure parsing of a received message, no database",
        "webhooks": "the providers' inbound webhook receiver (django-anymail's signal)",
    },
    "mail": {
        "backends": "Django mail backends, named in the settings",
        "parts": "the registry of inline-picture renderers other apps fill",
    },
    "ratings": {},
    "tournaments": {
        "eventadmin": "the admin pages for events (admin, split by model)",
        "roundadmin": "the admin pages for rounds and tables (admin, split by model)",
        "eventsettings": "an event's settings: which exist, when they may change, checks",
        "notify": "the mails about tournaments, queued in the caller's transaction",
    },
}


def top_level(app: str) -> set[str]:
    """The app's top-level modules and packages, by name."""
    names = set()
    for path in (ROOT / app).iterdir():
        if path.suffix == ".py":
            names.add(path.stem)
        elif path.is_dir() and path.name != "__pycache__" and any(path.glob("*.py")):
            names.add(path.name)
    return names


@pytest.mark.parametrize("app", sorted(OWN))
def test_an_app_has_only_wiring_services_selectors_and_its_listed_modules(app: str) -> None:
    unexplained = top_level(app) - WIRING - set(OWN[app])

    assert not unexplained, (
        f"{app} has top-level modules that are not wiring: {sorted(unexplained)}; put a "
        f"write in {app}.services and a read in {app}.selectors, or list the module in "
        "OWN with its reason"
    )


@pytest.mark.parametrize("app", sorted(OWN))
def test_every_listed_module_still_exists(app: str) -> None:
    assert set(OWN[app]) <= top_level(app)


@pytest.mark.parametrize("app", ["games", "ratings", "tournaments"])
def test_the_apps_with_many_jobs_keep_services_and_selectors_as_packages(app: str) -> None:
    assert (ROOT / app / "services" / "__init__.py").is_file()
    assert {"services", "selectors", "tasks"} <= top_level(app)


@pytest.mark.parametrize("app", ["ratings", "tournaments"])
def test_the_apps_reads_are_a_package_of_their_own(app: str) -> None:
    assert (ROOT / app / "selectors" / "__init__.py").is_file()
