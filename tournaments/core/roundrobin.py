"""Round robin for small fields: every round's tables published before the first.

With two-player tables this is the circle method: everyone meets everyone once, and
with an odd field each player sits out once. With larger tables no schedule can make
every pair meet equally often in general, so one is built round by round (byes first,
to the players with the fewest; then the tables that seat together the pairs that have
met least, by a local search over swaps), then simulated annealing over swaps within
rounds lowers the sum of squared meeting counts; all that several times from the seed,
keeping the
most even: first the fewest pairs that never meet, then the smallest gap between the
pairs that meet most and least, then the least sum of squared meeting counts.

The default number of rounds is the fewest in which every pair meets at least once,
found by building schedules from (n - 1) / (table size - 1) rounds upwards.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .results import PlayerId
from .tables import FOURS_AND_THREES, TableSizes, split_field

MAX_FIELD = 16
STEPS_PER_ROUND = 1000
NEVER_MET = 4  # weighs a pair that never meets like two more meetings elsewhere


@dataclass(frozen=True)
class ScheduledRound:
    """One published round: its tables and the players sitting out."""

    number: int
    tables: tuple[tuple[PlayerId, ...], ...]
    byes: tuple[PlayerId, ...]


@dataclass(frozen=True)
class PairMeetings:
    first: PlayerId
    second: PlayerId
    times: int


@dataclass(frozen=True)
class Schedule:
    """The rounds, and how even they are: every pair's meetings, their least and most,
    and each player's byes."""

    rounds: tuple[ScheduledRound, ...]
    meetings: tuple[PairMeetings, ...]
    fewest_meetings: int
    most_meetings: int
    byes: tuple[tuple[PlayerId, int], ...]
    seed: int


def round_robin(
    players: Sequence[PlayerId],
    *,
    seed: int,
    rounds: int | None = None,
    sizes: TableSizes = FOURS_AND_THREES,
    attempts: int = 8,
) -> Schedule:
    """The schedule for ``players`` (see the module's text)."""
    n = len(players)
    if len(set(players)) != n or not 2 <= n <= MAX_FIELD:
        raise ValueError(f"a round robin has 2 to {MAX_FIELD} different players")
    if rounds is not None and rounds < 1:
        raise ValueError("a round robin has one round or more")
    rng = random.Random(seed)
    if sizes.allowed == (2,):
        plan = _circle(n, rounds)
    elif rounds is not None:
        plan = _best_of(n, rounds, sizes, rng, attempts)
    else:
        plan = _until_all_meet(n, sizes, rng, attempts)
    named = [
        ([[players[i] for i in t] for t in tables], [players[i] for i in out])
        for tables, out in plan
    ]
    return _schedule(players, named, seed)


Plan = list[tuple[list[list[int]], list[int]]]  # each round: tables, byes (by index)
Met = list[list[int]]  # meetings by index in the field


def _circle(n: int, rounds: int | None) -> Plan:
    """The circle method: one player fixed, the others turn one place a round; with an
    odd field, whoever meets the empty place sits out."""
    ring: list[int | None] = list(range(n)) + ([None] if n % 2 else [])
    count = len(ring) - 1
    plan: Plan = []
    for r in range(rounds if rounds is not None else count):
        turn = r % count
        order = [ring[0]] + ring[1:][turn:] + ring[1:][:turn]
        half = len(order) // 2
        tables, byes = [], []
        for a, b in zip(order[:half], reversed(order[half:]), strict=True):
            if a is None or b is None:
                byes.append(b if a is None else a)
            else:
                tables.append([a, b])
        plan.append((tables, [p for p in byes if p is not None]))
    return plan


