"""Standings: points by place (ties share), a bye as a win, then the share of opponents
out-finished, the opponents' average score (0.33 floor for the withdrawn), the draw."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import events
from tournaments.core.results import Bye, GameResult, Result
from tournaments.core.standings import (
    FIVE_THREE_TWO_ONE,
    WIN_ONLY,
    Entrant,
    PointsTable,
    Standings,
    compute_standings,
    draw_number,
    line_key,
)

A, B, C, D, E, F, G = 1, 2, 3, 4, 5, 6, 7
EVERYONE = (A, B, C, D, E, F, G)


def standings_of(
    history: Sequence[Result],
    *,
    withdrawn: Collection[int] = (),
    table: PointsTable = FIVE_THREE_TWO_ONE,
    seed: int = 1,
) -> Standings:
    entrants = [Entrant(p, withdrawn=p in withdrawn) for p in EVERYONE]
    return compute_standings(entrants, history, table, seed=seed)


def test_the_points_table_is_scaled_for_other_table_sizes() -> None:
    assert FIVE_THREE_TWO_ONE.row(4) == (5, 3, 2, 1)
    assert FIVE_THREE_TWO_ONE.row(3) == (5, 2.5, 1)
    assert FIVE_THREE_TWO_ONE.row(2) == (5, 1)
    assert FIVE_THREE_TWO_ONE.row(6) == (5, 3, 2.666667, 2.333333, 2, 1)
    assert WIN_ONLY.row(3) == (5, 0, 0)
    assert WIN_ONLY.row(6) == (5, 0, 0, 0, 0, 0)


def test_an_organiser_can_set_a_table_sizes_row_outright() -> None:
    table = PointsTable((5.0, 3.0, 2.0, 1.0), rows=((3, (5.0, 3.0, 1.0)),))
    assert table.row(3) == (5, 3, 1)
    assert table.row(2) == (5, 1)


def test_tied_players_share_the_points_of_their_places() -> None:
    points = FIVE_THREE_TWO_ONE.points(((A,), (B, C), (D,)))
    assert points == {A: 5, B: 2.5, C: 2.5, D: 1}
    assert FIVE_THREE_TWO_ONE.points(((A, B, C, D),)) == dict.fromkeys((A, B, C, D), 2.75)


def test_a_bye_scores_as_a_win() -> None:
    standings = standings_of([Bye(1, A), GameResult.ranked(1, [B, C, D, E])])
    assert standings.line(A).points == standings.line(B).points == 5
    assert (standings.line(A).byes, standings.line(A).games, standings.line(A).opponents) == (
        1,
        0,
        0,
    )


def test_the_share_of_opponents_outfinished_counts_a_tie_as_half() -> None:
    history: list[Result] = [
        GameResult(1, ((A,), (B, C), (D,))),
        GameResult.ranked(2, [E, B, F]),
    ]
    line = standings_of(history).line(B)
    assert line.opponents == 5
    assert line.outfinished == 1.5 + 1  # D below, C tied; then F below
    assert line.outfinished_share == 0.5


def test_equal_points_are_parted_by_the_share_of_opponents_outfinished() -> None:
    history: list[Result] = [
        GameResult.ranked(1, [A, B, C, D]),  # A 5, out-finishing 3; B 3, out-finishing 2
        GameResult.ranked(2, [E, B, F, A]),  # B 3, out-finishing 2; A 1, none
    ]
    standings = standings_of(history)
    a, b = standings.line(A), standings.line(B)
    assert a.points == b.points == 6
    assert (a.outfinished_share, b.outfinished_share) == (0.5, 0.666667)
    assert (b.rank, a.rank) == (1, 2)
    assert a.separated_by == "outfinished"


def test_equal_points_and_outfinished_are_parted_by_the_opponents_average_score() -> None:
    history: list[Result] = [
        GameResult.ranked(1, [A, C, D]),  # A 5; C 2.5; D 1
        GameResult.ranked(1, [B, E, F]),  # B 5; E 2.5; F 1
        GameResult.ranked(2, [C, E, F]),  # C 7.5 of 10: 0.75; E 5 of 10: 0.5; F 2 of 10
    ]
    standings = standings_of(history)
    a, b = standings.line(A), standings.line(B)
    assert (a.points, a.outfinished_share) == (b.points, b.outfinished_share) == (5, 1.0)
    assert a.opponents_average == pytest.approx((0.75 + 0.2) / 2)
    assert b.opponents_average == pytest.approx((0.5 + 0.2) / 2)
    assert a.rank == b.rank - 1 and b.separated_by == "opponents"


def test_a_withdrawn_opponent_counts_at_least_a_third() -> None:
    history: list[Result] = [
        GameResult.ranked(1, [A, C, D]),
        GameResult.ranked(1, [B, E, F]),
        GameResult.ranked(2, [C, E, F]),
    ]
    standings = standings_of(history, withdrawn={F})
    assert standings.line(B).opponents_average == pytest.approx((0.5 + 0.33) / 2)
    assert standings.line(F).withdrawn and standings.line(F).score_share == 0.2
    assert standings.line(A).opponents_average == pytest.approx((0.75 + 0.2) / 2)  # D stays


def test_players_equal_on_every_tie_break_are_ordered_by_the_seeded_draw() -> None:
    history: list[Result] = [GameResult.ranked(1, [A, C]), GameResult.ranked(1, [B, D])]
    standings = standings_of(history, seed=4)
    first, second = standings.lines[0], standings.lines[1]
    assert {first.player, second.player} == {A, B}
    assert first.draw == draw_number(4, first.player) < second.draw
    assert second.separated_by == "draw"


def test_the_draw_depends_on_the_seed_and_is_reproducible() -> None:
    history: list[Result] = [GameResult.ranked(1, [A, C]), GameResult.ranked(1, [B, D])]
    orders = {standings_of(history, seed=s).lines[0].player for s in range(20)}
    assert orders == {A, B}
    assert standings_of(history, seed=3) == standings_of(history, seed=3)


def test_withdrawn_players_stay_in_the_standings() -> None:
    history: list[Result] = [GameResult.ranked(1, [A, B, C, D])]
    standings = standings_of(history, withdrawn={A})
    assert standings.line(A).rank == 1 and standings.line(A).withdrawn
    assert A not in standings.active()
    assert len(standings.lines) == len(EVERYONE)


def test_a_player_who_is_not_an_entrant_is_refused() -> None:
    with pytest.raises(ValueError, match="not an entrant"):
        standings_of([GameResult.ranked(1, [A, 99])])


@settings(deadline=None, max_examples=80)
@given(events(), st.integers(0, 2**32), st.sampled_from([FIVE_THREE_TWO_ONE, WIN_ONLY]))
def test_standings_rank_everyone_once_in_the_order_of_their_keys(
    event: tuple[list[int], list[Result]], seed: int, table: PointsTable
) -> None:
    players, history = event
    standings = compute_standings([Entrant(p) for p in players], history, table, seed=seed)
    assert [line.rank for line in standings.lines] == list(range(1, len(players) + 1))
    assert sorted(line.player for line in standings.lines) == players
    keys = [line_key(line) for line in standings.lines]
    assert keys == sorted(keys)
    given_out = sum(
        sum(table.row(len(r.players))) if isinstance(r, GameResult) else table.win for r in history
    )
    assert sum(line.points for line in standings.lines) == pytest.approx(given_out)
    assert all(0 <= line.outfinished_share <= 1 for line in standings.lines)
    assert all(0 <= line.opponents_average <= 1 for line in standings.lines)


def test_standings_of_a_large_event_rank_every_player_after_every_game() -> None:
    rng = random.Random(1)
    players = list(range(2_000))
    history: list[Result] = []
    for round in range(1, 9):
        rng.shuffle(players)
        history += [GameResult.ranked(round, players[i : i + 4]) for i in range(0, 2_000, 4)]
    standings = compute_standings(
        [Entrant(p) for p in players], history, FIVE_THREE_TWO_ONE, seed=1
    )
    # Its speed is measured by ``python -m bench.tournaments``.
    assert all(line.games == 8 for line in standings.lines)
    assert sorted(line.player for line in standings.lines) == sorted(players)
    assert [line.rank for line in standings.lines] == sorted(line.rank for line in standings.lines)
