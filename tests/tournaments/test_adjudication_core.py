"""The tournament core ranks a game cut short by a turn limit from the values handed to
it, knowing no game: any kind's measures of the players still in, and who went out when
(the house rule of World War 5's R28; R24's simultaneous eliminations, R31's forfeits)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.adjudication import Elimination, adjudicate, ranking_steps

# Measures of a game the core has never heard of.
MEASURES = {"armies": "armies on the board", "cities": "cities held"}


def test_players_still_in_rank_by_the_measures_in_the_ranking_s_order() -> None:
    values = {"ann": (3, 5), "bob": (3, 7), "cat": None, "dan": (1, 9)}
    result = adjudicate(
        values, ("armies", "cities", "elimination"), [Elimination(("cat",))], measures=MEASURES
    )
    assert result.order == (("bob",), ("ann",), ("dan",), ("cat",))
    assert result.decided_by == ("cities", "armies", "elimination")
    assert [(v.player, v.values, v.eliminated) for v in result.values] == [
        ("ann", (3, 5), None),
        ("bob", (3, 7), None),
        ("cat", (), 1),
        ("dan", (1, 9), None),
    ]


def test_a_ranking_of_elimination_alone_ties_the_players_still_in() -> None:
    values: dict[str, tuple[int, ...] | None] = {"ann": (), "bob": None, "cat": ()}
    result = adjudicate(values, ("elimination",), [Elimination(("bob",))], measures=MEASURES)
    assert result.order == (("ann", "cat"), ("bob",))
    assert result.decided_by == ("elimination",)


def test_the_ranking_may_use_only_the_kinds_measures_once_each() -> None:
    with pytest.raises(ValueError, match="unknown"):
        ranking_steps(("territories",), MEASURES)
    with pytest.raises(ValueError, match="repeated"):
        ranking_steps(("armies", "armies"), MEASURES)
    assert ranking_steps(("cities", "elimination", "armies"), MEASURES) == ("cities", "armies")
    with pytest.raises(ValueError, match="unknown"):
        adjudicate({"ann": (1,)}, ("pips",), [], measures=MEASURES)


def test_values_and_eliminations_must_agree() -> None:
    with pytest.raises(ValueError, match="one value for each step"):
        adjudicate({"ann": (1, 2), "bob": (1,)}, ("armies", "cities"), [], measures=MEASURES)
    with pytest.raises(ValueError, match="do not match"):
        adjudicate({"ann": (1,), "bob": None}, ("armies",), [], measures=MEASURES)
    with pytest.raises(ValueError, match="do not match"):
        adjudicate({"ann": (1,)}, ("armies",), [Elimination(("ann",))], measures=MEASURES)


def expected_order(
    values: dict[str, tuple[int, ...] | None], out: Sequence[Elimination]
) -> list[set[str]]:
    """The order recomputed from the rule's words: the players still in, the highest
    values first and equal values together; then the eliminated in play, the later the
    better, together tied; then the forfeiters, the later the better."""
    still_in = {name: v for name, v in values.items() if v is not None}
    groups = [
        {name for name, v in still_in.items() if v == level}
        for level in sorted(set(still_in.values()), reverse=True)
    ]
    groups += [set(e.players) for e in reversed(out) if not e.forfeit]
    groups += [set(e.players) for e in reversed(out) if e.forfeit]
    return groups


@st.composite
def games(draw: st.DrawFn) -> tuple[dict[str, tuple[int, ...] | None], list[Elimination], int]:
    steps = draw(st.integers(0, 2))
    players = [f"p{i}" for i in range(draw(st.integers(2, 6)))]
    out_players = draw(st.lists(st.sampled_from(players), unique=True, max_size=len(players)))
    out: list[Elimination] = []
    left = list(out_players)
    while left:
        together = left[: draw(st.integers(1, 2))]
        left = left[len(together) :]
        out.append(Elimination(tuple(together), forfeit=draw(st.booleans())))
    values: dict[str, tuple[int, ...] | None] = {
        name: None if name in out_players else tuple(draw(st.integers(0, 3)) for _ in range(steps))
        for name in players
    }
    return values, out, steps


@settings(deadline=None, max_examples=200)
@given(games())
def test_the_order_is_the_rule_s_order_recomputed(
    game: tuple[dict[str, tuple[int, ...] | None], list[Elimination], int],
) -> None:
    values, out, steps = game
    ranking = (*list(MEASURES)[:steps], "elimination")
    result = adjudicate(values, ranking, out, measures=MEASURES)
    assert [set(group) for group in result.order] == expected_order(values, out)
    assert [v.player for v in result.values] == list(values)
    assert len(result.decided_by) == max(0, len(result.order) - 1)
    pairs = list(zip(result.order, result.order[1:], strict=False))
    for (above, below), step in zip(pairs, result.decided_by, strict=True):
        first, second = values[above[0]], values[below[0]]
        if second is None:
            assert step == "elimination"
        else:
            assert first is not None
            differing = [i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
            assert step == ranking[differing[0]]
