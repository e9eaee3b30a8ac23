"""The rating maths (ratings.core): OpenSkill's Plackett-Luce over finishing orders."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from ratings.core import journal, model
from ratings.core.model import Rating

T0 = datetime(2026, 1, 5, 12, tzinfo=UTC)


def _players() -> list[tuple[str, int, Rating]]:
    return [
        ("ann", 1, Rating(27.0, 6.0)),
        ("bob", 2, Rating(25.0, 8.3)),
        ("cat", 3, Rating(30.0, 3.0)),
        ("dan", 4, Rating(20.0, 5.0)),
    ]


def test_rating_updates_do_not_depend_on_the_order_the_players_are_listed() -> None:
    players = _players()
    first = model.rate(players)
    for listing in itertools.permutations(players):
        assert model.rate(list(listing)) == first


def test_the_winner_gains_and_the_last_loses() -> None:
    after = model.rate(_players())
    assert after["ann"].mu > 27.0
    assert after["dan"].mu < 20.0
    assert all(after[key].sigma < r.sigma for key, _, r in _players())


def test_tied_players_with_equal_ratings_move_alike() -> None:
    same = Rating(25.0, 8.0)
    after = model.rate([("ann", 1, same), ("bob", 1, same), ("cat", 3, same)])
    assert after["ann"] == after["bob"]
    assert after["ann"].mu > 25.0 > after["cat"].mu


def test_a_tie_moves_ratings_less_than_a_win() -> None:
    same = Rating(25.0, 8.0)
    tie = model.rate([("ann", 1, same), ("bob", 1, same)])
    win = model.rate([("ann", 1, same), ("bob", 2, same)])
    assert abs(tie["ann"].mu - 25.0) < win["ann"].mu - 25.0


def test_a_game_needs_two_different_players() -> None:
    with pytest.raises(ValueError):
        model.rate([("ann", 1, Rating(25, 8))])
    with pytest.raises(ValueError):
        model.rate([("ann", 1, Rating(25, 8)), ("ann", 2, Rating(25, 8))])


def test_the_shown_rating_is_mu_less_three_sigma_on_an_elo_like_scale() -> None:
    assert model.initial().shown == 1000
    assert Rating(30.0, 2.0).shown == round(1000 + 40 * 24)
    assert Rating(30.0, 2.0).uncertainty == 240


def test_sigma_grows_for_each_whole_idle_week_and_no_more() -> None:
    rating = Rating(30.0, 2.0)
    assert model.idle_weeks(T0, T0 + timedelta(days=6, hours=23)) == 0
    assert model.idle_weeks(T0, T0 + timedelta(days=7)) == 1
    assert model.idle_weeks(T0, T0 + timedelta(days=30)) == 4
    assert model.grown(rating, 0) == rating
    one = model.grown(rating, 1)
    four = model.grown(rating, 4)
    assert one.mu == four.mu == 30.0
    assert 2.0 < one.sigma < four.sigma
    assert four.sigma == pytest.approx((2.0**2 + 4 * 0.25**2) ** 0.5)
    assert model.grown(rating, 10_000).sigma == model.DEFAULT.sigma  # never past a newcomer's


def test_a_rating_read_later_has_grown_by_its_idle_weeks() -> None:
    state = journal.PlayerState(Rating(30.0, 2.0), 5, T0)
    assert state.now(T0 + timedelta(days=3)) == state.rating
    assert state.now(T0 + timedelta(days=15)) == model.grown(state.rating, 2)


def test_a_game_after_idle_weeks_starts_from_the_grown_rating() -> None:
    states = {
        "ann": journal.PlayerState(Rating(30.0, 2.0), 5, T0),
        "bob": journal.PlayerState(Rating(30.0, 2.0), 5, T0 + timedelta(days=21)),
    }
    when = T0 + timedelta(days=21)
    rows, _ = journal.rate_game(states, journal.GameResult(1, when, (("ann", 1, 1), ("bob", 2, 2))))
    before = {row.key: row.before for row in rows}
    assert before["ann"] == model.grown(Rating(30.0, 2.0), 3)
    assert before["bob"] == Rating(30.0, 2.0)


def test_a_carried_rating_keeps_mu_and_is_less_sure() -> None:
    carried = model.carried(Rating(31.0, 2.0), 2.0)
    assert carried.mu == 31.0
    assert carried.sigma == pytest.approx(8**0.5)


def test_a_carried_start_first_rated_weeks_later_has_grown_since_the_last_game() -> None:
    last = journal.PlayerState(Rating(31.0, 2.0), 7, T0)
    start = journal.carried_start(last, 2.0)
    assert start.games == 0 and start.last_played == T0
    when = T0 + timedelta(weeks=12, days=2)  # a new season began in between
    rows, after = journal.rate_game(
        {}, journal.GameResult(1, when, (("ann", 1, 1), ("bob", 2, 2))), start={"ann": start}
    )
    before = {row.key: row.before for row in rows}
    assert before["ann"].sigma == pytest.approx((2.0**2 + 2.0**2 + 12 * 0.25**2) ** 0.5)
    assert before["bob"] == model.initial()
    assert after["ann"].games == 1 and after["ann"].last_played == when


def test_a_replay_equals_the_incremental_updates_exactly() -> None:
    import random

    rng = random.Random(5)
    keys = [f"p{n}" for n in range(9)]
    results = []
    for n in range(200):
        table = rng.sample(keys, rng.choice((2, 3, 4)))
        ranks = [rng.randint(1, len(table)) for _ in table]
        when = T0 + timedelta(days=n * rng.random() * 3)
        results.append(
            journal.GameResult(
                n,
                when,
                tuple((k, r, s) for s, (k, r) in enumerate(zip(table, ranks, strict=True), 1)),
            )
        )
    results.sort(key=lambda r: r.when)
    states: dict = {}
    for result in results:
        _, changed = journal.rate_game(states, result)
        states.update(changed)
    _, replayed = journal.replay(results)
    assert replayed == states


def test_rating_updates_with_ties_do_not_depend_on_the_order_the_players_are_listed() -> None:
    players = [
        ("ann", 1, Rating(27.0, 6.0)),
        ("bob", 1, Rating(25.0, 8.3)),
        ("cat", 3, Rating(30.0, 3.0)),
        ("dan", 3, Rating(20.0, 5.0)),
    ]
    first = model.rate(players)
    assert first["ann"].mu > 27.0 and first["cat"].mu < 30.0
    for listing in itertools.permutations(players):
        assert model.rate(list(listing)) == first
