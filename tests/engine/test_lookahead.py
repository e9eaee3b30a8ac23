"""R15's warning: ``eliminates_mover`` tells whether a legal action empties its own
player's home continent (R23), before anything is submitted."""

from __future__ import annotations

import pytest

from tests.engine.helpers import BLUE, HOMES, OPENING, PURPLE, YELLOW, load
from ww5.engine import IllegalAction, apply_action, eliminates_mover, start_position

THREE = (BLUE, PURPLE, YELLOW)
WIN_DICE = [6, 6, 6, 1, 1, 1]


def test_r15_moving_the_last_home_piece_away_eliminates_the_mover() -> None:
    state = load(
        {
            "alaska": (BLUE, "small"),
            "brazil": (BLUE, "large"),
            "scandinavia": (PURPLE, "small"),
            "southeast-asia": (YELLOW, "small"),
        },
        players=THREE,
    )

    assert eliminates_mover(state, "move alaska north-asia")
    assert not eliminates_mover(state, "move alaska canada")  # still at home
    assert not eliminates_mover(state, "move brazil colombia")  # not a home piece


def test_r15_an_invade_out_of_the_last_home_territory_that_would_win_eliminates_instead() -> None:
    # Blue would complete Africa from USA, its last home territory: with no home piece
    # left it is eliminated and does not win (R23, R25).
    pieces = {
        "usa": (BLUE, "large"),
        "northeast-africa": (BLUE, "small"),
        "south-africa": (BLUE, "small"),
        "northwest-africa": (YELLOW, "small"),
        "southeast-asia": (YELLOW, "small"),
        "western-europe": (PURPLE, "small"),
        "southern-europe": (PURPLE, "small"),
    }
    state = load(pieces, players=THREE)

    assert eliminates_mover(state, "invade usa northwest-africa")
    after, _ = apply_action(state, "invade usa northwest-africa", WIN_DICE)
    assert after.eliminated == (0,) and after.winner is None


def test_r15_the_same_invade_with_a_home_piece_left_wins_and_does_not_eliminate() -> None:
    pieces = {
        "usa": (BLUE, "large"),
        "alaska": (BLUE, "small"),
        "northeast-africa": (BLUE, "small"),
        "south-africa": (BLUE, "small"),
        "northwest-africa": (YELLOW, "small"),
        "southeast-asia": (YELLOW, "small"),
        "western-europe": (PURPLE, "small"),
        "southern-europe": (PURPLE, "small"),
    }
    state = load(pieces, players=THREE)

    assert not eliminates_mover(state, "invade usa northwest-africa")
    after, _ = apply_action(state, "invade usa northwest-africa", WIN_DICE)
    assert after.winner == 0


def test_r15_an_invade_with_a_retreat_to_choose_still_moves_the_attacker_out() -> None:
    # Purple's small in Scandinavia has three retreats: whichever it takes, blue's large
    # leaves Canada, its last home territory.
    pieces = {
        "canada": (BLUE, "large"),
        "brazil": (BLUE, "small"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    state = load(pieces, players=THREE)

    assert eliminates_mover(state, "invade canada scandinavia")
    assert state.to_move == 0  # the state itself is untouched


def test_r15_r20_an_invade_whose_defender_shrinks_leaves_the_attacker_at_home() -> None:
    # Purple's large in Western Europe is boxed in: it shrinks and blue does not move in.
    pieces = {
        "usa": (BLUE, "small"),
        "western-europe": (PURPLE, "large"),
        "scandinavia": (PURPLE, "small"),
        "southern-europe": (PURPLE, "medium"),
        "canada": (PURPLE, "small"),
        "brazil": (PURPLE, "medium"),
        "northwest-africa": (PURPLE, "small"),
    }
    state = load(pieces)

    assert not eliminates_mover(state, "invade usa western-europe")


def test_r15_a_retreat_out_of_the_last_home_territory_eliminates_the_defender() -> None:
    pieces = {
        "canada": (BLUE, "large"),
        "usa": (BLUE, "medium"),
        "scandinavia": (PURPLE, "small"),
        "southeast-asia": (YELLOW, "small"),
    }
    pending, _ = apply_action(load(pieces, players=THREE), "invade canada scandinavia", WIN_DICE)
    assert pending.to_move == 1

    assert eliminates_mover(pending, "retreat north-asia")
    assert not eliminates_mover(pending, "retreat southern-europe")  # still at home


def test_r15_ordinary_actions_do_not_eliminate() -> None:
    state = load(OPENING)

    assert not eliminates_mover(state, "grow alaska")
    assert not eliminates_mover(state, "move alaska north-asia")  # two home pieces stay
    assert not eliminates_mover(state, "invade canada scandinavia")


def test_r15_a_placement_or_a_build_never_eliminates() -> None:
    setup = start_position([(BLUE, HOMES[BLUE]), (PURPLE, HOMES[PURPLE])], {})
    assert not eliminates_mover(setup, "place small alaska")
    state = load({"usa": (BLUE, "small"), "western-europe": (PURPLE, "large")})
    assert not eliminates_mover(state, "build canada")


def test_eliminates_mover_refuses_an_action_that_is_not_legal() -> None:
    with pytest.raises(IllegalAction, match="R12"):
        eliminates_mover(load(OPENING), "move alaska canada")
