"""R15's warning is written once (games.describe.ELIMINATES): every page, mail and
answer that warns a player that a decision eliminates them takes it from there."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from games import describe

WRITTEN = describe.ELIMINATES


def test_r15s_warning_is_written_in_one_place() -> None:
    root = Path(settings.BASE_DIR)
    found = [
        path.relative_to(root).as_posix()
        for folder in (
            "accounts",
            "games",
            "inbound",
            "mail",
            "ratings",
            "tournaments",
            "templates",
        )
        for path in (root / folder).rglob("*")
        if path.suffix in {".py", ".html", ".txt"}
        and "migrations" not in path.parts
        and "engine" not in path.parts
        and WRITTEN in path.read_text(encoding="utf-8")
    ]
    assert found == ["games/describe.py"]


def test_a_choice_that_eliminates_its_player_carries_the_warning() -> None:
    assert describe.Choice("move usa colombia", "Move", eliminates=True).warning == WRITTEN
    assert describe.Choice("move usa colombia", "Move").warning == ""
    assert describe.elimination_warning("Move your small from USA to Colombia") == (
        f"“Move your small from USA to Colombia” leaves your home continent empty: it {WRITTEN}."
    )
