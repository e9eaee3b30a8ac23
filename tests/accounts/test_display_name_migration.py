"""The migration that makes display names unique, run on profiles made before it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("accounts", "0002_absences_and_digests")]
AFTER = [("accounts", "0003_display_name_key")]


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to targets; the apps (historical models) as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def latest_schema_after() -> Iterator[None]:
    """The tests after these share the test database: leave it migrated to the latest
    migrations, not to AFTER (later migrations of the app would be missing)."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_existing_profiles_get_their_key_and_later_copies_are_cleared() -> None:
    apps = migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Profile = apps.get_model("accounts", "Profile")
    names = {
        "alice": "The Baron",
        "bob": "the  BARON",  # a later copy of alice's
        "carol": "Alice",  # alice's username
        "dave": "Random bot 3",
        "erin": "ERIN",  # her own username, differently written
        "frank": "",
    }
    for username, display_name in names.items():
        user = User.objects.create(username=username)
        Profile.objects.create(user=user, display_name=display_name)

    Profile = migrate(AFTER).get_model("accounts", "Profile")

    after = {
        p.user.username: (p.display_name, p.name_key)
        for p in Profile.objects.select_related("user")
    }
    assert after == {
        "alice": ("The Baron", "the baron"),
        "bob": ("", ""),
        "carol": ("", ""),
        "dave": ("", ""),
        "erin": ("ERIN", "erin"),
        "frank": ("", ""),
    }
