"""The outbox's migrations, run on rows written before them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import services as games


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


@pytest.mark.django_db(transaction=True)
def test_a_mails_game_becomes_its_thread_key(back_to_the_latest_schema: None) -> None:
    OutgoingMail = migrate([("mail", "0003_inline_part")]).get_model("mail", "OutgoingMail")
    # The games' tables are as every migration leaves them: the real model writes there.
    game = games.create_game(get_user_model().objects.create(username="alice"))
    threaded = a_mail(OutgoingMail, 1, game_id=game.pk, thread=f"game-{game.pk}")
    unthreaded = a_mail(OutgoingMail, 2, game_id=game.pk)
    gameless = a_mail(OutgoingMail, 3)
    account = a_mail(OutgoingMail, 4, thread="signup-7")

    OutgoingMail = migrate([("mail", "0004_thread_instead_of_game")]).get_model(
        "mail", "OutgoingMail"
    )

    after = dict(OutgoingMail.objects.values_list("pk", "thread"))
    key = f"game-{game.pk}"
    assert after == {
        threaded.pk: key,
        unthreaded.pk: key,
        gameless.pk: "",
        account.pk: "signup-7",
    }


@pytest.mark.django_db(transaction=True)
def test_undone_a_game_threads_mails_find_their_game_again(
    back_to_the_latest_schema: None,
) -> None:
    OutgoingMail = migrate([("mail", "0004_thread_instead_of_game")]).get_model(
        "mail", "OutgoingMail"
    )
    game = games.create_game(get_user_model().objects.create(username="alice"))
    of_game = a_mail(OutgoingMail, 1, thread=f"game-{game.pk}")
    of_gone_game = a_mail(OutgoingMail, 2, thread=f"game-{game.pk + 1000}")
    gameless = a_mail(OutgoingMail, 3, thread="signup-7")

    OutgoingMail = migrate([("mail", "0003_inline_part")]).get_model("mail", "OutgoingMail")

    after = dict(OutgoingMail.objects.values_list("pk", "game_id"))
    assert after == {of_game.pk: game.pk, of_gone_game.pk: None, gameless.pk: None}
