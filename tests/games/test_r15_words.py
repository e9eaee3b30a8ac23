"""R15's warning is written once (ww5.describe.ELIMINATES): every page, mail and
answer that warns a player that a decision eliminates them takes it from there."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from games import wording
from tests.engine.helpers import load
from ww5 import describe

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
            "ww5",
        )
        for path in (root / folder).rglob("*")
        if path.suffix in {".py", ".html", ".txt"}
        and "migrations" not in path.parts
        and "engine" not in path.parts
        and WRITTEN in path.read_text(encoding="utf-8")
    ]
    assert found == ["ww5/describe.py"]


def test_a_choice_that_eliminates_its_player_carries_the_warning() -> None:
    alone = load({"usa": ("blue", "small"), "western-europe": ("purple", "large")})
    by_action = {c.action: c for g in describe.choices(alone, {}) for c in g.choices}
    assert by_action["move usa colombia"].warning == WRITTEN
    assert by_action["grow usa"].warning == ""
    assert wording.needs_confirming(describe.choices(alone, {}))
    two = load(
        {
            "usa": ("blue", "small"),
            "canada": ("blue", "small"),
            "western-europe": ("purple", "large"),
        }
    )
    assert not wording.needs_confirming(describe.choices(two, {}))
    assert describe.elimination_warning("Move your small from USA to Colombia") == (
        f"“Move your small from USA to Colombia” leaves your home continent empty: it {WRITTEN}."
    )
