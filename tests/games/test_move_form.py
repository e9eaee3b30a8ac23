"""The parts of every move's request: its form, which takes its fields as they are,
unchanged by any form, and the path of the game page the player is sent back to."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse, set_script_prefix

from games import views
from games.forms import MoveForm


def fields_as_declared() -> list[tuple[str, str, bool, object]]:
    return [
        (name, type(field).__name__, field.required, copy.copy(field.widget.attrs))
        for name, field in MoveForm.base_fields.items()
    ]


def test_forms_share_their_fields_and_none_changes_them() -> None:
    before = fields_as_declared()
    good = MoveForm({"action": "grow alaska", "turn": "6", "confirm_elimination": "on"})
    typed = MoveForm({"notation": "  build europe ", "action": "grow alaska", "turn": "7"})
    damaged = MoveForm({"action": "", "turn": "-1"})
    empty = MoveForm()

    assert good.fields["turn"] is typed.fields["turn"] is MoveForm.base_fields["turn"]
    assert good.fields is not typed.fields  # each form's own dict of them
    assert good.is_valid() and typed.is_valid() and not damaged.is_valid()
    assert (good.text, good.cleaned_data["turn"], good.cleaned_data["confirm_elimination"]) == (
        "grow alaska",
        6,
        True,
    )
    assert (typed.text, typed.cleaned_data["turn"]) == ("build europe", 7)
    assert set(damaged.errors) == {"turn", "__all__"}
    assert 'type="hidden"' in str(empty["turn"]) and 'value="6"' in str(good["turn"])
    assert 'value="6"' not in str(empty["turn"])  # a value shown stays its form's
    assert fields_as_declared() == before


@pytest.mark.parametrize("prefix", ["/", "/site/"])
def test_a_games_path_is_the_one_reverse_gives(prefix: str) -> None:
    set_script_prefix(prefix)  # as the WSGI handler sets it for a site served there
    try:
        for pk in (1, 7, 42, 918273645, 10**12):
            assert views._game_path(pk) == reverse("games:detail", args=[pk])
            assert views._game_path(pk).startswith(prefix)
    finally:
        set_script_prefix("/")
