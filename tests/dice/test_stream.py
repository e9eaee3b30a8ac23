"""The dice stream (games.core.fairdice) is fair and reproducible: d6 rolls and the orders
of a shuffled deck pass chi-square tests, every value stays in its range however awkward
the span, the same seed, game, P and counter give the same number and any change of them
another, and a shuffle is a permutation."""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter

import pytest

from games.core import fairdice
from games.core.fairdice import Stream

# The tests' streams are fixed, so each test passes or fails the same way every run: the
# significance level p = 0.001 is the chance that a fair stream fails one of them, taken
# once for these seeds. The critical values are the chi-square distribution's upper
# 0.001 points, checked against the distribution below.
CRITICAL_P001 = {5: 20.515, 23: 49.728}


def chi_square_survival(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom (closed forms: a sum of
    Poisson terms for an even df, erfc and a series for an odd one)."""
    if df % 2 == 0:
        return math.exp(-x / 2) * sum((x / 2) ** i / math.factorial(i) for i in range(df // 2))
    root = math.sqrt(x)
    series = sum(root ** (2 * i - 1) / math.prod(range(1, 2 * i, 2)) for i in range(1, df // 2 + 1))
    return math.erfc(root / math.sqrt(2)) + math.sqrt(2 / math.pi) * math.exp(-x / 2) * series


def chi_square(counts: Counter[object], cells: list[object]) -> float:
    """Pearson's statistic of ``counts`` against the uniform distribution over ``cells``."""
    expected = sum(counts.values()) / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def seed(i: int) -> bytes:
    return hashlib.sha256(f"test seed {i}".encode()).digest()


def stream(i: int, game: str = "7") -> Stream:
    players = fairdice.players_hash(game, [(1, f"words {i}"), (2, "")])
    return Stream(seed(i), game, players, 0)


@pytest.mark.parametrize("df", sorted(CRITICAL_P001))
def test_the_critical_values_are_the_upper_0_001_points(df: int) -> None:
    assert chi_square_survival(CRITICAL_P001[df], df) == pytest.approx(0.001, rel=1e-3)
    assert chi_square_survival(0.0, df) == pytest.approx(1.0)


def test_60000_d6_rolls_over_six_games_are_uniform() -> None:
    """Six games of 10,000 rolls each: 1..6 equally likely (df = 5)."""
    counts: Counter[object] = Counter()
    for i in range(6):
        dice = stream(i, game=str(100 + i))
        counts.update(dice.randint(1, 6) for _ in range(10_000))

    assert sum(counts.values()) == 60_000
    assert chi_square(counts, [1, 2, 3, 4, 5, 6]) < CRITICAL_P001[5], counts


def test_a_shuffled_deck_of_four_takes_its_24_orders_alike() -> None:
    """24,000 shuffles of four cards (Fisher–Yates, three numbers each), over four games:
    every order equally likely (df = 23)."""
    cards = ["A", "B", "C", "D"]
    orders = [tuple(order) for order in itertools.permutations(cards)]
    counts: Counter[object] = Counter()
    for i in range(4):
        dice = stream(i, game=str(200 + i))
        counts.update(tuple(dice.sample(cards, 4)) for _ in range(6_000))

    assert set(counts) == set(orders)
    assert chi_square(counts, list(orders)) < CRITICAL_P001[23], counts


def test_the_chi_square_test_rejects_a_biased_die() -> None:
    """The threshold can fail: a die showing six a sixth more often than it should."""
    counts: Counter[object] = Counter({1: 9_800, 2: 9_800, 3: 9_800, 4: 9_800, 5: 9_800})
    counts[6] = 11_000

    assert chi_square(counts, [1, 2, 3, 4, 5, 6]) > CRITICAL_P001[5]


@pytest.mark.parametrize(
    ("low", "high"),
    [(1, 1), (0, 1), (1, 3), (-3, 3), (1, 42), (0, 2**32 - 1), (5, 2**32 + 5)],
    ids=["span-1", "span-2", "span-3", "span-7", "span-42", "span-2**32", "span-2**32+1"],
)
def test_every_value_stays_in_its_range(low: int, high: int) -> None:
    dice = stream(1)
    values = [dice.randint(low, high) for _ in range(2_000)]

    assert all(low <= value <= high for value in values)
    if high - low < 42:  # a small span: every value comes up
        assert set(values) == set(range(low, high + 1))
    else:
        assert len(set(values)) > 1_000


def test_an_empty_range_is_refused() -> None:
    with pytest.raises(ValueError, match="an empty range: 6..1"):
        fairdice.number(seed(0), "7", "p", 1, 6, 1)


def test_the_stream_is_the_same_for_the_same_seed_game_p_and_counter() -> None:
    first, again = stream(3), stream(3)

    assert [first.randint(1, 6) for _ in range(50)] == [again.randint(1, 6) for _ in range(50)]
    assert first.drawn == again.drawn == 50


def test_a_stream_from_a_counter_goes_on_where_the_game_left_off() -> None:
    whole = stream(4)
    later = Stream(seed(4), "7", whole.players, drawn=20)
    numbers = [whole.randint(1, 6) for _ in range(30)]

    assert later.first == 21
    assert [later.randint(1, 6) for _ in range(10)] == numbers[20:]
    assert later.drawn == 30 and later.ranges == [(1, 6)] * 10


def test_the_number_changes_with_the_seed_the_game_the_counter_and_p() -> None:
    """One number in 0..2**32-1: any change of what it is drawn from gives another."""

    def draw(seed_: bytes = seed(5), game: str = "7", players: str = "p", n: int = 1) -> int:
        return fairdice.number(seed_, game, players, n, 0, 2**32 - 1)

    base = draw()
    others = [draw(seed_=seed(6)), draw(game="8"), draw(n=2), draw(players="q")]

    assert base == draw()
    assert all(other != base for other in others)
    assert len(set(others)) == 4


def test_the_players_words_and_their_seats_change_p() -> None:
    words = [(1, "alpha"), (2, "beta")]
    p = fairdice.players_hash("7", words)

    assert fairdice.players_hash("7", list(reversed(words))) == p  # seat order, not list order
    assert fairdice.players_hash("7", [(1, "alpha"), (2, "beta ")]) != p
    assert fairdice.players_hash("7", [(1, "beta"), (2, "alpha")]) != p
    assert fairdice.players_hash("8", words) != p


@pytest.mark.parametrize("size", [1, 2, 3, 6, 42])
def test_sample_gives_a_permutation_drawing_one_number_a_card_but_the_last(size: int) -> None:
    deck = [f"card {i}" for i in range(size)]
    dice = stream(size)
    for _ in range(20):
        shuffled = dice.sample(deck, size)
        assert sorted(shuffled) == sorted(deck)
    assert dice.drawn == 20 * (size - 1)
    assert dice.ranges[: size - 1] == [(0, i) for i in range(size - 1, 0, -1)]


def test_sample_of_k_gives_k_distinct_cards_of_the_deck() -> None:
    deck = list("ABCDEFGH")
    dice = stream(9)
    for _ in range(20):
        hand = dice.sample(deck, 3)
        assert len(hand) == len(set(hand)) == 3 and set(hand) <= set(deck)
