"""Seat order and homes for each table, balanced over the event.

A home is what a seat is given at the start that the game's kind asks an event to
balance over its rounds (``GameKind.seat_roles``: World War 5's home continents, R4);
the homes are handed in, and a kind without them hands in none. A game may settle who
moves first in play (World War 5's start roll, R5), but a tournament may assign the
first player instead, and the seat order and the homes are the organiser's. So for each
table this picks:

- the seat order: seat 0, who moves first when the first player is assigned, to a
  player who has moved first least; then the least sum over the table of how often
  each player already sat in the seat they get;
- the homes: each player a different one, the least sum of how often each player
  already had the home they get, so no one gets a home again while the table can
  avoid it; among those, the homes most players at the table still lack, handed out
  first, so that later rounds are not left with several players who lack only the
  same one. Without homes, every seat's home is empty and costs nothing.

With ``first_by_roll`` the roll picks the first player, so seat positions carry no
advantage to balance: the seat order is drawn, and only the homes are balanced.
Equally good choices are drawn from the seed.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .results import PlayerId

T = TypeVar("T")


@dataclass(frozen=True)
class SeatRecord:
    """Where a player sat in an earlier game of the event: seat 0 first."""

    player: PlayerId
    seat: int
    home: str


@dataclass(frozen=True)
class Seat:
    """A seat at a table, with the history that chose it: how many times the player
    sat in this seat and had this home before (``seat_before`` is None when the roll
    picks the first player)."""

    player: PlayerId
    seat: int
    home: str
    seat_before: int | None
    home_before: int


@dataclass(frozen=True)
class SeatedTable:
    """A table's seats in seat order, and their costs (the sums of the ``_before``)."""

    seats: tuple[Seat, ...]
    seat_cost: int | None
    home_cost: int
    first_by_roll: bool


class SeatHistory:
    """How often each player sat in each seat and had each home."""

    def __init__(self, records: Iterable[SeatRecord] = ()) -> None:
        self.seats: Counter[tuple[PlayerId, int]] = Counter()
        self.homes: Counter[tuple[PlayerId, str]] = Counter()
        for r in records:
            self.add(r)

    def add(self, record: SeatRecord) -> None:
        self.seats[record.player, record.seat] += 1
        self.homes[record.player, record.home] += 1


def seat_round(
    tables: Sequence[Sequence[PlayerId]],
    history: Iterable[SeatRecord],
    *,
    seed: int,
    homes: Sequence[str],
    first_by_roll: bool = False,
) -> tuple[SeatedTable, ...]:
    """Seat every table of a round, in the order given, with one seeded draw; ``homes``:
    the kind's seat roles (none for a kind without them)."""
    rng = random.Random(seed)
    past = SeatHistory(history)
    return tuple(
        seat_table(t, past, rng=rng, homes=homes, first_by_roll=first_by_roll) for t in tables
    )


def seat_table(
    players: Sequence[PlayerId],
    history: SeatHistory,
    *,
    rng: random.Random,
    homes: Sequence[str],
    first_by_roll: bool = False,
) -> SeatedTable:
    """One table's seat order and homes (see the module's text)."""
    too_many = bool(homes) and len(players) > len(homes)
    if len(set(players)) != len(players) or len(players) < 2 or too_many:
        most = f"2 to {len(homes)}" if homes else "2 or more"
        raise ValueError(f"a table seats {most} different players")
    if first_by_roll:
        drawn = list(players)
        rng.shuffle(drawn)
        order, seat_cost = tuple(drawn), None
    else:
        order, (_, seat_cost) = _least(
            list(itertools.permutations(players)),
            lambda o: (history.seats[o[0], 0], sum(history.seats[p, s] for s, p in enumerate(o))),
            rng,
        )
    if homes:
        given, home_cost = _homes(order, history, homes, rng)
    else:
        given, home_cost = ("",) * len(order), 0
    seats = tuple(
        Seat(
            player=p,
            seat=s,
            home=given[s],
            seat_before=None if first_by_roll else history.seats[p, s],
            home_before=history.homes[p, given[s]] if homes else 0,
        )
        for s, p in enumerate(order)
    )
    return SeatedTable(seats, seat_cost, home_cost, first_by_roll)


def _homes(
    order: tuple[PlayerId, ...], history: SeatHistory, homes: Sequence[str], rng: random.Random
) -> tuple[tuple[str, ...], int]:
    """The homes of the seats in ``order``, and their cost (see the module's text)."""
    wanted = Counter(c for c in homes for p in order if not history.homes[p, c])
    given, (home_cost, _) = _least(
        list(itertools.permutations(homes, len(order))),
        lambda h: (
            sum(history.homes[p, c] for p, c in zip(order, h, strict=True)),
            -sum(wanted[c] for c in h),
        ),
        rng,
    )
    return given, home_cost


def _least(
    options: list[tuple[T, ...]],
    cost: Callable[[tuple[T, ...]], tuple[int, int]],
    rng: random.Random,
) -> tuple[tuple[T, ...], tuple[int, int]]:
    """The cheapest option, drawn among equals."""
    costs = [cost(o) for o in options]
    low = min(costs)
    return rng.choice([o for o, c in zip(options, costs, strict=True) if c == low]), low
