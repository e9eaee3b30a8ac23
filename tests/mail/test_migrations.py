"""The outbox's migrations, run on rows written before them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to targets; the apps (historical models) as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest_schema() -> Iterator[None]:
    """The tests after this one find the database as every migration leaves it."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def a_mail(OutgoingMail: Any, n: int, **fields: Any) -> Any:
    return OutgoingMail.objects.create(
        to_address="alice@example.com",
        kind="decision",
        subject=f"Mail {n}",
        body_text="",
        body_html="",
        message_id=f"<{n}@localhost>",
        **fields,
    )


@pytest.mark.django_db(transaction=True)
def test_the_board_pictures_of_existing_mails_become_inline_parts_of_kind_board(
    back_to_the_latest_schema: None,
) -> None:
    OutgoingMail = migrate([("mail", "0002_inline_board")]).get_model("mail", "OutgoingMail")
    board = {"board": "original", "position": {"phase": "setup"}, "names": {"red": "alice"}}
    with_board = a_mail(OutgoingMail, 1, inline_board=board)
    without = a_mail(OutgoingMail, 2)

    OutgoingMail = migrate([("mail", "0003_inline_part")]).get_model("mail", "OutgoingMail")

    after = {m.pk: (m.inline_kind, m.inline_spec) for m in OutgoingMail.objects.all()}
    assert after == {with_board.pk: ("board", board), without.pk: ("", None)}
