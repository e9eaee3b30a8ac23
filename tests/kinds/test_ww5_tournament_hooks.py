"""World War 5's tournament hooks give an event what its tournament core used to measure
for itself: the R28 turn-limit measures of the players still in a game, who is out of it
(R24, R31), and the home continents a seat gets (R4) with their names."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kinds import kind_named
from tests.engine.helpers import (
    BLUE,
    HOMES,
    OPENING,
    PURPLE,
    RED,
    SIZES,
    YELLOW,
    load,
    position,
)
from tournaments.core import adjudication as core
from ww5.engine import BOARDS, forfeit
from ww5.tournament import CONTINENTS, adjudicate

WW5 = kind_named("ww5")
BOARD = BOARDS["original"]
FOUR = (BLUE, PURPLE, YELLOW, RED)
PIPS = {size: pips for pips, size in enumerate(SIZES, start=1)}
# The continents every board had before the kinds said so (tournaments.core.seating).
OLD_CONTINENTS = ("north-america", "south-america", "europe", "africa", "asia", "australia")


def random_position(seed: int) -> dict[str, Any]:
    """A position of four players, some of them eliminated, each player still in holding
    a piece at home and at most three pieces of each size."""
    rng = random.Random(seed)
    out = [p for p in FOUR[:-1] if rng.random() < 0.3][:2]
    free = list(BOARD.territories)
    rng.shuffle(free)
    pieces: dict[str, tuple[str, str]] = {}
    sizes: dict[str, list[str]] = {}
    for player in FOUR:
        if player in out:
            continue
        home = BOARD.continent_territories[BOARD.continent_index[HOMES[player]]]
        at_home = BOARD.territories[rng.choice(home)]
        free.remove(at_home)
        sizes[player] = [size for size in SIZES for _ in range(3)]
        rng.shuffle(sizes[player])
        pieces[at_home] = (player, sizes[player].pop())
    for player, left in sizes.items():
        for size in left[: rng.randint(0, 3)]:
            pieces[free.pop()] = (player, size)
    for name, territories in zip(BOARD.continents, BOARD.continent_territories, strict=True):
        names = [BOARD.territories[t] for t in territories]
        owners = {pieces[t][0] if t in pieces else None for t in names}
        (owner,) = owners if len(owners) == 1 else (None,)
        if owner is not None and HOMES[owner] != name:
            del pieces[names[0]]  # no one has won yet (R25)
    return position(pieces, players=FOUR, eliminated=out, to_move=FOUR[-1])


def held(data: dict[str, Any], player: str, territories: Any = None) -> list[dict[str, Any]]:
    """The pieces of ``player`` in a stored position (on ``territories`` only, if given)."""
    return [
        piece
        for territory, piece in data["pieces"].items()
        if piece["player"] == player and (territories is None or territory in territories)
    ]


def expected(data: dict[str, Any], player: str) -> dict[str, int]:
    """R28's measures, read from the stored position as the words say them."""
    continents = {
        name: {BOARD.territories[t] for t in territories}
        for name, territories in zip(BOARD.continents, BOARD.continent_territories, strict=True)
    }
    home = HOMES[player]
    return {
        "territories": len(held(data, player)),
        "pips": sum(PIPS[piece["size"]] for piece in held(data, player)),
        "home": len(held(data, player, continents[home])),
        "continent": max(len(held(data, player, ts)) for c, ts in continents.items() if c != home),
    }


def test_r28_the_kind_offers_the_measures_the_organiser_may_rank_by() -> None:
    assert WW5.adjudication_measures() == {
        "territories": "territories held",
        "pips": "size of pieces",
        "home": "territories held on the home continent",
        "continent": "most territories held on one other continent",
    }


@settings(deadline=None, max_examples=80)
@given(st.integers(0, 2**32), st.permutations(["territories", "pips", "home", "continent"]))
def test_r28_the_kind_measures_each_player_still_in_as_the_rule_says(
    seed: int, measures: list[str]
) -> None:
    data = random_position(seed)
    values = WW5.measure(data, measures)
    assert list(values) == list(FOUR)  # every player, in the game's order
    for player in FOUR:
        if player in data["eliminated"]:
            assert values[player] is None
        else:
            want = expected(data, player)
            assert values[player] == tuple(want[name] for name in measures)


def test_r28_an_unknown_measure_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown measures: luck"):
        WW5.measure(position(OPENING), ["luck"])


@settings(deadline=None, max_examples=60)
@given(
    st.integers(0, 2**32),
    st.lists(st.sampled_from(["territories", "pips", "home", "continent"]), unique=True),
)
def test_r28_ranking_through_the_hooks_is_world_war_5s_own_adjudication(
    seed: int, steps: list[str]
) -> None:
    """What an event does with the kind's hooks
    (``tournaments.services.rounds.adjudicate_game``) ranks as World War 5's adjudication
    of the position does."""
    data = random_position(seed)
    ranking = (*steps, "elimination")
    out = tuple(core.Elimination((name,)) for name in data["eliminated"])
    measures = WW5.adjudication_measures()
    through_hooks = core.adjudicate(
        WW5.measure(data, core.ranking_steps(ranking, measures)), ranking, out, measures=measures
    )
    assert through_hooks == adjudicate(data, ranking, out)


def test_r24_r31_the_kind_reads_who_is_out_from_the_moves() -> None:
    state = load({**OPENING, "north-asia": (YELLOW, "small")}, players=(BLUE, PURPLE, YELLOW))
    _, events = forfeit(state, PURPLE)
    moves = [
        ("invade usa north-asia", [{"type": "eliminated", "players": [YELLOW]}]),
        (f"forfeit {PURPLE}", events),
        ("invade canada scandinavia", [{"type": "eliminated", "players": [BLUE, RED]}]),
    ]
    assert WW5.eliminations(moves) == (
        ((YELLOW,), False),
        ((PURPLE,), True),
        ((BLUE, RED), False),
    )
    assert WW5.eliminations([]) == ()


def test_r4_the_seat_roles_are_the_home_continents_on_every_board() -> None:
    assert CONTINENTS == OLD_CONTINENTS
    for board in BOARDS:
        assert WW5.seat_roles({"board": board}) == OLD_CONTINENTS
    assert WW5.seat_roles({}) == OLD_CONTINENTS


def test_r4_each_home_has_its_continents_name() -> None:
    assert WW5.role_names({}) == {
        "north-america": "North America",
        "south-america": "South America",
        "europe": "Europe",
        "africa": "Africa",
        "asia": "Asia",
        "australia": "Australia",
    }