def _until_all_meet(n: int, sizes: TableSizes, rng: random.Random, attempts: int) -> Plan:
    rounds = max(1, -(-(n - 1) // (sizes.preferred - 1)))
    while True:
        plan = _best_of(n, rounds, sizes, rng, attempts)
        if _evenness(n, plan)[0] == 0 or rounds >= n - 1:
            return plan
        rounds += 1


def _best_of(n: int, rounds: int, sizes: TableSizes, rng: random.Random, attempts: int) -> Plan:
    """The most even of several schedules built from the seed."""
    plans = [_build(n, rounds, sizes, rng) for _ in range(attempts)]
    return min(plans, key=lambda plan: _evenness(n, plan))


def _evenness(n: int, plan: Plan) -> tuple[int, int, int]:
    """(pairs that never meet, most minus fewest meetings, sum of squared meetings)."""
    met = _met(n, plan)
    counts = [met[a][b] for a, b in itertools.combinations(range(n), 2)]
    return counts.count(0), max(counts) - min(counts), sum(c * c for c in counts)


def _met(n: int, plan: Plan) -> Met:
    met = [[0] * n for _ in range(n)]
    for tables, _ in plan:
        _count(tables, met, 1)
    return met


def _count(tables: list[list[int]], met: Met, step: int) -> None:
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            met[a][b] += step
            met[b][a] += step


def _build(n: int, rounds: int, sizes: TableSizes, rng: random.Random) -> Plan:
    """One schedule of players 0..n-1: byes to those with the fewest, tables drawn,
    then annealed."""
    split = split_field(n, sizes)
    byes = [0] * n
    plan: Plan = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        order.sort(key=lambda p: byes[p])
        out = order[: split.byes]
        seated = order[split.byes :]
        tables, start = [], 0
        for size in split.tables:
            tables.append(seated[start : start + size])
            start += size
        for p in out:
            byes[p] += 1
        plan.append((tables, out))
    _anneal(plan, _met(n, plan), rng)
    return plan


def _anneal(plan: Plan, met: Met, rng: random.Random) -> None:
    """Simulated annealing over swaps of two players between tables of one round,
    lowering the sum of squared meeting counts (the most even schedule has the least)
    and the pairs that never meet, a worse swap taken now and then while the
    temperature is high, to leave local minima."""
    rounds = [tables for tables, _ in plan if len(tables) > 1]
    if not rounds:
        return
    steps = STEPS_PER_ROUND * len(plan)
    for step in range(steps):
        temperature = 2.0 * (0.005 ** (step / steps))
        tables = rng.choice(rounds)
        i, j = rng.sample(range(len(tables)), 2)
        t, u = tables[i], tables[j]
        a, b = rng.randrange(len(t)), rng.randrange(len(u))
        delta = _swap_delta(t, a, u, b, met)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            _move(t, a, u, b, met)


def _swap_delta(t: list[int], a: int, u: list[int], b: int, met: Met) -> int:
    """The change in the schedule's energy if t[a] and u[b] change tables: the sum of
    squared meetings, plus ``NEVER_MET`` for each pair that never meets."""
    x, y = t[a], u[b]
    mx, my = met[x], met[y]
    delta = 0
    for stay, gone, came in ((t, mx, my), (u, my, mx)):
        for p in stay:
            if p != x and p != y:
                delta += 2 + 2 * (came[p] - gone[p])  # c -> c - 1 with one, c -> c + 1
                delta += NEVER_MET * ((gone[p] == 1) - (came[p] == 0))
    return delta


def _move(t: list[int], a: int, u: list[int], b: int, met: Met) -> None:
    x, y = t[a], u[b]
    for stay, leaving, coming in ((t, x, y), (u, y, x)):
        for p in stay:
            if p != leaving:
                met[leaving][p] -= 1
                met[p][leaving] -= 1
                met[coming][p] += 1
                met[p][coming] += 1
    t[a], u[b] = y, x


def _schedule(players: Sequence[PlayerId], plan: Plan, seed: int) -> Schedule:
    index = {p: i for i, p in enumerate(players)}
    met = _met(len(players), [([[index[p] for p in t] for t in ts], []) for ts, _ in plan])
    rounds = tuple(
        ScheduledRound(
            number,
            tuple(tuple(sorted(t, key=index.__getitem__)) for t in tables),
            tuple(sorted(out, key=index.__getitem__)),
        )
        for number, (tables, out) in enumerate(plan, start=1)
    )
    pairs = tuple(
        PairMeetings(players[a], players[b], met[a][b])
        for a, b in itertools.combinations(range(len(players)), 2)
    )
    byes = Counter(p for _, out in plan for p in out)
    return Schedule(
        rounds=rounds,
        meetings=pairs,
        fewest_meetings=min(m.times for m in pairs),
        most_meetings=max(m.times for m in pairs),
        byes=tuple((p, byes[p]) for p in players),
        seed=seed,
    )
