"""Random sources: the engine draws every random number from one it is given.

A source is any object with ``randint(a, b)`` (``random.Random`` is one). The order in
which values are drawn is part of the contract: dice one by one, the attacker's first;
Fisher–Yates shuffles from the last index down (:func:`shuffle`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from .errors import RandomError

T = TypeVar("T")


class RandomSource(Protocol):
    def randint(self, a: int, b: int) -> int: ...


class ListRandom:
    """A fixed list of values, for tests and replays (K37).

    Each value is checked against the range asked for. Too few values or a value out of
    range raises :class:`RandomError`; the engine then restores the source's position
    (:meth:`mark`/:meth:`reset`), so a refused action consumes nothing. Surplus values
    are ignored (see :attr:`remaining`).
    """

    def __init__(self, values: Iterable[int]) -> None:
        self.values: tuple[int, ...] = tuple(values)
        self.position = 0

    def randint(self, a: int, b: int) -> int:
        if self.position >= len(self.values):
            raise RandomError(
                f"the random source has run out after {len(self.values)} values "
                f"(asked for one in {a}-{b})"
            )
        value = self.values[self.position]
        if isinstance(value, bool) or not isinstance(value, int) or not a <= value <= b:
            raise RandomError(f"random value #{self.position + 1} is {value!r}, not in {a}-{b}")
        self.position += 1
        return value

    @property
    def consumed(self) -> tuple[int, ...]:
        return self.values[: self.position]

    @property
    def remaining(self) -> tuple[int, ...]:
        return self.values[self.position :]

    def mark(self) -> int:
        return self.position

    def reset(self, mark: int) -> None:
        self.position = mark


class RecordingRandom:
    """Wraps a source and keeps every value it gave, for a game record (K37)."""

    def __init__(self, source: RandomSource) -> None:
        self.source = source
        self.drawn: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.source.randint(a, b)
        self.drawn.append(value)
        return value

    def take(self) -> list[int]:
        """The values drawn since the last ``take``."""
        drawn, self.drawn = self.drawn, []
        return drawn

    def mark(self) -> int:
        return len(self.drawn)

    def reset(self, mark: int) -> None:
        # A seeded generator cannot be wound back; only the record forgets.
        del self.drawn[mark:]


def shuffle(items: Sequence[T], rng: RandomSource) -> list[T]:
    """Fisher–Yates: for i from n − 1 down to 1, swap a[i] with a[randint(0, i)]."""
    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        j = rng.randint(0, i)
        a[i], a[j] = a[j], a[i]
    return a
