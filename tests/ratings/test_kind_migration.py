"""The migration to ratings per game kind: every rating and journal row made before it
is World War 5's, a ladder season's rows take their ladder's kind, and a player may
then hold one global rating per kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = ("ratings", "0006_options_value")
AFTER = ("ratings", "0007_rating_kind")


def migrate(target: tuple[str, str]) -> Any:
    """Migrate the ratings app to ``target`` (every other app at its latest); the apps
    (historical models) as they are there."""
    executor = MigrationExecutor(connection)
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] != "ratings"]
    targets = [*others, target]
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest_schema() -> Iterator[None]:
    """The tests after this one find the database as every migration leaves it."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_existing_ratings_become_world_war_5s(back_to_the_latest_schema: None) -> None:
    apps = migrate(BEFORE)
    model = apps.get_model
    alice = model("auth", "User").objects.create(username="alice")
    now = timezone.now()
    game = model("games", "Game").objects.create(name="Old game")
    model("ratings", "Rating").objects.create(user=alice, mu=26.0, sigma=7.0, games=1)
    journal = {"game": game, "seat": 1, "rank": 1, "played_at": now, "model": {}}
    moves = {"mu_before": 25.0, "sigma_before": 8.0, "mu_after": 26.0, "sigma_after": 7.0}
    model("ratings", "JournalEntry").objects.create(user=alice, **journal, **moves)
    league = model("tournaments", "League").objects.create(name="Old League", slug="old")
    Ladder = model("ratings", "Ladder")
    for name, kind in (("Old Ladder", "ww5"), ("Other Ladder", "other-game")):
        ladder = Ladder.objects.create(league=league, name=name, kind=kind)
        season = model("ratings", "Season").objects.create(ladder=ladder, number=1)
        player = model("ratings", "LadderPlayer").objects.create(ladder=ladder, user=alice)
        model("ratings", "Rating").objects.create(
            season=season, player=player, mu=26.0, sigma=7.0, games=1
        )
        model("ratings", "JournalEntry").objects.create(
            season=season, player=player, **journal, **moves
        )

    apps = migrate(AFTER)
    Rating = apps.get_model("ratings", "Rating")
    JournalEntry = apps.get_model("ratings", "JournalEntry")

    for rows in (Rating.objects, JournalEntry.objects):
        assert rows.get(season__isnull=True).kind == "ww5"
        by_ladder = dict(
            rows.filter(season__isnull=False).values_list("season__ladder__name", "kind")
        )
        assert by_ladder == {"Old Ladder": "ww5", "Other Ladder": "other-game"}
    old = Rating.objects.get(season__isnull=True)
    assert (old.user_id, old.mu, old.sigma, old.games) == (alice.pk, 26.0, 7.0, 1)
    # One global rating per kind: another game's beside World War 5's, never two of one.
    Rating.objects.create(user_id=alice.pk, kind="other-game", mu=25.0, sigma=8.0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Rating.objects.create(user_id=alice.pk, kind="ww5", mu=25.0, sigma=8.0)
